/**
 * The line index of an NDJSON file the API holds in memory (`cards|markers.<locale>.ndjson`),
 * written by the pipeline beside it as `<name>.<locale>.lines` (LINE_INDEX_FILE) and listed with
 * its sha256 in the manifest: where each line starts and where the site paths are, so the API
 * does not scan the file's bytes at load.
 *
 * Layout, little-endian: the magic `DALI`, uint32 line count n, uint32 site path count m, four
 * zero bytes, then float64 starts[0..n] (line i is bytes [starts[i], starts[i + 1]), its newline
 * included; starts[n] is the file's length) and float64 sitePaths[0..m) (ascending: the offset of
 * the `/` each site path starts with, `"url":"/…"`, `"webUrl":"/…"`, `"methodologyUrl":"/…"`).
 */
export const LINE_INDEX_FILE = (ndjsonFile: string) => ndjsonFile.replace(/\.ndjson$/, '.lines');
const MAGIC = 'DALI';
const HEAD = 16;

export interface LineIndex { starts: Float64Array; sitePaths: Float64Array }

const NEWLINE = 0x0a;
const URL_KEY_TAIL = Buffer.from('rl":"/');
const endsWith = (bytes: Uint8Array, end: number, ascii: string) => {
  if (end < ascii.length) return false;
  for (let k = 0; k < ascii.length; k++) if (bytes[end - ascii.length + k] !== ascii.charCodeAt(k)) return false;
  return true;
};
/** Whether a site path starts at `slash` (`"url":"/…"` can only be a key and its value: quotes inside JSON strings are escaped). */
function isSitePath(bytes: Uint8Array, slash: number): boolean {
  const tail = slash - URL_KEY_TAIL.length + 1;
  if (tail < 2 || bytes[slash + 1] === 0x2f) return false; // `//host`: not a site path
  for (let k = 0; k < URL_KEY_TAIL.length; k++) if (bytes[tail + k] !== URL_KEY_TAIL[k]) return false;
  if (bytes[tail - 1] === 0x75) return bytes[tail - 2] === 0x22; // "url"
  return bytes[tail - 1] === 0x55 && (endsWith(bytes, tail, '"webU') || endsWith(bytes, tail, '"methodologyU'));
}

/** The line index of NDJSON bytes (the pipeline's, once it wrote the file). */
export function lineIndexOf(bytes: Buffer): LineIndex {
  const starts: number[] = [0];
  for (let j = bytes.indexOf(NEWLINE); j >= 0; j = bytes.indexOf(NEWLINE, j + 1)) starts.push(j + 1);
  if (starts[starts.length - 1] !== bytes.length) starts.push(bytes.length);
  return { starts: Float64Array.from(starts), sitePaths: sitePathOffsets(bytes) };
}

/** Where the site paths are in UTF-8 JSON bytes, found without decoding them: the offset of the `/` each starts with, ascending. */
export function sitePathOffsets(bytes: Buffer): Float64Array {
  const at: number[] = [];
  for (let k = bytes.indexOf(URL_KEY_TAIL); k >= 0; k = bytes.indexOf(URL_KEY_TAIL, k + URL_KEY_TAIL.length)) {
    const slash = k + URL_KEY_TAIL.length - 1;
    if (isSitePath(bytes, slash)) at.push(slash);
  }
  return Float64Array.from(at);
}

export function encodeLineIndex({ starts, sitePaths }: LineIndex): Buffer {
  const out = Buffer.alloc(HEAD + 8 * (starts.length + sitePaths.length));
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(starts.length - 1, 4);
  out.writeUInt32LE(sitePaths.length, 8);
  starts.forEach((v, k) => out.writeDoubleLE(v, HEAD + 8 * k));
  sitePaths.forEach((v, k) => out.writeDoubleLE(v, HEAD + 8 * (starts.length + k)));
  return out;
}

/** A line's bytes [start, end), its newline excluded, checked by the file's reader: why they fail, or undefined. */
export type LineCheck = (bytes: Uint8Array, start: number, end: number) => string | undefined;

/** A decoded line index, and where each line's site paths begin: line i's are sitePaths[firstSitePath[i]] onwards. */
export interface CheckedLineIndex extends LineIndex { firstSitePath: Uint32Array }

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The float64s of `index` from byte `at`: a view of its memory where it is aligned (the loader
 * holds the index file's bytes anyway), else a copy.
 */
function doubles(index: Buffer, at: number, count: number): Float64Array {
  if (LITTLE_ENDIAN && (index.byteOffset + at) % 8 === 0) return new Float64Array(index.buffer, index.byteOffset + at, count);
  const out = new Float64Array(count);
  new Uint8Array(out.buffer).set(index.subarray(at, at + 8 * count));
  return out;
}

/**
 * The line index of `bytes` (the NDJSON file it was written for), checked against them without
 * scanning them, in one walk of the lines and site paths (each line's bytes are touched once,
 * where it ends and the next starts): every line starts just after a newline and ends with one (the
 * last at the file's end) and passes `check`; every site path lies where a site path's key ends,
 * ascending, within the file. Throws on the first fault.
 */
export function decodeLineIndex(index: Buffer, bytes: Uint8Array, check?: LineCheck): CheckedLineIndex {
  if (index.length < HEAD || index.toString('latin1', 0, 4) !== MAGIC) throw new Error(`not a line index (no ${MAGIC} magic)`);
  const n = index.readUInt32LE(4), m = index.readUInt32LE(8);
  if (index.length !== HEAD + 8 * (n + 1 + m)) throw new Error(`${index.length} bytes for ${n} lines and ${m} site paths`);
  const starts = doubles(index, HEAD, n + 1), sitePaths = doubles(index, HEAD + 8 * (n + 1), m);
  if (starts[0] !== 0 || starts[n] !== bytes.length) throw new Error(`its lines span ${starts[0]}..${starts[n]}, the file ${bytes.length} bytes`);
  const firstSitePath = new Uint32Array(n + 1);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const start = starts[i], end = starts[i + 1];
    if (!(end > start) || bytes[end - 1] !== NEWLINE) throw new Error(`line ${i + 1} does not end with a newline where the index says`);
    const fault = check?.(bytes, start, end - 1);
    if (fault !== undefined) throw new LineFault(i, fault);
    firstSitePath[i] = k;
    for (; k < m && sitePaths[k] < end; k++) {
      const s = sitePaths[k];
      if (!(s >= start) || (k > 0 && !(s > sitePaths[k - 1])) || !isSitePath(bytes, s)) throw new Error(`site path ${k} (at byte ${s}) is not one`);
    }
  }
  firstSitePath[n] = k;
  if (k < m) throw new Error(`site path ${k} (at byte ${sitePaths[k]}) is not one`);
  return { starts, sitePaths, firstSitePath };
}

/** A line that fails its reader's check (decodeLineIndex): its index and why. */
export class LineFault extends Error {
  constructor(readonly line: number, readonly why: string) {
    super(`line ${line + 1} ${why}`);
  }
}
