/**
 * The contexts most requests share and that are wide (every listing; one option type, amenity,
 * country or currency alone, a point without a radius: the values a filter's facet plan tallies),
 * with the counts of every facet under each, counted once per build: tallies. A request whose
 * context is a tally's writes the tally's counts; one inside a tally's listings is bounded by it.
 */
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import type { Bitset } from './bitset.ts';
import * as bits from './bitset.ts';
import { byCount, type ByCount, type InLocale } from './facet-lists.ts';
import type { Ranges } from './facet-payload.ts';
import type { CountedFacet, FacetContext, FilterValues, RangeSummary, ValueFacet } from './filter-index.ts';
import type { KernelMemory, Placed } from './kernels.ts';
import type { IndexedFilter, Matcher } from './match.ts';
import type { ValueCounts, ValueTally } from './value-counts.ts';

/** The counts of every facet under one context (its listings, in the kernels' memory), counted once per build. */
export interface Tally extends FacetContext {
  /** the byte offset of its bits */
  readonly at: number;
  /** each value facet's counts */
  readonly counts: Map<ValueFacet, ValueTally>;
  /** each counted facet's counts, in the order of its values (those that read nothing but the context) */
  readonly added: Map<CountedFacet, Int32Array>;
  /** what each range summary that reads nothing but the context describes */
  readonly described: Map<RangeSummary, Ranges>;
  /** the ids of each facet with more values than a list holds, by their counts here: a context inside the tally counts each value at most that */
  readonly byCount: Map<ValueFacet, ByCount>;
  /** the ids each value facet lists in a locale, in their order (filled when the values are ordered by labels) */
  readonly listed: Map<InLocale, readonly number[]>;
  /** their JSON */
  readonly listedJson: Map<InLocale, Uint8Array>;
}

/** The listings of each tallied value (and of every listing), placed in the kernels' memory before it is opened. */
export interface TalliedSets {
  readonly whole: Placed<Uint32Array>;
  readonly values: readonly { x: IndexedFilter; value: string; count: number; lo: number; hi: number; placed: Placed<Uint32Array> }[];
}

/** Matches the listings of each value the filters tally (none when no facet is counted by value) and places them in memory. */
export function placeTalliedSets(memory: KernelMemory, matcher: Matcher, all: Bitset, valueFacets: number): TalliedSets {
  const values = valueFacets === 0 ? [] : matcher.declared.flatMap((x) => {
    const tallied = x.index.facets?.tallied;
    return (tallied?.values ?? []).flatMap((value) => {
      // a copy: the next match writes into the same buffer, and the memory reads each set when it opens
      const b = matcher.match(tallied!.filters(value)).bits.slice();
      const { lo, hi } = bits.wordsOf(b);
      const count = bits.count(b, lo, hi);
      return count === 0 ? [] : [{ x, value, count, lo, hi, placed: memory.uint32(all.length, b) }];
    });
  });
  return { whole: memory.uint32(all.length, all), values };
}

/** The facets a tally counts. */
export interface TalliedFacets {
  readonly valueFacets: readonly ValueFacet[];
  readonly countedFacets: readonly CountedFacet[];
  readonly summaries: readonly RangeSummary[];
}

export class Tallies {
  /** the counts over every listing (the totals) */
  readonly whole: Tally;
  /** the counts under each tallied value of a filter alone, by filter, then value */
  private readonly byFilter = new Map<IndexedFilter, Map<string, Tally>>();

  constructor(sets: TalliedSets, counts: ValueCounts, private readonly facets: TalliedFacets, n: number) {
    const wholeCounts: Tally['counts'] = new Map();
    const wholeByCount: Tally['byCount'] = new Map();
    for (const facet of facets.valueFacets) {
      wholeCounts.set(facet, { t: facet.totals, ids: Int32Array.from(facet.values.keys()).filter((id) => facet.totals[id] > 0) });
      if (facet.values.length > MAX_FACET_VALUES) wholeByCount.set(facet, byCount(facet.totals, facet.values.keys()));
    }
    const whole = { bits: sets.whole.view, at: sets.whole.at, count: n, lo: 0, hi: sets.whole.length };
    this.whole = { ...whole, counts: wholeCounts, byCount: wholeByCount, added: this.countOthers(whole), described: this.describeOnce(whole), listed: new Map(), listedJson: new Map() };
    for (const { x, value, count, lo, hi, placed } of sets.values) {
      const ctx = { bits: placed.view, at: placed.at, count, lo, hi };
      const touched = counts.count(ctx, facets.valueFacets);
      const tallied = new Map<ValueFacet, ValueTally>();
      const sorted = new Map<ValueFacet, ByCount>();
      facets.valueFacets.forEach((facet, k) => {
        const t = counts.countsOf(facet).slice();
        tallied.set(facet, { t, ids: touched[k].slice() });
        if (touched[k].length > MAX_FACET_VALUES) sorted.set(facet, byCount(t, touched[k]));
        counts.clear(facet, touched[k]);
      });
      if (!this.byFilter.has(x)) this.byFilter.set(x, new Map());
      this.byFilter.get(x)!.set(value, { ...ctx, counts: tallied, byCount: sorted, added: this.countOthers(ctx), described: this.describeOnce(ctx), listed: new Map(), listedJson: new Map() });
    }
  }

  /** Every tally, the whole first. */
  every(): Tally[] {
    return [this.whole, ...[...this.byFilter.values()].flatMap((byValue) => [...byValue.values()])];
  }

  /** The tallies whose listings together (their intersection) are those of x alone under f, if each was counted. */
  exactly(x: IndexedFilter, f: FilterValues): Tally[] | undefined {
    const values = x.index.facets?.tallied?.exactly(f);
    const byValue = this.byFilter.get(x);
    if (!values || !byValue) return undefined;
    const out: Tally[] = [];
    for (const v of values) {
      const t = byValue.get(v);
      if (!t) return undefined;
      out.push(t);
    }
    return out;
  }

  /** The tally with the fewest listings that holds every listing the filters `kept` match under f (every listing, if no other does). */
  tightest(kept: readonly IndexedFilter[], f: FilterValues): Tally {
    let base = this.whole;
    for (const x of kept) {
      for (const value of x.index.facets?.tallied?.holding(f) ?? []) {
        const t = this.byFilter.get(x)?.get(value);
        if (t && t.count < base.count) base = t;
      }
    }
    return base;
  }

  /** The counts under ctx of each counted facet that depends on the context alone. */
  private countOthers(ctx: FacetContext): Map<CountedFacet, Int32Array> {
    const out = new Map<CountedFacet, Int32Array>();
    for (const facet of this.facets.countedFacets) {
      if (facet.contextOnly({})) out.set(facet, facet.count(ctx, {}).slice());
    }
    return out;
  }

  /** What each range summary that depends on the context alone describes under ctx. */
  private describeOnce(ctx: FacetContext): Map<RangeSummary, Ranges> {
    const out = new Map<RangeSummary, Ranges>();
    for (const summary of this.facets.summaries) {
      if (!summary.contextOnly({})) continue;
      const ranges: Ranges = {};
      summary.describe(ctx, {}, ranges);
      out.set(summary, ranges);
    }
    return out;
  }
}
