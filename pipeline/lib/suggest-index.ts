/**
 * The autocomplete, built once per build (SUGGEST_FILES, contract/build.ts): the entries in rank
 * order (weight desc, kind, slug) as the endpoint returns them, per locale, and suggest-index.bin
 * (contract/suggest-index.ts), everything the API's lookups need already sorted and tabulated.
 */
import { SUGGEST_FILES } from '../../contract/build.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { SUGGEST_KINDS, MAX_SUGGEST_LIMIT, type Suggestion } from '../../contract/market.ts';
import { decodeSuggestIndex, encodeSuggestIndex, SUGGEST_SHORT_PREFIX, type SuggestIndexData } from '../../contract/suggest-index.ts';
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

/** Writes SUGGEST_FILES, each validated first (the lines against the contract, the index by the check the API runs). */
export function writeSuggestFiles(writer: BuildWriter, sources: SuggestSource[]): number {
  const { ranked, data } = buildSuggestIndex(sources);
  for (const l of LOCALES) {
    const file = SUGGEST_FILES.lines(l);
    const validate = lineValidator(file, SUGGEST_FILES.lineSchema);
    const out = writer.openText(file);
    ranked.forEach((e, i) => {
      const s = suggestion(e, l);
      validate(s, i);
      out.write(`${JSON.stringify(s)}\n`);
    });
    out.close();
  }
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

  // Each short prefix: the entries of the names of the words it starts (a range of the sorted words).
  const prefixes = [...new Set(words.flatMap((w) => Array.from({ length: Math.min(w.length, SUGGEST_SHORT_PREFIX - 1) }, (_, k) => w.slice(0, k + 1))))].sort(byCodeUnits);
  const shortTotal = new Int32Array(prefixes.length);
  const tops: number[][] = [];
  let first = 0;
  prefixes.forEach((p, k) => {
    while (words[first] < p) first++;
    const ranks = new Set<number>();
    for (let w = first; w < words.length && words[w].startsWith(p); w++) for (const name of byWord.get(words[w])!) ranks.add(nameEntry[name]);
    shortTotal[k] = ranks.size;
    tops.push([...ranks].sort((a, b) => a - b).slice(0, MAX_SUGGEST_LIMIT));
  });
  const short = lists(tops);

  return {
    ranked,
    data: {
      words, postingStart: postings.start, postingNames: postings.items, nameEntry: Int32Array.from(nameEntry),
      nameWordStart: nameWords.start, nameWords: nameWords.items, weightStart,
      deletionStart: deletions.start, deletionWords: deletions.items,
      shortPrefixes: prefixes, shortTotal, shortTopStart: short.start, shortTop: short.items,
    },
  };
}

/** Lists of numbers as one flat array and where each starts. */
function lists(xs: number[][]): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(xs.length + 1);
  xs.forEach((x, k) => { start[k + 1] = start[k] + x.length; });
  const items = new Int32Array(start[xs.length]);
  xs.forEach((x, k) => items.set(x, start[k]));
  return { start, items };
}
