/**
 * The NDJSON files a build holds in memory (`cards|markers.<locale>.ndjson`; details stay on disk,
 * api/build/records.ts): line i belongs to listing i of listing-columns.bin. Loading checks their
 * structure, not each element against the contract (the pipeline did; the manifest's checksums
 * prove the bytes are the ones it checked):
 * exactly one line per listing, every line a JSON object (or `null` where allowed), the file
 * ending with its last line's newline.
 */
import { sitePathOffsets } from '../catalog/text.ts';

/**
 * An NDJSON file's bytes and line starts: line i is bytes [starts[i], starts[i + 1] - 1) (its
 * newline excluded); its site paths (sitePathOffsets) are sitePaths[firstSitePath[i]] onwards.
 */
export interface NdjsonLines { bytes: Buffer; starts: Float64Array; sitePaths: Float64Array; firstSitePath: Uint32Array }

const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, NEWLINE = 0x0a;

const NULL = Buffer.from('null');

/** The line starts and site paths of NDJSON bytes held in memory, each line checked. */
export function ndjsonLines(bytes: Buffer, name: string, nullable = false): NdjsonLines {
  const lineStarts: number[] = [0];
  for (let j = bytes.indexOf(NEWLINE), start = 0; j >= 0; start = j + 1, j = bytes.indexOf(NEWLINE, start)) {
    const isObject = j - start >= 2 && bytes[start] === OPEN_BRACE && bytes[j - 1] === CLOSE_BRACE;
    const isNull = nullable && j - start === 4 && bytes.subarray(start, j).equals(NULL);
    if (!isObject && !isNull) throw new Error(`${name}: line ${lineStarts.length} is not a JSON object${nullable ? ' or null' : ''}`);
    lineStarts.push(j + 1);
  }
  if (lineStarts[lineStarts.length - 1] !== bytes.length) throw new Error(`${name} does not end with a newline`);
  const starts = Float64Array.from(lineStarts);
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
