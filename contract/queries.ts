/** Query parameters of the catalogue reads: the filters (contract/filters.ts), paging and order. */
import { z } from 'zod';
import { LocaleSchema, SlugSchema } from './common.ts';
import { FILTER_DECLARATIONS, filterShape, type FilterDeclarations } from './filters.ts';
import { queryInt, queryIntDefault } from './query-params.ts';
import { withQuickReading } from './quick-query.ts';

/** The reference's orders (docs/design.md §7), then our addition `price-desc` (an extra enum value: every response still satisfies the reference). */
export const SORT_ORDERS = ['random', 'date-desc', 'date-asc', 'distance', 'price-asc', 'rating-desc', 'price-desc'] as const;
export const SortBySchema = z.enum(SORT_ORDERS);
export type SortBy = z.infer<typeof SortBySchema>;

/** What the list and the map use when a parameter is absent (declared as `default` in the OpenAPI document). */
export const DEFAULT_PAGE = 1;
export const MAX_PAGE = 500;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
export const DEFAULT_SORT: SortBy = 'random';
export const MAP_MAX_PAGE_SIZE = 5000;
/** The map answers the whole matching set in one page unless asked for less. */
export const MAP_DEFAULT_PAGE_SIZE = MAP_MAX_PAGE_SIZE;

export const LocaleQuerySchema = z.object({ locale: LocaleSchema });

type GeoFields = { lat?: number; lng?: number; radiusMeters?: number; sortBy?: SortBy };
/** The cross-parameter rules of the point filter (any declaration set has it: the list sorts by distance): what a query breaks. */
function geoIssues(query: unknown): { path: string; message: string }[] {
  const q = query as GeoFields;
  const hasLat = q.lat !== undefined;
  const hasLng = q.lng !== undefined;
  const issues: { path: string; message: string }[] = [];
  if (hasLat && !hasLng) issues.push({ path: 'lng', message: 'lng is required with lat' });
  if (hasLng && !hasLat) issues.push({ path: 'lat', message: 'lat is required with lng' });
  const point = hasLat && hasLng;
  if (q.radiusMeters !== undefined && !point) issues.push({ path: 'radiusMeters', message: 'radiusMeters requires lat and lng' });
  if (q.sortBy === 'distance' && !point) issues.push({ path: 'sortBy', message: 'sortBy=distance requires lat and lng' });
  return issues;
}

function checkGeo(query: unknown, ctx: z.RefinementCtx) {
  for (const { path, message } of geoIssues(query)) ctx.addIssue({ code: 'custom', path: [path], message });
}
const geoValid = (query: unknown) => geoIssues(query).length === 0;

/** Run the checks even when another parameter failed, so the 400 names every bad parameter. */
const GEO_ALWAYS = { when: () => true };

/** A catalogue read's query schema, with the point filter's rules and its quick reading. */
const catalogQuery = <T extends z.ZodRawShape>(shape: T) => withQuickReading(z.object(shape).superRefine(checkGeo, GEO_ALWAYS), geoValid);

/** The query schemas of the list, the map and the facets, built from a set of filter declarations. */
export function catalogQuerySchemas<D extends FilterDeclarations>(filters: D) {
  const shape = { locale: LocaleSchema, ...filterShape(filters) };
  const listShape = {
    ...shape,
    page: queryIntDefault(DEFAULT_PAGE, 1, MAX_PAGE),
    seed: queryInt(0, 2147483647).optional(),
    sortBy: SortBySchema.default(DEFAULT_SORT),
  };
  return {
    list: catalogQuery({ ...listShape, pageSize: queryIntDefault(DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE) }),
    map: catalogQuery({ ...listShape, pageSize: queryIntDefault(MAP_DEFAULT_PAGE_SIZE, 1, MAP_MAX_PAGE_SIZE) }),
    /**
     * GET /v1/facets: the reference's parameters (locale, country, city, zone, operator,
     * pricingOptionType, currency) plus, appended, every other filter of the list, so the counts
     * can follow the whole context of a list.
     */
    facets: catalogQuery(shape),
  };
}
/** The schemas of a registry that declares (at least) the production filters. */
export type CatalogQuerySchemas = ReturnType<typeof catalogQuerySchemas<typeof FILTER_DECLARATIONS>>;

const CATALOG_QUERIES = catalogQuerySchemas(FILTER_DECLARATIONS);

/** GET /v1/properties */
export const PropertyListQuerySchema = CATALOG_QUERIES.list;
export type PropertyListQuery = z.infer<typeof PropertyListQuerySchema>;

/** GET /v1/properties/map: the list's parameters, with up to 5,000 markers a page. */
export const PropertyMapQuerySchema = CATALOG_QUERIES.map;

export const FacetsQuerySchema = CATALOG_QUERIES.facets;

export const SlugParamsSchema = z.object({ slug: SlugSchema });
