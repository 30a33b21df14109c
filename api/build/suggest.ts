/**
 * The autocomplete files of a build (SUGGEST_FILES, contract/build.ts), checked and loaded: the
 * index's structure (contract/suggest-index.ts) and one suggestion line per entry in every locale.
 * Nothing is sorted or parsed element by element here: the pipeline built and validated it all.
 */
import { SUGGEST_FILES } from '../../contract/build.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { decodeSuggestIndex } from '../../contract/suggest-index.ts';
import { SuggestIndex, type SuggestLines } from '../catalog/suggest.ts';

const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, NEWLINE = 0x0a;

/** `read` gives a build file's bytes, checked against the manifest. */
export async function loadSuggest(read: (name: string) => Promise<Buffer>): Promise<SuggestIndex> {
  const [index, ...perLocale] = await Promise.all([read(SUGGEST_FILES.index), ...LOCALES.map((l) => read(SUGGEST_FILES.lines(l)))]);
  let data;
  const lines = {} as Record<Locale, SuggestLines>;
  LOCALES.forEach((l, k) => { lines[l] = suggestLines(perLocale[k], SUGGEST_FILES.lines(l)); });
  const count = lines[LOCALES[0]].starts.length - 1;
  for (const l of LOCALES) if (lines[l].starts.length - 1 !== count) throw new Error(`${SUGGEST_FILES.lines(l)} has ${lines[l].starts.length - 1} lines, ${SUGGEST_FILES.lines(LOCALES[0])} ${count}`);
  try {
    data = decodeSuggestIndex(index, count);
  } catch (err) {
    throw new Error(`${SUGGEST_FILES.index}: ${(err as Error).message}`);
  }
  return new SuggestIndex(lines, data);
}

/** The line starts of a suggest file, every line a JSON object. */
export function suggestLines(bytes: Buffer, name: string): SuggestLines {
  const starts: number[] = [0];
  for (let j = bytes.indexOf(NEWLINE), start = 0; j >= 0; start = j + 1, j = bytes.indexOf(NEWLINE, start)) {
    if (!(j - start >= 2 && bytes[start] === OPEN_BRACE && bytes[j - 1] === CLOSE_BRACE)) throw new Error(`${name}: line ${starts.length} is not a JSON object`);
    starts.push(j + 1);
  }
  if (starts[starts.length - 1] !== bytes.length) throw new Error(`${name} does not end with a newline`);
  return { bytes, starts: Float64Array.from(starts) };
}
