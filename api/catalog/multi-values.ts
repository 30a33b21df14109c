import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { BitsetCounts } from './bitset-counts.ts';
import type { AmountIndex } from './amounts.ts';
import type { FacetContext } from './filter-index.ts';
import type { ListingTable } from './listings.ts';
import { countIn, posting, type Posting } from './postings.ts';

/** A member visited by a pass costs about as much as this many words intersected by BitsetCounts. */
const WORDS_PER_MEMBER = 16;

/**
 * A filter on values a listing may have several of (a set of listings per value in
 * listing-columns.bin): a posting per value, and each listing's values for counting.
 */
export class MultiValues {
  readonly postings = new Map<string, Posting>();
  readonly values: readonly string[];
  private readonly totals: Int32Array;
  /** the value ids of listing i are ids[starts[i] .. starts[i + 1]) */
  private readonly starts: Int32Array;
  private readonly ids: Int32Array;
  private readonly counts: Int32Array;
  private readonly all: Bitset;
  /** each value's listings as a bitset, counted under a context at once */
  private readonly bitsets: BitsetCounts;

  constructor(listings: ListingTable, sets: Partial<Record<string, Int32Array>>) {
    const n = listings.n;
    this.all = listings.all;
    const entries = Object.entries(sets).filter(([, l]) => l!.length) as [string, Int32Array][];
    for (const [value, list] of entries) this.postings.set(value, posting(n, list));
    this.bitsets = new BitsetCounts(entries.map(([value, list]) => this.postings.get(value)!.bits ?? bits.fromIndices(n, list)), this.all.length);
    this.values = entries.map(([v]) => v);
    this.totals = Int32Array.from(entries, ([, l]) => l.length);
    this.counts = new Int32Array(entries.length);
    this.starts = new Int32Array(n + 1);
    for (const [, list] of entries) for (let k = 0; k < list.length; k++) this.starts[list[k] + 1]++;
    for (let i = 0; i < n; i++) this.starts[i + 1] += this.starts[i];
    this.ids = new Int32Array(this.starts[n]);
    const fill = this.starts.slice(0, n);
    entries.forEach(([, list], id) => { for (let k = 0; k < list.length; k++) this.ids[fill[list[k]]++] = id; });
  }

  /**
   * The count of each value in ctx, by value id (a view the next call overwrites); with `within`,
   * only listings whose amount of that value (by value id) lies in [lo, hi].
   */
  count(ctx: FacetContext, within?: { amounts: Float64Array[]; indexes: AmountIndex[]; lo: number; hi: number }): Int32Array {
    const n = this.starts.length - 1;
    const size = ctx.count;
    if (!within && size === n) return this.totals;
    // a pass over the members (or, for more than half the listings, over those it leaves out,
    // taken from the totals), unless intersecting each value's postings costs less (a member
    // visited costs about as much as WORDS_PER_MEMBER words intersected by popcount; with `within`, each
    // value's amounts in range cost two passes over the context's words in JavaScript)
    const perListing = this.ids.length / n;
    const complement = !within && size > n >>> 1;
    if (!within && (complement ? n - size : size) * (perListing + 1) * WORDS_PER_MEMBER > this.values.length * (ctx.hi - ctx.lo)) {
      return this.bitsets.of(ctx);
    }
    const { starts, ids, counts, all } = this;
    if (within && size * (perListing + 1) > this.values.length * 2 * (ctx.hi - ctx.lo)) {
      this.values.forEach((v, id) => { counts[id] = countIn(ctx, this.postings.get(v)!, within.indexes[id].within(within.lo, within.hi, ctx.lo, ctx.hi)); });
      return counts;
    }
    counts.fill(0);
    const b = ctx.bits;
    const [from, to] = complement ? [0, b.length] : [ctx.lo, ctx.hi];
    for (let w = from; w < to; w++) {
      let x = complement ? all[w] & ~b[w] : b[w];
      while (x) {
        const low = x & -x;
        const i = (w << 5) + 31 - Math.clz32(low);
        x ^= low;
        const end = starts[i + 1];
        if (!within) for (let k = starts[i]; k < end; k++) counts[ids[k]]++;
        else {
          for (let k = starts[i]; k < end; k++) {
            const a = within.amounts[ids[k]][i];
            if (a >= within.lo && a <= within.hi) counts[ids[k]]++;
          }
        }
      }
    }
    if (complement) for (let id = 0; id < counts.length; id++) counts[id] = this.totals[id] - counts[id];
    return counts;
  }

  /** A column per value, in value-id order. */
  byValue<T>(column: (value: string) => T): T[] {
    return this.values.map(column);
  }
}
