import {
  close, closeSync, existsSync, fsync, fsyncSync, lstatSync, open, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, renameSync,
  rmSync, symlinkSync, unlinkSync, writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileDigester, fileDigests, type FileDigests } from '../../contract/file-digests.ts';
import { BuildError } from './errors.ts';

const WRITE_BUFFER_BYTES = 4 << 20;

/**
 * Writes the files of one build into its temporary directory, taking the digests of each (sha256 and
 * xxh64: contract/file-digests.ts) and fsyncing it. A file's
 * fsync runs on the thread pool once it is written, while the build goes on (in line, each
 * blocked the thread that wrote it); `synced()` awaits them all before the build is published.
 */
export class BuildWriter {
  /** each file's digests, by name */
  readonly files: Record<string, FileDigests> = {};
  private readonly syncs: Promise<void>[] = [];
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** fsyncs and closes fd on the thread pool; synced() awaits it */
  private syncAndClose(fd: number): void {
    this.track(fsyncAndClose(fd));
  }

  private track(sync: Promise<void>): void {
    sync.catch(() => undefined); // awaited by synced()
    this.syncs.push(sync);
  }

  /** Every file written so far is on disk (fsynced). */
  async synced(): Promise<void> {
    await Promise.all(this.syncs);
  }

  private open(name: string) {
    const fd = openSync(path.join(this.dir, name), 'w');
    const hash = fileDigester();
    // text is encoded straight into one reused buffer (no joined strings, no per-chunk buffers)
    const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
    let used = 0;
    /** bytes written so far (flushed or buffered) */
    let bytes = 0;
    const flush = () => {
      if (used === 0) return;
      const chunk = buffer.subarray(0, used);
      hash.update(chunk);
      let offset = 0;
      while (offset < used) offset += writeSync(fd, chunk, offset);
      used = 0;
    };
    return {
      write: (text: string) => {
        // a UTF-16 code unit takes at most 3 bytes in UTF-8
        if (used + text.length * 3 > buffer.length) {
          flush();
          if (text.length * 3 > buffer.length) {
            const big = Buffer.from(text, 'utf8');
            bytes += big.length;
            hash.update(big);
            let offset = 0;
            while (offset < big.length) offset += writeSync(fd, big, offset);
            return;
          }
        }
        const n = buffer.write(text, used, 'utf8');
        used += n;
        bytes += n;
      },
      bytes: () => bytes,
      close: () => {
        flush();
        this.syncAndClose(fd);
        this.files[name] = hash.digest();
      },
    };
  }

  /** JSON, compact, one trailing newline; arrays are streamed element by element. */
  writeJson(name: string, value: unknown): void {
    const out = this.open(name);
    if (Array.isArray(value)) {
      out.write('[');
      value.forEach((item, i) => out.write((i === 0 ? '' : ',') + JSON.stringify(item)));
      out.write(']\n');
    } else {
      out.write(`${JSON.stringify(value)}\n`);
    }
    out.close();
  }

  /** A file written piece by piece: `write` appends text, `close` hashes and fsyncs it. */
  openText(name: string): { write(text: string): void; close(): void } {
    const { write, close } = this.open(name);
    return { write, close };
  }

  writeText(name: string, text: string): void {
    const out = this.open(name);
    out.write(text);
    out.close();
  }

  /** Where a file written by another hand (DuckDB's COPY) goes. */
  pathOf(name: string): string {
    return path.join(this.dir, name);
  }

  /** Lists a file another hand wrote at pathOf(name) (DuckDB's COPY): hashes its bytes and fsyncs it. */
  adopt(name: string): void {
    const fd = openSync(path.join(this.dir, name), 'r');
    let hashed = false;
    try {
      const hash = fileDigester();
      const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
      for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) hash.update(buffer.subarray(0, n));
      this.files[name] = hash.digest();
      hashed = true;
    } finally {
      if (hashed) this.syncAndClose(fd);
      else closeSync(fd);
    }
  }

  /** Lists a file another hand wrote at pathOf(name) and hashed (DuckDB's COPY, hashed by the output checker): fsyncs it. */
  addWritten(name: string, digests: FileDigests): void {
    this.files[name] = digests;
    this.track(openToSync(path.join(this.dir, name)).then(fsyncAndClose));
  }

  writeBytes(name: string, bytes: Uint8Array): void {
    const fd = openSync(path.join(this.dir, name), 'w');
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.syncAndClose(fd);
    this.files[name] = fileDigests(bytes);
  }
}

