import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ConfigPayloadSchema, GeoPayloadSchema, HealthPayloadSchema } from '../../contract/catalog.ts';
import { envelope, LOCALES, MetaSchema, type Locale } from '../../contract/common.ts';
import { get, sharedBuild, testApp, SITE } from '../support/app.ts';

let app: FastifyInstance;
const NOV_3 = Date.UTC(2026, 10, 3, 23, 59, 0);
before(async () => { app = await testApp({ clock: () => NOV_3 }); });
after(() => app.close());

describe('GET /v1/health', () => {
  it('returns ok, the build sha and the id of the data build served, never cached, without citation', async () => {
    const r = await get(app, '/v1/health');
    assert.equal(r.status, 200);
    envelope(HealthPayloadSchema, MetaSchema).parse(r.body);
    const { build } = await sharedBuild();
    assert.match(build.id, /\S/);
    assert.deepEqual(r.body, { data: { status: 'ok', sha: 'test123', buildId: build.id }, meta: { contractVersion: '1.0.0' } });
    assert.equal(r.headers['cache-control'], 'no-store');
  });
});

describe('GET /v1/config', () => {
  it('serves the build config with the 60/60 cache hint and no citation', async () => {
    const r = await get(app, '/v1/config');
    assert.equal(r.status, 200);
    envelope(ConfigPayloadSchema, MetaSchema).parse(r.body);
    assert.equal(r.body.data.minSupportedBuild, 100);
    assert.equal(r.body.meta.citation, undefined);
    assert.equal(r.headers['cache-control'], 'public, max-age=60, stale-while-revalidate=60');
  });
});

describe('GET /v1/geo/bootstrap', () => {
  it('returns the localized geography with the home page cited, accessed today in UTC', async () => {
    const r = await get(app, '/v1/geo/bootstrap?locale=es');
    assert.equal(r.status, 200);
    envelope(GeoPayloadSchema, MetaSchema).parse(r.body);
    assert.ok(r.body.data.cities.some((c: { slug: string; name: string }) => c.slug === 'berlin' && c.name === 'Berlín'));
    assert.deepEqual(r.body.data.cities.filter((c: { name: string }) => c.name === 'Valencia').map((c: { slug: string }) => c.slug), ['valencia', 'valencia-ve']);
    assert.deepEqual(r.body.meta.citation, {
      source: 'Desk Atlas',
      title: 'Espacios de coworking',
      url: `${SITE}/es`,
      accessed: '2026-11-03',
      license: 'CC BY 4.0',
      licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
      text: `Fuente: Desk Atlas, Espacios de coworking, ${SITE}/es, CC BY 4.0`,
    });
    assert.equal(r.headers['cache-control'], 'public, max-age=3600, stale-while-revalidate=86400');
    assert.equal((await get(app, '/v1/geo/bootstrap')).status, 400);
  });

  it('serves the geo file\'s bytes as they are: the body the geography serialized would give', async () => {
    const { build } = await sharedBuild();
    for (const locale of LOCALES) {
      const r = await get(app, `/v1/geo/bootstrap?locale=${locale}`);
      assert.equal(r.raw.body, `{"data":${JSON.stringify(build.geo[locale])},"meta":${JSON.stringify(r.body.meta)}}`);
    }
  });

  it('localizes list citations in every locale', async () => {
    const expected: Record<Locale, string> = {
      en: `Source: Desk Atlas, Coworking spaces in Berlin, ${SITE}/en/coworking/germany/berlin, CC BY 4.0`,
      de: `Quelle: Desk Atlas, Coworking-Spaces in Berlin, ${SITE}/de/coworking/germany/berlin, CC BY 4.0`,
      es: `Fuente: Desk Atlas, Espacios de coworking en Berlín, ${SITE}/es/coworking/germany/berlin, CC BY 4.0`,
    };
    const titles: Record<string, string> = {};
    for (const l of LOCALES) titles[l] = (await get(app, `/v1/properties?locale=${l}&city=berlin&pageSize=1`)).body.meta.citation.text;
    assert.deepEqual(titles, expected);
  });
});
