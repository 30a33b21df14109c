/**
 * The releases beside a build (`<dist>/releases/<releaseId>/`, written by the pipeline, never
 * rewritten), listed once per build load: every release directory's datapackage.json is read and
 * checked (its schema, its id, its files' names, and for a release named by its content, that its
 * hashes make its id); a directory without a valid one is skipped and named in `skipped`, never
 * failing the others. A release file is checked against its datapackage's sha256 and size the
 * first time it is asked for (those of the build's own release from the load on), and each
 * compressed sibling by decoding it to the same sha256; then it is streamed from its open handle
 * (checked-file.ts). Releases change only when a build is published, which loads a new list.
 */
import { open, readdir, readFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  encodedName, isPrecompressed, PRECOMPRESSED, RELEASE_DATAPACKAGE, RELEASE_ID_PATTERN, releaseId, releasePath, RELEASES_DIR, ReleasePackageSchema,
  type ContentEncoding, type ReleasePackage,
} from '../../contract/research.ts';
import { CheckedFile, etagOfDigest, type Representation } from './checked-file.ts';
import { digestOf } from './digests.ts';
import { DamagedFileError } from './records.ts';

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A release id named by its content (not by the build that made it, as the first releases were). */
const CONTENT_NAMED = /^\d{4}-\d{2}-\d{2}-[0-9a-f]+$/;

/** Where the releases of a build directory are: `<dist>/releases` beside `<dist>/builds/<id>`. */
export function releasesDir(buildDir: string): string {
  const parent = dirname(buildDir);
  return join(basename(parent) === 'builds' ? dirname(parent) : parent, RELEASES_DIR);
}

/** The datapackage of one release directory, checked; throws saying what is wrong. */
async function readPackage(dir: string, id: string): Promise<ReleasePackage> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, id, RELEASE_DATAPACKAGE), 'utf8'));
  } catch (err) {
    throw new Error(`${RELEASE_DATAPACKAGE} unreadable: ${(err as Error).message}`);
  }
  const parsed = ReleasePackageSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${RELEASE_DATAPACKAGE} invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const pkg = parsed.data;
  if (pkg.version !== id) throw new Error(`${RELEASE_DATAPACKAGE} names release ${pkg.version}`);
  for (const r of pkg.resources) {
    const name = r.path.split('/').pop()!;
    if (!FILE_NAME.test(name) || r.path !== releasePath(id, name)) throw new Error(`${RELEASE_DATAPACKAGE} lists ${JSON.stringify(r.path)}, not a file of the release`);
  }
  if (CONTENT_NAMED.test(id)) {
    const hashes = new Map(pkg.resources.map((r) => [r.path.split('/').pop()!, r.hash.slice('sha256:'.length)]));
    const named = releaseId(pkg.asOf, (file) => hashes.get(file) ?? '');
    if (named !== id) throw new Error(`its files' hashes make release ${named}`);
  }
  return pkg;
}

/**
 * A file of a release, opened, stamped and checked to hold (or, for a sibling, to decode to) the
 * bytes its datapackage pins; undefined when a sibling is absent.
 */
async function openChecked(path: string, name: string, pinned: { hash: string; bytes: number }, encoding?: ContentEncoding): Promise<CheckedFile | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if (encoding && (err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DamagedFileError(name, 'the file', `unreadable: ${(err as Error).message}`);
  }
  const verify = async (handle: FileHandle) => {
    const found = await digestOf({ fd: handle.fd, encoding }).catch((err: Error) => {
      throw new DamagedFileError(name, 'the file', `unreadable: ${err.message}`);
    });
    if (found.hash !== pinned.hash || found.bytes !== pinned.bytes) {
      throw new DamagedFileError(name, 'the file', `${encoding ? 'decodes to' : 'holds'} ${found.bytes} bytes of ${found.hash}, not the datapackage's ${pinned.bytes} of ${pinned.hash}`);
    }
  };
  try {
    const stamp = await fh.stat();
    await verify(fh);
    return CheckedFile.checked(name, fh, stamp, verify);
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err instanceof DamagedFileError ? err : new DamagedFileError(name, 'the file', (err as Error).message);
  }
}

