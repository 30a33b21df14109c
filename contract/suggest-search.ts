/**
 * The autocomplete's matching (docs/design.md §5, GET /v1/search/suggest) over suggest-index.bin
 * (contract/suggest-index.ts): the pipeline runs it to answer the heavy prefixes the file stores
 * (pipeline/lib/suggest-index.ts), the API for every other query (api/catalog/suggest.ts), so the
 * stored answers are the walked ones.
 *
 * Every name of every entry, in every locale, is folded (contract/fold.ts: case, accents, ß → ss,
 * and the German transliterations ue/ae/oe → u/a/o, so `münchen` and `muenchen` fold alike) by the
 * pipeline and split into words. A lookup is a few binary searches in the sorted words and in the
 * deletion blocks (typo candidates), then a walk over the postings of the words found.
 * A query token matches a word it is a prefix of (exact), or, from 4 characters, a word with a
 * prefix at Damerau-Levenshtein distance 1 (typo; one per query). Every token of the query must
 * match a word of the same name. Exact matches rank above typo matches, then larger places first
 * (weight); among typo matches of one weight, the longer exact prefix before the edit first
 * (`munc`: Munich, a typo on its fourth letter, before Fuencarral, folded funcarral, a typo on its
 * first); then kind (country, city, zone, operator, property) and slug.
 */
import { fold } from './fold.ts';
import { compareDeleted, SUGGEST_SHORT_PREFIX, type SuggestIndexData } from './suggest-index.ts';

export const MIN_TYPO_LENGTH = SUGGEST_SHORT_PREFIX;

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

/** How many entries matched, and the ranks of the best ones, best first. */
export interface SuggestResult {
  total: number;
  ranks: number[];
}

export const MAX_TOKENS = 8;
const NO_MATCH = 2;

/** Whether the word `w` without its character `i` starts with `key`. */
function deletedStartsWith(w: string, i: number, key: string): boolean {
  if (w.length - 1 < key.length) return false;
  for (let j = 0; j < key.length; j++) if (w.charCodeAt(j < i ? j : j + 1) !== key.charCodeAt(j)) return false;
  return true;
}

export class SuggestMatcher {
  /** the distinct folded words, sorted */
  private readonly words: string[];
  // Scratch state of one query (queries run synchronously, one at a time).
  /** per query token, for every word: `stamp` when the word matches the token; its tier (0 exact, 1 typo) */
  private readonly wordStamp: Int32Array[];
  private readonly wordTier: Uint8Array[];
  /** per query token, for a typo word: how many characters of the token match before the edit */
  private readonly wordAgree: Uint8Array[];
  /** the longest exact prefix before the edit of the typo the last nameTypos counted */
  private typoAgree = 0;
  /** per query token, the words it matches, exact ones first: slotWords[k][0 .. slotCount[k]) */
  private readonly slotWords: Int32Array[];
  private readonly slotCount = new Int32Array(MAX_TOKENS);
  /** how many names the words of the token matched last occur in */
  private slotNames = 0;
  private readonly nameStamp: Int32Array;
  private readonly entryStamp: Int32Array;
  private readonly entryTier: Uint8Array;
  private readonly entryAgree: Uint8Array;
  /** the ranks of the entries matched exactly and by a typo, and the typo matches' sort keys */
  private readonly exactRanks: Int32Array;
  private readonly typoRanks: Int32Array;
  private readonly typoKeys: Float64Array;
  private stamp = 0;

  private readonly entryCount: number;

