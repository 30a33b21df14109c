import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { ListingCardSchema, MapMarkerSchema, PropertyDetailSchema } from '../../../contract/catalog.ts';
import { envelope, MetaSchema, PaginatedMetaSchema } from '../../../contract/common.ts';
import { MAP_MAX_PAGE_SIZE, SlugParamsSchema, LocaleQuerySchema, type CatalogQuerySchemas, type PropertyListQuery } from '../../../contract/queries.ts';
import { ASCII } from '../../catalog/json-bytes.ts';
import { closeEnvelope, openEnvelope, pagination } from '../../http/envelope.ts';
import { listPage } from '../../http/citation.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute, type RouteContext, type RouteResult } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';

const STATUSES = [200, 400, 429, 500, 502];

/** A random order without a seed gets a new one each time: the only list answer not to keep. */
const listKey = (request: { query: PropertyListQuery; params: unknown }) =>
  request.query.sortBy === 'random' && request.query.seed === undefined ? undefined : requestKey(request);

/** Room for a page's body, so it is rarely grown: about what a card, a marker and meta take at most (a card of the 100k bench: ~1.2 kB). */
const CARD_BYTES = 1536, MARKER_BYTES = 384, META_BYTES = 1024;

/** Shared by the list and the map: filter, order, page, splice the items' bytes. */
function renderList(
  ctx: RouteContext<PropertyListQuery, unknown, unknown>,
  kind: 'list' | 'map',
): RouteResult {
  const { query: q, build } = ctx;
  const { sortBy: sort, page, pageSize } = q;
  const engine = build.engine;
  const seed = sort === 'random' ? q.seed ?? randomInt(0, 2147483647) : undefined;
  let set = engine.match(q);
  if (kind === 'map') set = engine.withCoords(set);
  const { total, indices } = engine.page(set, q, sort, seed ?? 0, (page - 1) * pageSize, pageSize);
  const w = openEnvelope(indices.length * (kind === 'list' ? CARD_BYTES : MARKER_BYTES) + META_BYTES).byte(ASCII.openBracket);
  if (kind === 'list') engine.writeCards(w, indices, q.locale, q);
  else engine.writeMarkers(w, indices, q.locale, q);
  return {
    json: closeEnvelope(w.byte(ASCII.closeBracket), {
      pagination: pagination(page, pageSize, total),
      truncated: kind === 'map' ? total > pageSize : undefined,
      seed,
      citation: ctx.cite(q.locale, listPage(engine, q.locale, q)),
    }),
  };
}

/** The list and the map, with the query parameters of a filter registry. */
export const propertyListRoutes = (queries: CatalogQuerySchemas) => [
  defineRoute({
    operationId: 'listProperties',
    method: 'GET',
    url: '/v1/properties',
    summary: 'Paginated listing cards',
    description:
      'Listing cards matching every filter given. sortBy=random (the default) is a seeded permutation: the response carries meta.seed; pass it back as `seed` on every following page, otherwise pages repeat and skip listings. With `address`, listings at that address come first, then the rest of the street, each group in sortBy order.',
    querystring: queries.list,
    response: envelope(z.array(ListingCardSchema), PaginatedMetaSchema),
    statuses: STATUSES,
    cache: CACHE.listing,
    cacheKey: listKey,
    rateLimit: 'read',
    handler: (ctx) => renderList(ctx as RouteContext<PropertyListQuery, unknown, unknown>, 'list'),
  }),
  defineRoute({
    operationId: 'mapProperties',
    method: 'GET',
    url: '/v1/properties/map',
    summary: 'Light projection of the whole matching set for plotting markers',
    description: `The list's filters and order; only listings with coordinates. Up to ${MAP_MAX_PAGE_SIZE} markers a page; meta.truncated is true when more matched than one page holds.`,
    querystring: queries.map,
    response: envelope(z.array(MapMarkerSchema), PaginatedMetaSchema),
    statuses: STATUSES,
    cache: CACHE.listing,
    cacheKey: listKey,
    rateLimit: 'read',
    handler: (ctx) => renderList(ctx as RouteContext<PropertyListQuery, unknown, unknown>, 'map'),
  }),
];

/** Room for a detail's body: below 4 kB, Node takes it from its buffer pool (a detail of the 100k bench: ~2 kB). */
const DETAIL_BYTES = 3584;

export const propertyDetailRoute = defineRoute({
  operationId: 'propertyDetail',
  method: 'GET',
  url: '/v1/properties/:slug',
  summary: 'Full detail of one space',
  description: 'Address, capacity, amenities, pricing options and editorial copy of one space. 404 NOT_FOUND for an unknown slug.',
  querystring: LocaleQuerySchema,
  params: SlugParamsSchema,
  response: envelope(PropertyDetailSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.listing,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query: { locale }, params: { slug }, build: { engine }, cite }) => {
    const i = engine.indexOf(slug);
    if (i === undefined) throw new ApiError('NOT_FOUND', `No space with slug "${slug}".`);
    const w = openEnvelope(DETAIL_BYTES);
    engine.writeDetail(w, i, locale);
    return { json: closeEnvelope(w, { citation: cite(locale, { kind: 'space', slug, title: engine.title(i, locale) }) }) };
  },
});
