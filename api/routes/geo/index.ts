import { GeoPayloadSchema } from '../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { LocaleQuerySchema } from '../../contract/queries.ts';
import { utcDate } from '../../http/citation.ts';
import { envelopeJson } from '../../http/envelope.ts';
import { CACHE, etagOf } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';

export const geoBootstrapRoute = defineRoute({
  operationId: 'getGeoBootstrap',
  method: 'GET',
  url: '/v1/geo/bootstrap',
  summary: 'Countries, cities and zones index',
  description: 'Every country, city and zone with its listing count; the slugs are the filter values of the property list. Fetch once and cache.',
  querystring: LocaleQuerySchema,
  response: envelope(GeoPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.geo,
  citation: true,
  rateLimit: 'read',
  handler: ({ query, build, now, cite }) => {
    const key = `geo|${query.locale}|${utcDate(now)}`;
    let hit = build.engine.bodies.get(key);
    if (!hit) {
      const json = envelopeJson(JSON.stringify(build.geo[query.locale]), { citation: cite(query.locale, { kind: 'home' }) });
      hit = { json, etag: etagOf(json) };
      build.engine.bodies.set(key, hit);
    }
    return hit;
  },
});
