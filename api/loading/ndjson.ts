/**
 * The NDJSON files a build holds in memory (`cards|markers.<locale>.ndjson`; details stay on disk,
 * api/loading/records.ts): line i belongs to listing i of listing-columns.bin. Loading checks their
 * structure, not each element against the contract (the pipeline did; the manifest's checksums
 * prove the bytes are the ones it checked): the line index the pipeline wrote beside each file
 * (contract/line-index.ts) checked against the bytes, every line a JSON object (or `null` where
 * allowed), the file ending with its last line's newline. The bytes are not scanned.
 */
import { decodeLineIndex, LineFault, type LineCheck } from '../../contract/line-index.ts';
import { ASCII } from '../catalog/json-bytes.ts';
import { isNullAt, type NdjsonLines } from '../catalog/listing-lines.ts';

/** Whether bytes [start, end) look like one JSON object (its braces; the pipeline checked the rest before it published). */
export const isObjectLine = (bytes: Buffer, start: number, end: number) =>
  end - start >= 2 && bytes[start] === ASCII.openBrace && bytes[end - 1] === ASCII.closeBrace;

const objectLine: LineCheck = (bytes, start, end) => (isObjectLine(bytes as Buffer, start, end) ? undefined : 'is not a JSON object');
const objectOrNullLine: LineCheck = (bytes, start, end) => (isObjectLine(bytes as Buffer, start, end) || isNullAt(bytes as Buffer, start, end) ? undefined : 'is not a JSON object or null');

/** What each line of a file held in memory must be: a JSON object, one or `null`, or any bytes (the parts of cards, CARD_FILES). */
export type LineKind = 'object' | 'objectOrNull' | 'part';
const LINE_CHECKS: Record<LineKind, LineCheck | undefined> = { object: objectLine, objectOrNull: objectOrNullLine, part: undefined };

/** The lines of NDJSON bytes held in memory, by their line index (`index`, the file's `.lines`), each line checked. */
export function ndjsonLines(bytes: Buffer, index: Buffer, name: string, kind: LineKind): NdjsonLines {
  if (bytes.length > 0 && bytes[bytes.length - 1] !== ASCII.newline) throw new Error(`${name} does not end with a newline`);
  try {
    return { bytes, ...decodeLineIndex(index, bytes, LINE_CHECKS[kind]) };
  } catch (err) {
    if (err instanceof LineFault) throw new Error(`${name}: ${err.message}`);
    throw new Error(`${name}: its line index does not fit it: ${(err as Error).message}`);
  }
}

/** Every file has one line per listing (card-parts.ndjson two). */
export function checkLineCount(name: string, lines: { starts: Float64Array }, listings: number, perListing = 1): void {
  const count = lines.starts.length - 1;
  if (count !== listings * perListing) throw new Error(`${name} has ${count} lines for ${listings} listings`);
}
