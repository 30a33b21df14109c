/**
 * The listings with one filter value. A value held by many listings is a bitset; a rare one (a
 * city among thousands) is its list of listing indices, so a build with thousands of values per
 * filter stays small: a bitset costs n/32 words whatever its count.
 */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { firstAtLeast } from './sorted.ts';

export interface Posting {
  /** ascending listing indices */
  readonly list: Int32Array;
  /** the same listings as a bitset, when there are more than n/32 */
  readonly bits?: Bitset;
}

const wrap = (n: number, l: Int32Array): Posting => (l.length > n >>> 5 ? { list: l, bits: bits.fromIndices(n, l) } : { list: l });

export const posting = (n: number, list: ArrayLike<number>): Posting => wrap(n, list instanceof Int32Array ? list : Int32Array.from(list));

/**
 * The listings of each value of a dictionary-coded column (value ids < size, -1 for none), grouped
 * by value, ascending within each: value v holds members[starts[v] .. starts[v + 1]).
 */
export function groupByValue(valueOf: ArrayLike<number>, size: number): { starts: Int32Array; members: Int32Array } {
  const starts = new Int32Array(size + 1);
  for (let i = 0; i < valueOf.length; i++) if (valueOf[i] >= 0) starts[valueOf[i] + 1]++;
  for (let v = 0; v < size; v++) starts[v + 1] += starts[v];
  const members = new Int32Array(starts[size]);
  const fill = starts.slice(0, size);
  for (let i = 0; i < valueOf.length; i++) if (valueOf[i] >= 0) members[fill[valueOf[i]]++] = i;
  return { starts, members };
}

/** Postings of a dictionary-coded column of n listings: one per value id (value ids < size, -1 for none). */
export function postingsOf(n: number, valueOf: ArrayLike<number>, size: number): Posting[] {
  const { starts, members } = groupByValue(valueOf, size);
  return Array.from({ length: size }, (_, v) => wrap(n, members.subarray(starts[v], starts[v + 1])));
}

/** The listings [start, end) from the posting's first to its last (none for an unknown value): every one it holds lies among them. */
export function spanOf(p: Posting | undefined): { start: number; end: number } {
  return p && p.list.length > 0 ? { start: p.list[0], end: p.list[p.list.length - 1] + 1 } : { start: 0, end: 0 };
}

/** b := b ∩ p, b being empty outside the words [lo, hi); an unknown value (no posting) matches nothing. */
export function narrowTo(b: Bitset, p: Posting | undefined, lo = 0, hi = b.length): void {
  if (!p) b.fill(0, lo, hi);
  else if (p.bits) bits.andInto(b, p.bits, lo, hi);
  else bits.keepListed(b, p.list, firstAtLeast(p.list, lo << 5), firstAtLeast(p.list, hi << 5), lo, hi);
}

/** |ctx ∩ p|, or |ctx ∩ p ∩ also| (ctx: a set empty outside its words [lo, hi)) */
export function countIn(ctx: { bits: Bitset; lo: number; hi: number }, p: Posting, also?: Bitset): number {
  const b = ctx.bits;
  let c = 0;
  if (!p.bits) {
    for (let k = 0; k < p.list.length; k++) if (bits.has(b, p.list[k]) && (!also || bits.has(also, p.list[k]))) c++;
  } else if (!also) c = bits.countAnd(b, p.bits, ctx.lo, ctx.hi);
  else {
    const pb = p.bits;
    for (let w = ctx.lo; w < ctx.hi; w++) {
      const x = b[w] & pb[w] & also[w];
      if (x) c += bits.pop32(x);
    }
  }
  return c;
}
