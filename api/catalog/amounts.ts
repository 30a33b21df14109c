/**
 * The listings of one amount column grouped by amount, in log-scale buckets (a counting sort at
 * load, no comparison sort): the listings with an amount in [lo, hi] are those of the buckets
 * between the bounds' buckets, and those of the bounds' buckets that pass. The buckets between are
 * taken from a few cumulative bitsets kept at load (every listing at or above a marked bucket):
 * a price or capacity bound costs two passes over the words, what lies between the marks next to
 * it and what the buckets at the bounds hold, not what the match set holds.
 */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { firstAtLeast } from './sorted.ts';

const PER_DOUBLING = 8;
const BUCKETS = 1 + PER_DOUBLING * 48;
const bucketOf = (a: number) => (a < 1 ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log2(a) * PER_DOUBLING)));
/** about this many cumulative bitsets per index (fewer when it holds fewer than all listings) */
const MARKS = 32;
/** what finding a bucket's listings within some words costs, in listings looked at */
const BUCKET_LOOKS = 8;

/**
 * An AmountIndex's arrays, made by amountIndexData: typed arrays only, so a load worker can make
 * them (api/catalog/price-tables.ts) and move them to the loading thread without a copy.
 */
export interface AmountIndexData {
  /** the listings with an amount, by bucket: bucket k holds members[starts[k] .. starts[k + 1]) */
  starts: Int32Array;
  members: Int32Array;
  /** each member's amount, in the members' order (the bounds' buckets are read in order, not listing by listing) */
  amounts: Float64Array;
  /** the listings with an amount */
  priced: Bitset;
  /** the listings with an amount in each currency code (index into CURRENCIES + 1), null for a code none has */
  byCurrency: (Bitset | null)[];
  /** marked buckets, ascending, and atLeast[j]: the listings of the buckets at or above marks[j]; the buckets strictly between two marks hold fewer than a mark's step */
  marks: Int32Array;
  atLeast: Bitset[];
  /** each bucket's lowest and highest amount (extremes stops at a member that has it) */
  lowest: Float64Array;
  highest: Float64Array;
}

/** amount: NaN for a listing without one; currency: its code (prices), 0 when none */
export function amountIndexData(amount: Float64Array, currency?: Uint8Array): AmountIndexData {
  const n = amount.length;
  const starts = new Int32Array(BUCKETS + 1);
  // each listing's bucket (-1: no amount), then a counting sort
  const bucket = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    bucket[i] = Number.isNaN(amount[i]) ? -1 : bucketOf(amount[i]);
    if (bucket[i] >= 0) starts[bucket[i] + 1]++;
  }
  for (let k = 0; k < BUCKETS; k++) starts[k + 1] += starts[k];
  const members = new Int32Array(starts[BUCKETS]);
  const amounts = new Float64Array(starts[BUCKETS]);
  const lowest = new Float64Array(BUCKETS).fill(Infinity);
  const highest = new Float64Array(BUCKETS).fill(-Infinity);
  const fill = starts.slice(0, BUCKETS);
  for (let i = 0; i < n; i++) {
    const k = bucket[i];
    if (k < 0) continue;
    amounts[fill[k]] = amount[i];
    members[fill[k]++] = i;
    if (amount[i] < lowest[k]) lowest[k] = amount[i];
    if (amount[i] > highest[k]) highest[k] = amount[i];
  }
  const priced = bits.fromIndices(n, members);
  // mark a bucket once the buckets from it up to the mark above hold a step (a step's patch costs about a pass over the words)
  const step = Math.max(Math.ceil(members.length / MARKS), n >>> 6, 1);
  const marks: number[] = [];
  const atLeast: Bitset[] = [];
  const above = new Uint32Array(priced.length);
  for (let k = BUCKETS - 1, since = 0; k >= 0; k--) {
    for (let j = starts[k]; j < starts[k + 1]; j++) above[members[j] >>> 5] |= 1 << (members[j] & 31);
    since += starts[k + 1] - starts[k];
    if (since >= step) { marks.push(k); atLeast.push(Uint32Array.from(above)); since = 0; }
  }
  const byCurrency: (Bitset | null)[] = [];
  if (currency) {
    for (let j = 0; j < members.length; j++) {
      const i = members[j];
      while (byCurrency.length <= currency[i]) byCurrency.push(null);
      const b = (byCurrency[currency[i]] ??= new Uint32Array(priced.length));
      b[i >>> 5] |= 1 << (i & 31);
    }
  }
  return { starts, members, amounts, priced, byCurrency, marks: Int32Array.from(marks.reverse()), atLeast: atLeast.reverse(), lowest, highest };
}

