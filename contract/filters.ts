/**
 * The filters of the catalogue reads (list, map, facets) as the query side declares them: each
 * filter's query parameters (schema and OpenAPI note) and whether GET /v1/facets counts its
 * values. How the API matches each one is added in api/catalog/filters.ts. The query schemas
 * (contract/queries.ts), the `Filters` type, the canonical key and the parameter docs derive
 * from a declaration set: FILTER_DECLARATIONS in production.
 */
import { z } from 'zod';
import { AMENITY_SLUG_PATTERN, AmenitySlugSchema, CurrencySchema, MAX_SLUG, OptionTypeSchema, SlugSchema } from './common.ts';
import { PRODUCT_PRICE_BASIS } from './prices.ts';
import { NUMERIC, queryInt, queryNumber } from './query-params.ts';
import { quickly } from './quick-query.ts';

export const MAX_AMENITIES = 20;
export const MAX_RADIUS_METERS = 200_000;

/** Amenity slugs separated by single commas, nothing else: what the quick reading takes (anything else, the schema). */
const AMENITY_SLUG = AMENITY_SLUG_PATTERN.source.slice(1, -1);
const PLAIN_AMENITIES = new RegExp(`^${AMENITY_SLUG}(,${AMENITY_SLUG})*$`);

export const AmenitiesParamSchema = quickly(z.string().transform((raw, ctx) => {
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'at least one amenity slug' });
    return z.NEVER;
  }
  if (list.length > MAX_AMENITIES) {
    ctx.addIssue({ code: 'custom', message: `at most ${MAX_AMENITIES} amenity slugs` });
    return z.NEVER;
  }
  for (const slug of list) {
    if (!AmenitySlugSchema.safeParse(slug).success) {
      ctx.addIssue({ code: 'custom', message: `invalid amenity slug "${slug.slice(0, 40)}"` });
      return z.NEVER;
    }
  }
  return [...new Set(list)];
}), (raw) => {
  if (!PLAIN_AMENITIES.test(raw)) return undefined;
  const list = raw.split(',');
  return list.length <= MAX_AMENITIES && list.every((slug) => slug.length <= MAX_SLUG) ? [...new Set(list)] : undefined;
});

export interface BBox { west: number; south: number; east: number; north: number }
export const BBoxParamSchema = z.string().transform((raw, ctx): BBox => {
  const parts = raw.split(',');
  const nums = parts.map((p) => (NUMERIC.test(p.trim()) ? Number(p.trim()) : Number.NaN));
  if (parts.length !== 4 || nums.some((n) => !Number.isFinite(n))) {
    ctx.addIssue({ code: 'custom', message: 'expected four numbers: west,south,east,north' });
    return z.NEVER;
  }
  const [west, south, east, north] = nums;
  if (west < -180 || west > 180 || east < -180 || east > 180) {
    ctx.addIssue({ code: 'custom', message: 'west and east must be within -180..180' });
    return z.NEVER;
  }
  if (south < -90 || south > 90 || north < -90 || north > 90) {
    ctx.addIssue({ code: 'custom', message: 'south and north must be within -90..90' });
    return z.NEVER;
  }
  if (south > north) {
    ctx.addIssue({ code: 'custom', message: 'south must not be greater than north' });
    return z.NEVER;
  }
  return { west, south, east, north };
});

/** One query parameter of a filter: its schema as a query string carries it, and its note in the OpenAPI document. */
export interface FilterParam<S extends z.ZodType = z.ZodType> { schema: S; note: string }
export interface FilterDeclaration {
  params: Record<string, FilterParam>;
  /** GET /v1/facets counts the listings of each of its values */
  facet?: true;
}
export type FilterDeclarations = Record<string, FilterDeclaration>;

const param = <S extends z.ZodType>(schema: S, note: string): FilterParam<S> => ({ schema, note });

const otherBases = Object.entries(PRODUCT_PRICE_BASIS).filter(([, b]) => b !== 'monthly').map(([t, b]) => `per ${b} for ${t}`).join(', ');
const PRICE_BOUND_NOTE = (bound: string) =>
  `${bound} comparable price, in each listing's own currency: without pricingOptionType the monthly equivalent of its `
  + `cheapest month, week or year price (week ×52/12, year ÷12); with one, the cheapest of that type on that type's basis (monthly; ${otherBases}). `
  + 'Listings without a price on that basis do not match. GET /v1/facets gives the range and its basis as priceRange.';

