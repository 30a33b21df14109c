/**
 * Counting the value facets (one value per listing: a place, an operator) in a context: each
 * listing's value read from its column in the kernels' memory (kernels.ts), into a counter per
 * value. Each facet is counted the way that costs least for the context: a place by popcounts
 * over its ranges, another by a look at each of its listings, or by a pass over the members. A
 * place with more values than a list holds, under a wide context, is counted value by value from
 * its largest in a tally that holds the context, only until the rest cannot be listed (countTop).
 */
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import { pop32 } from './bitset.ts';
import type { ByCount } from './facet-lists.ts';
import type { FacetContext, ValueFacet } from './filter-index.ts';
import type { KernelMemory, Kernels, Placed } from './kernels.ts';
import { groupByValue } from './postings.ts';

/**
 * What the counting loops cost, in about nanoseconds: a member visited by a pass (tallyMembers), a
 * listing looked up in a context (countGroups), a word of a context's span and a range counted
 * (countRanges), a value looked at for a count (collectTouched), a tally's value added (countLess),
 * a place counted by itself (countTop).
 */
const COST = { member: 3, lookup: 1.7, word: 1.2, range: 6, value: 1, tallied: 2, visit: 60 } as const;

/** A value facet's arrays in the kernels' memory: its counters and what it is counted from. */
interface FacetArrays {
  /** each value's count, zero between requests (and one more entry, counted into for the listings without a value) */
  counts: Placed<Int32Array>;
  /** the ids a count has touched */
  touched: Placed<Int32Array>;
  /** each listing's value id (the extra entry of counts for none) */
  valueIds: Placed<Int32Array>;
  /** a place's ranges */
  ranges?: { start: Placed<Int32Array>; end: Placed<Int32Array>; byStart: Placed<Int32Array> };
  /** else its listings grouped by value */
  groups?: { starts: Placed<Int32Array>; members: Placed<Int32Array> };
}

/** The arrays ValueCounts counts with, placed in a kernels' memory before it is opened. */
export interface ValueArrays {
  readonly byFacet: Map<ValueFacet, FacetArrays>;
  /** the context counted when its bits are not in the memory: its words copied in, zero elsewhere */
  readonly slot: Placed<Uint32Array>;
  /** the members of the context before each of its words (prefixCounts) */
  readonly prefix: Placed<Int32Array>;
}

/** Places the arrays of the value facets of n listings (`words` words of bits) in memory. */
export function placeValueArrays(memory: KernelMemory, facets: readonly ValueFacet[], n: number, words: number): ValueArrays {
  const slot = memory.uint32(words);
  const prefix = memory.int32(words + 1);
  const byFacet = new Map<ValueFacet, FacetArrays>();
  for (const facet of facets) {
    const size = facet.values.length;
    const { ranges } = facet;
    const groups = ranges ? undefined : groupByValue(facet.valueIds, size);
    byFacet.set(facet, {
      counts: memory.int32(size + 1), touched: memory.int32(size), valueIds: memory.int32(n, facet.valueIds.map((v) => (v < 0 ? size : v))),
      ranges: ranges && { start: memory.int32(size, ranges.start), end: memory.int32(size, ranges.end), byStart: memory.int32(ranges.byStart.length, ranges.byStart) },
      groups: groups && { starts: memory.int32(size + 1, groups.starts), members: memory.int32(groups.members.length, groups.members) },
    });
  }
  return { byFacet, slot, prefix };
}

/** A context to count, with the byte offset of its bits when they are in the kernels' memory. */
export interface CountableContext extends FacetContext {
  readonly at?: number;
}

/** A facet's counts by value id, and the ids counted above 0. */
export interface ValueTally {
  readonly t: Int32Array;
  readonly ids: Int32Array;
}

export class ValueCounts {
  private slotLo = 0;
  private slotHi = 0;
  /** the MAX_FACET_VALUES highest counts countTop has found, a min-heap */
  private readonly highest = new Int32Array(MAX_FACET_VALUES);

  constructor(private readonly arrays: ValueArrays, private readonly kernels: Kernels, private readonly words: number) {}

  /** A facet's counters, by value id: what the last count wrote, until `clear`. */
  countsOf(facet: ValueFacet): Int32Array {
    return this.arrays.byFacet.get(facet)!.counts.view;
  }

