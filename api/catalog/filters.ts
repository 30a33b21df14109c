/**
 * The filter registry: for each filter of contract/filters.ts, how the engine matches it. An
 * entry reads its columns once per build into an index (postings, sorted coordinates, …) that
 * narrows a match set, and may count a facet or describe a range for GET /v1/facets. The engine
 * is built from a registry: FILTERS in production.
 */
import type { GeoPayload } from '../../contract/catalog.ts';
import { CURRENCIES, type Currency, type Locale, type OptionType } from '../../contract/common.ts';
import type { FacetsPayload } from '../../contract/catalog.ts';
import { FILTER_DECLARATIONS, type FilterDeclaration, type FilterDeclarations, type Filters } from '../../contract/filters.ts';
import { PRODUCT_PRICE_BASIS } from '../../contract/prices.ts';
import { houseNumberMatches, parseAddress, parseHouseNumber, streetKey } from './address.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import type { ListingTable } from './listings.ts';
import { AmountIndex } from './amounts.ts';
import { countIn, narrowTo, posting, postingsOf, spanOf, type Posting } from './postings.ts';
import { BitsetCounts } from './bitset-counts.ts';

/**
 * The lowest and highest of an amount among the members of a context (min Infinity when none has
 * one), and, given each listing's currency (0: none), the one they share (0 when several): from the
 * amount buckets at both ends inwards, among the listings of the context's words (AmountIndex.extremes,
 * which stops at the first member found: quick in a context dense in its words) while that looks at
 * fewer buckets and listings than the context holds, else member by member.
 */
function extremesIn(ctx: FacetContext, index: AmountIndex, amount: Float64Array, currency?: Uint8Array): { min: number; max: number; currency: number } {
  const found = index.extremes(ctx.bits, ctx.count, ctx.lo, ctx.hi);
  if (found) return { ...found, currency: currency ? index.currencyOf(ctx) : 0 };
  // NaN (no amount) is neither below min nor above max
  let min = Infinity, max = -Infinity, cur = 0;
  const b = ctx.bits;
  for (let w = ctx.lo; w < ctx.hi; w++) {
    for (let x = b[w]; x; x &= x - 1) {
      const i = (w << 5) + 31 - Math.clz32(x & -x);
      const a = amount[i];
      if (a < min) min = a;
      if (a > max) max = a;
      if (currency && cur >= 0 && a === a && currency[i] !== cur) cur = cur === 0 ? currency[i] : -1;
    }
  }
  return { min, max, currency: Math.max(cur, 0) };
}

/** A member visited by a pass costs about as much as this many words intersected by BitsetCounts. */
const WORDS_PER_MEMBER = 16;

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

/** Any other facet: counts its values in a context. */
export interface CountedFacet {
  readonly ignores: readonly string[];
  /** its values, in the order of their counts */
  readonly values: readonly string[];
  /** each value's count in ctx under f, in the order of `values` (a view the next count overwrites) */
  count(ctx: FacetContext, f: FilterValues): Int32Array;
  /** whether its counts under f depend on the context alone (then they may be counted once per build); no when absent */
  contextOnly?(f: FilterValues): boolean;
}

/** A range GET /v1/facets reports (priceRange, capacityRange). */
export interface RangeSummary {
  readonly ignores: readonly string[];
  describe(ctx: FacetContext, f: FilterValues, into: Omit<FacetsPayload, 'facets'>): void;
  /** whether what it describes under f depends on the context alone (then it may be described once per build); no when absent */
  contextOnly?(f: FilterValues): boolean;
}

export interface FilterIndex {
  /**
   * Narrows b to the listings that match f; called when f sets one of the filter's parameters.
   * b has no members outside its words [lo, hi), which a narrow may leave as they are.
   */
  narrow(b: Bitset, f: FilterValues, lo: number, hi: number): void;
  /** The listings [start, end) among which every listing matching f lies: a place's range, a rare value's first to last listing. */
  span?(f: FilterValues): { start: number; end: number };
  /**
   * The listings matching f when the index has them as one bitset, so that they need no
   * narrowing: one it holds (a posting), or one it makes in the words [lo, hi) (a range of
   * amounts), valid until its next call. To read in those words, never to change.
   */
  bitsOf?(f: FilterValues, lo: number, hi: number): Bitset | undefined;
  /** The groups a matching set is listed in, one after the other (the address rule). */
  groups?(set: Bitset, f: FilterValues): Bitset[];
  readonly facet?: ValueFacet | CountedFacet;
  readonly summary?: RangeSummary;
  /**
   * Values whose context, the filter alone, many requests share and is wide (an option type, an
   * amenity, a country, a currency, a point without a radius): the facet counter counts the facets
   * under each once per build. `filters` selects a value's listings; `holding` lists the tallied
   * values whose listings include every listing f's set holds, `exactly` those whose listings
   * together (their intersection) are f's set, if there are (several amenities: each one's).
   */
  readonly tallied?: {
    readonly values: readonly string[];
    filters(value: string): FilterValues;
    holding(f: FilterValues): readonly string[];
    exactly(f: FilterValues): readonly string[] | undefined;
  };
}

