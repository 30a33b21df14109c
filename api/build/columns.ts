/**
 * The structure of listing-columns.json that the engine relies on: every per-listing array holds
 * one entry per listing (the slugs), price columns included; `featured` lists listing indices.
 * Values are the pipeline's to check.
 */
import { ListingColumnsSchema, type ListingColumns } from '../../contract/build.ts';

/** arrays of listing indices, not one entry per listing */
const INDEX_LISTS = new Set(['featured']);
const PER_LISTING = Object.entries(ListingColumnsSchema.shape).filter(([k, s]) => s.type === 'array' && !INDEX_LISTS.has(k)).map(([k]) => k);
const PRICE_KEYS = Object.keys(ListingColumnsSchema.shape.fromPrice.shape);

export function checkColumns(cols: ListingColumns): void {
  if (!cols || !Array.isArray(cols.slugs)) throw new Error('listing-columns.json has no slugs');
  const n = cols.slugs.length;
  const perListing = (name: string, a: unknown) => {
    if (!Array.isArray(a)) throw new Error(`listing-columns.json: ${name} is not an array`);
    if (a.length !== n) throw new Error(`listing-columns.json: ${name} has ${a.length} entries for ${n} listings`);
  };
  const record = (name: string, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`listing-columns.json: ${name} is not an object`);
  };
  for (const key of PER_LISTING) perListing(key, cols[key as keyof ListingColumns]);
  for (const key of INDEX_LISTS) {
    const a = cols[key as keyof ListingColumns] as unknown;
    if (!Array.isArray(a) || a.some((i, k) => !Number.isInteger(i) || i < 0 || i >= n || (k > 0 && i <= a[k - 1]))) {
      throw new Error(`listing-columns.json: ${key} is not a list of ascending listing indices`);
    }
  }
  for (const key of ['dict', 'amenities', 'optionTypes', 'fromPrice', 'fromPriceByType'] as const) record(key, cols[key]);
  for (const [name, c] of [['fromPrice', cols.fromPrice], ...Object.entries(cols.fromPriceByType).map(([t, c]) => [`fromPriceByType.${t}`, c])] as [string, ListingColumns['fromPrice']][]) {
    record(name, c);
    for (const k of PRICE_KEYS) perListing(`${name}.${k}`, c[k as keyof typeof c]);
  }
}