/** The filters of the production API, in the order of their parameters in the OpenAPI document. */
export const FILTER_DECLARATIONS = {
  country: { params: { country: param(SlugSchema, 'Country slug (from /v1/geo/bootstrap).') }, facet: true },
  city: { params: { city: param(SlugSchema, 'City slug (from /v1/geo/bootstrap).') }, facet: true },
  zone: { params: { zone: param(SlugSchema, 'Zone slug (from /v1/geo/bootstrap).') }, facet: true },
  operator: { params: { operator: param(SlugSchema, 'Operator slug.') }, facet: true },
  pricingOptionType: {
    params: { pricingOptionType: param(OptionTypeSchema, 'Only listings with an option of this type; fromPrice then is the cheapest of that type.') },
    facet: true,
  },
  currency: { params: { currency: param(CurrencySchema, 'Only listings priced in this currency.') } },
  amenities: {
    params: { amenities: param(AmenitiesParamSchema, `Comma-separated amenity slugs, at most ${MAX_AMENITIES}; a listing must have all of them.`) },
    facet: true,
  },
  minCapacity: { params: { minCapacity: param(queryInt(1), 'Minimum capacity (people).') } },
  price: {
    params: {
      minPrice: param(queryNumber(z.number().min(0)), PRICE_BOUND_NOTE('Minimum')),
      maxPrice: param(queryNumber(z.number().min(0)), PRICE_BOUND_NOTE('Maximum')),
    },
  },
  point: {
    params: {
      lat: param(queryNumber(z.number().min(-90).max(90)), 'Latitude (WGS84) of a point; give lng with it. Only listings with coordinates match, each card with its distanceMeters.'),
      lng: param(queryNumber(z.number().min(-180).max(180)), 'Longitude (WGS84) of a point; give lat with it.'),
      radiusMeters: param(queryNumber(z.number().gt(0).max(MAX_RADIUS_METERS)), 'Only listings within this distance of lat/lng (which it requires).'),
    },
  },
  bbox: {
    params: { bbox: param(BBoxParamSchema, 'Viewport as west,south,east,north in WGS84 degrees; west > east crosses the antimeridian, south > north is a 400.') },
  },
  address: {
    params: {
      address: param(z.string().min(3).max(120), 'Street address: listings at that address come first, then the rest of the street. Not geocoded; to search around an address use lat, lng and radiusMeters.'),
    },
  },
} as const satisfies FilterDeclarations;

type ParamName<D extends FilterDeclarations> = { [K in keyof D]: keyof D[K]['params'] & string }[keyof D];
type ParamSchema<D extends FilterDeclarations, P extends string> = {
  [K in keyof D]: P extends keyof D[K]['params'] ? D[K]['params'][P]['schema'] : never
}[keyof D];

/** The parsed values of the filters of a declaration set, each optional. */
export type FiltersOf<D extends FilterDeclarations> = { [P in ParamName<D>]?: z.output<ParamSchema<D, P>> };
export type Filters = FiltersOf<typeof FILTER_DECLARATIONS>;
export type FacetKeyOf<D extends FilterDeclarations> = { [K in keyof D]: D[K] extends { facet: true } ? K & string : never }[keyof D];

/** A parameter's schema as a query parameter: optional, with its note. */
export const documented = <S extends z.ZodType>(p: FilterParam<S>) => p.schema.optional().describe(p.note);

/** The zod shape of every filter parameter of a declaration set. */
export function filterShape<D extends FilterDeclarations>(filters: D): { [P in ParamName<D>]: z.ZodOptional<ParamSchema<D, P>> } {
  const shape: Record<string, z.ZodType> = {};
  for (const f of Object.values(filters)) for (const [name, p] of Object.entries(f.params)) shape[name] = documented(p);
  return shape as { [P in ParamName<D>]: z.ZodOptional<ParamSchema<D, P>> };
}

export const facetKeys = <D extends FilterDeclarations>(filters: D) =>
  Object.keys(filters).filter((k) => filters[k].facet) as FacetKeyOf<D>[];

/**
 * One text per filter selection: the set parameters in declaration order, lists (amenities) as
 * sets. Two selections with the same key select the same listings, and every declared parameter
 * is part of it.
 */
export function canonicalKey(filters: Record<string, unknown>, declarations: FilterDeclarations = FILTER_DECLARATIONS): string {
  const parts: unknown[] = [];
  for (const f of Object.values(declarations)) {
    for (const name of Object.keys(f.params)) {
      const v = filters[name];
      if (v !== undefined) parts.push(name, Array.isArray(v) ? [...v].sort() : v);
    }
  }
  return JSON.stringify(parts);
}