export interface FilterEntry {
  readonly declaration: FilterDeclaration;
  index(ctx: IndexContext): FilterIndex;
}
export type FilterRegistry = Record<string, FilterEntry>;

export const declarationsOf = (registry: FilterRegistry): FilterDeclarations =>
  Object.fromEntries(Object.entries(registry).map(([name, e]) => [name, e.declaration]));

/** A slug filter over a dictionary-coded column, with a disjunctive facet. */
function keyword(name: 'operator'): FilterEntry {
  return {
    declaration: FILTER_DECLARATIONS[name],
    index({ listings }) {
      const { cols, n } = listings;
      const values = cols.dict[name];
      const valueIds = cols[name];
      const postings = postingsOf(n, valueIds, values.length);
      const byValue = new Map(values.map((v, id) => [v, postings[id]]));
      const postingOf = (f: FilterValues) => byValue.get(f[name]!);
      return {
        narrow: (b, f, lo, hi) => narrowTo(b, postingOf(f), lo, hi),
        span: (f) => spanOf(postingOf(f)),
        bitsOf: (f) => postingOf(f)?.bits,
        facet: { ignores: [name], values, valueIds, totals: Int32Array.from(postings, (p) => p.list.length) },
      };
    },
  };
}

/** The ranges of a place column; an error when a place's listings are not one range (a build not in place order). */
function placeRanges(name: string, valueIds: Int32Array, values: readonly string[]): PlaceRanges {
  const start = new Int32Array(values.length), end = new Int32Array(values.length);
  const byStart: number[] = [];
  for (let i = 0; i < valueIds.length; i++) {
    const v = valueIds[i];
    if (v < 0) continue;
    if (end[v] === 0) { start[v] = i; byStart.push(v); }
    else if (end[v] !== i) throw new Error(`listing-columns.bin: the listings of ${name} ${values[v]} are not one range (listings must be in place order)`);
    end[v] = i + 1;
  }
  return { start, end, byStart: Int32Array.from(byStart) };
}

/**
 * A place filter (country, city, zone): a range of listing indices per value, with a disjunctive
 * facet; `tallied` for countries (few and wide; a city's or zone's listings are counted at once).
 */
function place(name: 'country' | 'city' | 'zone', tallied = false): FilterEntry {
  return {
    declaration: FILTER_DECLARATIONS[name],
    index({ listings }) {
      const { cols } = listings;
      const values = cols.dict[name];
      const valueIds = cols[name];
      const ranges = placeRanges(name, valueIds, values);
      const idOf = new Map(values.map((v, id) => [v, id]));
      // an unknown place holds no listing
      const span = (f: FilterValues) => {
        const id = idOf.get(f[name]!);
        return id === undefined ? { start: 0, end: 0 } : { start: ranges.start[id], end: ranges.end[id] };
      };
      return {
        narrow(b, f, lo, hi) {
          const { start, end } = span(f);
          bits.keepRange(b, start, end, lo, hi);
        },
        span,
        facet: { ignores: [name], values, valueIds, totals: Int32Array.from(values, (_, id) => ranges.end[id] - ranges.start[id]), ranges },
        tallied: tallied ? { values, filters: (v) => ({ [name]: v }), holding: (f) => [f[name]!], exactly: (f) => [f[name]!] } : undefined,
      };
    },
  };
}

/**
 * A filter on values a listing may have several of (a set of listings per value in
 * listing-columns.bin): a posting per value, and each listing's values for counting.
 */
