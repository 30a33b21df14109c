/** Match sets: the listings that pass every filter a query sets, from the indexes of a registry. */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import type { FilterIndex, FilterRegistry, FilterValues, IndexContext } from './filter-index.ts';

/**
 * A set to read, never to change, until the next match: the match of no filter is the listing
 * table's own set of every listing; any other is written into the matcher's one buffer.
 */
export interface MatchSet { bits: Bitset; count: number; /** the words [lo, hi) outside which it has no member */ lo: number; hi: number }

export interface IndexedFilter {
  readonly name: string;
  readonly params: readonly string[];
  readonly index: FilterIndex;
}

export class Matcher {
  /** in registry order */
  readonly declared: readonly IndexedFilter[];
  /** each filter's place in `declared`, by its query parameters */
  private readonly placeOf = new Map<string, number>();
  private readonly everyListing: MatchSet;
  /** what match writes into (a request matches once; a buffer made per request costs the whole catalogue's words); members only in [matchedLo, matchedHi) */
  private readonly matched: Bitset;
  private matchedLo = 0;
  private matchedHi = 0;

  constructor(registry: FilterRegistry, private readonly ctx: IndexContext) {
    this.everyListing = { bits: ctx.listings.all, count: ctx.listings.n, lo: 0, hi: ctx.listings.all.length };
    this.matched = new Uint32Array(ctx.listings.all.length);
    this.declared = Object.entries(registry).map(([name, e]) => ({ name, params: Object.keys(e.declaration.params), index: e.index(ctx) }));
    this.declared.forEach((x, k) => {
      for (const p of x.params) {
        const other = this.placeOf.get(p);
        if (other !== undefined) throw new Error(`the query parameter ${p} is declared by two filters, ${this.declared[other].name} and ${x.name}`);
        this.placeOf.set(p, k);
      }
    });
  }

  /** The filters f sets, in registry order (from f's own keys: a request sets a few of many). */
  setIn(f: FilterValues): IndexedFilter[] {
    const places: number[] = [];
    for (const p of Object.keys(f)) {
      const k = this.placeOf.get(p);
      if (k !== undefined && f[p] !== undefined && !places.includes(k)) places.push(k);
    }
    return places.sort((a, b) => a - b).map((k) => this.declared[k]);
  }

  /** The words [lo, hi) outside which no listing matches every filter of `set` (from the filters' spans). */
  spanWords(set: readonly IndexedFilter[], f: FilterValues): { lo: number; hi: number } {
    let lo = 0, hi = this.ctx.listings.all.length;
    for (const x of set) {
      const s = x.index.narrow.span(f);
      lo = Math.max(lo, s.start >>> 5);
      hi = Math.min(hi, (s.end + 31) >>> 5);
    }
    return { lo, hi: Math.max(lo, hi) };
  }

  /**
   * The listings of x alone under f within the words [lo, hi): the index's own bitset when it holds
   * them as one, else written into b, which has no member outside those words; and the words
   * outside which the set is empty. A match that ignores some filters is the intersection of the
   * others' sets.
   */
  ownSet(x: IndexedFilter, f: FilterValues, b: Bitset, lo: number, hi: number): { bits: Bitset; lo: number; hi: number } {
    const own = this.spanWords([x], f);
    lo = Math.max(lo, own.lo);
    hi = Math.max(lo, Math.min(hi, own.hi));
    const held = x.index.narrow.held(f, lo, hi);
    if (held) return { bits: held, ...bits.wordsOf(held, lo, hi) };
    b.set(this.ctx.listings.all.subarray(lo, hi), lo);
    x.index.narrow.into(b, f, lo, hi);
    return { bits: b, ...bits.wordsOf(b, lo, hi) };
  }

  /**
   * The listings matching every filter f sets, valid until the next match: only the words of the
   * filters' spans are visited (a place's range, an operator's first to last listing).
   */
  match(f: FilterValues): MatchSet {
    const set = this.setIn(f);
    if (set.length === 0) return this.everyListing;
    const { lo, hi } = this.spanWords(set, f);
    const b = this.matched;
    b.fill(0, this.matchedLo, this.matchedHi);
    this.matchedLo = lo;
    this.matchedHi = hi;
    b.set(this.ctx.listings.all.subarray(lo, hi), lo);
    for (const x of set) x.index.narrow.into(b, f, lo, hi);
    return { bits: b, count: bits.count(b, lo, hi), lo, hi };
  }

  /** The groups the set is listed in, one after the other: one, unless a filter set in f splits it. */
  groups(set: MatchSet, f: FilterValues): MatchSet[] {
    for (const x of this.setIn(f)) {
      if (x.index.groups) return x.index.groups(set.bits, f).map((g) => ({ bits: g, count: bits.count(g, set.lo, set.hi), lo: set.lo, hi: set.hi }));
    }
    return [set];
  }
}
