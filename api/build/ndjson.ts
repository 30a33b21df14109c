/**
 * The NDJSON files of a build (`cards|markers|details.<locale>.ndjson`): line i belongs to
 * listing i of listing-columns.json. Loading checks their structure, not each element against
 * the contract (the pipeline did; the manifest's checksums prove the bytes are the ones it checked):
 * exactly one line per listing, every line a JSON object (or `null` where allowed), the file
 * ending with its last line's newline.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** An NDJSON file's bytes and line starts: line i is bytes [starts[i], starts[i + 1] - 1) (its newline excluded). */
export interface NdjsonLines { bytes: Buffer; starts: Float64Array }

/** An NDJSON file left on disk, with its line starts: line i is read when served. */
export interface NdjsonFile { fh: FileHandle; starts: Float64Array }

const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, NEWLINE = 0x0a;

/** Finds the line starts of NDJSON bytes that arrive in chunks, checking each line as it ends. */
export class NdjsonScanner {
  private readonly starts: number[] = [0];
  private seen = 0;
  private lastByte = -1;
  /** the first bytes of the current line (up to 4, as latin1), enough to tell `{` and `null` */
  private head = '';

  constructor(private readonly name: string, private readonly listings: number, private readonly nullable = false) {}

  push(chunk: Buffer): void {
    let from = 0;
    if (this.head.length < 4) this.head += chunk.toString('latin1', 0, Math.min(chunk.length, 4 - this.head.length));
    for (let j = chunk.indexOf(NEWLINE); j >= 0; j = chunk.indexOf(NEWLINE, from)) {
      const end = this.seen + j;
      const lineStart = this.starts[this.starts.length - 1];
      const last = j > 0 ? chunk[j - 1] : this.lastByte;
      const isObject = this.head.charCodeAt(0) === OPEN_BRACE && last === CLOSE_BRACE;
      const isNull = this.nullable && end - lineStart === 4 && this.head === 'null';
      if (!isObject && !isNull) throw new Error(`${this.name}: line ${this.starts.length} is not a JSON object${this.nullable ? ' or null' : ''}`);
      if (this.starts.length > this.listings) throw new Error(`${this.name} has more lines than the ${this.listings} listings`);
      this.starts.push(end + 1);
      from = j + 1;
      this.head = chunk.toString('latin1', from, Math.min(chunk.length, from + 4));
    }
    if (chunk.length) this.lastByte = chunk[chunk.length - 1];
    this.seen += chunk.length;
  }

  /** The line starts, with the end of the file after the last. */
  finish(): Float64Array {
    if (this.seen !== this.starts[this.starts.length - 1]) throw new Error(`${this.name} does not end with a newline`);
    const lines = this.starts.length - 1;
    if (lines !== this.listings) throw new Error(`${this.name} has ${lines} lines for ${this.listings} listings`);
    return Float64Array.from(this.starts);
  }
}

/** The line starts of NDJSON bytes held in memory. */
export function ndjsonLines(bytes: Buffer, name: string, listings: number, nullable = false): NdjsonLines {
  const scanner = new NdjsonScanner(name, listings, nullable);
  scanner.push(bytes);
  return { bytes, starts: scanner.finish() };
}

/**
 * An NDJSON file checksummed and scanned in chunks (little memory whatever its size), then kept
 * open: the handle survives the build directory's removal.
 */
export async function openNdjson(path: string, name: string, sha256: string, listings: number, chunkBytes = 8 << 20): Promise<NdjsonFile> {
  const fh = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    const scanner = new NdjsonScanner(name, listings);
    const chunk = Buffer.allocUnsafe(chunkBytes);
    // a checksum mismatch is the first thing to report: the structure of other bytes says little
    let malformed: Error | undefined;
    for (let pos = 0; ;) {
      const { bytesRead } = await fh.read(chunk, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      const part = chunk.subarray(0, bytesRead);
      hash.update(part);
      if (!malformed) {
        try { scanner.push(part); } catch (err) { malformed = err as Error; }
      }
      pos += bytesRead;
    }
    if (hash.digest('hex') !== sha256) throw new Error(`${name} checksum mismatch`);
    if (malformed) throw malformed;
    return { fh, starts: scanner.finish() };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Line i of a file left on disk, as text. */
export async function readLine(file: NdjsonFile, i: number, name: string): Promise<string> {
  const start = file.starts[i], length = file.starts[i + 1] - 1 - start;
  const buf = Buffer.allocUnsafe(length);
  const { bytesRead } = await file.fh.read(buf, 0, length, start);
  if (bytesRead !== length) throw new Error(`short read in ${name}`);
  return buf.toString('utf8');
}
