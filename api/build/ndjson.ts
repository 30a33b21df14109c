/**
 * The NDJSON files a build holds in memory (`cards|markers.<locale>.ndjson`; details stay on disk,
 * api/build/records.ts): line i belongs to listing i of listing-columns.json. Loading checks their structure, not each element against
 * the contract (the pipeline did; the manifest's checksums prove the bytes are the ones it checked):
 * exactly one line per listing, every line a JSON object (or `null` where allowed), the file
 * ending with its last line's newline.
 */
import { open } from 'node:fs/promises';
import { sitePathOffsets } from '../catalog/text.ts';

/**
 * An NDJSON file's bytes and line starts: line i is bytes [starts[i], starts[i + 1] - 1) (its
 * newline excluded); its site paths (sitePathOffsets) are sitePaths[firstSitePath[i]] onwards.
 */
export interface NdjsonLines { bytes: Buffer; starts: Float64Array; sitePaths: Float64Array; firstSitePath: Uint32Array }

const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, NEWLINE = 0x0a;

const NULL = Buffer.from('null');

/** Finds the line starts of NDJSON bytes that arrive in chunks, checking each line as it ends. */
export class NdjsonScanner {
  private readonly starts: number[] = [0];
  private seen = 0;
  private lastByte = -1;
  /** the first bytes (up to 4) of a line that began in an earlier chunk */
  private carried = Buffer.alloc(0);

  constructor(private readonly name: string, private readonly nullable = false) {}

  push(chunk: Buffer): void {
    let lineStart = this.starts[this.starts.length - 1] - this.seen; // in chunk; negative: began earlier
    if (lineStart < 0 && this.carried.length < 4) this.carried = Buffer.concat([this.carried, chunk.subarray(0, 4 - this.carried.length)]);
    for (let j = chunk.indexOf(NEWLINE); j >= 0; j = chunk.indexOf(NEWLINE, j + 1)) {
      const first = lineStart >= 0 ? chunk[lineStart] : this.carried[0];
      const last = j > 0 ? chunk[j - 1] : this.lastByte;
      const isObject = first === OPEN_BRACE && last === CLOSE_BRACE && j - lineStart >= 2;
      const isNull = this.nullable && j - lineStart === 4 && (lineStart >= 0 ? chunk.subarray(lineStart, j) : this.carried).equals(NULL);
      if (!isObject && !isNull) throw new Error(`${this.name}: line ${this.starts.length} is not a JSON object${this.nullable ? ' or null' : ''}`);
      this.starts.push(this.seen + j + 1);
      lineStart = j + 1;
    }
    if (lineStart >= 0) this.carried = Buffer.from(chunk.subarray(lineStart, lineStart + 4));
    if (chunk.length) this.lastByte = chunk[chunk.length - 1];
    this.seen += chunk.length;
  }

  /** The line starts, with the end of the file after the last. */
  finish(): Float64Array {
    if (this.seen !== this.starts[this.starts.length - 1]) throw new Error(`${this.name} does not end with a newline`);
    return Float64Array.from(this.starts);
  }
}

/** The line starts and site paths of NDJSON bytes held in memory. */
export function ndjsonLines(bytes: Buffer, name: string, nullable = false): NdjsonLines {
  const scanner = new NdjsonScanner(name, nullable);
  scanner.push(bytes);
  const starts = scanner.finish();
  const sitePaths = sitePathOffsets(bytes);
  const firstSitePath = new Uint32Array(starts.length);
  for (let i = 0, k = 0; i < starts.length; i++) {
    while (k < sitePaths.length && sitePaths[k] < starts[i]) k++;
    firstSitePath[i] = k;
  }
  return { bytes, starts, sitePaths, firstSitePath };
}

/** Every file has one line per listing. */
export function checkLineCount(name: string, lines: { starts: Float64Array }, listings: number): void {
  const count = lines.starts.length - 1;
  if (count !== listings) throw new Error(`${name} has ${count} lines for ${listings} listings`);
}

/** A whole file, read with one request to the thread pool (fs.readFile reads in small steps). */
export async function readWhole(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const buf = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await fh.read(buf, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === size ? buf : buf.subarray(0, filled);
  } finally {
    await fh.close();
  }
}
