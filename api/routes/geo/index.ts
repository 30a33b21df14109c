import { GeoPayloadSchema } from '../../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../../contract/common.ts';
import { LocaleQuerySchema } from '../../../contract/queries.ts';
import { envelopeBytes } from '../../http/envelope.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';

export const geoBootstrapRoute = defineRoute({
  operationId: 'geoBootstrap',
  method: 'GET',
  url: '/v1/geo/bootstrap',
  summary: 'Countries, cities and zones index',
  description: 'Every country, city and zone with its listing count; the slugs are the filter values of the property list. Fetch once and cache.',
  querystring: LocaleQuerySchema,
  response: envelope(GeoPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.geo,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query, build, cite }) => ({ json: envelopeBytes(build.geoJson[query.locale], { citation: cite(query.locale, { kind: 'home' }) }) }),
});
