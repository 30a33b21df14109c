import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { OperatorHubSchema, PlaceHubSchema } from '../../contract/market.ts';
import { KREUZBERG, MITTE } from '../support/pipeline-fixtures.ts';
import { get, SITE } from '../support/app.ts';
import { BARCELONA, cents, marketFixture, MUNICH, type MarketFixture } from './market-support.ts';

const PlaceResponse = envelope(PlaceHubSchema, MetaSchema);
const OperatorResponse = envelope(OperatorHubSchema, MetaSchema);

let f: MarketFixture;
before(async () => { f = await marketFixture(); });
after(() => f.app.close());

async function hub(url: string) {
  const r = await get(f.app, url);
  assert.equal(r.status, 200, `${url}: ${JSON.stringify(r.body)}`);
  assert.equal(r.headers['cache-control'], 'public, max-age=600, stale-while-revalidate=3600');
  return r.body;
}

describe('GET /v1/places/{kind}/{slug}', () => {
  it('publishes the statistics of a city, zone and country as an independent computation gives them', async () => {
    const berlinId = f.cityId.get('berlin')!;
    const cases = [
      { url: '/v1/places/city/berlin?locale=en', where: (s: { city_id: string }) => s.city_id === berlinId },
      { url: '/v1/places/zone/berlin-mitte?locale=en', where: (s: { zone_id: string }) => s.zone_id === MITTE },
      { url: '/v1/places/zone/berlin-kreuzberg?locale=de', where: (s: { zone_id: string }) => s.zone_id === KREUZBERG },
      { url: '/v1/places/country/germany?locale=es', where: (s: { city_id: string }) => f.expected.countryOf(s.city_id) === 'DE' },
      { url: '/v1/places/city/munich?locale=de', where: (s: { city_id: string }) => s.city_id === MUNICH },
      { url: '/v1/places/city/barcelona?locale=en', where: (s: { city_id: string }) => s.city_id === BARCELONA },
    ];
    for (const c of cases) {
      const body = await hub(c.url);
      PlaceResponse.parse(body);
      const d = body.data;
      assert.equal(d.propertyCount, f.expected.propertyCount(c.where as never), `${c.url} propertyCount`);
      const e = f.expected.figures(c.where as never, 'all');
      if (e && e.n >= 5) {
        assert.equal(d.medianMonthlyPerDesk.sampleSize, e.n, `${c.url} sample`);
        assert.ok(Math.abs(d.medianMonthlyPerDesk.price.amount - cents(e.median)) <= 0.011, `${c.url} median`);
        assert.ok(Math.abs(d.priceRange.min.amount - cents(e.min)) <= 0.011, `${c.url} min`);
        assert.ok(Math.abs(d.priceRange.max.amount - cents(e.max)) <= 0.011, `${c.url} max`);
      } else {
        assert.equal(d.medianMonthlyPerDesk, undefined, `${c.url}: no median under 5 spaces`);
        assert.equal(d.priceRange, undefined, `${c.url}: no range under 5 spaces`);
      }
      assert.ok(d.faqs.length >= 1, `${c.url} has FAQs`);
      assert.equal(typeof d.intro, 'string');
    }
  });

  it('answers "how much does a desk cost" with the median and its sample, in the request locale', async () => {
    const en = (await hub('/v1/places/city/munich?locale=en')).data;
    assert.equal(en.medianMonthlyPerDesk.sampleSize, 5);
    assert.equal(en.medianMonthlyPerDesk.price.amount, 280);
    const q = en.faqs.find((x: { question: string }) => /How much does a desk cost in Munich/.test(x.question));
    assert.ok(q, JSON.stringify(en.faqs));
    assert.match(q.answer, /280/);
    assert.match(q.answer, /\b5\b/);
    const de = (await hub('/v1/places/city/munich?locale=de')).data;
    assert.equal(de.name, 'München');
    assert.ok(de.faqs.some((x: { question: string }) => x.question.includes('München')));
    // 4 spaces: the sample is given, no median
    const thin = (await hub('/v1/places/city/barcelona?locale=en')).data;
    assert.equal(thin.medianMonthlyPerDesk, undefined);
  });

  it('links parents and children and cites /{locale}/coworking/{country}[/{city}[/{zone}]]', async () => {
    const zone = await hub('/v1/places/zone/berlin-mitte?locale=en');
    assert.deepEqual(zone.data.parent, { slug: 'berlin', name: 'Berlin' });
    assert.equal(zone.meta.citation.url, `${SITE}/en/coworking/germany/berlin/berlin-mitte`);
    assert.equal(zone.meta.citation.title, 'Coworking spaces in Mitte');
    const city = await hub('/v1/places/city/munich?locale=de');
    assert.equal(city.meta.citation.url, `${SITE}/de/coworking/germany/munich`);
    assert.equal(city.meta.citation.title, 'Coworking-Spaces in München');
    const country = await hub('/v1/places/country/germany?locale=es');
    assert.equal(country.meta.citation.url, `${SITE}/es/coworking/germany`);
    assert.equal(country.data.name, 'Alemania');
    assert.deepEqual(country.data.children.map((c: { slug: string }) => c.slug).sort(), ['berlin', 'munich']);
  });

  it('answers 400 VALIDATION_FAILED for a kind outside country, city and zone', async () => {
    for (const kind of ['planet', 'operator', 'City', 'property']) {
      const r = await get(f.app, `/v1/places/${kind}/berlin?locale=en`);
      assert.equal(r.status, 400, kind);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.equal(r.body.errors[0].path, 'kind');
    }
  });

  it('answers 404 NOT_FOUND for an unknown slug of that kind', async () => {
    for (const url of ['/v1/places/city/atlantis?locale=en', '/v1/places/zone/berlin?locale=en', '/v1/places/country/berlin?locale=en',
      '/v1/places/city/constructor?locale=en']) {
      const r = await get(f.app, url);
      assert.equal(r.status, 404, url);
      assert.equal(r.body.code, 'NOT_FOUND');
      assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    }
    assert.equal((await get(f.app, '/v1/places/city/berlin')).status, 400, 'locale is required');
  });
});

