/**
 * The Dockerfile built as Docker would, without a daemon (test/deploy/image.test.ts):
 * - the build context is the checkout as .dockerignore leaves it;
 * - each stage's filesystem is a directory; FROM an earlier stage starts from a copy of it, FROM
 *   the Node image from the host's /usr and /etc (Debian bookworm with Node 20, the image's base)
 *   lent read-only by a private mount namespace, with the image's `node` user (uid 1000);
 * - COPY copies exactly what it names, from the context or (--from) an earlier stage;
 * - RUN runs as written, by /bin/sh, chrooted into its stage as the stage's user, except the two
 *   install steps, which the host satisfies: `apt-get install` (the packages must be installed
 *   here) and `npm ci` (the packages package-lock.json locks for this platform, copied from the
 *   checkout's node_modules, which must hold them at those versions; `--omit=dev` leaves out the
 *   dev dependencies): the registry mirror here cannot serve npm ci, and a copy is faster.
 * Needs root (mount namespaces, chroot), as the test suite's system packages do.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

export interface Instruction { keyword: string; args: string; line: number }

/** Dockerfile instructions: comments and blank lines dropped, continuation lines joined. */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (!pending) start = i + 1;
    if (line.startsWith('#')) return;
    pending += `${line.replace(/\\$/, '').trim()} `;
    if (line.endsWith('\\')) return;
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(pending.trim())!;
    out.push({ keyword: keyword.toUpperCase(), args, line: start });
    pending = '';
  });
  assert.equal(pending, '', 'no dangling continuation line');
  return out;
}

export interface Stage { name: string; from: string; instructions: Instruction[] }

/** The stages, each FROM with the ARGs declared before the first FROM substituted. */
export function dockerStages(instructions: Instruction[]): Stage[] {
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'ARG' && !stages.length) {
      const [name, value = ''] = ins.args.split('=');
      args.set(name, value);
    } else if (ins.keyword === 'FROM') {
      const m = /^(\S+) AS (\S+)$/i.exec(ins.args);
      assert.ok(m, `line ${ins.line}: every stage is named`);
      const from = m[1].replace(/\$\{(\w+)\}/g, (_, name: string) => { assert.ok(args.has(name), `ARG ${name} declared`); return args.get(name)!; });
      stages.push({ name: m[2], from, instructions: [] });
    } else {
      assert.ok(stages.length, `line ${ins.line}: ${ins.keyword} before the first FROM`);
      stages.at(-1)!.instructions.push(ins);
    }
  }
  return stages;
}

/** Whether .dockerignore leaves a context path out: Docker's rules (root-relative globs, `**`, `!` re-includes, the last match wins, a match on a directory covers what is in it). */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((line) => {
    const include = line.startsWith('!');
    const pattern = posix.normalize(line.slice(include ? 1 : 0).trim()).replace(/^\/+|\/+$/g, '');
    const source = pattern.split(/(\*\*\/?|\*|\?)/).map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }).join('');
    return { include, regex: new RegExp(`^${source}$`) };
  });
  return (path) => {
    const parts = path.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) {
      if (prefixes.some((p) => rule.regex.test(p))) ignored = !rule.include;
    }
    return ignored;
  };
}

/** The build context: every file and symlink under `dir` that .dockerignore keeps, as relative paths. */
export function buildContext(dir: string): string[] {
  const rules = existsSync(join(dir, '.dockerignore')) ? readFileSync(join(dir, '.dockerignore'), 'utf8') : '';
  const ignored = dockerignore(rules);
  const reincludes = /^\s*!/m.test(rules);
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // an ignored directory is not walked unless a `!` rule could take something in it back
        if (!ignored(path) || reincludes) walk(path);
      } else if (!ignored(path)) {
        files.push(path);
      }
    }
  };
  walk('');
  return files.sort();
}

export interface Image {
  /** the final stage's filesystem */
  root: string;
  env: Record<string, string>;
  workdir: string;
  user: string;
  cmd: string[];
}

interface StageState extends Image { name: string }

const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** The user node:*-bookworm images add. */
const NODE_USER = { name: 'node', uid: 1000, gid: 1000, home: '/home/node' };

