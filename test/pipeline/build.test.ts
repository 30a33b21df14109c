import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { BUILD_FILES, LOCALIZED_BUILD_FILES, ManifestSchema } from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';
import { runBuild } from '../../pipeline/run.ts';
import { tempDir } from '../support/pipeline-fixtures.ts';

const SAMPLE = path.resolve('data');
const hasSample = existsSync(path.join(SAMPLE, 'spaces.csv'));
const quiet = { startedAt: 0, stage: <T>(_n: string, work: () => Promise<T>) => work(), note: () => {} };

describe('pipeline end to end on the committed sample', { skip: hasSample ? false : 'data/ has no sample snapshot yet' }, () => {
  const distDir = tempDir();
  let first: Awaited<ReturnType<typeof runBuild>>;
  let second: Awaited<ReturnType<typeof runBuild>>;

  it('publishes a build that current points to', async () => {
    first = await runBuild({ dataDir: SAMPLE, distDir, progress: quiet, now: () => new Date('2030-01-01T00:00:00Z') });
    assert.equal(readlinkSync(path.join(distDir, 'current')), path.join('builds', first.buildId));
    assert.deepEqual(readdirSync(path.join(distDir, 'builds')), [first.buildId], 'no temporary directory left');
  });

  it('writes every file of the contract, each valid against its schema and its manifest checksum', () => {
    const dir = path.join(distDir, 'current');
    const manifest = ManifestSchema.parse(JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')));
    const expected = [
      ...Object.keys(BUILD_FILES),
      ...Object.keys(LOCALIZED_BUILD_FILES).flatMap((n) => LOCALES.map((l) => `${n}.${l}.json`)),
      'price-report.csv', 'price-report.datapackage.json', 'rejects.csv',
    ].sort();
    assert.deepEqual(Object.keys(manifest.files).sort(), expected);
    assert.deepEqual(readdirSync(dir).sort(), [...expected, 'manifest.json'].sort());
    for (const file of expected) {
      const bytes = readFileSync(path.join(dir, file));
      assert.equal(createHash('sha256').update(bytes).digest('hex'), manifest.files[file], `${file} checksum`);
    }
    for (const [file, schema] of Object.entries(BUILD_FILES)) {
      const r = schema.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      assert.ok(r.success, `${file}: ${r.error?.message}`);
    }
    for (const [name, schema] of Object.entries(LOCALIZED_BUILD_FILES)) {
      for (const locale of LOCALES) {
        const r = schema.safeParse(JSON.parse(readFileSync(path.join(dir, `${name}.${locale}.json`), 'utf8')));
        assert.ok(r.success, `${name}.${locale}.json: ${r.error?.message}`);
      }
    }
    assert.ok(manifest.rowCounts.listings >= 1000);
    assert.ok(manifest.rowCounts.rejects > 0, 'the sample carries flawed rows to quarantine');
  });

  it('agrees on counts across datasets', () => {
    const dir = path.join(distDir, 'current');
    const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const facts = read('listing-facts.json');
    const count = (key: (f: any) => string | null) => {
      const m = new Map<string, number>();
      for (const f of facts) { const k = key(f); if (k) m.set(k, (m.get(k) ?? 0) + 1); }
      return m;
    };
    const byCity = count((f) => f.citySlug);
    const byZone = count((f) => f.zoneSlug);
    const byCountry = count((f) => f.countrySlug);
    const byOperator = count((f) => f.operatorSlug);
    for (const locale of LOCALES) {
      const geo = read(`geo.${locale}.json`);
      const listings = read(`listings.${locale}.json`);
      const properties = read(`properties.${locale}.json`);
      assert.deepEqual(listings.map((l: any) => l.slug), facts.map((f: any) => f.slug));
      assert.deepEqual(properties.map((p: any) => p.slug), facts.map((f: any) => f.slug));
      assert.equal(geo.countries.reduce((a: number, c: any) => a + c.propertyCount, 0), facts.length);
      for (const c of geo.countries) assert.equal(c.propertyCount, byCountry.get(c.slug) ?? 0, `country ${c.slug}`);
      for (const c of geo.cities) {
        assert.equal(c.propertyCount, byCity.get(c.slug) ?? 0, `city ${c.slug}`);
        for (const z of c.zones) assert.equal(z.propertyCount, byZone.get(z.slug) ?? 0, `zone ${z.slug}`);
      }
      const places = read(`places.${locale}.json`);
      for (const c of geo.cities) assert.equal(places[`city/${c.slug}`].propertyCount, c.propertyCount);
      for (const c of geo.countries) assert.equal(places[`country/${c.slug}`].propertyCount, c.propertyCount);
      const rates = read(`market-rates.${locale}.json`);
      for (const c of rates.cities) assert.equal(c.propertyCount, byCity.get(c.rates.city.slug) ?? 0);
      const rankings = read(`rankings.${locale}.json`);
      for (const c of geo.cities) assert.equal(rankings[c.slug].ranked.length, c.propertyCount);
      const operators = read(`operators.${locale}.json`);
      for (const [slug, hub] of Object.entries<any>(operators)) assert.equal(hub.propertyCount, byOperator.get(slug) ?? 0);
    }
    const suggest = read('suggest.json');
    assert.equal(suggest.filter((s: any) => s.kind === 'property').length, facts.length);
    assert.deepEqual(Object.keys(read('lead-routing.json')).sort(), facts.map((f: any) => f.slug).sort());
    const index = read('price-index.json');
    const report = parse(readFileSync(path.join(dir, 'price-report.csv')), { columns: true }) as Record<string, string>[];
    for (const c of index.cities) {
      const row = report.find((r) => r.city_slug === c.city.slug && r.product_type === 'all')!;
      assert.equal(Number(row.sample_size), c.sampleSize);
      assert.equal(row.published, String(c.published));
    }
    assert.ok(index.cities.filter((c: any) => !c.published).length >= 3, 'the sample has thin cities');
    const slugs = read('geo.en.json').cities.map((c: any) => c.slug);
    assert.ok(slugs.includes('valencia') && slugs.some((s: string) => /^valencia-(es|ve)$/.test(s)), 'both Valencias');
  });

  it('produces byte-identical shards from the same input', async () => {
    second = await runBuild({ dataDir: SAMPLE, distDir, progress: quiet, now: () => new Date('2030-01-02T00:00:00Z') });
    assert.notEqual(second.buildId, first.buildId);
    const a = path.join(distDir, 'builds', first.buildId);
    const b = path.join(distDir, 'builds', second.buildId);
    const files = readdirSync(a).filter((f) => f !== 'manifest.json').sort();
    assert.deepEqual(readdirSync(b).filter((f) => f !== 'manifest.json').sort(), files);
    for (const f of files) assert.ok(readFileSync(path.join(a, f)).equals(readFileSync(path.join(b, f))), `${f} differs`);
    assert.deepEqual(first.manifest.files, second.manifest.files);
    assert.notEqual(first.manifest.builtAt, second.manifest.builtAt);
  });

  it('keeps the last N builds and never the one current points to', async () => {
    await runBuild({ dataDir: SAMPLE, distDir, progress: quiet, keep: 2, now: () => new Date('2030-01-03T00:00:00Z') });
    const builds = readdirSync(path.join(distDir, 'builds')).sort();
    assert.equal(builds.length, 2);
    assert.equal(path.basename(readlinkSync(path.join(distDir, 'current'))), builds[1]);
    assert.ok(!builds.includes(first.buildId));
  });
});