  /** `index`: suggest-index.bin, checked. */
  constructor(private readonly index: SuggestIndexData) {
    const entries = index.weightStart.length;
    this.entryCount = entries;
    this.words = index.words;
    const wordCount = this.words.length;
    this.wordStamp = Array.from({ length: MAX_TOKENS }, () => new Int32Array(wordCount));
    this.wordTier = Array.from({ length: MAX_TOKENS }, () => new Uint8Array(wordCount));
    this.wordAgree = Array.from({ length: MAX_TOKENS }, () => new Uint8Array(wordCount));
    this.slotWords = Array.from({ length: MAX_TOKENS }, () => new Int32Array(wordCount));
    this.nameStamp = new Int32Array(index.nameEntry.length);
    this.entryStamp = new Int32Array(entries);
    this.entryTier = new Uint8Array(entries);
    this.entryAgree = new Uint8Array(entries);
    this.exactRanks = new Int32Array(entries);
    this.typoRanks = new Int32Array(entries);
    this.typoKeys = new Float64Array(entries);
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

  /**
   * Marks the words token `t` (slot k) matches and lists them in `slotWords[k]`: the words it is
   * a prefix of (tier 0, a range of the sorted words), then, from MIN_TYPO_LENGTH characters, the
   * words with a prefix one edit away (tier 1); sets `slotNames` to how many names they occur in.
   */
  private matchWords(t: string, k: number, stamp: number): void {
    const mark = this.wordStamp[k];
    const tier = this.wordTier[k];
    const list = this.slotWords[k];
    const { postingStart } = this.index;
    let count = 0;
    let names = 0;
    for (let w = this.lowerBound(t); w < this.words.length && this.words[w].startsWith(t); w++) {
      mark[w] = stamp;
      tier[w] = 0;
      list[count++] = w;
      names += postingStart[w + 1] - postingStart[w];
    }
    this.slotCount[k] = count;
    this.slotNames = names;
    if (t.length < MIN_TYPO_LENGTH) return;
    // The edit sits at the first difference e: t without t[e] starts the word (an extra letter),
    // t[e] and t[e + 1] swapped start it, or, in deletion block e, the word without its letter e
    // starts with t without t[e] (a letter replaced) or with t (a letter missing).
    const { deletionStart, deletionWords } = this.index;
    const blocks = deletionStart.length - 1;
    for (let e = 0; e < t.length; e++) {
      const without = t.slice(0, e) + t.slice(e + 1);
      this.typoRange(t, k, stamp, without);
      if (e + 1 < t.length && t.charCodeAt(e) !== t.charCodeAt(e + 1)) this.typoRange(t, k, stamp, t.slice(0, e) + t[e + 1] + t[e] + t.slice(e + 2));
      if (e >= blocks) continue;
      for (const key of [without, t]) {
        let lo = deletionStart[e];
        let hi = deletionStart[e + 1];
        const end = hi;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (compareDeleted(this.words[deletionWords[mid]], e, key) < 0) lo = mid + 1;
          else hi = mid;
        }
        for (let j = lo; j < end && deletedStartsWith(this.words[deletionWords[j]], e, key); j++) this.considerTypo(t, k, stamp, deletionWords[j]);
      }
    }
  }

  private typoRange(t: string, k: number, stamp: number, key: string): void {
    for (let w = this.lowerBound(key); w < this.words.length && this.words[w].startsWith(key); w++) this.considerTypo(t, k, stamp, w);
  }

  /** Adds word `w` to the typo matches of token `t` (slot k) if it is one. */
  private considerTypo(t: string, k: number, stamp: number, w: number): void {
    if (this.wordStamp[k][w] === stamp) return;
    const word = this.words[w];
    if (word.length < t.length - 1 || prefixDistance(t, word) !== 1) return;
    this.wordStamp[k][w] = stamp;
    this.wordTier[k][w] = 1;
    this.wordAgree[k][w] = Math.min(commonPrefix(t, word), 255);
    this.slotWords[k][this.slotCount[k]++] = w;
    this.slotNames += this.index.postingStart[w + 1] - this.index.postingStart[w];
  }