/** The buffers of an AmountIndexData (what a worker transfers). */
export const amountIndexBuffers = (d: AmountIndexData): ArrayBuffer[] =>
  [d.starts, d.members, d.amounts, d.priced, d.marks, d.lowest, d.highest, ...d.atLeast, ...d.byCurrency.filter((b) => b !== null)].map((a) => a.buffer as ArrayBuffer);

export class AmountIndex {
  private readonly starts: Int32Array;
  private readonly members: Int32Array;
  private readonly amounts: Float64Array;
  private readonly priced: Bitset;
  private readonly byCurrency: (Bitset | null)[];
  private readonly marks: Int32Array;
  private readonly atLeast: Bitset[];
  private readonly lowest: Float64Array;
  private readonly highest: Float64Array;
  /** the words [lo, hi) outside which each currency's listings have none (a currency is mostly a few countries' ranges) */
  private readonly currencyWords: { lo: number; hi: number }[];
  /** within's result, reused by the next call (the server answers one request at a time) */
  private readonly scratch: Bitset;

  constructor(d: AmountIndexData) {
    ({ starts: this.starts, members: this.members, amounts: this.amounts, priced: this.priced, byCurrency: this.byCurrency, marks: this.marks, atLeast: this.atLeast, lowest: this.lowest, highest: this.highest } = d);
    this.scratch = new Uint32Array(this.priced.length);
    this.currencyWords = this.byCurrency.map((b) => (b ? bits.wordsOf(b) : { lo: 0, hi: 0 }));
  }

  /** The currency code of the amounts of ctx's members (empty outside its words [lo, hi)): 0 when none or several (or no currencies given). */
  currencyOf(ctx: { bits: Bitset; lo: number; hi: number }): number {
    let found = 0;
    for (let code = 0; code < this.byCurrency.length; code++) {
      const b = this.byCurrency[code];
      if (!b) continue;
      const hi = Math.min(ctx.hi, this.currencyWords[code].hi);
      for (let w = Math.max(ctx.lo, this.currencyWords[code].lo); w < hi; w++) {
        if (ctx.bits[w] & b[w]) {
          if (found) return 0;
          found = code;
          break;
        }
      }
    }
    return found;
  }

  /**
   * The listings with lo ≤ amount ≤ hi, within the words [from, to) (every word when not given):
   * a set to read only in those words, valid until the next call.
   */
  within(lo: number, hi: number, from = 0, to: number = this.scratch.length): Bitset {
    const out = this.scratch;
    if (!(lo <= hi) || from >= to) { out.fill(0, from, to); return out; }
    const first = bucketOf(lo), last = bucketOf(hi);
    // the inner buckets (first, last): from the first mark above first, less from the first mark at or above last
    const a = this.firstMarkFrom(first + 1);
    if (a < this.marks.length && this.marks[a] < last) {
      const c = this.firstMarkFrom(last);
      const above = this.atLeast[a];
      if (c < this.marks.length) {
        const below = this.atLeast[c];
        for (let w = from; w < to; w++) out[w] = above[w] & ~below[w];
      } else out.set(above.subarray(from, to), from);
      this.put(last, c < this.marks.length ? this.marks[c] : BUCKETS, 0, from, to);
      this.put(first + 1, this.marks[a], 1, from, to);
    } else {
      out.fill(0, from, to);
      this.put(first + 1, last, 1, from, to);
    }
    this.putWithin(first, lo, hi, from, to);
    if (last !== first) this.putWithin(last, lo, hi, from, to);
    return out;
  }

