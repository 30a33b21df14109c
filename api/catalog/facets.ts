/**
 * GET /v1/facets from the registry's facets and ranges. Facets are disjunctive: a facet counts
 * under every filter but the ones it ignores (its own), so its count for a value is the list
 * total with that value selected instead. Each filter of the request is matched once on its own;
 * each distinct context is the intersection of those it keeps, in a reused buffer, over the words
 * where all of them have members. Those sets live in the kernels' memory (kernels.ts), which
 * intersects them 64 bits at a time, as do the tallies' listings: a filter whose set is the
 * intersection of tallied values (several amenities) is intersected from theirs.
 * The facets with one value per listing that share a context are counted in one pass over its
 * members, a place's by popcounts over its ranges. The contexts most requests share and that are
 * wide (every listing; one option type, amenity, country or currency alone, a point without a
 * radius: a filter's `tallied` values) are counted once per build into tallies, with the values
 * each lists per locale and the ranges that depend on the context alone. A context inside a tally's listings that holds most of them (two
 * amenities: most listings with the first have the second) is counted as the tally less the
 * listings of the tally it leaves out, facet by facet where that costs less than counting the
 * context.
 */
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { facetHead, labelledValueSets, listedJson, type FacetsOut, type LabelledValues, type Ranges } from './facet-payload.ts';
import type { CountedFacet, FacetContext, FilterValues, RangeSummary, ValueFacet } from './filters.ts';
import { KernelMemory, type Kernels, type Placed } from './kernels.ts';
import { groupByValue } from './postings.ts';
import type { IndexedFilter, Matcher } from './match.ts';

export interface FacetLabeling {
  /** the locale of the labels (a facet's values are listed in its label order) */
  locale: string;
  key(facet: string): string;
  value(facet: string, value: string): string;
  /** orders two values by their labels, then by value */
  compare(a: { value: string; label: string }, b: { value: string; label: string }): number;
  /** a labelled value's place in that order (precomputed), undefined for a value without a label */
  rank(facet: string, value: string): number | undefined;
}

const isValueFacet = (f: unknown): f is ValueFacet => (f as ValueFacet).valueIds !== undefined;

/** Two labelled values in the order of their labels: by their places among the labels, else collated. */
const byLabel = (a: { value: string; label: string; rank?: number }, b: { value: string; label: string; rank?: number }, labeling: FacetLabeling) =>
  (a.rank !== undefined && b.rank !== undefined ? a.rank - b.rank : labeling.compare(a, b));

/** The counts of every facet under one context (its listings, in the kernels' memory), counted once per build. */
interface Tally extends FacetContext {
  /** the byte offset of its bits */
  readonly at: number;
  /** each value facet's counts by value id and the ids counted above 0 */
  readonly counts: Map<ValueFacet, { t: Int32Array; ids: Int32Array }>;
  /** each other facet's counts, in the order of its values (those that read nothing but the context) */
  readonly added: Map<CountedFacet, Int32Array>;
  /** what each range summary that reads nothing but the context describes */
  readonly described: Map<RangeSummary, Ranges>;
  /** the ids of each facet with more values than a list holds, by their counts here (highest first), and those counts: a context inside the tally counts each value at most that */
  readonly byCount: Map<ValueFacet, ByCount>;
  /** the ids each value facet lists in a locale, in their order */
  readonly listed: Map<InLocale, readonly number[]>;
  /** their JSON */
  readonly listedJson: Map<InLocale, Uint8Array>;
}

/** A facet's value ids in the order of their labels in one locale, and each id's place in that order. */
interface LabelOrder {
  readonly order: Int32Array;
  readonly place: Int32Array;
}

/** A facet in one locale: its values labelled, in their label order. */
interface InLocale extends LabelOrder {
  readonly labelled: LabelledValues;
}

/** Value ids by their counts in a set of listings, highest first, and those counts. */
interface ByCount {
  readonly ids: Int32Array;
  readonly counts: Int32Array;
}

/** ids by their counts in t, highest first (ties in the order given): a counting sort, the counts being at most the listings */
function byCount(t: Int32Array, ids: Iterable<number>): ByCount {
  const from = Int32Array.from(ids);
  let max = 0;
  for (let k = 0; k < from.length; k++) if (t[from[k]] > max) max = t[from[k]];
  // the place of the first id with each count, highest first
  const place = new Int32Array(max + 2);
  for (let k = 0; k < from.length; k++) place[max - t[from[k]] + 1]++;
  for (let c = 0; c <= max; c++) place[c + 1] += place[c];
  const sorted = new Int32Array(from.length), counts = new Int32Array(from.length);
  for (let k = 0; k < from.length; k++) {
    const at = place[max - t[from[k]]]++;
    sorted[at] = from[k];
    counts[at] = t[from[k]];
  }
  return { ids: sorted, counts };
}

interface Context extends FacetContext {
  /** the byte offset of its bits when they are in the kernels' memory */
  at?: number;
  /** its counts when they were counted once per build */
  tally?: Tally;
  /** else the tally with the fewest listings that holds its own (every listing, if no other does) */
  bound?: Tally;
  /** and when it leaves out fewer of that tally's listings than a pass over it would visit, those listings */
  left?: Context;
}

