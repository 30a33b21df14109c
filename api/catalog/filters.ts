/**
 * The production filter registry: for each filter of contract/filters.ts, the index the engine
 * builds from the build's columns once per build (what an index is: filter-index.ts). To follow
 * one filter from the query to the bytes, amenities:
 * - contract/filters.ts declares its query parameter (AmenitiesParamSchema: `amenities=wifi,coffee`
 *   parsed to a list of slugs, `f.amenities`);
 * - its entry below holds a posting per amenity (MultiValues); its Narrowing intersects a match set
 *   with each selected amenity's posting (match.ts applies it to every filter a request sets);
 * - its FacetPlan shows a counted facet: the amenities counted under every filter (`ignores: []`,
 *   an AND facet), and tallies each amenity alone: the facets under one amenity are counted once
 *   per build (facet-tallies.ts), those under two start from the first's (facet-contexts.ts);
 * - facets.ts counts it (MultiValues.count), facet-lists.ts orders its values, facet-payload.ts
 *   writes their JSON.
 */
import { CURRENCIES, type Currency, type OptionType } from '../../contract/common.ts';
import { FILTER_DECLARATIONS } from '../../contract/filters.ts';
import { PRODUCT_PRICE_BASIS } from '../../contract/prices.ts';
import { houseNumberMatches, parseAddress, parseHouseNumber, streetKey } from './address.ts';
import * as bits from './bitset.ts';
import type { AmountIndex } from './amounts.ts';
import { byMadeSet, byPosting, byRange, byTest, everyListing, type FacetContext, type FilterEntry, type FilterValues, type PlaceRanges } from './filter-index.ts';
import { MultiValues } from './multi-values.ts';
import { narrowTo, postingsOf } from './postings.ts';

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
      return {
        narrow: byPosting((f) => byValue.get(f[name]!)),
        facets: { shows: { kind: 'values', ignores: [name], values, valueIds, totals: Int32Array.from(postings, (p) => p.list.length) } },
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
        narrow: byRange(span),
        facets: {
          shows: { kind: 'values', ignores: [name], values, valueIds, totals: Int32Array.from(values, (_, id) => ranges.end[id] - ranges.start[id]), ranges },
          tallied: tallied ? { values, filters: (v) => ({ [name]: v }), holding: (f) => [f[name]!], exactly: (f) => [f[name]!] } : undefined,
        },
      };
    },
  };
}

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
      return {
        narrow: byPosting((f) => types.postings.get(f.pricingOptionType!)),
        facets: {
          // counts each type with the price range applied to that type's comparable prices
          shows: {
            kind: 'counted',
            ignores: ['pricingOptionType', 'price'],
            values: types.values,
            count(ctx, f) {
              const [lo, hi] = priceBounds(f);
              return types.count(ctx, priced(f) ? { amounts, indexes, lo, hi } : undefined);
            },
            contextOnly: (f) => !priced(f),
          },
          tallied: { values: types.byValue((t) => t), filters: (t) => ({ pricingOptionType: t as OptionType }), holding: (f) => [f.pricingOptionType!], exactly: (f) => [f.pricingOptionType!] },
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
      return {
        narrow: byPosting((f) => postings[CURRENCIES.indexOf(f.currency!)]),
        // few and wide, like countries: no facet of its own, but the others' counts under each currency once per build
        facets: { tallied: { values: CURRENCIES.filter((_, k) => postings[k].list.length > 0), filters: (c) => ({ currency: c as Currency }), holding: (f) => [f.currency!], exactly: (f) => [f.currency!] } },
      };
    },
  },
  amenities: {
    declaration: FILTER_DECLARATIONS.amenities,
    index({ listings }) {
      const amenities = new MultiValues(listings, listings.cols.amenities);
      /** the amenity of a selection of one, whose listings are its posting's */
      const onlyOne = (f: FilterValues) => (f.amenities!.length === 1 ? f.amenities![0] : undefined);
      const every = everyListing(listings.n);
      return {
        narrow: {
          into(b, f, lo, hi) { for (const a of f.amenities!) narrowTo(b, amenities.postings.get(a), lo, hi); },
          span: () => every,
          held: (f) => { const a = onlyOne(f); return a === undefined ? undefined : amenities.postings.get(a)?.bits; },
        },
        facets: {
          // AND: each count is the list total with that amenity added
          shows: { kind: 'counted', ignores: [], values: amenities.values, count: (ctx) => amenities.count(ctx), contextOnly: () => true },
          tallied: { values: [...amenities.postings.keys()], filters: (a) => ({ amenities: [a] }), holding: (f) => f.amenities!, exactly: (f) => f.amenities! },
        },
      };
    },
  },
  minCapacity: {
    declaration: FILTER_DECLARATIONS.minCapacity,
    index({ listings }) {
      const { capacity, byCapacity } = listings;
      return {
        narrow: byMadeSet(listings.n, (f, lo, hi) => byCapacity.within(f.minCapacity!, Infinity, lo, hi)),
        facets: {
          shows: {
            kind: 'range',
            ignores: ['minCapacity'],
            describe(ctx, _f, into) {
              const { min, max } = extremesIn(ctx, byCapacity, capacity);
              if (max >= 1) into.capacityRange = { min, max };
            },
            contextOnly: () => true,
          },
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
        narrow: byMadeSet(listings.n, pricedWithin),
        facets: {
          // the range of what the filter compares, with its basis; only when those prices have one currency
          shows: {
            kind: 'range',
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
        },
      };
    },
  },
  point: {
    declaration: FILTER_DECLARATIONS.point,
    index({ listings }) {
      const every = everyListing(listings.n);
      return {
        // A point search is about where listings are: a listing without coordinates has no distance.
        narrow: {
          into(b, f, lo, hi) {
            if (located(f)) bits.andInto(b, listings.hasCoords, lo, hi);
            else listings.keepNear(b, f.lat!, f.lng!, f.radiusMeters!, lo, hi);
          },
          span: () => every,
          held: (f) => (located(f) ? listings.hasCoords : undefined),
        },
        facets: { tallied: { values: [LOCATED], filters: () => ({ lat: 0, lng: 0 }), holding: () => [LOCATED], exactly: (f) => (located(f) ? [LOCATED] : undefined) } },
      };
    },
  },
  bbox: {
    declaration: FILTER_DECLARATIONS.bbox,
    index({ listings }) {
      return { narrow: byTest(listings.n, (b, f, lo, hi) => listings.keepInBox(b, f.bbox!, lo, hi)) };
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
        narrow: byTest(n, (b, f, lo, hi) => bits.keepListed(b, onStreet(f.address!).list, undefined, undefined, lo, hi)),
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
