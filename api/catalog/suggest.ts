/**
 * The autocomplete index (DESIGN.md §5, GET /v1/search/suggest), built once when a build loads.
 *
 * Every name of every entry, in every locale, is folded (case, accents, ß → ss, and the German
 * transliterations ue/ae/oe → u/a/o, so `münchen` and `muenchen` fold alike) and split into words.
 * A query token matches a word it is a prefix of (exact), or, from 4 characters, a word with a
 * prefix at Damerau-Levenshtein distance 1 (typo; one per query). Every token of the query must
 * match a word of the same name. Exact matches rank above typo matches, then larger places first
 * (weight), then kind (country, city, zone, operator, property) and slug.
 */
import type { SuggestEntry } from '../contract/build.ts';
import type { Locale } from '../contract/common.ts';
import type { Suggestion } from '../contract/market.ts';

export const MIN_TYPO_LENGTH = 4;
const KIND_ORDER: Record<SuggestEntry['kind'], number> = { country: 0, city: 1, zone: 2, operator: 3, property: 4 };
const SPECIAL: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h',
};

/** Lower case, accents stripped, ß → ss, ue/ae/oe → u/a/o; every other run of non-alphanumerics one space. */
export function fold(text: string): string {
  const lower = text.toLowerCase().replace(/[ßæœøđðþłıħ]/g, (c) => SPECIAL[c]);
  return lower
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    // German transliteration: a prefix of a word still folds to a prefix of its folded form
    .replace(/([aou])e/g, '$1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

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

export class SuggestIndex {
  /** entries in rank order (weight desc, kind, slug): an entry's position is its rank */
  private readonly entries: SuggestEntry[];
  /** per locale, the suggestion of every entry, ready to return */
  private readonly rendered: Record<Locale, Suggestion[]>;
  /** the entry of every distinct folded name */
  private readonly nameEntry: Int32Array;
  /** distinct folded words, sorted, and the names each occurs in */
  private readonly words: string[];
  private readonly postings: Int32Array[];
  // Scratch state of one query (queries run synchronously, one at a time).
  private readonly nameStamp: Int32Array;
  private readonly nameCount: Uint8Array;
  private readonly nameTypos: Uint8Array;
  private readonly entryStamp: Int32Array;
  private readonly entryTier: Uint8Array;
  private readonly bufA: Int32Array;
  private readonly bufB: Int32Array;
  private stamp = 0;

  constructor(source: SuggestEntry[]) {
    this.entries = [...source].sort((a, b) => b.weight - a.weight || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
      || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    const render = (e: SuggestEntry, l: Locale): Suggestion => {
      const s: Suggestion = { kind: e.kind, slug: e.slug, label: e.label[l] };
      if (e.sublabel) s.sublabel = e.sublabel[l];
      if (e.center) s.center = e.center;
      if (e.propertyCount !== null) s.propertyCount = e.propertyCount;
      return s;
    };
    this.rendered = {
      en: this.entries.map((e) => render(e, 'en')),
      de: this.entries.map((e) => render(e, 'de')),
      es: this.entries.map((e) => render(e, 'es')),
    };
    const nameEntry: number[] = [];
    const byWord = new Map<string, number[]>();
    this.entries.forEach((e, rank) => {
      const names = new Set<string>();
      for (const n of [...e.names, e.label.en, e.label.de, e.label.es]) {
        const f = fold(n);
        if (f) names.add(f);
      }
      for (const name of names) {
        const id = nameEntry.length;
        nameEntry.push(rank);
        for (const w of new Set(name.split(' '))) {
          let list = byWord.get(w);
          if (!list) byWord.set(w, (list = []));
          list.push(id);
        }
      }
    });
    this.nameEntry = Int32Array.from(nameEntry);
    this.words = [...byWord.keys()].sort();
    this.postings = this.words.map((w) => Int32Array.from(byWord.get(w)!));
    this.nameStamp = new Int32Array(nameEntry.length);
    this.nameCount = new Uint8Array(nameEntry.length);
    this.nameTypos = new Uint8Array(nameEntry.length);
    this.entryStamp = new Int32Array(this.entries.length);
    this.entryTier = new Uint8Array(this.entries.length);
    this.bufA = new Int32Array(nameEntry.length);
    this.bufB = new Int32Array(nameEntry.length);
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

  /** The best `limit` suggestions for `q` in `locale`, and how many entries matched. */
  search(q: string, locale: Locale, limit: number): SuggestResult {
    const qs = tokens(q).slice(0, 8);
    if (qs.length === 0) return { total: 0, items: [] };
    if (this.stamp === 0x7fffffff) {
      this.nameStamp.fill(0);
      this.entryStamp.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    // A name is alive while it matched every token so far: nameStamp = stamp, nameCount = tokens matched.
    let alive = this.bufA;
    let aliveLength = 0;
    for (let k = 0; k < qs.length; k++) {
      const t = qs[k];
      const next = k % 2 === 0 ? this.bufA : this.bufB;
      let nextLength = 0;
      const visit = (word: number, typo: 0 | 1) => {
        const list = this.postings[word];
        for (let j = 0; j < list.length; j++) {
          const id = list[j];
          if (k === 0) {
            if (this.nameStamp[id] === stamp) continue;
            this.nameStamp[id] = stamp;
            this.nameCount[id] = 1;
            this.nameTypos[id] = typo;
            next[nextLength++] = id;
          } else if (this.nameStamp[id] === stamp && this.nameCount[id] === k && this.nameTypos[id] + typo <= 1) {
            this.nameCount[id] = k + 1;
            this.nameTypos[id] += typo;
            next[nextLength++] = id;
          }
        }
      };
      // exact words first, so a name matched both ways keeps the exact match
      for (let i = this.lowerBound(t); i < this.words.length && this.words[i].startsWith(t); i++) visit(i, 0);
      if (t.length >= MIN_TYPO_LENGTH) {
        const t0 = t.charCodeAt(0);
        const t1 = t.charCodeAt(1);
        for (let i = 0; i < this.words.length; i++) {
          const w = this.words[i];
          // one edit at most: the first two characters agree somewhere (cheap filter before the check)
          if (w.length < t.length - 1) continue;
          const w0 = w.charCodeAt(0);
          const w1 = w.charCodeAt(1);
          if (t0 !== w0 && t1 !== w1 && t1 !== w0 && t0 !== w1) continue;
          if (prefixDistance(t, w) === 1) visit(i, 1);
        }
      }
      alive = next;
      aliveLength = nextLength;
      if (aliveLength === 0) return { total: 0, items: [] };
    }
    // an entry takes the best of its names: exact (0) before typo (1)
    const exact: number[] = [];
    const typo: number[] = [];
    let total = 0;
    for (let j = 0; j < aliveLength; j++) {
      const id = alive[j];
      const rank = this.nameEntry[id];
      const tier = this.nameTypos[id];
      if (this.entryStamp[rank] !== stamp) {
        this.entryStamp[rank] = stamp;
        this.entryTier[rank] = tier;
        total += 1;
        (tier === 0 ? exact : typo).push(rank);
      } else if (tier < this.entryTier[rank]) {
        this.entryTier[rank] = tier;
        exact.push(rank);
      }
    }
    const pick = smallest(exact, limit);
    if (pick.length < limit) {
      pick.push(...smallest(typo.filter((rank) => this.entryTier[rank] === 1), limit - pick.length));
    }
    const rendered = this.rendered[locale];
    return { total, items: pick.map((rank) => rendered[rank]) };
  }
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