class MultiValues {
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

/** An index that makes its set in the words asked for (a range of amounts): narrowing intersects with it, and the facets take it as it is. */
const madeSet = (set: (f: FilterValues, lo: number, hi: number) => Bitset): Pick<FilterIndex, 'narrow' | 'bitsOf'> => ({
  narrow: (b, f, lo, hi) => bits.andInto(b, set(f, lo, hi), lo, hi),
  bitsOf: set,
});

const priceBounds = (f: FilterValues) => [f.minPrice ?? -Infinity, f.maxPrice ?? Infinity] as const;
const priced = (f: FilterValues) => f.minPrice !== undefined || f.maxPrice !== undefined;
/** The point filter's tallied value: the listings with coordinates, what a point without a radius selects (any point). */
const LOCATED = 'located';
const located = (f: FilterValues) => f.radiusMeters === undefined;

/** The production registry: exactly the filters of the contract. */
export const FILTERS = {
  country: place('country', true),
  city: place('city'),
  zone: place('zone'),
  operator: keyword('operator'),
  pricingOptionType: {
    declaration: FILTER_DECLARATIONS.pricingOptionType,
    index({ listings }) {
      const types = new MultiValues(listings, listings.cols.optionTypes);
      const amounts = types.byValue((t) => listings.price(t as OptionType).onBasis);
      const indexes = types.byValue((t) => listings.onBasisIndex(t as OptionType));
      const postingOf = (f: FilterValues) => types.postings.get(f.pricingOptionType!);
      return {
        narrow: (b, f, lo, hi) => narrowTo(b, postingOf(f), lo, hi),
        bitsOf: (f) => postingOf(f)?.bits,
        tallied: { values: types.byValue((t) => t), filters: (t) => ({ pricingOptionType: t as OptionType }), holding: (f) => [f.pricingOptionType!], exactly: (f) => [f.pricingOptionType!] },
        // counts each type with the price range applied to that type's comparable prices
        facet: {
          ignores: ['pricingOptionType', 'price'],
          values: types.values,
          count(ctx, f) {
            const [lo, hi] = priceBounds(f);
            return types.count(ctx, priced(f) ? { amounts, indexes, lo, hi } : undefined);
          },
          contextOnly: (f) => !priced(f),
        },
      };
    },
  },
  currency: {
    declaration: FILTER_DECLARATIONS.currency,
    index({ listings, geo }) {
      // the currency of the listing's country, else of its price
      const { cols, n } = listings;
      const byCountry = cols.dict.countryCode.map((code) => {
        const c = geo.en.currencies[code] as Currency | undefined;
        return c ? CURRENCIES.indexOf(c) + 1 : 0;
      });
      const priceCurrency = listings.price(undefined).currency;
      const currencyOf = new Int32Array(n);
      for (let i = 0; i < n; i++) currencyOf[i] = (byCountry[cols.countryCode[i]] || priceCurrency[i]) - 1;
      const postings = postingsOf(n, currencyOf, CURRENCIES.length);
      const postingOf = (f: FilterValues) => postings[CURRENCIES.indexOf(f.currency!)];
      return {
        narrow: (b, f, lo, hi) => narrowTo(b, postingOf(f), lo, hi),
        span: (f) => spanOf(postingOf(f)),
        bitsOf: (f) => postingOf(f)?.bits,
        // few and wide, like countries
        tallied: { values: CURRENCIES.filter((_, k) => postings[k].list.length > 0), filters: (c) => ({ currency: c as Currency }), holding: (f) => [f.currency!], exactly: (f) => [f.currency!] },
      };
    },
  },
  amenities: {
    declaration: FILTER_DECLARATIONS.amenities,
    index({ listings }) {
      const amenities = new MultiValues(listings, listings.cols.amenities);
      /** the amenity of a selection of one, whose listings are its posting's */
      const onlyOne = (f: FilterValues) => (f.amenities!.length === 1 ? f.amenities![0] : undefined);
      return {
        narrow(b, f, lo, hi) { for (const a of f.amenities!) narrowTo(b, amenities.postings.get(a), lo, hi); },
        bitsOf: (f) => { const a = onlyOne(f); return a === undefined ? undefined : amenities.postings.get(a)?.bits; },
        tallied: { values: [...amenities.postings.keys()], filters: (a) => ({ amenities: [a] }), holding: (f) => f.amenities!, exactly: (f) => f.amenities! },
        // AND: each count is the list total with that amenity added
        facet: { ignores: [], values: amenities.values, count: (ctx) => amenities.count(ctx), contextOnly: () => true },
      };
    },
  },
  minCapacity: {
    declaration: FILTER_DECLARATIONS.minCapacity,
    index({ listings }) {
      const { capacity, byCapacity } = listings;
      return {
        ...madeSet((f, lo, hi) => byCapacity.within(f.minCapacity!, Infinity, lo, hi)),
        summary: {
          ignores: ['minCapacity'],
          describe(ctx, _f, into) {
            const { min, max } = extremesIn(ctx, byCapacity, capacity);
            if (max >= 1) into.capacityRange = { min, max };
          },
          contextOnly: () => true,
        },
      };
    },
  },
  price: {
    declaration: FILTER_DECLARATIONS.price,
    index({ listings }) {
      // the comparable amount on the product's own basis (monthly, or the option type's), in the
      // listing's currency: a listing priced only on another basis, or not at all, fails both bounds
      const pricedWithin = (f: FilterValues, lo: number, hi: number) => listings.onBasisIndex(f.pricingOptionType).within(...priceBounds(f), lo, hi);
      return {
        ...madeSet(pricedWithin),
        // the range of what the filter compares, with its basis; only when those prices have one currency
        summary: {
          ignores: ['price'],
          describe(ctx, f, into) {
            const { onBasis, onBasisCurrency } = listings.price(f.pricingOptionType);
            const { min, max, currency } = extremesIn(ctx, listings.onBasisIndex(f.pricingOptionType), onBasis, onBasisCurrency);
            if (!currency) return;
            const code = CURRENCIES[currency - 1];
            into.priceRange = { min: { amount: min, currency: code }, max: { amount: max, currency: code }, basis: PRODUCT_PRICE_BASIS[f.pricingOptionType ?? 'all'] };
          },
          // the prices of every option type, else of the one selected
          contextOnly: (f) => f.pricingOptionType === undefined,
        },
      };
    },
  },
  point: {
    declaration: FILTER_DECLARATIONS.point,
    index({ listings }) {
      return {
        // A point search is about where listings are: a listing without coordinates has no distance.
        narrow(b, f, lo, hi) {
          if (located(f)) bits.andInto(b, listings.hasCoords, lo, hi);
          else listings.keepNear(b, f.lat!, f.lng!, f.radiusMeters!, lo, hi);
        },
        bitsOf: (f) => (located(f) ? listings.hasCoords : undefined),
        tallied: { values: [LOCATED], filters: () => ({ lat: 0, lng: 0 }), holding: () => [LOCATED], exactly: (f) => (located(f) ? [LOCATED] : undefined) },
      };
    },
  },
  bbox: {
    declaration: FILTER_DECLARATIONS.bbox,
    index({ listings }) {
      return {
        narrow: (b, f, lo, hi) => listings.keepInBox(b, f.bbox!, lo, hi),
      };
    },
  },
  address: {
    declaration: FILTER_DECLARATIONS.address,
    index({ listings }) {
      const { cols, n } = listings;
      const keys = cols.dict.street.map((st) => streetKey(st));
      const lists = new Map<string, number[]>();
      for (let i = 0; i < n; i++) {
        const k = keys[cols.street[i]];
        if (!k) continue;
        let l = lists.get(k);
        if (!l) lists.set(k, (l = []));
        l.push(i);
      }
      const streets = new Map([...lists].map(([k, l]) => [k, Int32Array.from(l)]));
      const numbers = cols.dict.houseNumber.map((h) => parseHouseNumber(h));
      const onStreet = (address: string) => {
        const q = parseAddress(address);
        return { q, list: (q && streets.get(q.street)) || new Int32Array(0) };
      };
      return {
        narrow: (b, f, lo, hi) => bits.keepListed(b, onStreet(f.address!).list, undefined, undefined, lo, hi),
        // listings at the address first, then the rest of the street
        groups(set, f) {
          const { q, list } = onStreet(f.address!);
          const first = new Uint32Array(set.length);
          if (q?.number) {
            for (const i of list) {
              const h = numbers[cols.houseNumber[i]];
              if (h !== undefined && houseNumberMatches(h, q.number) && bits.has(set, i)) first[i >>> 5] |= 1 << (i & 31);
            }
          }
          return [first, bits.andNot(set, first)];
        },
      };
    },
  },
} satisfies Record<keyof typeof FILTER_DECLARATIONS, FilterEntry>;
