/**
 * docs/design.md §3: a facet lists at most MAX_FACET_VALUES values, the highest counts first, selected
 * values always (beyond the cap if need be), and meta.truncated says a facet was cut. A build of
 * 230 cities, one space each but Berlin (two), through the real pipeline.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import type { FilterValues } from '../../api/catalog/filter-index.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import { baseTables, buildFixture, city, space } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { facetsPayload } from '../support/facets.ts';

const CITIES = 230;
const cityId = (k: number) => String(9_000_000 + k);
const citySlug = (k: number) => `town-${String(k).padStart(3, '0')}`;

describe('GET /v1/facets with more values than a facet lists', () => {
  let app: FastifyInstance;
  let build: LoadedBuild;
  before(async () => {
    const tables = baseTables();
    for (let k = 0; k < CITIES; k++) {
      tables.cities.push(city(cityId(k), 'DE', `Town ${String(k).padStart(3, '0')}`, 48 + k / 100, 9 + k / 100, 10_000 + k));
      tables.spaces.push(space(`town-space-${k}`, { city_id: cityId(k), lat: String(48 + k / 100), lng: String(9 + k / 100) }));
    }
    tables.spaces.push(space('berlin-a'), space('berlin-b'));
    const fixture = await buildFixture(tables);
    build = await loadBuild(`${fixture.distDir}/current`, { siteUrl: SITE });
    app = await testApp({ catalog: staticCatalog(build) });
  });
  after(async () => { await app?.close(); await build?.close(); });

  it('lists the highest counts up to the cap and says the facets were truncated', async () => {
    const res = await get(app, '/v1/facets?locale=en');
    assert.equal(res.status, 200);
    const cities = res.body.data.facets.find((f: { key: string }) => f.key === 'city').values;
    assert.equal(cities.length, MAX_FACET_VALUES);
    assert.deepEqual(cities[0], { value: 'berlin', label: 'Berlin', count: 2 });
    assert.equal(res.body.meta.truncated, true);
  });

  it('keeps a selected value that the cap would cut', async () => {
    const cut = citySlug(CITIES - 1);
    const all = await get(app, '/v1/facets?locale=en');
    const listed = all.body.data.facets.find((f: { key: string }) => f.key === 'city').values.map((v: { value: string }) => v.value);
    assert.ok(!listed.includes(cut), `${cut} is beyond the cap without a selection`);
    const res = await get(app, `/v1/facets?locale=en&city=${cut}`);
    const cities = res.body.data.facets.find((f: { key: string }) => f.key === 'city').values;
    assert.equal(cities.length, MAX_FACET_VALUES + 1);
    assert.deepEqual(cities.at(-1), { value: cut, label: 'Town 229', count: 1 });
    assert.equal(res.body.meta.truncated, true);
  });

  it('leaves meta.truncated out when no facet was cut', async () => {
    const res = await get(app, `/v1/facets?locale=en&country=germany&operator=none-such`);
    assert.equal(res.status, 200);
    assert.equal(res.body.meta.truncated, undefined);
  });

  it('answers a cut facet with the JSON of its payload, byte for byte (the body is written as bytes)', async () => {
    const cut = citySlug(CITIES - 1);
    const queries: [string, FilterValues][] = [
      ['', {}], [`&city=${cut}`, { city: cut }], [`&city=${cut}&amenities=wifi`, { city: cut, amenities: ['wifi'] }], ['&city=nowhere', { city: 'nowhere' }],
    ];
    for (const [query, f] of queries) {
      for (const locale of ['en', 'de'] as const) {
        const res = await app.inject({ method: 'GET', url: `/v1/facets?locale=${locale}${query}` });
        const { payload, truncated } = facetsPayload(build.engine, f, locale);
        assert.equal(truncated, JSON.parse(res.body).meta.truncated === true);
        assert.ok(res.body.startsWith(`{"data":${JSON.stringify(payload)},"meta":`), `${query} ${locale}`);
      }
    }
  });
});
