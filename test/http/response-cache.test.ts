import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loadBuild } from '../../api/loading/load.ts';
import { CatalogStore, staticCatalog, type CatalogSource } from '../../api/loading/store.ts';
import { requestKey, responsesOf } from '../../api/http/response-cache.ts';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
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
  '/openapi.json',
  '/auth.md',
  '/docs/init.js',
];

describe('the response cache', () => {
  let cached: FastifyInstance;
  let uncached: FastifyInstance;
  let cachedSource: CatalogSource;
  let uncachedSource: CatalogSource;
  before(async () => {
    const { fixture, build } = await sharedBuild();
    cachedSource = staticCatalog(build);
    cached = await testApp({ catalog: cachedSource });
    const bare = await loadBuild(fixture.dir, { siteUrl: SITE });
    uncachedSource = staticCatalog(bare);
    uncached = await testApp({ catalog: uncachedSource, env: { QUERY_CACHE: '0' } });
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

  it('gives the same bodies and ETags with QUERY_CACHE=0, asked twice, and keeps nothing then', async () => {
    for (const url of URLS) {
      const first = await get(cached, url);
      assert.equal(first.status, 200, url);
      for (const app of [cached, uncached, uncached]) {
        const r = await get(app, url);
        assert.equal(r.status, 200, url);
        assert.equal(r.raw.body, first.raw.body, url);
        for (const h of ['etag', 'content-type', 'link']) assert.equal(r.headers[h], first.headers[h], `${url} ${h}`);
      }
    }
    assert.ok(responsesOf(cachedSource.current()).size >= URLS.length - 1, 'the cached app kept the bodies');
    assert.equal(responsesOf(uncachedSource.current()).size, 0, 'QUERY_CACHE=0 keeps nothing');
  });

  it('keys a request by route and parsed parameters: order, spelling and set order do not count', async () => {
    const { build } = await sharedBuild();
    const source = staticCatalog(build);
    const app = await testApp({ catalog: source });
    try {
      const urls = [
        '/v1/properties?locale=en&amenities=wifi,coffee&sortBy=date-desc&page=1',
        '/v1/properties?sortBy=date-desc&amenities=coffee,wifi&locale=en&page=01&unknown=x',
      ];
      const [a, b] = [await get(app, urls[0]), await get(app, urls[1])];
      assert.equal(a.status, 200);
      assert.equal(b.raw.body, a.raw.body);
      assert.equal(responsesOf(source.current()).size, 1, 'one body for both spellings (kept when the key came again)');
      for (let k = 0; k < 2; k++) assert.equal((await get(app, '/v1/facets?locale=en&amenities=wifi,coffee')).status, 200);
      assert.equal(responsesOf(source.current()).size, 2, 'another route, another key');
    } finally {
      await app.close();
    }
    assert.equal(requestKey({ params: {}, query: { b: 1, a: ['y', 'x'], c: undefined } }), requestKey({ params: {}, query: { a: ['x', 'y'], b: 1 } }));
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
    const { build } = await sharedBuild();
    const source = staticCatalog(build);
    const app = await testApp({ catalog: source });
    try {
      const seeds = new Set<number>();
      for (const url of ['/v1/properties?locale=en&pageSize=1', '/v1/properties?locale=en&pageSize=1&sortBy=random', '/v1/properties/map?locale=en']) {
        for (let k = 0; k < 4; k++) seeds.add((await get(app, url)).body.meta.seed);
      }
      assert.ok(seeds.size > 1, 'each unseeded random list draws its own seed');
      assert.equal(responsesOf(source.current()).size, 0, 'no unseeded random list is kept');
      const seeded = await get(app, '/v1/properties?locale=en&pageSize=1&seed=7');
      assert.equal(responsesOf(source.current()).size, 0, 'a request asked for once is not kept');
      assert.equal((await get(app, '/v1/properties?locale=en&pageSize=1&seed=7')).raw.body, seeded.raw.body);
      assert.equal(responsesOf(source.current()).size, 1, 'a seeded one asked for again is');
      assert.equal((await get(app, '/v1/properties?locale=en&pageSize=1&seed=7')).raw.body, seeded.raw.body);
    } finally {
      await app.close();
    }
    const url = '/v1/facets?locale=en&city=berlin';
    assert.equal((await get(cached, url)).status, 200);
    assert.equal((await get(cached, url, { 'x-client-build': '1' })).body.code, 'CLIENT_TOO_OLD');
    assert.equal((await get(cached, url, { 'if-none-match': (await get(cached, url)).headers.etag as string })).status, 304);
  });

  it('keeps a response with its content type and headers from the second time it is asked for, then runs the handler no more', async () => {
    let calls = 0;
    const probe = async (app: FastifyInstance) => {
      registerRoute(app, defineRoute({
        operationId: 'probeKept', method: 'GET', url: '/v1/test/kept', summary: 'kept', querystring: z.object({ n: z.string().optional() }),
        response: z.string(), statuses: [200], cache: 'no-store', cacheKey: requestKey, rateLimit: 'read',
        handler: () => ({ raw: `call ${++calls}`, contentType: 'text/csv; charset=utf-8', headers: { link: '<https://example.org/l>; rel="license"' } }),
      }));
    };
    const app = await testApp({ plugins: [probe] });
    try {
      // asked for once: made; asked for again (another spelling of the same request): made and kept; then served as kept
      const [a, b, again] = [await app.inject({ url: '/v1/test/kept' }), await app.inject({ url: '/v1/test/kept?unknown=1' }), await app.inject({ url: '/v1/test/kept' })];
      const c = await app.inject({ url: '/v1/test/kept?n=1' });
      assert.equal(calls, 3, 'the handler ran twice for the kept request, then not again');
      assert.deepEqual([a.body, b.body, again.body], ['call 1', 'call 2', 'call 2']);
      for (const r of [a, b, again]) {
        assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8');
        assert.equal(r.headers.link, '<https://example.org/l>; rel="license"');
      }
      assert.equal(again.headers.etag, b.headers.etag);
      assert.equal(c.body, 'call 3');
    } finally {
      await app.close();
    }
  });

  it('starts empty for each build the store swaps in', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-dist-'));
    const quiet = { info: () => undefined, error: () => undefined };
    try {
      const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
      await publish(dist, a.dir);
      const store = await CatalogStore.open(dist, { siteUrl: SITE, log: quiet });
      const app = await testApp({ catalog: store });
      try {
        const url = '/v1/facets?locale=en';
        await get(app, url);
        const before = await get(app, url);
        const first = store.current();
        assert.equal(responsesOf(first).size, 1);
        const b = await writeBuildFixture(join(dist, 'builds', 'b'), { buildId: 'b', extra: 10 });
        await publish(dist, b.dir);
        assert.equal(await store.reload(), 'swapped');
        assert.equal(responsesOf(store.current()).size, 0, 'the new build starts with an empty cache');
        assert.notEqual(responsesOf(store.current()), responsesOf(first));
        const after = await get(app, url);
        assert.notEqual(after.raw.body, before.raw.body, 'answered from the new build, not the old body');
        assert.equal(responsesOf(store.current()).size, 0, 'asked for once in this build: not kept yet');
        assert.equal((await get(app, url)).raw.body, after.raw.body);
        assert.equal(responsesOf(store.current()).size, 1);
      } finally {
        await app.close();
        await store.close();
      }
    } finally {
      await removeDir(dist);
    }
  });
});
