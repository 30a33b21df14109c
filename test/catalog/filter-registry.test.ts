/**
 * A filter added through the registry, and nowhere else: `featured=true`, a column the build
 * already has. The list, the facets, the canonical key and the OpenAPI document pick it up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../../api/app.ts';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { byPosting, declarationsOf, type FilterEntry } from '../../api/catalog/filter-index.ts';
import { FILTERS } from '../../api/catalog/filters.ts';
import { posting } from '../../api/catalog/postings.ts';
import { buildOpenApiDocument } from '../../api/openapi/document.ts';
import { canonicalKey } from '../../contract/filters.ts';
import type { Fixture } from '../support/build-fixture.ts';
import { writeBuildFixture } from '../support/build-fixture.ts';
import { get, SITE, testConfig } from '../support/app.ts';

const NOTE = 'Only featured listings.';
const featured: FilterEntry = {
  declaration: { params: { featured: { schema: z.literal('true').transform(() => true), note: NOTE } } },
  index({ listings }) {
    const p = posting(listings.n, listings.cols.featured);
    return { narrow: byPosting(() => p) };
  },
};
const REGISTRY = { ...FILTERS, featured };

let fixture: Fixture;
let build: LoadedBuild;
let app: FastifyInstance;
before(async () => {
  fixture = await writeBuildFixture(undefined, { extra: 300 });
  build = await loadBuild(fixture.dir, { siteUrl: SITE, filters: REGISTRY });
  app = await buildApp({ config: testConfig({ RATE_LIMIT_READS: '1000000' }), catalog: staticCatalog(build), filters: REGISTRY, logger: false });
});
after(async () => {
  await app.close();
  await build.close();
});

const featuredSlugs = () => fixture.listings.filter((l) => l.featured).map((l) => l.slug).sort();

describe('a filter added to the registry', () => {
  it('filters the list and the map', async () => {
    const expected = featuredSlugs();
    assert.ok(expected.length >= 4 && expected.length < fixture.listings.length / 4, `${expected.length} featured`);
    const r = await get(app, '/v1/properties?locale=en&featured=true&pageSize=50');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.meta.pagination.total, expected.length);
    assert.deepEqual(r.body.data.map((c: { slug: string }) => c.slug).sort(), expected);
    const berlin = await get(app, '/v1/properties?locale=en&featured=true&city=berlin&pageSize=50');
    assert.deepEqual(berlin.body.data.map((c: { slug: string }) => c.slug).sort(),
      fixture.listings.filter((l) => l.featured && l.city === 'berlin').map((l) => l.slug).sort());
    const map = await get(app, '/v1/properties/map?locale=en&featured=true');
    assert.equal(map.body.meta.pagination.total, fixture.listings.filter((l) => l.featured && l.coordinates).length);
    const bad = await get(app, '/v1/properties?locale=en&featured=yes');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path), ['featured']);
  });

  it('narrows the facet counts', async () => {
    const r = await get(app, '/v1/facets?locale=en&featured=true');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const city = r.body.data.facets.find((f: { key: string }) => f.key === 'city');
    // every listing has one city: the city counts add up to the featured listings
    assert.equal(city.values.reduce((s: number, v: { count: number }) => s + v.count, 0), featuredSlugs().length);
    for (const v of city.values.slice(0, 5)) {
      const list = await get(app, `/v1/properties?locale=en&featured=true&city=${v.value}&pageSize=1`);
      assert.equal(list.body.meta.pagination.total, v.count, v.value);
    }
  });

  it('may not declare a query parameter another filter declares', async () => {
    const clash: FilterEntry = { declaration: { params: { city: featured.declaration.params.featured } }, index: featured.index };
    await assert.rejects(loadBuild(fixture.dir, { siteUrl: SITE, filters: { ...FILTERS, clash } }), /the query parameter city is declared by two filters, city and clash/);
  });

  it('is part of the canonical key', () => {
    const declarations = declarationsOf(REGISTRY);
    assert.notEqual(canonicalKey({ city: 'berlin', featured: true }, declarations), canonicalKey({ city: 'berlin' }, declarations));
    assert.equal(
      canonicalKey({ featured: true, amenities: ['wifi', 'coffee'], city: 'berlin' }, declarations),
      canonicalKey({ city: 'berlin', amenities: ['coffee', 'wifi'], featured: true }, declarations),
      'parameter order and the order of a set do not matter',
    );
  });

  it('is documented in the OpenAPI description of the list, the map and the facets', () => {
    const config = testConfig();
    const doc = buildOpenApiDocument({ routes: app.routeDefinitions, config });
    for (const path of ['/v1/properties', '/v1/properties/map', '/v1/facets']) {
      const param = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'featured');
      assert.deepEqual(param, { name: 'featured', in: 'query', description: NOTE, required: false, schema: { type: 'string', const: 'true' } }, path);
    }
  });
});