  /** Zeroes a facet's counters after a count that touched the ids `touched`: the next count starts from zero. */
  clear(facet: ValueFacet, touched: ArrayLike<number>): void {
    const counts = this.countsOf(facet);
    if (touched.length * 8 > counts.length) counts.fill(0);
    else for (let k = 0; k < touched.length; k++) counts[touched[k]] = 0;
  }

  /** Counts each facet's values in ctx into its counters; returns the ids each count touched. */
  count(ctx: CountableContext, facets: readonly ValueFacet[]): Int32Array[] {
    const at = ctx.at ?? this.load(ctx);
    const pass = COST.member * ctx.count;
    let prefixed = false;
    return facets.map((facet) => {
      const { counts, touched, valueIds, ranges, groups } = this.arrays.byFacet.get(facet)!;
      const size = facet.values.length;
      let found: number;
      if (ranges && this.rangesCost(ctx, ranges) < pass) {
        if (!prefixed) this.kernels.prefixCounts(at, ctx.lo, ctx.hi, this.arrays.prefix.at);
        prefixed = true;
        // the first range that ends after word lo
        const { end: { view: end }, byStart: { view: byStart } } = ranges;
        let l = 0, r = byStart.length;
        while (l < r) { const m = (l + r) >>> 1; if (end[byStart[m]] <= ctx.lo << 5) l = m + 1; else r = m; }
        found = this.kernels.countRanges(at, ctx.lo, ctx.hi, this.arrays.prefix.at, ctx.count, ranges.start.at, ranges.end.at, ranges.byStart.at, l, byStart.length, counts.at, touched.at);
      } else if (groups && COST.lookup * groups.members.length < pass) {
        found = this.kernels.countGroups(at, groups.starts.at, groups.members.at, size, counts.at, touched.at);
      } else if (COST.value * size < pass) {
        this.kernels.tallyMembers(at, ctx.lo, ctx.hi, valueIds.at, counts.at);
        found = this.kernels.collectTouched(counts.at, size, touched.at);
      } else found = this.kernels.countMembers(at, ctx.lo, ctx.hi, valueIds.at, counts.at, touched.at, size);
      // the listings without a value were counted into the entry past the values
      counts.view[size] = 0;
      return touched.view.subarray(0, found);
    });
  }