/** A word for /bin/sh, quoted. */
const sh = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export class ImageBuilder {
  private readonly stages = new Map<string, StageState>();
  private readonly context: Set<string>;
  private readonly passwd: string;
  private readonly group: string;

  /** `scratch` is emptied; each stage's filesystem, its logs and the volumes go there. */
  constructor(private readonly contextDir: string, private readonly scratch: string) {
    assert.equal(process.getuid?.(), 0, 'building the image needs root (mount namespaces, chroot)');
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    this.context = new Set(buildContext(contextDir));
    // the host's users, with uid 1000 being the image's `node`
    const withoutUid = (file: string, field: number) => readFileSync(file, 'utf8').split('\n').filter((l) => l && l.split(':')[field] !== String(NODE_USER.uid));
    this.passwd = join(scratch, 'passwd');
    this.group = join(scratch, 'group');
    writeFileSync(this.passwd, [...withoutUid('/etc/passwd', 2), `node:x:${NODE_USER.uid}:${NODE_USER.gid}::${NODE_USER.home}:/bin/bash`, ''].join('\n'));
    writeFileSync(this.group, [...withoutUid('/etc/group', 2), `node:x:${NODE_USER.gid}:`, ''].join('\n'));
  }

  /** Builds every stage in order; returns the last. */
  async build(dockerfile: string): Promise<Image> {
    let last: StageState | undefined;
    for (const stage of dockerStages(parseDockerfile(readFileSync(dockerfile, 'utf8')))) {
      last = this.fromImage(stage);
      for (const ins of stage.instructions) await this.apply(last, ins);
      this.stages.set(stage.name, last);
    }
    assert.ok(last, 'a stage');
    return last;
  }

  /** Runs `argv` in the image's filesystem as its user, with `volumes` (host directory → absolute path) mounted. */
  run(image: Image, argv: string[], options: { env?: Record<string, string>; volumes?: { source: string; target: string; readOnly?: boolean }[] } = {}): ChildProcess {
    const user = image.user === 'root' || image.user === '0' ? { uid: 0, gid: 0, home: '/root' } : NODE_USER;
    assert.ok(image.user === 'root' || image.user === '0' || image.user === NODE_USER.name, `USER ${image.user}: only root and node exist in the image`);
    const mounts = [
      ...['usr', 'etc'].map((d) => `mount --rbind /${d} ${sh(join(image.root, d))} && mount -o remount,bind,ro ${sh(join(image.root, d))}`),
      `mount --bind ${sh(this.passwd)} ${sh(join(image.root, 'etc/passwd'))}`,
      `mount --bind ${sh(this.group)} ${sh(join(image.root, 'etc/group'))}`,
      `mount --rbind /dev ${sh(join(image.root, 'dev'))}`,
      `mount -t proc proc ${sh(join(image.root, 'proc'))}`,
      ...(options.volumes ?? []).map(({ source, target, readOnly }) => {
        mkdirSync(join(image.root, target), { recursive: true });
        const at = sh(join(image.root, target));
        return `mount --bind ${sh(source)} ${at}${readOnly ? ` && mount -o remount,bind,ro ${at}` : ''}`;
      }),
    ];
    const enter = `exec chroot --userspec=${user.uid}:${user.gid} --groups=${user.gid} ${sh(image.root)} /bin/sh -c 'cd "$0" && exec "$@"' ${[image.workdir, ...argv].map(sh).join(' ')}`;
    return spawn('unshare', ['--mount', '--propagation', 'private', '--fork', '/bin/sh', '-c', `set -e; ${[...mounts, enter].join('; ')}`], {
      env: { PATH: IMAGE_PATH, HOME: user.home, ...image.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group: stopping it stops everything it started
      detached: true,
    });
  }

  private fromImage(stage: Stage): StageState {
    const root = join(this.scratch, 'stages', stage.name);
    const parent = this.stages.get(stage.from);
    if (parent) {
      execFileSync('cp', ['-a', parent.root, root]);
      return { ...parent, env: { ...parent.env }, name: stage.name, root };
    }
    const [, major, release] = /^node:(\d+)-(\w+)/.exec(stage.from) ?? [];
    assert.equal(major, process.versions.node.split('.')[0], `${stage.from}: the host's Node stands in for the image's`);
    assert.match(readFileSync('/etc/os-release', 'utf8'), new RegExp(`VERSION_CODENAME=${release}`), `${stage.from}: the host's Debian stands in for the image's`);
    // mount points for what the host lends, and what the image has of its own
    for (const dir of ['usr', 'etc', 'dev', 'proc', 'root', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
    chmodSync(join(root, 'tmp'), 0o1777);
    chmodSync(join(root, 'root'), 0o700);
    for (const link of ['bin', 'sbin', 'lib', 'lib64']) symlinkSync(`usr/${link}`, join(root, link));
    mkdirSync(join(root, NODE_USER.home), { recursive: true });
    chownSync(join(root, NODE_USER.home), NODE_USER.uid, NODE_USER.gid);
    return { name: stage.name, root, env: {}, workdir: '/', user: 'root', cmd: [] };
  }

  private async apply(stage: StageState, ins: Instruction): Promise<void> {
    const at = `${stage.name}, Dockerfile line ${ins.line}`;
    switch (ins.keyword) {
      case 'WORKDIR':
        stage.workdir = posix.resolve(stage.workdir, ins.args);
        mkdirSync(join(stage.root, stage.workdir), { recursive: true });
        return;
      case 'ENV':
        for (const [, name, value] of ins.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[name] = value.replace(/^"|"$/g, '');
        return;
      case 'USER':
        stage.user = ins.args;
        return;
      case 'CMD':
        stage.cmd = this.argv(ins.args);
        return;
      case 'COPY':
        this.copy(stage, ins.args, at);
        return;
      case 'RUN':
        await this.runStep(stage, ins.args, at);
        return;
      case 'ARG': case 'EXPOSE': case 'HEALTHCHECK': case 'LABEL':
        return;
      default:
        throw new Error(`${at}: ${ins.keyword} is not emulated`);
    }
  }

  private argv(args: string): string[] {
    return args.startsWith('[') ? JSON.parse(args) as string[] : ['/bin/sh', '-c', args];
  }

  private copy(stage: StageState, args: string, at: string): void {
    const words = args.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const paths = words.filter((w) => !w.startsWith('--'));
    const from = flags.map((f) => /^--from=(.+)$/.exec(f)?.[1]).find(Boolean);
    assert.equal(flags.length, from ? 1 : 0, `${at}: only --from is emulated (${flags.join(' ')})`);
    const sources = paths.slice(0, -1);
    const dest = posix.resolve(stage.workdir, paths.at(-1)!);
    const intoDir = paths.at(-1)!.endsWith('/') || sources.length > 1;
    for (const source of sources) {
      assert.doesNotMatch(source, /[*?[]/, `${at}: wildcards are not emulated`);
      if (from) {
        const other = this.stages.get(from);
        assert.ok(other, `${at}: --from=${from} is an earlier stage`);
        const path = join(other.root, source);
        assert.ok(existsSync(path), `${at}: ${source} not found in stage ${from}`);
        const target = join(stage.root, intoDir && !statSync(path).isDirectory() ? posix.join(dest, posix.basename(source)) : dest);
        mkdirSync(statSync(path).isDirectory() ? target : dirname(target), { recursive: true });
        // hard links: the stage copied from is finished, and nothing builds on it after
        execFileSync('cp', ['-al', statSync(path).isDirectory() ? `${path}/.` : path, target]);
        continue;
      }
      const name = posix.normalize(source).replace(/^(\.\/)+|\/+$/g, '');
      const files = name === '.' ? [...this.context] : [...this.context].filter((f) => f === name || f.startsWith(`${name}/`));
      assert.ok(files.length, `${at}: ${source} is not in the build context (missing, or left out by .dockerignore)`);
      for (const file of files) {
        const rest = file === name ? (intoDir ? posix.basename(file) : '') : file.slice(name === '.' ? 0 : name.length + 1);
        const target = join(stage.root, dest, rest);
        mkdirSync(dirname(target), { recursive: true });
        const path = join(this.contextDir, file);
        if (lstatSync(path).isSymbolicLink()) symlinkSync(readlinkSync(path), target);
        else copyFileSync(path, target);
      }
    }
  }

  private async runStep(stage: StageState, args: string, at: string): Promise<void> {
    const npmCi = /^npm ci((?: --[\w=-]+)*)$/.exec(args);
    if (npmCi) return this.installLocked(join(stage.root, stage.workdir), npmCi[1].includes('--omit=dev'), at);
    const aptGet = /apt-get install ((?:-\S+ )*)([\w.+ -]+?)(?: &&|$)/.exec(args);
    if (aptGet) {
      for (const pkg of aptGet[2].trim().split(/\s+/)) {
        let status = '';
        try { status = execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }); } catch { /* not known */ }
        assert.equal(status, 'install ok installed', `${at}: the Debian package ${pkg} stands in for the image's: apt-get install it`);
      }
      return;
    }
    const child = this.run(stage, this.argv(args));
    let output = '';
    child.stdout!.on('data', (d) => { output += d; });
    child.stderr!.on('data', (d) => { output += d; });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    writeFileSync(join(this.scratch, `${stage.name}.log`), output, { flag: 'a' });
    assert.equal(code, 0, `${at}: RUN ${args} exited ${code}:\n${output.slice(-4000)}`);
  }

  /**
   * The checkout's node_modules, copied once into the scratch directory; each `npm ci` hard-links
   * from this copy as npm does from its cache, so nothing run in a stage can touch the checkout's.
   */
  private packageCache(): string {
    const cache = join(this.scratch, 'package-cache', 'node_modules');
    if (!existsSync(cache)) {
      mkdirSync(dirname(cache), { recursive: true });
      execFileSync('cp', ['-a', realpathSync(join(this.contextDir, 'node_modules')), cache]);
    }
    return cache;
  }

  /** `npm ci`: what package-lock.json locks for this platform, from the checkout's node_modules. */
  private installLocked(dir: string, omitDev: boolean, at: string): void {
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
    const installed = this.packageCache();
    const wanted = new Set<string>();
    for (const [path, pkg] of Object.entries(lock.packages)) {
      if (!path || (omitDev && pkg.dev) || !forThisPlatform(pkg)) continue;
      assert.ok(!pkg.link, `${at}: ${path} is a link, not emulated`);
      const manifest = join(dirname(installed), path, 'package.json');
      const version = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : 'missing';
      assert.equal(version, pkg.version, `${at}: node_modules holds ${path} ${version}, package-lock.json locks ${pkg.version}: make install`);
      wanted.add(path);
    }
    execFileSync('cp', ['-al', installed, join(dir, 'node_modules')]);
    // what npm ci would not have put there: omitted or extraneous packages, links to them, the local install's own files
    const prune = (modules: string) => {
      for (const entry of readdirSync(join(dir, modules), { withFileTypes: true })) {
        const path = `${modules}/${entry.name}`;
        if (entry.name === '.bin') {
          for (const bin of readdirSync(join(dir, path))) {
            if (!existsSync(join(dir, path, bin))) rmSync(join(dir, path, bin));
          }
        } else if (entry.name.startsWith('.')) {
          rmSync(join(dir, path), { recursive: true });
        } else if (entry.name.startsWith('@')) {
          prune(path);
          if (!readdirSync(join(dir, path)).length) rmSync(join(dir, path), { recursive: true });
        } else if (!wanted.has(path)) {
          rmSync(join(dir, path), { recursive: true, force: true });
        } else if (existsSync(join(dir, path, 'node_modules'))) {
          prune(`${path}/node_modules`);
        }
      }
    };
    prune('node_modules');
  }
}

interface LockedPackage { version: string; dev?: boolean; link?: boolean; os?: string[]; cpu?: string[]; libc?: string[] }

/** npm's reading of a package's os, cpu and libc fields (`!` negates). */
function forThisPlatform(pkg: LockedPackage): boolean {
  const allows = (list: string[] | undefined, value: string) => {
    if (!list?.length) return true;
    if (list.includes(`!${value}`)) return false;
    const positive = list.filter((v) => !v.startsWith('!'));
    return !positive.length || positive.includes(value);
  };
  return allows(pkg.os, process.platform) && allows(pkg.cpu, process.arch) && allows(pkg.libc, 'glibc');
}
