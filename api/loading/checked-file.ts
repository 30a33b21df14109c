/**
 * Files served as they are, streamed from disk (the research downloads: up to 60 MB each at
 * 100,000 spaces, never read whole per request).
 *
 * Damage is caught this way: a file's bytes are hashed once (the build's at load, against the
 * manifest; a release's when first asked for, against its datapackage), through the handle that
 * stays open, and the file's stamp (inode, size, mtime, ctime) is taken then. Each response checks
 * the stamp with one fstat before its first byte and again before its last chunk: whatever
 * rewrites, truncates or replaces the file through the file system changes the stamp (ctime cannot
 * be set back), so a changed file is hashed again before it is served: refused with a 500 unless
 * it holds its published bytes again (repaired), and one changed during a download ends that
 * download with an error, never with the changed bytes complete. Hashing every byte per
 * request would prove more (a disk's silent corruption) at a CPU cost per download that the
 * precompressed siblings exist to avoid; what the stamp cannot see is left to the file system.
 */
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { PassThrough, Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ContentEncoding } from '../../contract/research.ts';
import { DamagedFileError } from './records.ts';

/** One representation of a body: its encoding (none: identity), strong tag, size and bytes. */
export interface Representation {
  encoding?: ContentEncoding;
  etag: string;
  size: number;
  /** its bytes, checked unchanged first (rejects with DamagedFileError) */
  open(): Promise<Readable>;
}

/** A body streamed from disk, in every representation on offer (the identity one among them). */
export interface FileBody {
  contentType: string;
  headers?: Record<string, string>;
  representations: Representation[];
}

/** The strong ETag of a file whose digest (xxh64, or sha256) the manifest gives: no byte read. */
export const etagOfDigest = (hex: string): string => `"${Buffer.from(hex.slice(0, 16), 'hex').toString('base64url')}"`;

type Stamp = Pick<Stats, 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

const stampOf = ({ ino, size, mtimeMs, ctimeMs }: Stats): Stamp => ({ ino, size, mtimeMs, ctimeMs });
const sameStamp = (a: Stamp, b: Stamp) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** Checks the bytes behind a handle are the published ones; rejects with DamagedFileError if not. */
export type Verify = (fh: FileHandle) => Promise<void>;

export class CheckedFile {
  /** streams still reading the handle: close() waits for them */
  private reading = 0;
  private closing?: () => void;
  /** a check of the file's bytes under way, after its stamp changed */
  private rechecking?: Promise<void>;

  private constructor(readonly name: string, private readonly fh: FileHandle, private stamp: Stamp, private readonly verify: Verify) {}

  /**
   * A file whose bytes were just checked through `fh` (`stamp`: its fstat from before the check,
   * so a change during the check is seen at the first request); `verify` checks them again.
   */
  static checked(name: string, fh: FileHandle, stamp: Stats, verify: Verify): CheckedFile {
    return new CheckedFile(name, fh, stampOf(stamp), verify);
  }

  get size(): number {
    return this.stamp.size;
  }

  private async stampNow(): Promise<Stamp> {
    try {
      return stampOf(await this.fh.stat());
    } catch (err) {
      throw new DamagedFileError(this.name, 'the file', `unreadable: ${(err as Error).message}`);
    }
  }

  /** Whether the file is as it was checked; a change rejects with DamagedFileError. */
  private async unchanged(): Promise<void> {
    if (!sameStamp(await this.stampNow(), this.stamp)) throw new DamagedFileError(this.name, 'the file', 'changed on disk while it was sent');
  }

  /** The file as checked, or checked again once changed (taking its new stamp when it holds its bytes). */
  private async checkedNow(): Promise<void> {
    const now = await this.stampNow();
    if (sameStamp(now, this.stamp)) return;
    this.rechecking ??= this.verify(this.fh).then(() => { this.stamp = now; }).finally(() => { this.rechecking = undefined; });
    await this.rechecking;
  }

  /**
   * Bytes [start, end) of the file as a stream, its stamp checked first (a changed file is hashed
   * again, and rejects unless it holds its bytes) and again before the last chunk is passed on
   * (the stream then fails instead of ending).
   */
  async open(start = 0, end = this.size): Promise<Readable> {
    await this.checkedNow();
    if (end <= start) return Readable.from([]);
    this.reading++;
    const source = this.fh.createReadStream({ start, end: end - 1, autoClose: false, highWaterMark: 256 * 1024 });
    let held: Buffer | undefined;
    let count = 0;
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        count += chunk.length;
        const previous = held;
        held = chunk;
        done(null, previous);
      },
      flush: (done) => {
        this.unchanged().then(
          () => (count === end - start ? done(null, held) : done(new DamagedFileError(this.name, 'the file', `${count} bytes read of ${end - start}`))),
          done,
        );
      },
    });
    pipeline(source, guard).catch(() => undefined).finally(() => {
      if (--this.reading === 0) this.closing?.();
    });
    return guard;
  }

  /** Closes the handle once no stream reads it. */
  async close(): Promise<void> {
    if (this.reading > 0) await new Promise<void>((resolve) => { this.closing = resolve; });
    await this.fh.close().catch(() => undefined);
  }
}

/** Feeds every byte behind a handle (decoded first when `decode` is given) to `update`. */
export async function readThrough(fh: FileHandle, update: (chunk: Buffer) => void, decode?: Transform): Promise<void> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      update(chunk);
      done();
    },
  });
  const source = fh.createReadStream({ start: 0, autoClose: false, highWaterMark: 256 * 1024 });
  await (decode ? pipeline(source, decode, sink) : pipeline(source, sink));
}

/** Streams one after the other, as one stream (an envelope's head, a file's bytes, its tail). */
export function concatenated(parts: (Buffer | Readable)[]): Readable {
  const out = new PassThrough();
  (async () => {
    for (const part of parts) {
      if (Buffer.isBuffer(part)) out.write(part);
      else await pipeline(part, out, { end: false });
    }
    out.end();
  })().catch((err: Error) => out.destroy(err));
  return out;
}