  /**
   * Counts each facet's values in ctx into its counters, as `from` (a wider context's counts,
   * facet by facet) less those of the listings ctx leaves out of it (`left`) where that costs less
   * than counting ctx itself (a place of thousands of values is counted by its ranges); returns
   * the ids above 0.
   */
  countLess(ctx: CountableContext, left: CountableContext, facets: readonly ValueFacet[], from: readonly ValueTally[]): Int32Array[] {
    const byLeft = facets.map((f, k) => {
      const arrays = this.arrays.byFacet.get(f)!;
      return this.countCost(left, arrays) + COST.tallied * from[k].ids.length < this.countCost(ctx, arrays);
    });
    const counted = this.count(ctx, facets.filter((_, k) => !byLeft[k]));
    const lessBy = this.count(left, facets.filter((_, k) => byLeft[k]));
    let direct = 0, less = 0;
    return facets.map((facet, k) => {
      if (!byLeft[k]) return counted[direct++];
      const { counts: { view: counts }, touched: { view: touched } } = this.arrays.byFacet.get(facet)!;
      const lessIds = lessBy[less++];
      for (let j = 0; j < lessIds.length; j++) counts[lessIds[j]] = -counts[lessIds[j]];
      const { t, ids } = from[k];
      let size = 0;
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if ((counts[id] += t[id]) > 0) touched[size++] = id;
      }
      return touched.subarray(0, size);
    });
  }

  /**
   * Counts a place's values in ctx (whose counts were counted in a tally that holds it: `byBound`,
   * its ids by those counts) only as far as its list needs, into its counters: its values in the
   * order of their counts in the bound, each by itself, until MAX_FACET_VALUES of them count more
   * than the next one's bound (no value after can be listed or tie at the cap) and one more is
   * counted above 0 (the facet was cut), then each value of `chosen` (listed whatever it counts).
   * A wide context's list is mostly its bound's largest places: the cost grows with the list, not
   * with the places. Returns the ids counted above 0, or undefined (nothing counted) when that
   * would visit more values than counting every range costs.
   */
  countTop(ctx: CountableContext, facet: ValueFacet, byBound: ByCount, chosen: readonly number[]): Int32Array | undefined {
    const arrays = this.arrays.byFacet.get(facet)!;
    const { ranges } = arrays;
    const budget = this.topBudget(ctx, facet);
    if (budget === 0) return undefined;
    const at = ctx.at ?? this.load(ctx);
    const bits = ctx.at === undefined ? this.arrays.slot.view : ctx.bits;
    this.kernels.prefixCounts(at, ctx.lo, ctx.hi, this.arrays.prefix.at);
    const prefix = this.arrays.prefix.view;
    const { lo, hi, count: total } = ctx;
    const { start: { view: start }, end: { view: end } } = ranges!;
    // ctx's members before listing i (as countRanges counts them)
    const before = (i: number) => {
      const w = i >>> 5;
      return w < lo ? 0 : w >= hi ? total : prefix[w - lo] + pop32(bits[w] & ((1 << i) - 1));
    };
    const { counts: { view: counts }, touched: { view: touched } } = arrays;
    const heap = this.highest;
    let found = 0, held = 0;
    for (let k = 0; k < byBound.ids.length; k++) {
      const next = byBound.counts[k];
      if (next === 0 || (held === MAX_FACET_VALUES && heap[0] > next && found > MAX_FACET_VALUES)) break;
      if (k >= budget) {
        this.clear(facet, touched.subarray(0, found));
        return undefined;
      }
      const id = byBound.ids[k];
      const c = before(end[id]) - before(start[id]);
      if (c === 0) continue;
      counts[id] = c;
      touched[found++] = id;
      if (held < MAX_FACET_VALUES) siftUp(heap, held++, c);
      else if (c > heap[0]) siftDown(heap, held, c);
    }
    for (const id of chosen) {
      if (counts[id] > 0) continue;
      const c = before(end[id]) - before(start[id]);
      if (c > 0) { counts[id] = c; touched[found++] = id; }
    }
    return touched.subarray(0, found);
  }

  /** How many values countTop may look at in ctx before it costs more than counting every range: 0 when too few to list. */
  topBudget(ctx: FacetContext, facet: ValueFacet): number {
    const arrays = this.arrays.byFacet.get(facet)!;
    const budget = arrays.ranges ? this.countCost(ctx, arrays) / COST.visit : 0;
    return budget < 4 * MAX_FACET_VALUES ? 0 : budget;
  }

  /** What counting by a place's ranges costs in ctx. */
  private rangesCost(ctx: FacetContext, ranges: NonNullable<FacetArrays['ranges']>): number {
    const span = ctx.hi - ctx.lo;
    return COST.word * span + (COST.range * ranges.byStart.length * span) / this.words;
  }

  /** What counting a facet in ctx costs the cheapest way `count` has. */
  private countCost(ctx: FacetContext, { ranges, groups }: FacetArrays): number {
    const pass = COST.member * ctx.count;
    if (ranges) return Math.min(pass, this.rangesCost(ctx, ranges));
    if (groups) return Math.min(pass, COST.lookup * groups.members.length);
    return pass;
  }

  /** Copies ctx into the slot (what the last context left there cleared); returns the slot's byte offset. */
  private load(ctx: FacetContext): number {
    const { slot } = this.arrays;
    slot.view.fill(0, this.slotLo, this.slotHi);
    slot.view.set(ctx.bits.subarray(ctx.lo, ctx.hi), ctx.lo);
    this.slotLo = ctx.lo;
    this.slotHi = ctx.hi;
    return slot.at;
  }
}

/** Adds c to the min-heap of `size` counts. */
function siftUp(heap: Int32Array, size: number, c: number): void {
  let k = size;
  while (k > 0) {
    const parent = (k - 1) >> 1;
    if (heap[parent] <= c) break;
    heap[k] = heap[parent];
    k = parent;
  }
  heap[k] = c;
}

/** Replaces the least count of the full min-heap of `size` counts with c. */
function siftDown(heap: Int32Array, size: number, c: number): void {
  let k = 0;
  for (;;) {
    let child = 2 * k + 1;
    if (child >= size) break;
    if (child + 1 < size && heap[child + 1] < heap[child]) child++;
    if (heap[child] >= c) break;
    heap[k] = heap[child];
    k = child;
  }
  heap[k] = c;
}