/** Where a release left out, or a compressed sibling found damaged, is reported. */
export interface ReleaseLog { error(obj: object, msg: string): void }

export class Releases {
  /** each release file's representations once checked, by `<id>/<file>` */
  private readonly checked = new Map<string, Promise<Representation[]>>();
  /** every file opened, closed with the build */
  private readonly opened: CheckedFile[] = [];
  private readonly byId: Map<string, ReleasePackage>;

  private constructor(
    private readonly dir: string,
    private readonly log: ReleaseLog | undefined,
    /** newest data first (by asOf; releases of the same data date by id) */
    readonly packages: ReleasePackage[],
    /** release directories left out, and why */
    readonly skipped: { id: string; reason: string }[],
  ) {
    this.byId = new Map(packages.map((p) => [p.version, p]));
  }

  /** Lists the releases beside a build directory and starts checking the files of its own release. */
  static async open(buildDir: string, ownRelease: string, log?: ReleaseLog): Promise<Releases> {
    const dir = releasesDir(buildDir);
    const ids = (await readdir(dir).catch(() => [] as string[])).filter((name) => RELEASE_ID_PATTERN.test(name));
    const skipped: { id: string; reason: string }[] = [];
    const packages = (await Promise.all(ids.map((id) => readPackage(dir, id).catch((err: Error) => {
      skipped.push({ id, reason: err.message });
      return undefined;
    })))).filter((p) => p !== undefined);
    const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
    packages.sort((a, b) => newestFirst(a.asOf, b.asOf) || newestFirst(a.version, b.version));
    for (const { id, reason } of skipped) log?.error({ release: id, reason }, 'release directory skipped: it is not listed or served');
    const releases = new Releases(dir, log, packages, skipped);
    for (const r of releases.get(ownRelease)?.resources ?? []) releases.representations(ownRelease, r.path.split('/').pop()!)?.catch(() => undefined);
    return releases;
  }

  get(id: string): ReleasePackage | undefined {
    return this.byId.get(id);
  }

  /**
   * A release file in every representation checked so far (identity first); undefined when the
   * release lists no such file; rejects with DamagedFileError when the file does not hold its bytes.
   */
  representations(id: string, file: string): Promise<Representation[]> | undefined {
    const resource = this.byId.get(id)?.resources.find((r) => r.path === releasePath(id, file));
    if (!resource) return undefined;
    const key = `${id}/${file}`;
    let checking = this.checked.get(key);
    if (!checking) {
      checking = this.check(id, file, resource);
      // a file found damaged is checked again when next asked for: once repaired, it is served
      checking.catch(() => this.checked.delete(key));
      this.checked.set(key, checking);
    }
    return checking;
  }

  private async check(id: string, file: string, pinned: { hash: string; bytes: number }): Promise<Representation[]> {
    const path = join(this.dir, id, file);
    const identity = (await openChecked(path, `${RELEASES_DIR}/${id}/${file}`, pinned))!;
    const etag = etagOfDigest(pinned.hash.slice('sha256:'.length));
    const representations: Representation[] = [{ etag, size: identity.size, open: () => identity.open() }];
    for (const { encoding } of isPrecompressed(file) ? PRECOMPRESSED : []) {
      // a damaged sibling is left out: the file is sent without it, never with it
      const sibling = await openChecked(encodedName(path, encoding), `${RELEASES_DIR}/${id}/${encodedName(file, encoding)}`, pinned, encoding).catch((err: Error) => {
        this.log?.error({ err, release: id }, 'damaged compressed release file left out');
        return undefined;
      });
      if (!sibling) continue;
      this.opened.push(sibling);
      representations.push({ encoding, etag: `${etag.slice(0, -1)}-${encoding}"`, size: sibling.size, open: () => sibling.open() });
    }
    this.opened.push(identity);
    return representations;
  }

  /** Closes every file opened, once the checks under way have ended. */
  async close(): Promise<void> {
    for (const checking of this.checked.values()) await checking.catch(() => undefined);
    for (const file of this.opened) await file.close();
  }
}
