/**
 * The autocomplete, built once per build (SUGGEST_FILES, contract/build.ts): the entries in rank
 * order (weight desc, kind, slug) as the endpoint returns them, per locale, and suggest-index.bin
 * (contract/suggest-index.ts), everything the API's lookups need already sorted and tabulated, and
 * the answers of the prefixes too short or too common to walk per request.
 */
import { SUGGEST_FILES } from '../../contract/build.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { SUGGEST_KINDS, MAX_SUGGEST_LIMIT, type Suggestion } from '../../contract/market.ts';
import { decodeSuggestIndex, encodeSuggestIndex, SUGGEST_HEAVY_POSTINGS, SUGGEST_SHORT_PREFIX, type SuggestIndexData } from '../../contract/suggest-index.ts';
import { SuggestMatcher } from '../../contract/suggest-search.ts';
import type { BuildWriter } from './publish.ts';
import { lineValidator } from './validate.ts';

/** An entry of the autocomplete: what it shows in every locale, and what finds and ranks it. */
export interface SuggestSource {
  kind: Suggestion['kind'];
  slug: string;
  label: Record<Locale, string>;
  sublabel: Record<Locale, string> | null;
  center: { lat: number; lng: number } | null;
  propertyCount: number | null;
  /** every name of the entry in every locale, its labels included, folded (contract/fold.ts) and distinct */
  foldedNames: string[];
  /** larger places rank first: listings for places and operators, 1 for spaces */
  weight: number;
}

/** An entry as the endpoint returns it, in one locale. */
export function suggestion(e: SuggestSource, l: Locale): Suggestion {
  const s: Suggestion = { kind: e.kind, slug: e.slug, label: e.label[l] };
  if (e.sublabel) s.sublabel = e.sublabel[l];
  if (e.center) s.center = e.center;
  if (e.propertyCount !== null) s.propertyCount = e.propertyCount;
  return s;
}

/**
 * An entry's line in each locale's file, in LOCALES order: the entry as the endpoint returns it
 * there or, past the first locale, `null` where it is byte for byte the first's. `check` sees each
 * locale's entry first.
 */
export function suggestFileLines(e: SuggestSource, check?: (s: Suggestion, l: Locale) => void): string[] {
  let first = '';
  return LOCALES.map((l, k) => {
    const s = suggestion(e, l);
    check?.(s, l);
    const line = JSON.stringify(s);
    if (k === 0) first = line;
    return k > 0 && line === first ? 'null' : line;
  });
}

/** Writes SUGGEST_FILES, each validated first (the lines against the contract, the index by the check the API runs). */
export function writeSuggestFiles(writer: BuildWriter, sources: SuggestSource[]): number {
  const { ranked, data } = buildSuggestIndex(sources);
  const validators = Object.fromEntries(LOCALES.map((l) => [l, lineValidator(SUGGEST_FILES.lines(l), SUGGEST_FILES.lineSchema)]));
  const outs = LOCALES.map((l) => writer.openText(SUGGEST_FILES.lines(l)));
  ranked.forEach((e, i) => {
    suggestFileLines(e, (s, l) => validators[l](s, i)).forEach((line, k) => outs[k].write(`${line}\n`));
  });
  for (const out of outs) out.close();
  const bytes = encodeSuggestIndex(data);
  decodeSuggestIndex(bytes, ranked.length);
  writer.writeBytes(SUGGEST_FILES.index, bytes);
  return ranked.length;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The entries in rank order and the index over them. */
export function buildSuggestIndex(sources: SuggestSource[]): { ranked: SuggestSource[]; data: SuggestIndexData } {
  const ranked = [...sources].sort((a, b) => b.weight - a.weight
    || SUGGEST_KINDS.indexOf(a.kind) - SUGGEST_KINDS.indexOf(b.kind) || byCodeUnits(a.slug, b.slug));
  const weightStart = new Int32Array(ranked.length);
  for (let r = 1; r < ranked.length; r++) weightStart[r] = ranked[r].weight === ranked[r - 1].weight ? weightStart[r - 1] : r;

  const nameEntry: number[] = [];
  const nameWordLists: string[][] = [];
  const byWord = new Map<string, number[]>();
  ranked.forEach((e, rank) => {
    for (const name of e.foldedNames) {
      const id = nameEntry.length;
      nameEntry.push(rank);
      const words = [...new Set(name.split(' '))];
      nameWordLists.push(words);
      for (const w of words) {
        let list = byWord.get(w);
        if (!list) byWord.set(w, (list = []));
        list.push(id);
      }
    }
  });
  const words = [...byWord.keys()].sort(byCodeUnits);
  const wordId = new Map(words.map((w, i) => [w, i]));
  const postings = lists(words.map((w) => byWord.get(w)!));
  const nameWords = lists(nameWordLists.map((ws) => ws.map((w) => wordId.get(w)!)));

  const longest = words.reduce((n, w) => Math.max(n, w.length), 0);
  const blocks: number[][] = [];
  for (let i = 0; i < longest; i++) {
    const block: { id: number; key: string }[] = [];
    words.forEach((w, id) => { if (w.length > i) block.push({ id, key: w.slice(0, i) + w.slice(i + 1) }); });
    block.sort((a, b) => byCodeUnits(a.key, b.key) || a.id - b.id);
    blocks.push(block.map((x) => x.id));
  }
  const deletions = lists(blocks);

  const index: SuggestIndexData = {
    words, postingStart: postings.start, postingNames: postings.items, nameEntry: Int32Array.from(nameEntry),
    nameWordStart: nameWords.start, nameWords: nameWords.items, weightStart,
    deletionStart: deletions.start, deletionWords: deletions.items,
    answeredPrefixes: [], answerTotal: new Int32Array(0), answerTopStart: new Int32Array(1), answerTop: new Int32Array(0),
  };
  // The answered prefixes' answers are the walks the API would otherwise do (typo matches included).
  const matcher = new SuggestMatcher(index);
  const answeredPrefixes = prefixesToAnswer(words, matcher);
  const answers = answeredPrefixes.map((p) => matcher.walk([p], MAX_SUGGEST_LIMIT));
  const tops = lists(answers.map((a) => a.ranks));
  return {
    ranked,
    data: { ...index, answeredPrefixes, answerTotal: Int32Array.from(answers, (a) => a.total), answerTopStart: tops.start, answerTop: tops.items },
  };
}

/** Every prefix of a word shorter than SUGGEST_SHORT_PREFIX, and every longer one whose walk visits SUGGEST_HEAVY_POSTINGS postings; sorted. */
function prefixesToAnswer(words: string[], matcher: SuggestMatcher): string[] {
  const found: string[] = [];
  const longest = words.reduce((n, w) => Math.max(n, w.length), 0);
  for (let length = 1; length <= longest; length++) {
    // the words starting with one prefix are a run of the sorted words (shorter words are skipped)
    for (let w = 0; w < words.length;) {
      if (words[w].length < length) {
        w++;
        continue;
      }
      const p = words[w].slice(0, length);
      let end = w;
      while (end < words.length && words[end].startsWith(p)) end++;
      if (length < SUGGEST_SHORT_PREFIX || matcher.postingsWalked(p) >= SUGGEST_HEAVY_POSTINGS) found.push(p);
      w = end;
    }
  }
  return found.sort(byCodeUnits);
}

/** Lists of numbers as one flat array and where each starts. */
function lists(xs: number[][]): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(xs.length + 1);
  xs.forEach((x, k) => { start[k + 1] = start[k] + x.length; });
  const items = new Int32Array(start[xs.length]);
  xs.forEach((x, k) => items.set(x, start[k]));
  return { start, items };
}