/** more than the values of any facet: a value's place in label order is a number below it */
const PLACES = 2 ** 24;
/** up to this many values are sorted by insertion */
const FEW_KEYS = 24;
/**
 * What the counting loops cost, in about nanoseconds: a member visited by a pass (tallyMembers), a
 * listing looked up in a context (countGroups), a word of a context's span and a range counted
 * (countRanges), a value looked at for a count (collectTouched), a tally's value added (countLess).
 */
const COST = { member: 3, lookup: 1.7, word: 1.2, range: 6, value: 1, tallied: 2 } as const;

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

/** The bytes of the whole 64-bit words that hold the 32-bit words [lo, hi): the kernels read and write 64 bits at a time. */
const byteFrom = (lo: number) => 4 * (lo & ~1);
const byteTo = (hi: number) => 4 * (hi + (hi & 1));

/** A set of listings as a context (empty outside the words [lo, hi) given). */
function span(b: Bitset, lo = 0, hi = b.length): Context {
  const w = bits.wordsOf(b, lo, hi);
  return { bits: b, count: bits.count(b, w.lo, w.hi), lo: w.lo, hi: w.hi };
}

/** The values a filter selects in f (a facet shows them even at count 0). */
function selected(x: IndexedFilter, f: FilterValues): string[] {
  const out: string[] = [];
  for (const p of x.params) {
    const v = f[p];
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) out.push(...(v as string[]));
  }
  return out;
}

export class FacetCounter {
  /** buffers reused by every request (the server answers one at a time) */
  private readonly scratch: Placed<Uint32Array>[];
  /** the words of each scratch buffer that may hold members (the rest are zero) */
  private readonly scratchLo: number[] = [];
  private readonly scratchHi: number[] = [];
  /** the listings of a tally each context leaves out */
  private readonly leftScratch: Placed<Uint32Array>[];
  /** the sets of the filters of a request, each alone, and the words of each that may hold members */
  private readonly own: Placed<Uint32Array>[];
  private readonly ownLo: number[] = [];
  private readonly ownHi: number[] = [];
  /** the value facets of the registry */
  private readonly valueFacets: { x: IndexedFilter; facet: ValueFacet }[] = [];
  /** each value facet's counters and arrays in the kernels' memory */
  private readonly counters = new Map<ValueFacet, FacetArrays>();
  /** each facet in each locale (built with the engine), by locale */
  private readonly inLocale = new Map<string, Map<ValueFacet | CountedFacet, InLocale>>();
  /** the values a facet's top may list (candidates) */
  private readonly candidateIds: Int32Array;
  /** each facet's value ids by value */
  private readonly idOf = new Map<ValueFacet | CountedFacet, Map<string, number>>();
  /** the ids of another facet's values counted above 0 (writeCounted) */
  private readonly positiveIds: Int32Array;
  /** each facet's JSON up to its values, by locale */
  private readonly heads = new Map<string, Map<IndexedFilter, Uint8Array>>();
  /** the other facets of the registry */
  private readonly countedFacets: { x: IndexedFilter; facet: CountedFacet }[] = [];
  /** the range summaries of the registry */
  private readonly summaries: RangeSummary[];
  /** each other facet's counts as the counts of a tally less those of the listings a context leaves out */
  private readonly lessCounts = new Map<CountedFacet, Int32Array>();
  /** the counts over every listing (the totals) */
  private readonly whole: Tally;
  /** the counts under each tallied value of a filter alone, by filter, then value */
  private readonly tallies = new Map<IndexedFilter, Map<string, Tally>>();
  /** a context is named by a number with a bit for each filter it keeps (the filter's place in the registry) */
  private readonly bitOf = new Map<IndexedFilter, number>();
  /** the bits of the filters a facet or range summary ignores, by its `ignores` */
  private readonly ignoredBits = new Map<readonly string[], number>();
  /** how many values of one facet have each count below `big`, to find the count at the cap */
  private readonly histogram: Int32Array;
  /** a count that fewer than MAX_FACET_VALUES values of a facet reach, and those values (top) */
  private readonly big: number;
  private readonly bigIds = new Int32Array(MAX_FACET_VALUES);
  /** the values listed as numbers that sort by count, then label (sortedByCountThenLabel) */
  private readonly sortKeys: Float64Array;
  /** the places in label order of the values a walk lists, a bit each (top) */
  private readonly marked: Uint32Array;
  /** the counting loops (kernels.ts), over the context in `slot` and the arrays of the facets */
  private readonly kernels: Kernels;
  /** the context counted: its words [slotLo, slotHi) copied, zero elsewhere */
  private readonly slot: Placed<Uint32Array>;
  private slotLo = 0;
  private slotHi = 0;
  /** the members of the context before each of its words (prefixCounts) */
  private readonly prefix: Placed<Int32Array>;