const fsyncAndClose = (fd: number) => new Promise<void>((resolve, reject) => {
  fsync(fd, (err) => close(fd, (closeErr) => (err || closeErr ? reject(err ?? closeErr) : resolve())));
});

const openToSync = (file: string) => new Promise<number>((resolve, reject) => {
  open(file, 'r', (err, fd) => (err ? reject(err) : resolve(fd)));
});

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<UTC time to the millisecond>-<pid>`: sorts chronologically, unique per process. */
export function newBuildId(now: Date, pid = process.pid): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${pid}`;
}

const pidOfTemp = (name: string): number => Number(name.replace(/\.tmp$/, '').split('-').pop());

/** Removes what a killed build left behind: temporary build directories and symlinks of dead processes. */
export function removeStaleTemporaries(distDir: string): string[] {
  const removed: string[] = [];
  const buildsDir = path.join(distDir, 'builds');
  if (existsSync(buildsDir)) {
    for (const name of readdirSync(buildsDir)) {
      if (name.endsWith('.tmp') && !isAlive(pidOfTemp(name))) {
        rmSync(path.join(buildsDir, name), { recursive: true, force: true });
        removed.push(`builds/${name}`);
      }
    }
  }
  if (existsSync(distDir)) {
    for (const name of readdirSync(distDir)) {
      const m = /^current\.tmp-(\d+)$/.exec(name);
      if (m && !isAlive(Number(m[1]))) {
        rmSync(path.join(distDir, name), { force: true });
        removed.push(name);
      }
    }
  }
  return removed;
}

/** The build `dist/current` points to, or null. */
export function currentBuildId(distDir: string): string | null {
  const link = path.join(distDir, 'current');
  try {
    if (!lstatSync(link).isSymbolicLink()) throw new BuildError('bad_dist', `${link} exists but is not a symlink`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return path.basename(readlinkSync(link));
}

export function readCurrentManifest(distDir: string): { rowCounts?: Record<string, number> } | null {
  const file = path.join(distDir, 'current', 'manifest.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Renames the finished temporary directory into place, then swaps `current` with one rename(2). */
export function publishBuild(distDir: string, buildId: string, tmpDir: string): string {
  const buildsDir = path.join(distDir, 'builds');
  const finalDir = path.join(buildsDir, buildId);
  fsyncDir(tmpDir);
  renameSync(tmpDir, finalDir);
  fsyncDir(buildsDir);
  currentBuildId(distDir); // refuses a `current` that is not a symlink
  const tmpLink = path.join(distDir, `current.tmp-${process.pid}`);
  rmSync(tmpLink, { force: true });
  symlinkSync(path.join('builds', buildId), tmpLink);
  try {
    renameSync(tmpLink, path.join(distDir, 'current'));
  } catch (err) {
    try { unlinkSync(tmpLink); } catch { /* already gone */ }
    throw err;
  }
  fsyncDir(distDir);
  return finalDir;
}

/** Keeps the newest `keep` builds and the one `current` points to; returns the removed ids. */
export function pruneBuilds(distDir: string, keep: number): string[] {
  const buildsDir = path.join(distDir, 'builds');
  const current = currentBuildId(distDir);
  const builds = readdirSync(buildsDir).filter((n) => !n.endsWith('.tmp')).sort().reverse();
  const removed: string[] = [];
  builds.forEach((id, index) => {
    if (index < keep || id === current) return;
    rmSync(path.join(buildsDir, id), { recursive: true, force: true });
    removed.push(id);
  });
  return removed;
}