describe('GET /v1/operators/{slug}', () => {
  it('publishes the operator\'s listings and cities as the snapshot has them', async () => {
    const body = await hub('/v1/operators/desk-nest?locale=en');
    OperatorResponse.parse(body);
    const d = body.data;
    const own = f.tables.spaces.filter((s) => s.operator_id === 'op-001');
    assert.equal(d.propertyCount, own.length);
    const slugOf = new Map([...f.cityId].map(([slug, id]) => [id, slug]));
    assert.deepEqual(d.cities.map((c: { slug: string }) => c.slug).sort(), [...new Set(own.map((s) => slugOf.get(s.city_id)))].sort());
    assert.equal(d.tagline, 'Desks that feel like home');
    assert.equal(d.logo.url, `${SITE}/media/operators/op-001.svg`);
    assert.ok(d.faqs.length >= 1);
    assert.deepEqual(body.meta.citation.url, `${SITE}/en/operator/desk-nest`);
    assert.equal(body.meta.citation.title, 'Desk Nest');
  });

  it('localizes the computed texts', async () => {
    const es = (await hub('/v1/operators/hive-works?locale=es')).data;
    const en = (await hub('/v1/operators/hive-works?locale=en')).data;
    assert.notEqual(es.faqs[0].question, en.faqs[0].question);
    assert.equal(es.propertyCount, f.tables.spaces.filter((s) => s.operator_id === 'op-002').length);
  });

  it('answers 404 NOT_FOUND for an unknown operator and 400 for a malformed slug', async () => {
    const r = await get(f.app, '/v1/operators/nobody?locale=en');
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'NOT_FOUND');
    assert.equal((await get(f.app, '/v1/operators/Desk_Nest?locale=en')).status, 400);
    assert.equal((await get(f.app, '/v1/operators/hasOwnProperty?locale=en')).status, 400);
    assert.equal((await get(f.app, '/v1/operators/constructor?locale=en')).status, 404);
  });
});
