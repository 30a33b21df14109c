/**
 * The listings of one amount column grouped by amount, in log-scale buckets (a counting sort at
 * load, no comparison sort): the listings with an amount in [lo, hi] are those of the buckets
 * between the bounds' buckets, and those of the bounds' buckets that pass. A price filter, the
 * product facet's counts under it and the price range cost what the buckets at the bounds hold,
 * not what the match set holds.
 */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';

const PER_DOUBLING = 8;
const BUCKETS = 1 + PER_DOUBLING * 48;
const bucketOf = (a: number) => (a < 1 ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log2(a) * PER_DOUBLING)));

export class AmountIndex {
  /** the listings with an amount, by bucket: bucket k holds members[starts[k] .. starts[k + 1]) */
  private readonly starts = new Int32Array(BUCKETS + 1);
  private readonly members: Int32Array;
  /** the listings with an amount */
  private readonly priced: Bitset;
  /** within's result, reused by the next call (the server answers one request at a time) */
  private readonly scratch: Bitset;
  /** the listings with an amount in each currency code (index into CURRENCIES + 1) */
  private readonly byCurrency = new Map<number, Bitset>();

  /** amount: NaN for a listing without one; currency: its code (prices), 0 when none */
  constructor(private readonly amount: Float64Array, currency?: Uint8Array) {
    const n = amount.length;
    const { starts } = this;
    for (let i = 0; i < n; i++) if (!Number.isNaN(amount[i])) starts[bucketOf(amount[i]) + 1]++;
    for (let k = 0; k < BUCKETS; k++) starts[k + 1] += starts[k];
    this.members = new Int32Array(starts[BUCKETS]);
    const fill = starts.slice(0, BUCKETS);
    for (let i = 0; i < n; i++) if (!Number.isNaN(amount[i])) this.members[fill[bucketOf(amount[i])]++] = i;
    this.priced = bits.fromIndices(n, this.members);
    this.scratch = new Uint32Array(this.priced.length);
    if (!currency) return;
    for (const i of this.members) {
      let b = this.byCurrency.get(currency[i]);
      if (!b) this.byCurrency.set(currency[i], (b = new Uint32Array(this.priced.length)));
      b[i >>> 5] |= 1 << (i & 31);
    }
  }

  /** Whether a member of ctx (empty outside its words [lo, hi)) has an amount. */
  holdsAny(ctx: { bits: Bitset; lo: number; hi: number }): boolean {
    for (let w = ctx.lo; w < ctx.hi; w++) if (ctx.bits[w] & this.priced[w]) return true;
    return false;
  }

  /** The currency code of the amounts of ctx's members (empty outside its words [lo, hi)): 0 when none or several (or no currencies given). */
  currencyOf(ctx: { bits: Bitset; lo: number; hi: number }): number {
    let found = 0;
    for (const [code, b] of this.byCurrency) {
      for (let w = ctx.lo; w < ctx.hi; w++) {
        if (ctx.bits[w] & b[w]) {
          if (found) return 0;
          found = code;
          break;
        }
      }
    }
    return found;
  }

  /** The listings with lo ≤ amount ≤ hi (valid until the next call). */
  within(lo: number, hi: number): Bitset {
    const { starts, members, amount } = this;
    const out = this.scratch;
    const first = bucketOf(lo), last = bucketOf(hi);
    if (!(lo <= hi)) { out.fill(0); return out; }
    const inner = last > first + 1 ? starts[last] - starts[first + 1] : 0;
    if (inner * 2 <= members.length) {
      // set those that pass, from the buckets between the bounds
      out.fill(0);
      for (let k = starts[first]; k < starts[last + 1]; k++) {
        const i = members[k], a = amount[i];
        if (a >= lo && a <= hi) out[i >>> 5] |= 1 << (i & 31);
      }
    } else {
      // clear those that fail, from the buckets outside and at the bounds
      out.set(this.priced);
      const clear = (from: number, to: number) => {
        for (let k = from; k < to; k++) {
          const i = members[k], a = amount[i];
          if (!(a >= lo && a <= hi)) out[i >>> 5] &= ~(1 << (i & 31));
        }
      };
      clear(0, starts[first + 1]);
      clear(Math.max(starts[first + 1], starts[last]), members.length);
    }
    return out;
  }

  /** The lowest and highest amount among the members of b (b has at least one listing with an amount). */
  extremes(b: Bitset): { min: number; max: number } {
    const { starts, members, amount } = this;
    let min = Infinity, max = -Infinity;
    for (let k = 0; k < BUCKETS && min === Infinity; k++) {
      for (let j = starts[k]; j < starts[k + 1]; j++) if (bits.has(b, members[j]) && amount[members[j]] < min) min = amount[members[j]];
    }
    for (let k = BUCKETS - 1; k >= 0 && max === -Infinity; k--) {
      for (let j = starts[k]; j < starts[k + 1]; j++) if (bits.has(b, members[j]) && amount[members[j]] > max) max = amount[members[j]];
    }
    return { min, max };
  }
}
