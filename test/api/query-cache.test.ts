import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadBuild } from '../../api/build/load.ts';
import { staticCatalog } from '../../api/build/store.ts';
import { get, SITE, sharedBuild, testApp, testConfig } from '../support/app.ts';

// QUERY_CACHE=0 (the benchmark's "engine only" mode) must change speed, never answers.
const URLS = [
  '/v1/properties?locale=en&sortBy=price-asc',
  '/v1/properties?locale=de&city=berlin&sortBy=rating-desc&pageSize=5&page=2',
  '/v1/properties?locale=en&seed=42',
  '/v1/properties?locale=en&seed=42&page=2&pageSize=3',
  '/v1/properties?locale=es&amenities=wifi&minCapacity=5&sortBy=date-desc',
  '/v1/properties/map?locale=en&sortBy=date-desc',
  '/v1/facets?locale=en',
  '/v1/facets?locale=de&city=berlin&pricingOptionType=flex_desk',
  '/v1/geo/bootstrap?locale=es',
  '/v1/search/suggest?locale=en&q=ber',
  '/v1/search/suggest?locale=de&q=munchen&limit=3',
];

describe('QUERY_CACHE', () => {
  let cached: FastifyInstance;
  let uncached: FastifyInstance;
  before(async () => {
    const { fixture } = await sharedBuild();
    cached = await testApp();
    const bare = await loadBuild(fixture.dir, { siteUrl: SITE, queryCache: false });
    uncached = await testApp({ catalog: staticCatalog(bare), env: { QUERY_CACHE: '0' } });
  });
  after(async () => {
    await cached.close();
    await uncached.close();
  });

  it('is on unless set to 0', () => {
    assert.equal(testConfig().queryCache, true);
    assert.equal(testConfig({ QUERY_CACHE: '0' }).queryCache, false);
    assert.throws(() => testConfig({ QUERY_CACHE: 'maybe' }));
  });

  it('gives the same bodies and ETags with the caches off, asked twice', async () => {
    for (const url of URLS) {
      const first = await get(cached, url);
      assert.equal(first.status, 200, url);
      for (const app of [cached, uncached, uncached]) {
        const r = await get(app, url);
        assert.equal(r.status, 200, url);
        assert.equal(r.raw.body, first.raw.body, url);
        assert.equal(r.headers.etag, first.headers.etag, url);
      }
    }
  });

  it('answers a repeated URL from the body kept for it, with the citation date moving on at UTC midnight', async () => {
    let now = Date.parse('2026-11-03T23:59:59.000Z');
    const app = await testApp({ clock: () => now });
    try {
      const url = '/v1/properties?locale=en&city=berlin&sortBy=rating-desc&pageSize=3';
      const first = await get(app, url);
      const again = await get(app, url);
      assert.equal(again.raw.body, first.raw.body);
      assert.equal(first.body.meta.citation.accessed, '2026-11-03');
      now += 1000;
      const tomorrow = await get(app, url);
      assert.equal(tomorrow.body.meta.citation.accessed, '2026-11-04');
      assert.deepEqual(tomorrow.body.data, first.body.data);
      assert.notEqual(tomorrow.headers.etag, first.headers.etag);
      // a clock set back is not answered with a later day's body
      now -= 1000;
      assert.equal((await get(app, url)).body.meta.citation.accessed, '2026-11-03');
    } finally {
      await app.close();
    }
  });

  it('never keeps a random order without a seed, and still validates a URL it has answered', async () => {
    const seeds = new Set<number>();
    for (let k = 0; k < 5; k++) seeds.add((await get(cached, '/v1/properties?locale=en&pageSize=1')).body.meta.seed);
    assert.ok(seeds.size > 1, 'each unseeded random list draws its own seed');
    const url = '/v1/facets?locale=en&city=berlin';
    assert.equal((await get(cached, url)).status, 200);
    assert.equal((await get(cached, url, { 'x-client-build': '1' })).body.code, 'CLIENT_TOO_OLD');
    assert.equal((await get(cached, url, { 'if-none-match': (await get(cached, url)).headers.etag as string })).status, 304);
  });
});
