/**
 * What a filter is to the engine. A registry entry (FilterEntry) pairs a filter's declaration
 * (contract/filters.ts: its query parameters) with a function that reads the build's columns once
 * into its index (FilterIndex): a Narrowing, which the matcher (match.ts) applies to a match set,
 * and, when GET /v1/facets shows or tallies it, a FacetPlan, which the facet counter (facets.ts)
 * counts from. The production registry is FILTERS (filters.ts).
 */
import type { FacetsPayload, GeoPayload } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/common.ts';
import type { FilterDeclaration, FilterDeclarations, Filters } from '../../contract/filters.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import type { ListingTable } from './listings.ts';
import { narrowTo, spanOf, type Posting } from './postings.ts';

/** Parsed filter values: the production ones, and whatever parameters an extended registry declares. */
export type FilterValues = Filters & { readonly [param: string]: unknown };

/** What an index is built from. */
export interface IndexContext {
  listings: ListingTable;
  geo: Record<Locale, GeoPayload>;
}

/** The listings a facet counts over: their bits, how many, and the words [lo, hi) outside which there are none. */
export interface FacetContext {
  readonly bits: Bitset;
  readonly count: number;
  readonly lo: number;
  readonly hi: number;
}

/**
 * The listings of each value of a place (country, city, zone) are one range of listing indices,
 * the build being in place order: value id v holds [start[v], end[v]).
 */
export interface PlaceRanges {
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** the ids of the values held by some listing, by start */
  readonly byStart: Int32Array;
}

/** A facet whose listings each have at most one value: counted for several facets in one pass. */
export interface ValueFacet {
  readonly kind: 'values';
  /** the filters whose values the counts ignore (its own: facets are disjunctive) */
  readonly ignores: readonly string[];
  readonly values: readonly string[];
  /** value id of each listing, -1 for none */
  readonly valueIds: Int32Array;
  /** the counts over every listing */
  readonly totals: Int32Array;
  /** a place's ranges: its counts are popcounts over them */
  readonly ranges?: PlaceRanges;
}

/** A facet whose listings may have several values (option types, amenities): counts its values in a context itself. */
export interface CountedFacet {
  readonly kind: 'counted';
  readonly ignores: readonly string[];
  /** its values, in the order of their counts */
  readonly values: readonly string[];
  /** each value's count in ctx under f, in the order of `values` (a view the next count overwrites) */
  count(ctx: FacetContext, f: FilterValues): Int32Array;
  /** whether its counts under f depend on the context alone (then they may be counted once per build) */
  contextOnly(f: FilterValues): boolean;
}

/** A range GET /v1/facets reports (priceRange, capacityRange). */
export interface RangeSummary {
  readonly kind: 'range';
  readonly ignores: readonly string[];
  describe(ctx: FacetContext, f: FilterValues, into: Omit<FacetsPayload, 'facets'>): void;
  /** whether what it describes under f depends on the context alone (then it may be described once per build) */
  contextOnly(f: FilterValues): boolean;
}

/**
 * How a filter shrinks a match set. `into` is the narrowing itself; `span` and `held` let the
 * matcher and the facet counter skip words and copies.
 */
export interface Narrowing {
  /** Narrows b to the listings that match f; b has no members outside its words [lo, hi), which it may leave as they are. */
  into(b: Bitset, f: FilterValues, lo: number, hi: number): void;
  /** The listings [start, end) among which every listing matching f lies: a place's range, a rare value's first to last listing, else every listing. */
  span(f: FilterValues): { start: number; end: number };
  /**
   * The listings matching f when the index has them as one bitset, so that they need no
   * narrowing: one it holds (a posting), or one it makes in the words [lo, hi) (a range of
   * amounts), valid until its next call; undefined when it has none. To read in those words, never to change.
   */
  held(f: FilterValues, lo: number, hi: number): Bitset | undefined;
}

/**
 * Values whose context, the filter alone, many requests share and is wide (an option type, an
 * amenity, a country, a currency, a point without a radius): the facet counter counts the facets
 * under each once per build. `filters` selects a value's listings; `holding` lists the tallied
 * values whose listings include every listing f's set holds, `exactly` those whose listings
 * together (their intersection) are f's set, if there are (several amenities: each one's).
 */
export interface TalliedValues {
  readonly values: readonly string[];
  filters(value: string): FilterValues;
  holding(f: FilterValues): readonly string[];
  exactly(f: FilterValues): readonly string[] | undefined;
}

/** How GET /v1/facets counts a filter: what it shows there, and the contexts of its own worth counting once per build. */
export interface FacetPlan {
  /** a facet of its values, or a range; none for a filter that only narrows the others' counts */
  readonly shows?: ValueFacet | CountedFacet | RangeSummary;
  readonly tallied?: TalliedValues;
}

/** A filter's index: how it narrows a match set, and how GET /v1/facets counts it when it shows there or is tallied. */
export interface FilterIndex {
  readonly narrow: Narrowing;
  readonly facets?: FacetPlan;
  /** The groups a matching set is listed in, one after the other (the address rule): one, the set, when absent. */
  groups?(set: Bitset, f: FilterValues): Bitset[];
}

export interface FilterEntry {
  readonly declaration: FilterDeclaration;
  index(ctx: IndexContext): FilterIndex;
}
export type FilterRegistry = Record<string, FilterEntry>;

export const declarationsOf = (registry: FilterRegistry): FilterDeclarations =>
  Object.fromEntries(Object.entries(registry).map(([name, e]) => [name, e.declaration]));

/** Every listing: the span of a filter whose matches may lie anywhere. */
export const everyListing = (n: number) => ({ start: 0, end: n });

/** Narrowing to the posting of the value f selects (none: an unknown value matches nothing). */
export const byPosting = (postingOf: (f: FilterValues) => Posting | undefined): Narrowing => ({
  into: (b, f, lo, hi) => narrowTo(b, postingOf(f), lo, hi),
  span: (f) => spanOf(postingOf(f)),
  held: (f) => postingOf(f)?.bits,
});

/** Narrowing to the range of listings [start, end) of the value f selects (a place). */
export const byRange = (rangeOf: (f: FilterValues) => { start: number; end: number }): Narrowing => ({
  into(b, f, lo, hi) {
    const { start, end } = rangeOf(f);
    bits.keepRange(b, start, end, lo, hi);
  },
  span: rangeOf,
  held: () => undefined,
});

/** Narrowing to a set the index makes in the words asked for (a range of amounts): intersected with, and taken as it is by the facets. */
export const byMadeSet = (n: number, set: (f: FilterValues, lo: number, hi: number) => Bitset): Narrowing => {
  const every = everyListing(n);
  return { into: (b, f, lo, hi) => bits.andInto(b, set(f, lo, hi), lo, hi), span: () => every, held: set };
};

/** Narrowing by a test of each listing (a box, a street): no span, no set held. */
export const byTest = (n: number, into: Narrowing['into']): Narrowing => {
  const every = everyListing(n);
  return { into, span: () => every, held: () => undefined };
};