  constructor(private readonly matcher: Matcher, private readonly all: Bitset, private readonly n: number) {
    this.big = Math.floor(n / MAX_FACET_VALUES) + 1;
    this.histogram = new Int32Array(this.big + 1);
    if (matcher.declared.length > 31) throw new Error(`a facet context has a bit per filter: ${matcher.declared.length} filters are more than 31`);
    matcher.declared.forEach((x, k) => this.bitOf.set(x, 1 << k));
    this.summaries = matcher.declared.flatMap((x) => (x.index.summary ? [x.index.summary] : []));
    const wholeCounts: Tally['counts'] = new Map();
    const wholeByCount: Tally['byCount'] = new Map();
    for (const x of matcher.declared) {
      for (const ignores of [x.index.facet?.ignores, x.index.summary?.ignores]) {
        if (ignores) this.ignoredBits.set(ignores, matcher.declared.reduce((bits, y, k) => (ignores.includes(y.name) ? bits | (1 << k) : bits), 0));
      }
    }
    for (const x of matcher.declared) {
      const facet = x.index.facet;
      if (!facet) continue;
      this.idOf.set(facet, new Map(facet.values.map((v, id) => [v, id])));
      if (!isValueFacet(facet)) {
        this.countedFacets.push({ x, facet });
        this.lessCounts.set(facet, new Int32Array(facet.values.length));
        continue;
      }
      const size = facet.values.length;
      this.valueFacets.push({ x, facet });
      wholeCounts.set(facet, { t: facet.totals, ids: Int32Array.from(facet.values.keys()).filter((id) => facet.totals[id] > 0) });
      if (size > MAX_FACET_VALUES) wholeByCount.set(facet, byCount(facet.totals, facet.values.keys()));
    }
    const mostValues = Math.max(0, ...this.valueFacets.map(({ facet }) => facet.values.length));
    this.candidateIds = new Int32Array(mostValues);
    this.marked = new Uint32Array(bits.words(mostValues));
    const mostOthers = Math.max(0, ...this.countedFacets.map(({ facet }) => facet.values.length));
    this.positiveIds = new Int32Array(mostOthers);
    this.sortKeys = new Float64Array(Math.max(MAX_FACET_VALUES, mostOthers));
    const memory = new KernelMemory();
    // a request has at most a context per facet and range summary, and every listing's
    const contexts = 1 + matcher.declared.filter((x) => x.index.facet || x.index.summary).length;
    this.scratch = Array.from({ length: contexts }, () => memory.uint32(all.length));
    this.leftScratch = Array.from({ length: contexts }, () => memory.uint32(all.length));
    this.slot = memory.uint32(all.length);
    this.prefix = memory.int32(all.length + 1);
    this.own = matcher.declared.map(() => memory.uint32(all.length));
    const facets = this.valueFacets.map((v) => v.facet);
    // the listings of each tallied value, matched now to be laid out in the memory
    const talliedSets = facets.length === 0 ? [] : matcher.declared.flatMap((x) => (x.index.tallied?.values ?? []).flatMap((value) => {
      const b = matcher.match(x.index.tallied!.filters(value)).bits;
      const { count, lo, hi } = span(b);
      return count === 0 ? [] : [{ x, value, count, lo, hi, placed: memory.uint32(all.length, b) }];
    }));
    const wholeBits = memory.uint32(all.length, all);
    for (const { facet } of this.valueFacets) {
      const size = facet.values.length;
      const { ranges } = facet;
      const groups = ranges ? undefined : groupByValue(facet.valueIds, size);
      this.counters.set(facet, {
        counts: memory.int32(size + 1), touched: memory.int32(size), valueIds: memory.int32(n, facet.valueIds.map((v) => (v < 0 ? size : v))),
        ranges: ranges && { start: memory.int32(size, ranges.start), end: memory.int32(size, ranges.end), byStart: memory.int32(ranges.byStart.length, ranges.byStart) },
        groups: groups && { starts: memory.int32(size + 1, groups.starts), members: memory.int32(groups.members.length, groups.members) },
      });
    }
    this.kernels = memory.open();
    this.whole = { bits: wholeBits.view, at: wholeBits.at, count: n, lo: 0, hi: all.length, counts: wholeCounts, byCount: wholeByCount, added: new Map(), described: new Map(), listed: new Map(), listedJson: new Map() };
    for (const { x, value, count, lo, hi, placed } of talliedSets) {
      const ctx = { bits: placed.view, at: placed.at, count, lo, hi };
      const touched = this.countValues(ctx, facets);
      const counts = new Map<ValueFacet, { t: Int32Array; ids: Int32Array }>();
      const sorted = new Map<ValueFacet, ByCount>();
      facets.forEach((facet, k) => {
        const c = this.counters.get(facet)!.counts.view;
        const t = c.slice();
        counts.set(facet, { t, ids: touched[k].slice() });
        if (touched[k].length > MAX_FACET_VALUES) sorted.set(facet, byCount(t, touched[k]));
        for (const id of touched[k]) c[id] = 0;
      });
      if (!this.tallies.has(x)) this.tallies.set(x, new Map());
      this.tallies.get(x)!.set(value, { ...ctx, counts, byCount: sorted, added: this.countOthers(ctx), described: this.describeOnce(ctx), listed: new Map(), listedJson: new Map() });
    }
    for (const [facet, added] of this.countOthers(this.whole)) this.whole.added.set(facet, added);
    for (const [summary, ranges] of this.describeOnce(this.whole)) this.whole.described.set(summary, ranges);
  }

