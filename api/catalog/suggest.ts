/**
 * The autocomplete index (DESIGN.md §5, GET /v1/search/suggest), built once when a build loads.
 *
 * Every name of every entry, in every locale, is folded (contract/fold.ts: case, accents, ß → ss,
 * and the German transliterations ue/ae/oe → u/a/o, so `münchen` and `muenchen` fold alike) by the
 * pipeline; the index splits the folded names into words.
 * A query token matches a word it is a prefix of (exact), or, from 4 characters, a word with a
 * prefix at Damerau-Levenshtein distance 1 (typo; one per query). Every token of the query must
 * match a word of the same name. Exact matches rank above typo matches, then larger places first
 * (weight); among typo matches of one weight, the longer exact prefix before the edit first
 * (`munc`: Munich, a typo on its fourth letter, before Fuencarral, folded funcarral, a typo on its
 * first); then kind (country, city, zone, operator, property) and slug.
 */
import type { SuggestEntry } from '../../contract/build.ts';
import { fold } from '../../contract/fold.ts';
import type { Locale } from '../../contract/common.ts';
import { MAX_SUGGEST_LIMIT, type Suggestion } from '../../contract/market.ts';

export const MIN_TYPO_LENGTH = 4;
const KIND_ORDER: Record<SuggestEntry['kind'], number> = { country: 0, city: 1, zone: 2, operator: 3, property: 4 };

/** The words of a text as the index compares them. */
export const tokens = (text: string): string[] => {
  const f = fold(text);
  return f ? f.split(' ') : [];
};

/** Whether `t` equals `w.slice(wi, wi + t.length - ti)` from `ti` on. */
function matchesAt(w: string, wi: number, t: string, ti: number): boolean {
  if (w.length - wi < t.length - ti) return false;
  for (let k = 0; ti + k < t.length; k++) if (t.charCodeAt(ti + k) !== w.charCodeAt(wi + k)) return false;
  return true;
}

/**
 * 0 when `t` is a prefix of `w`; 1 when some prefix of `w` is at Damerau-Levenshtein (optimal
 * string alignment) distance 1 from `t`; otherwise 2. With one edit allowed, the edit can always
 * be placed at the first mismatch.
 */
export function prefixDistance(t: string, w: string): 0 | 1 | 2 {
  let i = 0;
  const n = Math.min(t.length, w.length);
  while (i < n && t.charCodeAt(i) === w.charCodeAt(i)) i++;
  if (i === t.length) return 0;
  if (i < w.length && matchesAt(w, i + 1, t, i + 1)) return 1; // substitution
  if (matchesAt(w, i, t, i + 1)) return 1; // an extra character in t
  if (i < w.length && matchesAt(w, i + 1, t, i)) return 1; // a missing character in t
  if (i + 1 < t.length && i + 1 < w.length && t.charCodeAt(i) === w.charCodeAt(i + 1)
    && t.charCodeAt(i + 1) === w.charCodeAt(i) && matchesAt(w, i + 2, t, i + 2)) return 1; // transposition
  return 2;
}

export interface SuggestResult {
  total: number;
  items: Suggestion[];
}

/** The words a query token matches (SuggestIndex.wordsOf). */
interface TokenWords { exact: Int32Array; typo: Int32Array; names: number }

const MAX_TOKENS = 8;
const NO_MATCH = 2;
/** Single-token queries shorter than this (no typos allowed) are answered from a precomputed table. */
const SHORT_PREFIX = MIN_TYPO_LENGTH;

/** An entry as the endpoint returns it, in one locale. */
function render(e: SuggestEntry, l: Locale): Suggestion {
  const s: Suggestion = { kind: e.kind, slug: e.slug, label: e.label[l] };
  if (e.sublabel) s.sublabel = e.sublabel[l];
  if (e.center) s.center = e.center;
  if (e.propertyCount !== null) s.propertyCount = e.propertyCount;
  return s;
}

