/**
 * The bulk download on a build of the committed sample (data/): listings.parquet and offers.parquet
 * read back with DuckDB hold every listing and current offer as the API serves them, the CSVs the
 * same rows, the release's datapackage pins and describes them, and the API serves their bytes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { FastifyInstance } from 'fastify';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { BULK_FILES, RELEASE_DATAPACKAGE, RELEASES_DIR } from '../../contract/research.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'data');

interface Detail {
  slug: string;
  countryCode: string;
  city: { slug: string };
  zone?: { slug: string };
  operator?: { slug: string; name: string };
  coordinates?: { lat: number; lng: number };
  pricingOptions: { optionType: string; billingPeriod: string; priceOnRequest: boolean; price?: { amount: number; currency: string }; minCapacity?: number; maxCapacity?: number }[];
}

describe('the bulk download of a build of the committed sample', () => {
  let app: FastifyInstance;
  let build: LoadedBuild;
  let distDir: string;
  let releaseDir: string;
  let releaseId: string;
  let duck: DuckDBInstance;
  let db: DuckDBConnection;
  const rows = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson();
  const file = (name: string) => `'${join(releaseDir, name)}'`;
  const details = new Map<string, Detail>();

  before(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'desk-atlas-bulk-'));
    const built = await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress });
    releaseId = built.manifest.releaseId;
    releaseDir = join(distDir, RELEASES_DIR, releaseId);
    build = await loadBuild(built.buildDir, { siteUrl: SITE });
    app = await testApp({ catalog: staticCatalog(build) });
    duck = await DuckDBInstance.create(':memory:');
    db = await duck.connect();
    for (const { slug } of await rows(`select slug from read_parquet(${file('listings.parquet')})`)) {
      const res = await get(app, `/v1/properties/${slug}?locale=en`);
      assert.equal(res.status, 200, String(slug));
      details.set(String(slug), res.body.data);
    }
  });
  after(async () => {
    db?.closeSync();
    duck?.closeSync();
    await app?.close();
    await build?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('holds every listing once, with the place, operator and coordinates the API gives it', async () => {
    const listings = await rows(`select * from read_parquet(${file('listings.parquet')})`);
    const total = (await get(app, '/v1/properties?locale=en&pageSize=1')).body.meta.pagination.total;
    assert.equal(listings.length, total);
    assert.equal(listings.length, build.manifest.rowCounts.listings);
    assert.equal(details.size, listings.length, 'no slug twice');
    for (const l of listings) {
      const d = details.get(String(l.slug))!;
      assert.deepEqual(
        [l.country_code, l.city_slug, l.zone_slug, l.operator_slug, l.operator_name, l.lat, l.lng],
        [d.countryCode, d.city.slug, d.zone?.slug ?? null, d.operator?.slug ?? null, d.operator?.name ?? null, d.coordinates?.lat ?? null, d.coordinates?.lng ?? null],
        String(l.slug),
      );
    }
  });

  it('holds every current offer of every listing, as propertyDetail lists its pricing options', async () => {
    const offers = await rows(`select * from read_parquet(${file('offers.parquet')})`);
    const bySlug = new Map<string, typeof offers>();
    for (const o of offers) bySlug.set(String(o.slug), [...(bySlug.get(String(o.slug)) ?? []), o]);
    assert.equal(offers.length, [...details.values()].reduce((n, d) => n + d.pricingOptions.length, 0));
    for (const [slug, d] of details) {
      const options = (bySlug.get(slug) ?? []).map((o) => ({
        optionType: o.option_type, billingPeriod: o.billing_period, priceOnRequest: o.price_on_request,
        ...(o.amount === null ? {} : { price: { amount: o.amount, currency: o.currency } }),
        ...(o.min_capacity === null ? {} : { minCapacity: o.min_capacity }),
        ...(o.max_capacity === null ? {} : { maxCapacity: o.max_capacity }),
      }));
      assert.deepEqual(options, d.pricingOptions.map(({ optionType, billingPeriod, priceOnRequest, price, minCapacity, maxCapacity }) => ({
        optionType, billingPeriod, priceOnRequest, ...(price ? { price } : {}), ...(minCapacity ? { minCapacity } : {}), ...(maxCapacity ? { maxCapacity } : {}),
      })), slug);
      for (const o of bySlug.get(slug) ?? []) assert.deepEqual([o.city_slug, o.lat, o.lng], [d.city.slug, d.coordinates?.lat ?? null, d.coordinates?.lng ?? null], slug);
    }
  });

  it('gives a monthly desk offer its monthly price per desk and comparable figures', async () => {
    const [desk] = await rows(`select * from read_parquet(${file('offers.parquet')})
      where option_type = 'private_office' and billing_period = 'year' and max_capacity > 1 and currency <> 'EUR' limit 1`);
    assert.ok(desk, 'the sample has a yearly private office priced outside the euro');
    assert.equal(desk.monthly_price_per_desk, Math.round(((desk.amount as number) / 12 / (desk.max_capacity as number)) * 100) / 100);
    assert.equal(desk.comparable_basis, 'monthly');
    assert.equal(desk.comparable_amount, Math.round(((desk.amount as number) / 12) * 100) / 100);
    assert.notEqual(desk.comparable_eur, desk.comparable_amount);
  });

  it('writes the same rows to the CSVs as to the Parquet files', async () => {
    for (const table of ['listings', 'offers']) {
      const types = await rows(`select column_name, column_type from (describe from read_parquet(${file(`${table}.parquet`)}))`);
      const columns = `{${types.map((c) => `'${c.column_name}': '${c.column_type}'`).join(', ')}}`;
      const csv = `read_csv(${file(`${table}.csv`)}, header = true, columns = ${columns})`;
      const parquet = `read_parquet(${file(`${table}.parquet`)})`;
      const [counts] = await rows(`select (select count(*) from ${csv}) as csv, (select count(*) from ${parquet}) as parquet,
        (select count(*) from (from ${csv} except all from ${parquet})) as only_csv,
        (select count(*) from (from ${parquet} except all from ${csv})) as only_parquet`);
      assert.deepEqual(counts, { csv: counts.parquet, parquet: counts.parquet, only_csv: '0', only_parquet: '0' }, table);
    }
  });

  it('pins and describes each file in the release\'s datapackage, its fields the file\'s columns', async () => {
    const pkg = JSON.parse(readFileSync(join(releaseDir, RELEASE_DATAPACKAGE), 'utf8'));
    for (const name of BULK_FILES) {
      const bytes = readFileSync(join(releaseDir, name));
      const resource = pkg.resources.find((r: { path: string }) => r.path === `/api/releases/${releaseId}/${name}`);
      assert.ok(resource, name);
      assert.equal(resource.hash, `sha256:${createHash('sha256').update(bytes).digest('hex')}`, name);
      assert.equal(resource.bytes, bytes.length, name);
      const parquet = name.endsWith('.parquet');
      assert.deepEqual([resource.format, resource.mediatype], parquet ? ['parquet', 'application/vnd.apache.parquet'] : ['csv', 'text/csv'], name);
      const columns = await rows(`select column_name from (describe from ${parquet ? 'read_parquet' : 'read_csv'}(${file(name)}))`);
      assert.deepEqual(resource.schema.fields.map((f: { name: string }) => f.name), columns.map((c) => c.column_name), name);
    }
  });

  it('serves the files from the release, Parquet as it is and the CSVs compressed too', async () => {
    for (const name of BULK_FILES) {
      const res = await get(app, `/api/releases/${releaseId}/${name}`, { 'accept-encoding': 'identity' });
      assert.equal(res.status, 200, name);
      assert.ok(res.raw.rawPayload.equals(readFileSync(join(releaseDir, name))), name);
    }
    const parquet = await get(app, `/api/releases/${releaseId}/offers.parquet`, { 'accept-encoding': 'br, gzip' });
    assert.equal(parquet.headers['content-type'], 'application/vnd.apache.parquet');
    assert.equal(parquet.headers['content-encoding'], undefined);
    const csv = await get(app, `/api/releases/${releaseId}/offers.csv`, { 'accept-encoding': 'br, gzip' });
    assert.equal(csv.headers['content-encoding'], 'br');
  });
});