  /**
   * Writes into `out` (empty outside the words [lo, hi)) the intersection of `sets` (sets in the
   * kernels' memory) over those words: the first one's words, then each other's ANDed in.
   */
  private intersect(out: Placed<Uint32Array>, sets: readonly { bits: Bitset; at: number }[], lo: number, hi: number): void {
    out.view.set(sets[0].bits.subarray(lo, hi), lo);
    for (let k = 1; k < sets.length; k++) this.kernels.andInto(out.at, sets[k].at, byteFrom(lo), byteTo(hi));
  }

  /** The listings of the tally that ctx leaves out, in a scratch buffer of its own (`slot`: the context's). */
  private leftOut(tally: Tally, ctx: Context & { at: number }, slot: number): Context {
    const { view: b, at } = this.leftScratch[slot];
    this.kernels.andNot(at, tally.at, ctx.at, 0, byteTo(b.length));
    return this.resident(b, at, 0, b.length);
  }

  /** A set in the kernels' memory as a context (empty outside the words [lo, hi) given), counted by popcount. */
  private resident(b: Bitset, at: number, lo: number, hi: number): Context & { at: number } {
    const w = bits.wordsOf(b, lo, hi);
    // the 32-bit words next to each end are zero (outside [lo, hi), or past the end)
    const count = this.kernels.countBits(at, byteFrom(w.lo), byteTo(w.hi));
    return { bits: b, count, lo: w.lo, hi: w.hi, at };
  }