export class SuggestIndex {
  /** entries in rank order (weight desc, kind, slug): an entry's position is its rank */
  private readonly entries: SuggestEntry[];
  /** the first rank of each entry's weight: typo matches order on it before their exact prefix length */
  private readonly weightStart: Int32Array;
  /** the entry of every distinct folded name */
  private readonly nameEntry: Int32Array;
  /** distinct folded words, sorted, and the names each occurs in (ascending: names are numbered in rank order) */
  private readonly words: string[];
  private readonly postings: Int32Array[];
  /** the words of each name: nameWords[nameWordStart[id] .. nameWordStart[id + 1]) */
  private readonly nameWordStart: Int32Array;
  private readonly nameWords: Int32Array;
  /** the words by their second character (by their first, the sorted list has them in a range) */
  private readonly bySecondChar = new Map<number, Int32Array>();
  // Scratch state of one query (queries run synchronously, one at a time).
  /** per query token, for every word: `stamp` when the word matches the token; its tier (0 exact, 1 typo) */
  private readonly wordStamp: Int32Array[];
  private readonly wordTier: Uint8Array[];
  /** per query token, for a typo word: how many characters of the token match before the edit */
  private readonly wordAgree: Uint8Array[];
  /** the longest exact prefix before the edit of the typo the last nameTypos counted */
  private typoAgree = 0;
  /** per query token, the words it matches: slotWords[k][0 .. slotCount[k]) */
  private readonly slotWords: Int32Array[];
  private readonly slotCount = new Int32Array(MAX_TOKENS);
  private readonly nameStamp: Int32Array;
  private readonly entryStamp: Int32Array;
  private readonly entryTier: Uint8Array;
  private readonly entryAgree: Uint8Array;
  /**
   * Every prefix of fewer than SHORT_PREFIX characters of some word: how many entries match it
   * and the best MAX_SUGGEST_LIMIT of them (ranks, ascending). One- and two-letter queries match
   * tens of thousands of names; this answers them without a walk.
   */
  private readonly shortPrefixes = new Map<string, { total: number; top: Int32Array }>();
  private stamp = 0;

