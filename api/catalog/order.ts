/**
 * The orders of a list. The sorted ones (date, rating, price both ways overall and per option type) are
 * computed once per build; a page of a set walks the order testing membership, or sorts a small
 * set by rank. `random` is the keyed permutation of random-order.ts, `distance` is selected from
 * the set. Ties always break by slug (the listings are in place order: the slug is the last key).
 */
import { OPTION_TYPES, type OptionType } from '../../contract/common.ts';
import type { SortBy } from '../../contract/queries.ts';
import type { Bitset } from './bitset.ts';
import * as bits from './bitset.ts';
import type { ListingTable } from './listings.ts';
import { RandomOrder } from './random-order.ts';

export type SortedBy = Exclude<SortBy, 'random' | 'distance'>;

interface Order { order: Int32Array; rank: Int32Array }

/** What the order of a page depends on, besides its sort. */
export interface OrderContext { seed: number; pricingOptionType?: OptionType; lat?: number; lng?: number }

const SMALL = 2048;

/** Rank of each value among the distinct values (NaN: after all of them), and the number of ranks. */
function denseRanks(values: Float64Array): { ranks: Float64Array; radix: number } {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort();
  let m = 0;
  for (let k = 0; k < sorted.length; k++) if (m === 0 || sorted[k] !== sorted[m - 1]) sorted[m++] = sorted[k];
  const ranks = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) { ranks[i] = m; continue; }
    let l = 0, r = m;
    while (l < r) { const mid = (l + r) >>> 1; if (sorted[mid] < v) l = mid + 1; else r = mid; }
    ranks[i] = l;
  }
  return { ranks, radix: m + 1 };
}

/** The listings in a unique order that breaks every tie: at[k] is the k-th listing, rank its inverse. */
export interface TieBreak { at: Int32Array; rank: Int32Array }

/**
 * Listing indices ascending by the keys (the first decides, the next break its ties; NaN in the
 * first key last), then by `ties` (by index when absent). Sorted as numbers (rank × 2^b + tie
 * rank) with the typed-array sort, not with a comparator.
 */
export function sortedOrder(keys: Float64Array[], ties?: TieBreak): Order {
  const n = keys[0].length;
  let ranks = denseRanks(keys[0]).ranks;
  for (const next of keys.slice(1)) {
    const r = denseRanks(next);
    const combined = new Float64Array(n);
    for (let i = 0; i < n; i++) combined[i] = ranks[i] * r.radix + r.ranks[i];
    ranks = denseRanks(combined).ranks;
  }
  let slot = 1;
  while (slot < n) slot *= 2;
  const composite = new Float64Array(n);
  for (let i = 0; i < n; i++) composite[i] = ranks[i] * slot + (ties ? ties.rank[i] : i);
  composite.sort();
  const order = new Int32Array(n);
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const t = composite[k] % slot;
    const i = ties ? ties.at[t] : t;
    order[k] = i;
    rank[i] = k;
  }
  return { order, rank };
}

export class Orders {
  private readonly sorted = new Map<string, Order>();

  constructor(private readonly listings: ListingTable) {
    const neg = (a: Float64Array) => a.map((v) => -v);
    const bySlug: TieBreak = { at: listings.bySlug, rank: listings.slugRank };
    this.sorted.set('date-desc:', sortedOrder([neg(listings.updatedMs)], bySlug));
    this.sorted.set('date-asc:', sortedOrder([listings.updatedMs], bySlug));
    this.sorted.set('rating-desc:', sortedOrder([neg(listings.ratingScore), neg(Float64Array.from(listings.ratingCount))], bySlug));
    // prices on the product's own basis first, then each other basis (contract/prices.ts); within one, by EUR amount
    for (const t of [undefined, ...OPTION_TYPES]) {
      const { basisRank, comparableEur } = listings.price(t);
      this.sorted.set(`price-asc:${t ?? ''}`, sortedOrder([basisRank, comparableEur], bySlug));
      this.sorted.set(`price-desc:${t ?? ''}`, sortedOrder([basisRank, neg(comparableEur)], bySlug));
    }
  }

