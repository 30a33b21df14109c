/**
 * Query parameters of the catalogue reads. Query strings arrive as strings: numbers are parsed
 * strictly (no empty strings, no hex, no arrays) before the numeric limits apply.
 */
import { z } from 'zod';
import {
  AmenitySlugSchema, CurrencySchema, LocaleSchema, OptionTypeSchema, SlugSchema,
} from './common.ts';

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

const parsed = (pattern: RegExp) => (v: unknown) => (typeof v === 'string' && pattern.test(v) ? Number(v) : v);
export const queryNumber = <T extends z.ZodNumber>(schema: T) => z.preprocess(parsed(NUMERIC), schema);
export const queryInt = (min: number, max?: number) => {
  const base = z.int().min(min);
  return z.preprocess(parsed(INTEGER), max === undefined ? base : base.max(max));
};

export const SORT_ORDERS = ['random', 'date-desc', 'date-asc', 'distance', 'price-asc', 'rating-desc'] as const;
export const SortBySchema = z.enum(SORT_ORDERS);
export type SortBy = z.infer<typeof SortBySchema>;

export const MAX_AMENITIES = 20;
export const MAX_RADIUS_METERS = 200_000;

export const AmenitiesParamSchema = z.string().transform((raw, ctx) => {
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

export const LocaleQuerySchema = z.object({ locale: LocaleSchema });

/** The filters shared by the property list, the map and the facets. */
const filterShape = {
  locale: LocaleSchema,
  country: SlugSchema.optional(),
  city: SlugSchema.optional(),
  zone: SlugSchema.optional(),
  operator: SlugSchema.optional(),
  pricingOptionType: OptionTypeSchema.optional(),
  currency: CurrencySchema.optional(),
  amenities: AmenitiesParamSchema.optional(),
  minCapacity: queryInt(1).optional(),
  minPrice: queryNumber(z.number().min(0)).optional(),
  maxPrice: queryNumber(z.number().min(0)).optional(),
  lat: queryNumber(z.number().min(-90).max(90)).optional(),
  lng: queryNumber(z.number().min(-180).max(180)).optional(),
  radiusMeters: queryNumber(z.number().gt(0).max(MAX_RADIUS_METERS)).optional(),
  bbox: BBoxParamSchema.optional(),
  address: z.string().min(3).max(120).optional(),
};

type GeoFields = { lat?: number; lng?: number; radiusMeters?: number; sortBy?: SortBy };
function checkGeo(q: GeoFields, ctx: z.RefinementCtx) {
  const hasLat = q.lat !== undefined;
  const hasLng = q.lng !== undefined;
  if (hasLat && !hasLng) ctx.addIssue({ code: 'custom', path: ['lng'], message: 'lng is required with lat' });
  if (hasLng && !hasLat) ctx.addIssue({ code: 'custom', path: ['lat'], message: 'lat is required with lng' });
  const point = hasLat && hasLng;
  if (q.radiusMeters !== undefined && !point) {
    ctx.addIssue({ code: 'custom', path: ['radiusMeters'], message: 'radiusMeters requires lat and lng' });
  }
  if (q.sortBy === 'distance' && !point) {
    ctx.addIssue({ code: 'custom', path: ['sortBy'], message: 'sortBy=distance requires lat and lng' });
  }
}

/** Run the checks even when another parameter failed, so the 400 names every bad parameter. */
const GEO_ALWAYS = { when: () => true };

const listShape = {
  ...filterShape,
  page: queryInt(1, 500).optional(),
  seed: queryInt(0, 2147483647).optional(),
  sortBy: SortBySchema.optional(),
};

/** GET /v1/properties */
export const PropertyListQuerySchema = z.object({ ...listShape, pageSize: queryInt(1, 50).optional() }).superRefine(checkGeo, GEO_ALWAYS);
export type PropertyListQuery = z.infer<typeof PropertyListQuerySchema>;

export const MAP_MAX_PAGE_SIZE = 5000;
/** GET /v1/properties/map: the list's parameters, with up to 5,000 markers a page. */
export const PropertyMapQuerySchema = z.object({ ...listShape, pageSize: queryInt(1, MAP_MAX_PAGE_SIZE).optional() }).superRefine(checkGeo, GEO_ALWAYS);

/**
 * GET /v1/facets: the spec's parameters (locale, country, city, zone, operator,
 * pricingOptionType, currency) plus, appended, every other filter of the list, so the counts
 * can follow the whole context of a list.
 */
export const FacetsQuerySchema = z.object(filterShape).superRefine(checkGeo, GEO_ALWAYS);

export const SlugParamsSchema = z.object({ slug: SlugSchema });
