/**
 * listing-columns.bin for tests: its sort orders computed the plain way, from the listing_columns
 * mart's JSON shape with comparator sorts (the fixture writes them, the pipeline's tests hold the
 * SQL's orders against them), and the file's columns back in that JSON shape.
 */
import type { ListingColumns } from '../../contract/build.ts';
import { OPTION_TYPES, type OptionType } from '../../contract/common.ts';
import { decodeListingColumns, LISTING_ORDERS, priceOrder, type ListingColumnsData, type ListingOrder, type PriceColumnsData } from '../../contract/listing-columns.ts';
import { PRICE_BASES, priceBasisOrder } from '../../contract/prices.ts';

type Key = (i: number) => number | null;

/** Listing indices by the keys (ascending; `desc` keys descending), null last, then by slug. */
function sortBy(c: ListingColumns, keys: { key: Key; desc?: boolean }[]): number[] {
  const bySlug = (a: number, b: number) => (c.slugs[a] < c.slugs[b] ? -1 : c.slugs[a] > c.slugs[b] ? 1 : 0);
  return c.slugs.map((_, i) => i).sort((a, b) => {
    for (const { key, desc } of keys) {
      const x = key(a), y = key(b);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      return desc ? y - x : x - y;
    }
    return bySlug(a, b);
  });
}

export function listingOrders(c: ListingColumns): Record<ListingOrder, number[]> {
  const rated = (i: number) => c.ratingScore[i] !== null;
  const orders: Partial<Record<ListingOrder, number[]>> = {
    slug: sortBy(c, []),
    'date-desc': sortBy(c, [{ key: (i) => c.updatedMs[i], desc: true }]),
    'date-asc': sortBy(c, [{ key: (i) => c.updatedMs[i] }]),
    'rating-desc': sortBy(c, [{ key: (i) => c.ratingScore[i], desc: true }, { key: (i) => (rated(i) ? c.ratingCount[i] ?? 0 : 0), desc: true }]),
    lat: sortBy(c, [{ key: (i) => (c.lng[i] === null ? null : c.lat[i]) }]),
  };
  for (const product of ['all', ...OPTION_TYPES] as const) {
    const p = product === 'all' ? c.fromPrice : c.fromPriceByType[product as OptionType];
    const has = (i: number) => !!p && p.comparableAmount[i] !== null && p.comparableBasis[i] >= 0 && p.comparableEur[i] !== null;
    const basisRank: Key = (i) => (has(i) ? priceBasisOrder(product).indexOf(PRICE_BASES[p!.comparableBasis[i]]) : null);
    const eur: Key = (i) => (has(i) ? p!.comparableEur[i] : null);
    orders[priceOrder(product, 'asc')] = sortBy(c, [{ key: basisRank }, { key: eur }]);
    orders[priceOrder(product, 'desc')] = sortBy(c, [{ key: basisRank }, { key: eur, desc: true }]);
  }
  for (const name of LISTING_ORDERS) if (!orders[name]) throw new Error(`no order ${name}`);
  return orders as Record<ListingOrder, number[]>;
}

/** A build's listing-columns.bin, decoded and checked, with its columns in the mart's JSON shape (null for none). */
export function readListingColumns(bytes: Buffer): { data: ListingColumnsData; columns: ListingColumns } {
  const data = decodeListingColumns(bytes);
  const nullable = (a: Float64Array) => Array.from(a, (v) => (Number.isNaN(v) ? null : v));
  const counts = (a: Int32Array) => Array.from(a, (v) => (v === 0 ? null : v));
  const prices = (p: PriceColumnsData): ListingColumns['fromPrice'] => ({
    amount: nullable(p.amount), currency: Array.from(p.currency), billingPeriod: Array.from(p.billingPeriod), marketPosition: Array.from(p.marketPosition),
    comparableAmount: nullable(p.comparableAmount), comparableEur: nullable(p.comparableEur), comparableCurrency: Array.from(p.comparableCurrency), comparableBasis: Array.from(p.comparableBasis),
  });
  const lists = <K extends string>(r: Partial<Record<K, Int32Array>>) => Object.fromEntries(Object.entries<Int32Array | undefined>(r).map(([k, v]) => [k, Array.from(v!)]));
  const columns: ListingColumns = {
    slugs: data.slugs, dict: data.dict,
    country: Array.from(data.country), countryCode: Array.from(data.countryCode), city: Array.from(data.city), zone: Array.from(data.zone),
    operator: Array.from(data.operator), street: Array.from(data.street), houseNumber: Array.from(data.houseNumber),
    amenities: lists(data.amenities), optionTypes: lists(data.optionTypes), featured: Array.from(data.featured),
    capacity: counts(data.capacity), lat: nullable(data.lat), lng: nullable(data.lng), updatedMs: nullable(data.updatedMs),
    // (a rating count of 0 with a score is a count; without a score there is none)
    ratingScore: nullable(data.ratingScore), ratingCount: Array.from(data.ratingCount, (v, i) => (Number.isNaN(data.ratingScore[i]) ? null : v)),
    fromPrice: prices(data.fromPrice),
    fromPriceByType: Object.fromEntries(Object.entries<PriceColumnsData | undefined>(data.fromPriceByType).map(([t, p]) => [t, prices(p!)])),
  };
  return { data, columns };
}
