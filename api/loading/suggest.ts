/**
 * The autocomplete files of a build (SUGGEST_FILES, contract/build.ts), checked and loaded: the
 * index's structure (contract/suggest-index.ts) and one suggestion line per entry in every locale,
 * checked on a load worker (load-worker.ts). Nothing is sorted or parsed element by element here:
 * the pipeline built and validated it all.
 */
import { SUGGEST_FILES } from '../../contract/build.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { decodeSuggestIndex, readSuggestIndex } from '../../contract/suggest-index.ts';
import { SuggestIndex, type SuggestLines } from '../catalog/suggest.ts';
import { ASCII } from '../catalog/json-bytes.ts';
import { isNullAt } from '../catalog/listing-lines.ts';
import { isObjectLine } from './ndjson.ts';

/**
 * The autocomplete's files checked (on a load worker): every line of each locale's file a JSON
 * object (or, past the first locale, `null`: the entry as in the first), the same count in every
 * locale, and the index's structure for that count; returns each locale's line starts, in LOCALES order.
 */
export function checkSuggestFiles(index: Buffer, perLocale: Buffer[]): Float64Array[] {
  const starts = LOCALES.map((l, k) => suggestLines(perLocale[k], SUGGEST_FILES.lines(l), k > 0).starts);
  const count = starts[0].length - 1;
  LOCALES.forEach((l, k) => {
    if (starts[k].length - 1 !== count) throw new Error(`${SUGGEST_FILES.lines(l)} has ${starts[k].length - 1} lines, ${SUGGEST_FILES.lines(LOCALES[0])} ${count}`);
  });
  try {
    decodeSuggestIndex(index, count);
  } catch (err) {
    throw new Error(`${SUGGEST_FILES.index}: ${(err as Error).message}`);
  }
  return starts;
}

/** The autocomplete of files checkSuggestFiles passed, with the line starts it returned. */
export function suggestIndexOf(index: Buffer, perLocale: Buffer[], starts: Float64Array[]): SuggestIndex {
  const lines = Object.fromEntries(LOCALES.map((l, k) => [l, { bytes: perLocale[k], starts: starts[k] }])) as Record<Locale, SuggestLines>;
  return new SuggestIndex(lines, readSuggestIndex(index));
}

/** The line starts of a suggest file, every line a JSON object, or `null` where `nulls`. */
export function suggestLines(bytes: Buffer, name: string, nulls: boolean): SuggestLines {
  const starts: number[] = [0];
  for (let j = bytes.indexOf(ASCII.newline), start = 0; j >= 0; start = j + 1, j = bytes.indexOf(ASCII.newline, start)) {
    if (!isObjectLine(bytes, start, j) && !(nulls && isNullAt(bytes, start, j))) {
      throw new Error(`${name}: line ${starts.length} is not a JSON object${nulls ? ' or null' : ''}`);
    }
    starts.push(j + 1);
  }
  if (starts[starts.length - 1] !== bytes.length) throw new Error(`${name} does not end with a newline`);
  return { bytes, starts: Float64Array.from(starts) };
}