  constructor(source: SuggestEntry[]) {
    this.entries = [...source].sort((a, b) => b.weight - a.weight || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
      || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    this.weightStart = new Int32Array(this.entries.length);
    for (let r = 1; r < this.entries.length; r++) {
      this.weightStart[r] = this.entries[r].weight === this.entries[r - 1].weight ? this.weightStart[r - 1] : r;
    }
    const nameEntry: number[] = [];
    const nameWordLists: string[][] = [];
    const byWord = new Map<string, number[]>();
    this.entries.forEach((e, rank) => {
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
    this.nameEntry = Int32Array.from(nameEntry);
    this.words = [...byWord.keys()].sort();
    this.postings = this.words.map((w) => Int32Array.from(byWord.get(w)!));
    const wordId = new Map(this.words.map((w, i) => [w, i]));
    this.nameWordStart = new Int32Array(nameEntry.length + 1);
    const flat: number[] = [];
    nameWordLists.forEach((words, id) => {
      for (const w of words) flat.push(wordId.get(w)!);
      this.nameWordStart[id + 1] = flat.length;
    });
    this.nameWords = Int32Array.from(flat);
    const second = new Map<number, number[]>();
    this.words.forEach((w, i) => {
      if (w.length < 2) return;
      const c = w.charCodeAt(1);
      let list = second.get(c);
      if (!list) second.set(c, (list = []));
      list.push(i);
    });
    for (const [c, list] of second) this.bySecondChar.set(c, Int32Array.from(list));
    this.wordStamp = Array.from({ length: MAX_TOKENS }, () => new Int32Array(this.words.length));
    this.wordTier = Array.from({ length: MAX_TOKENS }, () => new Uint8Array(this.words.length));
    this.wordAgree = Array.from({ length: MAX_TOKENS }, () => new Uint8Array(this.words.length));
    this.slotWords = Array.from({ length: MAX_TOKENS }, () => new Int32Array(this.words.length));
    this.nameStamp = new Int32Array(nameEntry.length);
    this.entryStamp = new Int32Array(this.entries.length);
    this.entryTier = new Uint8Array(this.entries.length);
    this.entryAgree = new Uint8Array(this.entries.length);
    this.tabulateShortPrefixes();
  }

  private tabulateShortPrefixes(): void {
    const prefixes = new Set<string>();
    for (const w of this.words) for (let len = 1; len < SHORT_PREFIX && len <= w.length; len++) prefixes.add(w.slice(0, len));
    const ranks: number[] = [];
    for (const p of prefixes) {
      const stamp = ++this.stamp;
      ranks.length = 0;
      for (let i = this.lowerBound(p); i < this.words.length && this.words[i].startsWith(p); i++) {
        const list = this.postings[i];
        for (let j = 0; j < list.length; j++) {
          const rank = this.nameEntry[list[j]];
          if (this.entryStamp[rank] === stamp) continue;
          this.entryStamp[rank] = stamp;
          ranks.push(rank);
        }
      }
      this.shortPrefixes.set(p, { total: ranks.length, top: Int32Array.from(smallest(ranks, MAX_SUGGEST_LIMIT)) });
    }
  }

  get size(): number {
    return this.entries.length;
  }

  private lowerBound(t: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first word whose first character is `c` or after it. */
  private firstCharFrom(c: number): number {
    return this.lowerBound(String.fromCharCode(c));
  }

  /**
   * The words token `t` matches: exact prefixes, then (from 4 characters) words with a prefix one
   * edit away; and how many names they occur in.
   */
  private wordsOf(t: string): TokenWords {
    const exact: number[] = [];
    const typo: number[] = [];
    let names = 0;
    for (let i = this.lowerBound(t); i < this.words.length && this.words[i].startsWith(t); i++) {
      exact.push(i);
      names += this.postings[i].length;
    }
    if (t.length >= MIN_TYPO_LENGTH) {
      // With one edit, placed at the first difference, a candidate word starts with t[0] (the
      // edit comes later) or with t[1] (t[0] extra, or the first two swapped), or has t[1]
      // second (t[0] replaced) or t[0] second (a letter missing before t[0]).
      const seen = new Set<number>(exact);
      const t0 = t.charCodeAt(0);
      const t1 = t.charCodeAt(1);
      for (let pass = 0; pass < 2; pass++) {
        const c = pass === 0 ? t0 : t1;
        if (pass === 1 && t1 === t0) break;
        const second = this.bySecondChar.get(c);
        const secondLength = second ? second.length : 0;
        let i = this.firstCharFrom(c);
        for (let j = -1; ; ) {
          let w: number;
          if (i < this.words.length && this.words[i].charCodeAt(0) === c) w = i++;
          else if (++j < secondLength) w = second![j];
          else break;
          if (seen.has(w)) continue;
          const word = this.words[w];
          if (word.length >= t.length - 1 && prefixDistance(t, word) === 1) {
            seen.add(w);
            typo.push(w);
            names += this.postings[w].length;
          }
        }
      }
    }
    return { exact: Int32Array.from(exact), typo: Int32Array.from(typo), names };
  }

  /**
   * Marks the words token `t` (slot k) matches, exact prefixes at tier 0 and typo matches at
   * tier 1, and lists them in `slotWords[k]`; returns how many names they occur in.
   */
  private matchWords(t: string, k: number, stamp: number): number {
    const { exact, typo, names } = this.wordsOf(t);
    const mark = this.wordStamp[k];
    const tier = this.wordTier[k];
    const list = this.slotWords[k];
    let count = 0;
    for (let i = 0; i < exact.length; i++) {
      const w = exact[i];
      mark[w] = stamp;
      tier[w] = 0;
      list[count++] = w;
    }
    const agree = this.wordAgree[k];
    for (let i = 0; i < typo.length; i++) {
      const w = typo[i];
      mark[w] = stamp;
      tier[w] = 1;
      agree[w] = Math.min(commonPrefix(t, this.words[w]), 255);
      list[count++] = w;
    }
    this.slotCount[k] = count;
    return names;
  }

  /**
   * The typos a name needs to match every token (each token matching one of its words, at its
   * best tier), or NO_MATCH; with one typo, typoAgree is the longest exact prefix before its edit.
   */
  private nameTypos(id: number, tokenCount: number, stamp: number): number {
    let typos = 0;
    const from = this.nameWordStart[id];
    const to = this.nameWordStart[id + 1];
    for (let k = 0; k < tokenCount; k++) {
      const mark = this.wordStamp[k];
      const tier = this.wordTier[k];
      let best = NO_MATCH;
      let agree = 0;
      for (let j = from; j < to && best > 0; j++) {
        const w = this.nameWords[j];
        if (mark[w] !== stamp) continue;
        if (tier[w] < best) best = tier[w];
        if (tier[w] === 1 && this.wordAgree[k][w] > agree) agree = this.wordAgree[k][w];
      }
      if (best === 1) this.typoAgree = agree;
      typos += best;
      if (typos > 1) return NO_MATCH;
    }
    return typos;
  }

  /** The best `limit` suggestions for `q` in `locale`, and how many entries matched. */
  search(q: string, locale: Locale, limit: number): SuggestResult {
    const qs = tokens(q).slice(0, MAX_TOKENS);
    if (qs.length === 0) return { total: 0, items: [] };
    if (qs.length === 1 && qs[0].length < SHORT_PREFIX && limit <= MAX_SUGGEST_LIMIT) {
      const hit = this.shortPrefixes.get(qs[0]);
      if (!hit) return { total: 0, items: [] };
      return { total: hit.total, items: Array.from(hit.top.subarray(0, limit), (rank) => render(this.entries[rank], locale)) };
    }
    if (this.stamp === 0x7fffffff) {
      for (const a of this.wordStamp) a.fill(0);
      this.nameStamp.fill(0);
      this.entryStamp.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    // The token whose words occur in the fewest names drives; each of those names is then checked
    // against every token through its own few words.
    let driver = 0;
    let driverNames = Infinity;
    for (let k = 0; k < qs.length; k++) {
      const names = this.matchWords(qs[k], k, stamp);
      if (names === 0) return { total: 0, items: [] };
      if (names < driverNames) {
        driver = k;
        driverNames = names;
      }
    }
    // an entry takes the best of its names: exact (0) before typo (1)
    const exact: number[] = [];
    const typo: number[] = [];
    let total = 0;
    const driverWords = this.slotWords[driver];
    for (let d = 0; d < this.slotCount[driver]; d++) {
      const list = this.postings[driverWords[d]];
      for (let j = 0; j < list.length; j++) {
        const id = list[j];
        if (this.nameStamp[id] === stamp) continue;
        this.nameStamp[id] = stamp;
        const tier = this.nameTypos(id, qs.length, stamp);
        if (tier === NO_MATCH) continue;
        const rank = this.nameEntry[id];
        if (this.entryStamp[rank] !== stamp) {
          this.entryStamp[rank] = stamp;
          this.entryTier[rank] = tier;
          this.entryAgree[rank] = tier === 1 ? this.typoAgree : 0;
          total += 1;
          (tier === 0 ? exact : typo).push(rank);
        } else if (tier < this.entryTier[rank]) {
          this.entryTier[rank] = tier;
          exact.push(rank);
        } else if (tier === 1 && this.typoAgree > this.entryAgree[rank]) {
          this.entryAgree[rank] = this.typoAgree;
        }
      }
    }
    const pick = smallest(exact, limit);
    if (pick.length < limit) {
      // typo matches by weight, then the longer exact prefix, then rank: one number each
      const n = this.entries.length;
      const keys: number[] = [];
      for (const rank of typo) {
        if (this.entryTier[rank] === 1) keys.push((this.weightStart[rank] * 256 + 255 - this.entryAgree[rank]) * n + rank);
      }
      for (const key of smallest(keys, limit - pick.length)) pick.push(key % n);
    }
    return { total, items: pick.map((rank) => render(this.entries[rank], locale)) };
  }
}

/** How many characters `a` and `b` share at their start. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The `k` smallest numbers of `xs`, ascending (k is small; xs may be large). */
function smallest(xs: number[], k: number): number[] {
  if (xs.length <= k * 4) return xs.sort((a, b) => a - b).slice(0, k);
  const top: number[] = [];
  for (const x of xs) {
    if (top.length === k && x >= top[k - 1]) continue;
    let i = top.length === k ? k - 1 : top.length;
    if (top.length === k) top.pop();
    while (i > 0 && top[i - 1] > x) i--;
    top.splice(i, 0, x);
  }
  return top;
}