  /** Listings ranked offset..offset+limit of a set of `size` members, in `sort` order. */
  slice(set: Bitset, size: number, sort: SortBy, c: OrderContext, offset: number, limit: number): ArrayLike<number> {
    if (offset >= size || limit <= 0) return [];
    if (sort === 'random') return this.randomSlice(set, size, c.seed, offset, limit);
    if (sort === 'distance') {
      const idx = bits.toIndices(set, size);
      const keys = new Float64Array(size);
      for (let k = 0; k < size; k++) keys[k] = this.listings.distance(idx[k], c.lat!, c.lng!) ?? Infinity;
      return selectRange(idx, keys, this.listings.slugRank, offset, limit);
    }
    const o = this.sorted.get(`${sort}:${sort === 'price-asc' || sort === 'price-desc' ? c.pricingOptionType ?? '' : ''}`)!;
    // Walking the order costs about (offset + limit) × n / size steps; sorting the set by rank
    // about size × log(size) comparisons. Take the cheaper.
    const walk = ((offset + limit) * this.listings.n) / size;
    if (size * Math.log2(size + 1) * 4 < walk) {
      const idx = bits.toIndices(set, size);
      idx.sort((a, b) => o.rank[a] - o.rank[b]);
      return idx.subarray(offset, offset + limit);
    }
    return walkOrder(set, size, (k) => o.order[k], this.listings.n, offset, limit);
  }

  private randomSlice(set: Bitset, size: number, seed: number, offset: number, limit: number): ArrayLike<number> {
    const n = this.listings.n;
    const perm = new RandomOrder(n, seed);
    // A walk tests about (offset + limit) × n / size positions; ranking the members costs one
    // inverse permutation each, then a selection.
    if ((offset + limit) * n < size * size * 2) return walkOrder(set, size, (k) => perm.at(k), n, offset, limit);
    const idx = bits.toIndices(set, size);
    const ranks = new Float64Array(size);
    for (let k = 0; k < size; k++) ranks[k] = perm.rankOf(idx[k]);
    return selectRange(idx, ranks, this.listings.slugRank, offset, limit);
  }
}

/** The members of `set` ranked offset..offset+limit in the order at(0), at(1), … at(n-1). */
function walkOrder(set: Bitset, size: number, at: (k: number) => number, n: number, offset: number, limit: number): number[] {
  const out: number[] = [];
  // every listing: the ranks themselves
  if (size === n) {
    for (let k = offset; k < Math.min(n, offset + limit); k++) out.push(at(k));
    return out;
  }
  let seen = 0;
  for (let k = 0; k < n && out.length < limit; k++) {
    const i = at(k);
    if (set[i >>> 5] & (1 << (i & 31))) {
      if (seen >= offset) out.push(i);
      seen++;
    }
  }
  return out;
}

/**
 * Items ranked offset..offset+limit by (key, tie rank of the index), without sorting the whole set:
 * a histogram over the key range finds the buckets that hold the wanted ranks, and only those are sorted.
 */
export function selectRange(idx: Int32Array, keys: Float64Array, tieRank: Int32Array, offset: number, limit: number): number[] {
  const n = idx.length;
  if (offset >= n || limit <= 0) return [];
  if (n <= SMALL) {
    const pos = Array.from({ length: n }, (_, k) => k).sort((a, b) => (keys[a] === keys[b] ? tieRank[idx[a]] - tieRank[idx[b]] : keys[a] < keys[b] ? -1 : 1));
    return pos.slice(offset, offset + limit).map((k) => idx[k]);
  }
  let min = Infinity, max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = keys[k];
    if (v === Infinity) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const B = 4096;
  const width = max > min ? (max - min) / (B - 1) : 1;
  const bucket = (v: number) => (v === Infinity ? B : Math.floor((v - min) / width));
  const counts = new Int32Array(B + 1);
  for (let k = 0; k < n; k++) counts[bucket(keys[k])]++;
  const end = Math.min(n, offset + limit);
  let before = 0, lo = 0;
  while (before + counts[lo] <= offset) before += counts[lo++];
  let cum = before, hi = lo;
  while (cum + counts[hi] < end) cum += counts[hi++];
  const picked: number[] = [];
  for (let k = 0; k < n; k++) {
    const b = bucket(keys[k]);
    if (b >= lo && b <= hi) picked.push(k);
  }
  picked.sort((a, b) => (keys[a] === keys[b] ? tieRank[idx[a]] - tieRank[idx[b]] : keys[a] < keys[b] ? -1 : 1));
  return picked.slice(offset - before, offset - before + (end - offset)).map((k) => idx[k]);
}