  /**
   * The typos a name needs to match every token (each token matching one of its words, at its
   * best tier), or NO_MATCH; with one typo, typoAgree is the longest exact prefix before its edit.
   */
  private nameTypos(id: number, tokenCount: number, stamp: number): number {
    let typos = 0;
    const { nameWordStart, nameWords } = this.index;
    const from = nameWordStart[id];
    const to = nameWordStart[id + 1];
    for (let k = 0; k < tokenCount; k++) {
      const mark = this.wordStamp[k];
      const tier = this.wordTier[k];
      let best = NO_MATCH;
      let agree = 0;
      for (let j = from; j < to && best > 0; j++) {
        const w = nameWords[j];
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

  private nextStamp(): number {
    if (this.stamp === 0x7fffffff) {
      for (const a of this.wordStamp) a.fill(0);
      this.nameStamp.fill(0);
      this.entryStamp.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** How many postings a walk for the one-token query `t` visits: those of the words it matches, exactly or by a typo. */
  postingsWalked(t: string): number {
    this.matchWords(t, 0, this.nextStamp());
    return this.slotNames;
  }

  /** The best `limit` entries for the query tokens `qs` (at least one), and how many entries matched, by walking the postings of their words. */
  walk(qs: readonly string[], limit: number): SuggestResult {
    const stamp = this.nextStamp();
    // The token whose words occur in the fewest names drives; each of those names is then checked
    // against every token through its own few words (one token: the words' tiers are the names').
    let driver = 0;
    let driverNames = Infinity;
    for (let k = 0; k < qs.length; k++) {
      this.matchWords(qs[k], k, stamp);
      if (this.slotNames === 0) return { total: 0, ranks: [] };
      if (this.slotNames < driverNames) {
        driver = k;
        driverNames = this.slotNames;
      }
    }
    const { postingStart, postingNames, nameEntry } = this.index;
    const { entryStamp, entryTier, entryAgree, exactRanks, typoRanks } = this;
    const single = qs.length === 1;
    // an entry takes the best of its names: exact (0) before typo (1)
    let exactCount = 0;
    let typoCount = 0;
    let total = 0;
    const driverWords = this.slotWords[driver];
    for (let d = 0; d < this.slotCount[driver]; d++) {
      const w = driverWords[d];
      const end = postingStart[w + 1];
      if (single) {
        // one token: every name of the word's postings matches at the word's tier, in a loop of its own
        // (the postings of a common prefix are most of a search's work, and grow with the catalogue)
        const tier = this.wordTier[0][w];
        const agree = tier === 1 ? this.wordAgree[0][w] : 0;
        for (let j = postingStart[w]; j < end; j++) {
          const rank = nameEntry[postingNames[j]];
          if (entryStamp[rank] !== stamp) {
            entryStamp[rank] = stamp;
            entryTier[rank] = tier;
            entryAgree[rank] = agree;
            total += 1;
            if (tier === 0) exactRanks[exactCount++] = rank;
            else typoRanks[typoCount++] = rank;
          } else if (tier < entryTier[rank]) {
            entryTier[rank] = tier;
            exactRanks[exactCount++] = rank;
          } else if (tier === 1 && agree > entryAgree[rank]) {
            entryAgree[rank] = agree;
          }
        }
        continue;
      }
      for (let j = postingStart[w]; j < end; j++) {
        const id = postingNames[j];
        if (this.nameStamp[id] === stamp) continue;
        this.nameStamp[id] = stamp;
        const tier = this.nameTypos(id, qs.length, stamp);
        if (tier === NO_MATCH) continue;
        const rank = nameEntry[id];
        if (entryStamp[rank] !== stamp) {
          entryStamp[rank] = stamp;
          entryTier[rank] = tier;
          entryAgree[rank] = tier === 1 ? this.typoAgree : 0;
          total += 1;
          if (tier === 0) exactRanks[exactCount++] = rank;
          else typoRanks[typoCount++] = rank;
        } else if (tier < entryTier[rank]) {
          entryTier[rank] = tier;
          exactRanks[exactCount++] = rank;
        } else if (tier === 1 && this.typoAgree > entryAgree[rank]) {
          entryAgree[rank] = this.typoAgree;
        }
      }
    }
    const pick = smallest(this.exactRanks, exactCount, limit);
    if (pick.length < limit) {
      // typo matches by weight, then the longer exact prefix, then rank: one number each
      const n = this.entryCount;
      let keys = 0;
      for (let j = 0; j < typoCount; j++) {
        const rank = this.typoRanks[j];
        if (this.entryTier[rank] === 1) this.typoKeys[keys++] = (this.index.weightStart[rank] * 256 + 255 - this.entryAgree[rank]) * n + rank;
      }
      for (const key of smallest(this.typoKeys, keys, limit - pick.length)) pick.push(key % n);
    }
    return { total, ranks: pick };
  }
}

/** How many characters `a` and `b` share at their start. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The `k` smallest of the first `count` numbers of `xs`, ascending (k is small; count may be large). */
function smallest(xs: Int32Array | Float64Array, count: number, k: number): number[] {
  if (count <= k * 4) return Array.from(xs.subarray(0, count)).sort((a, b) => a - b).slice(0, k);
  const top: number[] = [];
  for (let j = 0; j < count; j++) {
    const x = xs[j];
    if (top.length === k && x >= top[k - 1]) continue;
    let i = top.length === k ? k - 1 : top.length;
    if (top.length === k) top.pop();
    while (i > 0 && top[i - 1] > x) i--;
    top.splice(i, 0, x);
  }
  return top;
}
