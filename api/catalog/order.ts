/**
 * The orders of a list. The sorted ones (date, rating, price both ways overall and per option type)
 * come with the build (listing-columns.bin's orders, computed by the pipeline's SQL); a page of a set walks the order testing membership, or sorts a small
 * set by rank. `random` is the keyed permutation of random-order.ts, `distance` is selected from
 * the set. Ties always break by slug (the listings are in place order: the slug is the last key).
 */
import { OPTION_TYPES, type OptionType } from '../../contract/common.ts';
import { priceOrder, type RankedOrder } from '../../contract/listing-columns.ts';
import type { SortBy } from '../../contract/queries.ts';
import type { Bitset } from './bitset.ts';
import * as bits from './bitset.ts';
import type { MatchSet } from './match.ts';
import { haversineTermOfArc } from '../../contract/geo.ts';
import type { ListingTable } from './listings.ts';
import { RandomOrder } from './random-order.ts';

export type SortedBy = Exclude<SortBy, 'random' | 'distance'>;

interface Order { order: Int32Array; rank: Int32Array }

/** What the order of a page depends on, besides its sort. */
export interface OrderContext { seed: number; pricingOptionType?: OptionType; lat?: number; lng?: number }

/**
 * selectRange sorts a set this small whole; above it, the histogram is cheaper (a sort with a
 * comparator costs ~170 µs for 1,000 items, the histogram ~17 µs).
 */
const SMALL = 64;
/** a set above this many members is searched for the nearest in latitude bands, the first this many degrees either side */
const WIDE_SET = 4096;
const FIRST_BAND = 0.05;

export class Orders {
  private readonly sorted = new Map<string, Order>();

  constructor(private readonly listings: ListingTable) {
    const { orders, ranks } = listings.cols;
    const ranked = (name: RankedOrder): Order => ({ order: orders[name], rank: ranks[name] });
    this.sorted.set('date-desc:', ranked('date-desc'));
    this.sorted.set('date-asc:', ranked('date-asc'));
    this.sorted.set('rating-desc:', ranked('rating-desc'));
    for (const t of [undefined, ...OPTION_TYPES]) {
      this.sorted.set(`price-asc:${t ?? ''}`, ranked(priceOrder(t ?? 'all', 'asc') as RankedOrder));
      this.sorted.set(`price-desc:${t ?? ''}`, ranked(priceOrder(t ?? 'all', 'desc') as RankedOrder));
    }
  }

  /** Listings ranked offset..offset+limit of a set, in `sort` order (a member's index read only within the set's words). */
  slice(matched: MatchSet, sort: SortBy, c: OrderContext, offset: number, limit: number): ArrayLike<number> {
    const { bits: set, count: size } = matched;
    if (offset >= size || limit <= 0) return [];
    if (sort === 'random') return this.randomSlice(matched, c.seed, offset, limit);
    if (sort === 'distance') return this.nearest(matched, c.lat!, c.lng!, offset, limit);
    const o = this.sorted.get(`${sort}:${sort === 'price-asc' || sort === 'price-desc' ? c.pricingOptionType ?? '' : ''}`)!;
    // Walking the order costs about (offset + limit) × n / size steps; sorting the set by rank
    // about size × log(size) comparisons. Take the cheaper.
    const walk = ((offset + limit) * this.listings.n) / size;
    if (size * Math.log2(size + 1) * 4 < walk) {
      const idx = bits.toIndices(set, size, matched.lo, matched.hi);
      idx.sort((a, b) => o.rank[a] - o.rank[b]);
      return idx.subarray(offset, offset + limit);
    }
    return walkOrder(set, size, (k) => o.order[k], this.listings.n, offset, limit);
  }

  /**
   * Members ranked offset..offset+limit by distance from a point. A wide set is searched in
   * latitude bands around the point, widened until the members nearer than the band's half-width
   * are enough: a listing outside the band is farther than that (its latitude alone is). Else, or
   * when the members with coordinates are too few, every member is measured.
   */
  private nearest(matched: MatchSet, lat: number, lng: number, offset: number, limit: number): ArrayLike<number> {
    const { bits: set, count: size } = matched;
    const { latOrder, slugRank } = this.listings;
    const nearness = this.listings.nearnessFrom(lat, lng);
    if (size > WIDE_SET) {
      for (let half = FIRST_BAND; half < 180; half *= 4) {
        const [start, end] = this.listings.latRange(lat - half, lat + half);
        // a margin far above rounding: a listing outside the band never passes
        const bound = haversineTermOfArc(half) * (1 - 1e-9);
        const idx: number[] = [], keys: number[] = [];
        for (let k = start; k < end; k++) {
          const i = latOrder[k];
          if (!bits.has(set, i)) continue;
          const key = nearness(i);
          if (key <= bound) { idx.push(i); keys.push(key); }
        }
        if (idx.length >= offset + limit) return selectRange(Int32Array.from(idx), Float64Array.from(keys), slugRank, offset, limit);
      }
    }
    const idx = bits.toIndices(set, size, matched.lo, matched.hi);
    const keys = new Float64Array(size);
    for (let k = 0; k < size; k++) keys[k] = nearness(idx[k]);
    return selectRange(idx, keys, slugRank, offset, limit);
  }

  private randomSlice(matched: MatchSet, seed: number, offset: number, limit: number): ArrayLike<number> {
    const { bits: set, count: size } = matched;
    const n = this.listings.n;
    const perm = new RandomOrder(n, seed);
    // A walk tests about (offset + limit) × n / size positions; ranking the members costs one
    // inverse permutation each, then a selection.
    if ((offset + limit) * n < size * size * 2) return walkOrder(set, size, (k) => perm.at(k), n, offset, limit);
    const idx = bits.toIndices(set, size, matched.lo, matched.hi);
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