  /** The first mark at or above bucket k (marks.length when none). */
  private firstMarkFrom(k: number): number {
    const { marks } = this;
    let l = 0, r = marks.length;
    while (l < r) { const m = (l + r) >>> 1; if (marks[m] < k) l = m + 1; else r = m; }
    return l;
  }

  /** Sets (bit 1) or clears (bit 0) in the scratch every listing of the buckets [first, last) in the words [from, to). */
  private put(first: number, last: number, bit: 0 | 1, from: number, to: number): void {
    const { starts, members, scratch: out } = this;
    for (let k = first; k < last; k++) {
      const end = firstAtLeast(members, to << 5, starts[k], starts[k + 1]);
      for (let j = firstAtLeast(members, from << 5, starts[k], end); j < end; j++) {
        const i = members[j];
        if (bit) out[i >>> 5] |= 1 << (i & 31);
        else out[i >>> 5] &= ~(1 << (i & 31));
      }
    }
  }

  /** Sets in the scratch the listings of bucket k in the words [from, to) with lo ≤ amount ≤ hi. */
  private putWithin(k: number, lo: number, hi: number, from: number, to: number): void {
    const { starts, members, amounts, scratch: out } = this;
    const end = firstAtLeast(members, to << 5, starts[k], starts[k + 1]);
    for (let j = firstAtLeast(members, from << 5, starts[k], end); j < end; j++) {
      const a = amounts[j];
      if (a >= lo && a <= hi) out[members[j] >>> 5] |= 1 << (members[j] & 31);
    }
  }

  /**
   * The lowest and highest amount among the members of b, which has none outside its words
   * [lo, hi) (min Infinity when none has one), from the buckets at both ends inwards, looking in
   * each only at its listings in those words (a bucket lists its listings in order, found by two
   * binary searches, which count as BUCKET_LOOKS); undefined once it has looked at more than
   * `budget` listings (a set with few members is cheaper to read member by member).
   */
  extremes(b: Bitset, budget = Infinity, lo = 0, hi = b.length): { min: number; max: number } | undefined {
    const { starts, members, amounts, lowest, highest } = this;
    const from = lo << 5, to = hi << 5, all = lo === 0 && hi === b.length;
    const bucketLooks = all ? 1 : BUCKET_LOOKS;
    let min = Infinity, max = -Infinity, looked = 0;
    for (let k = 0; k < BUCKETS && min === Infinity; k++) {
      let j = starts[k], end = starts[k + 1];
      if (j === end) continue;
      if ((looked += bucketLooks) > budget) return undefined;
      if (!all) { j = firstAtLeast(members, from, j, end); end = firstAtLeast(members, to, j, end); }
      for (; j < end; j++) {
        if (++looked > budget) return undefined;
        const i = members[j];
        if (bits.has(b, i) && amounts[j] < min && (min = amounts[j]) === lowest[k]) break;
      }
    }
    for (let k = BUCKETS - 1; k >= 0 && max === -Infinity && min !== Infinity; k--) {
      let j = starts[k], end = starts[k + 1];
      if (j === end) continue;
      if ((looked += bucketLooks) > budget) return undefined;
      if (!all) { j = firstAtLeast(members, from, j, end); end = firstAtLeast(members, to, j, end); }
      for (; j < end; j++) {
        if (++looked > budget) return undefined;
        const i = members[j];
        if (bits.has(b, i) && amounts[j] > max && (max = amounts[j]) === highest[k]) break;
      }
    }
    return { min, max };
  }
}