  /**
   * Counts each facet's values in ctx into its counters, as the tally's less those of the listings
   * ctx leaves out of it (`left`) where that costs less than counting ctx itself (a place of
   * thousands of values is counted by its ranges); returns the ids above 0.
   */
  private countLess(tally: Tally, ctx: Context, facets: ValueFacet[]): Int32Array[] {
    const left = ctx.left!;
    const byLeft = facets.map((f) => {
      const arrays = this.counters.get(f)!;
      return this.countCost(left, arrays) + COST.tallied * tally.counts.get(f)!.ids.length < this.countCost(ctx, arrays);
    });
    const counted = this.countValues(ctx, facets.filter((_, k) => !byLeft[k]));
    const lessBy = this.countValues(left, facets.filter((_, k) => byLeft[k]));
    let direct = 0, less = 0;
    return facets.map((facet, k) => {
      if (!byLeft[k]) return counted[direct++];
      const { counts: { view: counts }, touched: { view: touched } } = this.counters.get(facet)!;
      const lessIds = lessBy[less++];
      for (let j = 0; j < lessIds.length; j++) counts[lessIds[j]] = -counts[lessIds[j]];
      const { t, ids } = tally.counts.get(facet)!;
      let size = 0;
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        if ((counts[id] += t[id]) > 0) touched[size++] = id;
      }
      return touched.subarray(0, size);
    });
  }

  /** The counts under ctx of each facet that is not a value facet and depends on the context alone. */
  private countOthers(ctx: FacetContext): Map<CountedFacet, Int32Array> {
    const out = new Map<CountedFacet, Int32Array>();
    for (const { facet } of this.countedFacets) {
      if (facet.contextOnly?.({})) out.set(facet, facet.count(ctx, {}).slice());
    }
    return out;
  }

  /** What each range summary that depends on the context alone describes under ctx. */
  private describeOnce(ctx: FacetContext): Map<RangeSummary, Ranges> {
    const out = new Map<RangeSummary, Ranges>();
    for (const summary of this.summaries) {
      if (!summary.contextOnly?.({})) continue;
      const ranges: Ranges = {};
      summary.describe(ctx, {}, ranges);
      out.set(summary, ranges);
    }
    return out;
  }

  /**
   * Orders each facet's values by their labels in the labeling's locale (its `rank`: a value's
   * place among the labels), keeps the labels and lists each tally's values; makes each facet's JSON
   * up to its values.
   */
  orderByLabels(labeling: FacetLabeling): void {
    const { locale } = labeling;
    this.heads.set(locale, new Map(this.matcher.declared.filter((x) => x.index.facet).map((x) => [x, Buffer.from(facetHead(x.name, labeling.key(x.name)))])));
    const inLocale = new Map<ValueFacet | CountedFacet, InLocale>();
    this.inLocale.set(locale, inLocale);
    const tallies = [this.whole, ...[...this.tallies.values()].flatMap((byValue) => [...byValue.values()])];
    // every facet's values share one memory: the value facets', then the others'
    const labelledSets = labelledValueSets([...this.valueFacets, ...this.countedFacets].map(({ x, facet }) => ({ values: facet.values, labels: facet.values.map((v) => labeling.value(x.name, v)) })));
    for (const [f, { x, facet }] of this.valueFacets.entries()) {
      const labelled = labelledSets[f];
      // the labelled values by their places among the labels (a scatter, no sort), then any value without a label by value
      const places = facet.values.map((v) => labeling.rank(x.name, v));
      let labels = 0;
      for (const p of places) if (p !== undefined && p >= labels) labels = p + 1;
      const byPlace = new Int32Array(labels).fill(-1);
      const unlabelled: number[] = [];
      places.forEach((p, id) => {
        if (p === undefined) unlabelled.push(id); else byPlace[p] = id;
      });
      const order = new Int32Array(facet.values.length);
      let k = 0;
      for (const id of byPlace) if (id >= 0) order[k++] = id;
      for (const id of unlabelled.sort((a, b) => (facet.values[a] < facet.values[b] ? -1 : 1))) order[k++] = id;
      const place = new Int32Array(order.length);
      order.forEach((id, at) => { place[id] = at; });
      const l: InLocale = { labelled, order, place };
      inLocale.set(facet, l);
      for (const tally of tallies) {
        const { t, ids: counted } = tally.counts.get(facet)!;
        const ids = this.top(t, counted, l);
        tally.listed.set(l, ids);
        tally.listedJson.set(l, listedJson(labelled, ids, t));
      }
    }
    for (const [j, { x, facet }] of this.countedFacets.entries()) {
      const labelled = labelledSets[this.valueFacets.length + j];
      const values = facet.values.map((value, id) => ({ value, label: labelled.labels[id], rank: labeling.rank(x.name, value) }));
      const order = Int32Array.from(values.keys()).sort((a, b) => byLabel(values[a], values[b], labeling));
      const place = new Int32Array(order.length);
      order.forEach((id, at) => { place[id] = at; });
      inLocale.set(facet, { labelled, order, place });
    }
  }

  /**
   * The ids a value facet lists from its counts t (`ids`: the values counted above 0), by count
   * then label: every one when they are at most MAX_FACET_VALUES, else the highest counts (the
   * first in label order among those tied at the cap's count).
   */
  private top(t: Int32Array, ids: Int32Array, { order, place }: InLocale): number[] {
    if (ids.length <= MAX_FACET_VALUES) return this.sortedByCountThenLabel(t, ids, place, order);
    // the counts of a value facet add up to at most n: fewer than MAX_FACET_VALUES values reach `big`,
    // so those are listed, sorted apart; the others are placed by how many values have each count
    const { big, histogram: h, bigIds, marked } = this;
    let bigs = 0, max = 0;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k], c = t[id];
      if (c >= big) { bigIds[bigs++] = id; continue; }
      h[c]++;
      if (c > max) max = c;
    }
    // listed: every count above `atCap`, and the first `ties` in label order of those equal to it
    let above = bigs, atCap = max;
    for (; above + h[atCap] < MAX_FACET_VALUES; atCap--) above += h[atCap];
    let ties = MAX_FACET_VALUES - above;
    // a bit for the place in label order of each value that may be listed: the walk below visits only these
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k], c = t[id];
      if (c < atCap || c >= big) continue;
      const p = place[id];
      marked[p >>> 5] |= 1 << (p & 31);
    }
    // h[c] becomes the place of the first value with count c (higher counts first), then the walk places each
    for (let c = max, at = bigs; c > atCap; c--) { const k = h[c]; h[c] = at; at += k; }
    const listed = this.sortedByCountThenLabel(t, bigIds.subarray(0, bigs), place, order);
    listed.length = MAX_FACET_VALUES;
    let w = 0;
    for (let tie = above, left = MAX_FACET_VALUES - bigs; left > 0; w++) {
      let x = marked[w];
      marked[w] = 0;
      while (x) {
        const low = x & -x;
        x ^= low;
        const id = order[(w << 5) + 31 - Math.clz32(low)], c = t[id];
        if (c > atCap) { listed[h[c]++] = id; left--; }
        else if (c === atCap && ties > 0) { listed[tie++] = id; ties--; left--; }
      }
    }
    marked.fill(0, w, bits.words(order.length));
    h.fill(0, 0, max + 1);
    return listed;
  }

  /**
   * The values counted above 0 (`ids`, counts t) that may be among a facet's MAX_FACET_VALUES
   * highest counts in a context that `bound` holds, where no value counts more than in bound: when
   * the values with the highest counts in bound already hold that many counted at least c here, a
   * value counted below c in bound cannot be listed, and only the values counted c or more in bound
   * are looked at (a context inside an amenity's or option type's listings is mostly most of them).
   */
  private candidates(facet: ValueFacet, t: Int32Array, ids: Int32Array, bound: Tally): Int32Array {
    if (ids.length <= MAX_FACET_VALUES) return ids;
    const { ids: byBound, counts } = bound.byCount.get(facet)!;
    const { big, histogram: h } = this;
    const first = Math.min(byBound.length, 2 * MAX_FACET_VALUES);
    for (let k = 0; k < first; k++) {
      const c = t[byBound[k]];
      if (c > 0) h[c < big ? c : big]++;
    }
    // c: the MAX_FACET_VALUES-th highest count among those first values (0: fewer are counted)
    let c = big, reached = 0;
    for (; c > 0 && (reached += h[c]) < MAX_FACET_VALUES; c--);
    h.fill(0);
    // the values counted in bound at c or more: a prefix of byBound
    let end = counts.length;
    if (c > 0) {
      let l = 0;
      while (l < end) { const m = (l + end) >>> 1; if (counts[m] >= c) l = m + 1; else end = m; }
    }
    if (end >= ids.length) return ids;
    const out = this.candidateIds;
    let size = 0;
    for (let k = 0; k < end; k++) if (t[byBound[k]] > 0) out[size++] = byBound[k];
    return out.subarray(0, size);
  }

  /** The ids (at most MAX_FACET_VALUES, or another facet's) by count, then label: each sorted as one number. */
  private sortedByCountThenLabel(t: Int32Array, ids: Int32Array, place: Int32Array, order: Int32Array): number[] {
    const n = ids.length;
    let max = 0;
    for (let k = 0; k < n; k++) if (t[ids[k]] > max) max = t[ids[k]];
    const keys = this.sortKeys;
    for (let k = 0; k < n; k++) keys[k] = (max - t[ids[k]]) * PLACES + place[ids[k]];
    // a few keys (another facet's, a place's) by insertion: a call into the native sort costs more
    if (n > FEW_KEYS) keys.subarray(0, n).sort();
    else {
      for (let k = 1; k < n; k++) {
        const key = keys[k];
        let j = k - 1;
        for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
        keys[j + 1] = key;
      }
    }
    const listed = new Array<number>(n);
    // the place: the key less its count's multiple of PLACES (a power of two: exact, and no floating-point remainder)
    for (let k = 0; k < n; k++) listed[k] = order[keys[k] - Math.floor(keys[k] / PLACES) * PLACES];
    return listed;
  }

  /**
   * The ids a value facet lists from its counts t (`ids`: the values counted above 0; `listedOnce`:
   * the ids listed when counted once per build): by count, then label, at most MAX_FACET_VALUES;
   * the selected values beyond them, listed after them; and the selected values at 0.
   */
  private listValues(facet: ValueFacet, l: InLocale, t: Int32Array, ids: Int32Array, listedOnce: readonly number[] | undefined, bound: Tally, chosen: string[]): { ids: readonly number[]; beyond: number[]; zeros: string[]; cut: boolean } {
    const cut = ids.length > MAX_FACET_VALUES;
    const listed = listedOnce ?? this.top(t, this.candidates(facet, t, ids, bound), l);
    if (chosen.length === 0) return { ids: listed, beyond: [], zeros: [], cut };
    const { place } = l;
    const idOf = this.idOf.get(facet)!;
    const beyond: number[] = [];
    const zeros: string[] = [];
    for (const s of chosen) {
      const id = idOf.get(s);
      if (id !== undefined && t[id] > 0) {
        if (!listed.includes(id) && !beyond.includes(id)) beyond.push(id);
      } else if (!zeros.includes(s)) zeros.push(s);
    }
    beyond.sort((a, b) => t[b] - t[a] || place[a] - place[b]);
    return { ids: listed, beyond, zeros, cut };
  }

  /** The tallies whose listings together (their intersection) are those of x alone under f, if each was counted. */
  private exactTallies(x: IndexedFilter, f: FilterValues): Tally[] | undefined {
    const values = x.index.tallied?.exactly(f);
    const byValue = this.tallies.get(x);
    if (!values || !byValue) return undefined;
    const out: Tally[] = [];
    for (const v of values) {
      const t = byValue.get(v);
      if (!t) return undefined;
      out.push(t);
    }
    return out;
  }

  /**
   * The context of each facet and range summary under f, by its `ignores`: the intersection of the
   * sets of the filters it keeps, each matched alone only within the words of the contexts that
   * keep it (a place's, unless a context ignores the place). A context that is a tally's listings
   * (every listing, or one filter's tallied value) is the tally's, and not intersected.
   */
  private contextsOf(f: FilterValues): Map<readonly string[], Context> {
    const set = this.matcher.setIn(f);
    let setBits = 0;
    for (const x of set) setBits |= this.bitOf.get(x)!;
    // each filter's set as the intersection of tallies, when it is one
    const exact = set.map((x) => this.exactTallies(x, f));
    const byKey = new Map<number, Context>();
    /** the contexts to intersect: the filters each keeps and the words of their spans */
    const pending: { key: number; kept: IndexedFilter[]; lo: number; hi: number }[] = [];
    for (const ignored of this.ignoredBits.values()) {
      const key = setBits & ~ignored;
      if (byKey.has(key) || pending.some((p) => p.key === key)) continue;
      const kept = set.filter((x) => key & this.bitOf.get(x)!);
      const alone = kept.length === 1 ? exact[set.indexOf(kept[0])] : undefined;
      const tally = kept.length === 0 ? this.whole : alone?.length === 1 ? alone[0] : undefined;
      if (tally) byKey.set(key, { bits: tally.bits, count: tally.count, lo: tally.lo, hi: tally.hi, tally });
      else pending.push({ key, kept, ...this.matcher.spanWords(kept, f) });
    }
    // each filter's own set in the kernels' memory, within the words of the contexts that keep it
    const sets = set.map((x, j): { bits: Bitset; at: number; lo: number; hi: number } => {
      let lo = this.all.length, hi = 0;
      for (const p of pending) {
        if (p.kept.includes(x)) { lo = Math.min(lo, p.lo); hi = Math.max(hi, p.hi); }
      }
      const { view: b, at } = this.own[j];
      b.fill(0, this.ownLo[j] ?? 0, this.ownHi[j] ?? 0);
      this.ownLo[j] = this.ownHi[j] = 0;
      if (lo >= hi) return { bits: b, at, lo: 0, hi: 0 };
      const tallies = exact[j];
      if (tallies?.length === 1) return { bits: tallies[0].bits, at: tallies[0].at, ...bits.wordsOf(tallies[0].bits, lo, hi) };
      this.ownLo[j] = lo;
      this.ownHi[j] = hi;
      if (!tallies) {
        const own = this.matcher.ownSet(x, f, b, lo, hi);
        // a set the index holds, copied in
        if (own.bits !== b) b.set(own.bits.subarray(own.lo, own.hi), own.lo);
        return { bits: b, at, lo: own.lo, hi: own.hi };
      }
      // several tallied values (amenities): the intersection of their listings
      this.intersect(this.own[j], tallies, lo, hi);
      return { bits: b, at, ...bits.wordsOf(b, lo, hi) };
    });
    pending.forEach(({ key, kept, lo, hi }, slot) => {
      // the intersection of the kept sets, over the words where all of them have members
      const js = kept.map((x) => set.indexOf(x));
      for (const j of js) { lo = Math.max(lo, sets[j].lo); hi = Math.min(hi, sets[j].hi); }
      if (hi < lo) hi = lo;
      const { view: b, at } = this.scratch[slot];
      b.fill(0, this.scratchLo[slot] ?? 0, this.scratchHi[slot] ?? 0);
      this.intersect(this.scratch[slot], js.map((j) => sets[j]), lo, hi);
      this.scratchLo[slot] = lo;
      this.scratchHi[slot] = hi;
      const c = this.resident(b, at, lo, hi);
      // the tally holding the context with the fewest listings besides it
      let base = this.whole;
      for (const x of kept) {
        for (const value of x.index.tallied?.holding(f) ?? []) {
          const t = this.tallies.get(x)?.get(value);
          if (t && t.count < base.count) base = t;
        }
      }
      if (base.count === c.count) c.tally = base;
      else {
        c.bound = base;
        if (base !== this.whole && base.count - c.count < Math.min(c.count, this.n - c.count)) c.left = this.leftOut(base, c, slot);
      }
      byKey.set(key, c);
    });
    const out = new Map<readonly string[], Context>();
    for (const [ignores, ignored] of this.ignoredBits) out.set(ignores, byKey.get(setBits & ~ignored)!);
    return out;
  }

  /**
   * Writes the facets under the filters f sets to `out`; returns whether a facet had more than
   * MAX_FACET_VALUES values and was cut to its highest counts (its selected values kept beyond the cap).
   */
  facets(f: FilterValues, labeling: FacetLabeling, out: FacetsOut): boolean {
    const contexts = this.contextsOf(f);
    const context = (ignores: readonly string[]) => contexts.get(ignores)!;

    const listed = new Map<IndexedFilter, { labelled: LabelledValues; t: Int32Array; ids: ArrayLike<number>; beyond: number[]; zeros: string[]; json?: Uint8Array }>();
    const countedBy = new Map<IndexedFilter, Int32Array>();
    let truncated = false;
    // value facets grouped by context: one count for each group
    const groups = new Map<Context, { x: IndexedFilter; facet: ValueFacet }[]>();
    for (const x of this.matcher.declared) {
      const facet = x.index.facet;
      if (!facet) continue;
      const ctx = context(facet.ignores);
      if (isValueFacet(facet)) {
        const g = groups.get(ctx);
        if (g) g.push({ x, facet }); else groups.set(ctx, [{ x, facet }]);
      } else countedBy.set(x, this.countOther(facet, ctx, f));
    }
    // the counters counted into for this request, zeroed once the payload is written
    const dirty: { facet: ValueFacet; touched: Int32Array }[] = [];
    const inLocale = this.inLocale.get(labeling.locale)!;
    for (const [ctx, members] of groups) {
      const { tally } = ctx;
      const touched = tally ? [] : ctx.left ? this.countLess(ctx.bound!, ctx, members.map((m) => m.facet)) : this.countValues(ctx, members.map((m) => m.facet));
      members.forEach((m, k) => {
        const once = tally?.counts.get(m.facet);
        const l = inLocale.get(m.facet)!;
        const t = once ? once.t : this.counters.get(m.facet)!.counts.view;
        const listedOnce = once ? tally!.listed.get(l) : undefined;
        const { ids, beyond, zeros, cut } = once
          ? this.listValues(m.facet, l, t, once.ids, listedOnce, tally!, selected(m.x, f))
          : this.listValues(m.facet, l, t, touched[k], undefined, ctx.bound!, selected(m.x, f));
        // the tally's values as they are: their JSON was made with the tally
        listed.set(m.x, { labelled: l.labelled, t, ids, beyond, zeros, json: ids === listedOnce ? tally!.listedJson.get(l) : undefined });
        truncated ||= cut;
        if (!tally) dirty.push({ facet: m.facet, touched: touched[k] });
      });
    }

    const ranges: Ranges = {};
    for (const summary of this.summaries) {
      const ctx = context(summary.ignores);
      const once = summary.contextOnly?.(f) ? ctx.tally?.described.get(summary) : undefined;
      if (once) Object.assign(ranges, once);
      else summary.describe(ctx, f, ranges);
    }

    const heads = this.heads.get(labeling.locale);
    for (const x of this.matcher.declared) {
      if (!x.index.facet) continue;
      out.facet(x.name, labeling.key(x.name), heads?.get(x));
      const ready = listed.get(x);
      if (ready) {
        out.listed(ready.labelled, ready.ids, ready.t, ready.json);
        out.listed(ready.labelled, ready.beyond, ready.t);
        for (const s of ready.zeros) out.value(s, labeling.value(x.name, s), 0);
      } else truncated = this.writeCounted(x, x.index.facet as CountedFacet, countedBy.get(x)!, f, labeling, out) || truncated;
    }
    out.end(ranges);
    // the next request starts from zero
    for (const { facet, touched } of dirty) {
      const counts = this.counters.get(facet)!.counts.view;
      if (touched.length * 8 > counts.length) counts.fill(0);
      else for (let k = 0; k < touched.length; k++) counts[touched[k]] = 0;
    }
    return truncated;
  }

  /** Another facet's counts in ctx under f, in the order of its values (valid until it is counted again). */
  private countOther(facet: CountedFacet, ctx: Context, f: FilterValues): Int32Array {
    const once = facet.contextOnly?.(f) ? (ctx.tally ?? (ctx.left && ctx.bound))?.added.get(facet) : undefined;
    if (!once) return facet.count(ctx, f);
    if (ctx.tally) return once;
    // the bound's counts less those of the listings the context leaves out
    const less = facet.count(ctx.left!, f);
    const counts = this.lessCounts.get(facet)!;
    for (let id = 0; id < counts.length; id++) counts[id] = once[id] - less[id];
    return counts;
  }

  /**
   * Writes another facet's values from its counts: those above 0 by count, then label (the highest
   * MAX_FACET_VALUES and the selected ones beyond them), then the selected values at 0 by label;
   * returns whether it had more than MAX_FACET_VALUES values and was cut.
   */
  private writeCounted(x: IndexedFilter, facet: CountedFacet, counts: Int32Array, f: FilterValues, labeling: FacetLabeling, out: FacetsOut): boolean {
    const l = this.inLocale.get(labeling.locale)!.get(facet)!;
    const idOf = this.idOf.get(facet)!;
    const positive = this.positiveIds;
    let size = 0;
    for (let id = 0; id < counts.length; id++) if (counts[id] > 0) positive[size++] = id;
    // another facet has few values (option types, amenities): every one counted is sorted
    const sorted = this.sortedByCountThenLabel(counts, positive.subarray(0, size), l.place, l.order);
    const chosen = selected(x, f);
    const zeros: { value: string; label: string; rank?: number }[] = [];
    for (const s of chosen) {
      const id = idOf.get(s);
      if ((id === undefined || counts[id] === 0) && !zeros.some((z) => z.value === s)) zeros.push({ value: s, label: labeling.value(x.name, s), rank: labeling.rank(x.name, s) });
    }
    zeros.sort((a, b) => byLabel(a, b, labeling));
    out.listed(l.labelled, sorted.length <= MAX_FACET_VALUES ? sorted : sorted.filter((id, k) => k < MAX_FACET_VALUES || chosen.includes(facet.values[id])), counts);
    for (const z of zeros) out.value(z.value, z.label, 0);
    return size + zeros.length > MAX_FACET_VALUES;
  }

  /**
   * Counts each facet's values in ctx into its counters; returns the ids each count touched. Each
   * facet is counted the way that costs least: a place by the members of each of its ranges
   * (popcounts), another by a look at each of its listings, or by a pass over the members.
   */
  private countValues(ctx: Context, facets: ValueFacet[]): Int32Array[] {
    const at = ctx.at ?? this.load(ctx);
    const pass = COST.member * ctx.count;
    let prefixed = false;
    return facets.map((facet) => {
      const { counts, touched, valueIds, ranges, groups } = this.counters.get(facet)!;
      const size = facet.values.length;
      let found: number;
      if (ranges && this.rangesCost(ctx, ranges) < pass) {
        if (!prefixed) this.kernels.prefixCounts(at, ctx.lo, ctx.hi, this.prefix.at);
        prefixed = true;
        // the first range that ends after word lo
        const { end: { view: end }, byStart: { view: byStart } } = ranges;
        let l = 0, r = byStart.length;
        while (l < r) { const m = (l + r) >>> 1; if (end[byStart[m]] <= ctx.lo << 5) l = m + 1; else r = m; }
        found = this.kernels.countRanges(at, ctx.lo, ctx.hi, this.prefix.at, ctx.count, ranges.start.at, ranges.end.at, ranges.byStart.at, l, byStart.length, counts.at, touched.at);
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

  /** What counting by a place's ranges costs in ctx. */
  private rangesCost(ctx: FacetContext, ranges: NonNullable<FacetArrays['ranges']>): number {
    const span = ctx.hi - ctx.lo;
    return COST.word * span + (COST.range * ranges.byStart.length * span) / this.all.length;
  }

  /** What counting a facet in ctx costs the cheapest way countValues has. */
  private countCost(ctx: FacetContext, { ranges, groups }: FacetArrays): number {
    const pass = COST.member * ctx.count;
    if (ranges) return Math.min(pass, this.rangesCost(ctx, ranges));
    if (groups) return Math.min(pass, COST.lookup * groups.members.length);
    return pass;
  }

  /** Copies ctx into the kernels' slot (what the last context left there cleared); returns the slot's byte offset. */
  private load(ctx: FacetContext): number {
    this.slot.view.fill(0, this.slotLo, this.slotHi);
    this.slot.view.set(ctx.bits.subarray(ctx.lo, ctx.hi), ctx.lo);
    this.slotLo = ctx.lo;
    this.slotHi = ctx.hi;
    return this.slot.at;
  }
}
