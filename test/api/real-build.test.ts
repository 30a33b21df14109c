/**
 * The same endpoints on a build the pipeline makes of the committed sample (data/): every
 * response matches the contract, facets agree with the list, random paging is complete.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { ConfigPayloadSchema, FacetsPayloadSchema, GeoPayloadSchema, ListingCardSchema, MapMarkerSchema, PropertyDetailSchema } from '../../contract/catalog.ts';
import { envelope, LOCALES, MetaSchema, PaginatedMetaSchema } from '../../contract/common.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'data');

describe('a build of the committed sample', () => {
  let app: FastifyInstance;
  let build: LoadedBuild;
  let distDir: string;
  before(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'desk-atlas-sample-'));
    const built = await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress });
    build = await loadBuild(built.buildDir, { siteUrl: SITE });
    app = await testApp({ catalog: staticCatalog(build) });
  });
  after(async () => {
    await app?.close();
    await build?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('answers every listing endpoint in every locale within the contract', async () => {
    for (const locale of LOCALES) {
      const list = await get(app, `/v1/properties?locale=${locale}&pageSize=50&sortBy=rating-desc`);
      assert.equal(list.status, 200);
      envelope(z.array(ListingCardSchema), PaginatedMetaSchema).parse(list.body);
      const slug = list.body.data[0].slug;
      const detail = await get(app, `/v1/properties/${slug}?locale=${locale}`);
      assert.equal(detail.status, 200);
      envelope(PropertyDetailSchema, MetaSchema).parse(detail.body);
      const map = await get(app, `/v1/properties/map?locale=${locale}&pageSize=5000`);
      envelope(z.array(MapMarkerSchema), PaginatedMetaSchema).parse(map.body);
      envelope(FacetsPayloadSchema, MetaSchema).parse((await get(app, `/v1/facets?locale=${locale}`)).body);
      envelope(GeoPayloadSchema, MetaSchema).parse((await get(app, `/v1/geo/bootstrap?locale=${locale}`)).body);
    }
    envelope(ConfigPayloadSchema, MetaSchema).parse((await get(app, '/v1/config')).body);
  });

  it('serves both Valencias apart', async () => {
    const geo = (await get(app, '/v1/geo/bootstrap?locale=en')).body.data;
    const valencias = geo.cities.filter((c: { name: string }) => c.name === 'Valencia');
    for (const city of valencias) {
      const r = await get(app, `/v1/properties?locale=en&city=${city.slug}&pageSize=50&sortBy=date-desc`);
      assert.equal(r.body.meta.pagination.total, city.propertyCount, city.slug);
      for (const card of r.body.data) assert.equal(card.city.slug, city.slug);
    }
  });

  it('agrees between facets and list, and pages a random list completely', async () => {
    const geo = (await get(app, '/v1/geo/bootstrap?locale=en')).body.data;
    const city = [...geo.cities].sort((a: { propertyCount: number }, b: { propertyCount: number }) => b.propertyCount - a.propertyCount)[0];
    const facets = (await get(app, `/v1/facets?locale=en&city=${city.slug}`)).body.data.facets as { key: string; values: { value: string; count: number }[] }[];
    for (const f of facets) {
      for (const v of f.values.slice(0, 3)) {
        const q = new URLSearchParams({ locale: 'en', city: city.slug, [f.key]: v.value, pageSize: '1' });
        const r = await get(app, `/v1/properties?${q}`);
        assert.equal(r.body.meta.pagination.total, v.count, `${f.key}=${v.value}`);
      }
    }
    const first = await get(app, `/v1/properties?locale=en&city=${city.slug}&pageSize=50`);
    const seen = new Set<string>(first.body.data.map((c: { slug: string }) => c.slug));
    for (let p = 2; p <= first.body.meta.pagination.pageCount; p++) {
      const r = await get(app, `/v1/properties?locale=en&city=${city.slug}&pageSize=50&page=${p}&seed=${first.body.meta.seed}`);
      for (const c of r.body.data) seen.add(c.slug);
    }
    assert.equal(seen.size, city.propertyCount);
  });

  it('links from /llms.txt only addresses that answer', async () => {
    const text = (await get(app, '/llms.txt')).raw.body;
    const links = [...text.matchAll(/\]\((https:\/\/[^)]+)\)/g)].map((m) => new URL(m[1]));
    assert.ok(links.length >= 15, `${links.length} links`);
    for (const url of links) {
      if (url.hostname === 'creativecommons.org') continue;
      const path = url.pathname + url.search;
      // the MCP endpoint answers POSTs only (test/mcp)
      if (path === '/mcp') continue;
      const r = await app.inject({ method: 'GET', url: path });
      assert.equal(r.statusCode, 200, path);
    }
  });
});
