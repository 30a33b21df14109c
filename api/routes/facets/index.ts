import { FacetsPayloadSchema, MAX_FACET_VALUES } from '../../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../../contract/common.ts';
import type { CatalogQuerySchemas } from '../../../contract/queries.ts';
import { BytesOut, FACETS_BYTES } from '../../catalog/facet-payload.ts';
import { closeEnvelope, openEnvelope } from '../../http/envelope.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';
import { listPage } from '../../http/citation.ts';

/** GET /v1/facets, with the query parameters of a filter registry. */
export const facetsRoute = (queries: CatalogQuerySchemas) => defineRoute({
  operationId: 'facets',
  method: 'GET',
  url: '/v1/facets',
  summary: 'Filter options with contextual counts',
  description:
    `For each facet, its values with the number of listings the property list would return with that value selected (every other filter kept). Selected values are always present, even at 0. A facet lists at most ${MAX_FACET_VALUES} values, the highest counts (selected values beyond the cap if need be); meta.truncated is true when one was cut. priceRange appears only when the matching listings share one currency. Besides the parameters of the spec, every filter of the property list is accepted.`,
  querystring: queries.facets,
  response: envelope(FacetsPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.facets,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query: q, build, cite }) => {
    const w = openEnvelope(FACETS_BYTES);
    const truncated = build.engine.facets(q, q.locale, new BytesOut(w));
    return { json: closeEnvelope(w, { truncated: truncated || undefined, citation: cite(q.locale, listPage(build.engine, q.locale, q)) }) };
  },
});
