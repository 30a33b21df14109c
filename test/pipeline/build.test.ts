import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, crc32, gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import {
  BUILD_FILES, CARD_FILES, DETAILS_INDEX, KEYED_BUILD_FILES, KEYED_FILE, keyedFileNames, LEAD_ROUTING, LINE_INDEXED_FILES, LOCALIZED_BUILD_FILES, ManifestSchema, NDJSON_BUILD_FILES, OTHER_BUILD_FILES, PRICE_HISTORY_BY_CITY, RESEARCH_FILES, SUGGEST_FILES,
} from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';
import { fileDigests } from '../../contract/file-digests.ts';
import { decodeSuggestIndex } from '../../contract/suggest-index.ts';
import { LISTING_COLUMNS_FILE, LISTING_ORDERS } from '../../contract/listing-columns.ts';
import { LINE_INDEX_FILE } from '../../contract/line-index.ts';
import { encodedName, isPrecompressed, PRECOMPRESSED, RELEASE_FILES } from '../../contract/research.ts';
import { listingOrders, readListingColumns } from '../support/listing-columns.ts';
import { CONTRACT_HASH } from '../../contract/hash.ts';
import { MAX_RANKING_LIMIT } from '../../contract/market.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress, readKeyed } from '../support/pipeline-fixtures.ts';
import { tempDir } from '../support/pipeline-fixtures.ts';

const SAMPLE = path.resolve('data');
const hasSample = existsSync(path.join(SAMPLE, 'spaces.csv'));

describe('pipeline end to end on the committed sample', { skip: hasSample ? false : 'data/ has no sample snapshot yet' }, () => {
  const distDir = tempDir();
  let first: Awaited<ReturnType<typeof runBuild>>;
  let second: Awaited<ReturnType<typeof runBuild>>;

  it('publishes a build that current points to', async () => {
    first = await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress, now: () => new Date('2030-01-01T00:00:00Z') });
    assert.equal(readlinkSync(path.join(distDir, 'current')), path.join('builds', first.buildId));
    assert.deepEqual(readdirSync(path.join(distDir, 'builds')), [first.buildId], 'no temporary directory left');
  });

  it('writes every file of the contract, each valid against its schema and its manifest checksum', () => {
    const dir = path.join(distDir, 'current');
    const manifest = ManifestSchema.parse(JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')));
    const expected = [
      ...Object.keys(BUILD_FILES),
      ...Object.keys(LOCALIZED_BUILD_FILES).flatMap((n) => LOCALES.map((l) => `${n}.${l}.json`)),
      ...Object.keys(NDJSON_BUILD_FILES).flatMap((n) => LOCALES.map((l) => `${n}.${l}.ndjson`)),
      ...LOCALES.map(DETAILS_INDEX.name),
      SUGGEST_FILES.index, ...LOCALES.map(SUGGEST_FILES.lines),
      LISTING_COLUMNS_FILE,
      ...LINE_INDEXED_FILES.flatMap((n) => LOCALES.map((l) => LINE_INDEX_FILE(`${n}.${l}.ndjson`))),
      ...[CARD_FILES.parts, ...LOCALES.map(CARD_FILES.texts)].flatMap((n) => [n, LINE_INDEX_FILE(n)]),
      ...keyedFileNames(LOCALES),
      ...[LEAD_ROUTING, PRICE_HISTORY_BY_CITY].flatMap(({ name }) => [KEYED_FILE.lines(name), KEYED_FILE.index(name), KEYED_FILE.keys(name)]),
      ...Object.keys(RESEARCH_FILES),
      ...OTHER_BUILD_FILES,
      ...RELEASE_FILES.filter(isPrecompressed).flatMap((f) => PRECOMPRESSED.map(({ encoding }) => encodedName(f, encoding))),
    ].sort();
    assert.deepEqual(Object.keys(manifest.files).sort(), expected);
    assert.deepEqual(Object.keys(manifest.xxh64).sort(), expected);
    assert.deepEqual(readdirSync(dir).sort(), [...expected, 'manifest.json'].sort());
    for (const file of expected) {
      const bytes = readFileSync(path.join(dir, file));
      assert.deepEqual(fileDigests(bytes), { sha256: manifest.files[file], xxh64: manifest.xxh64[file] }, `${file} digests`);
    }
    for (const file of RELEASE_FILES.filter(isPrecompressed)) {
      const bytes = readFileSync(path.join(dir, file));
      assert.ok(gunzipSync(readFileSync(path.join(dir, encodedName(file, 'gzip')))).equals(bytes), `${file}.gz decodes to ${file}`);
      assert.ok(brotliDecompressSync(readFileSync(path.join(dir, encodedName(file, 'br')))).equals(bytes), `${file}.br decodes to ${file}`);
    }
    for (const [file, schema] of Object.entries({ ...BUILD_FILES, ...RESEARCH_FILES })) {
      const r = schema.safeParse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      assert.ok(r.success, `${file}: ${r.error?.message}`);
    }
    for (const [name, schema] of Object.entries(LOCALIZED_BUILD_FILES)) {
      for (const locale of LOCALES) {
        const r = schema.safeParse(JSON.parse(readFileSync(path.join(dir, `${name}.${locale}.json`), 'utf8')));
        assert.ok(r.success, `${name}.${locale}.json: ${r.error?.message}`);
      }
    }
    const { slugs } = readListingColumns(readFileSync(path.join(dir, LISTING_COLUMNS_FILE))).data;
    for (const [name, schema] of Object.entries(NDJSON_BUILD_FILES)) {
      for (const locale of LOCALES) {
        const text = readFileSync(path.join(dir, `${name}.${locale}.ndjson`), 'utf8');
        assert.ok(text.endsWith('\n'));
        const lines = text.slice(0, -1).split('\n');
        assert.equal(lines.length, slugs.length, `${name}.${locale}.ndjson: one line per listing`);
        lines.forEach((line, i) => {
          const value = JSON.parse(line);
          const r = schema.safeParse(value);
          assert.ok(r.success, `${name}.${locale}.ndjson line ${i + 1}: ${r.error?.message}`);
          if (value !== null) assert.equal(value.slug, slugs[i], `${name}.${locale}.ndjson line ${i + 1}`);
        });
      }
    }
    const checkIndex = (indexName: string, linesName: string) => {
      const index = readFileSync(path.join(dir, indexName));
      const lines = readFileSync(path.join(dir, linesName), 'utf8').slice(0, -1).split('\n');
      assert.equal(index.length, lines.length * DETAILS_INDEX.bytesPerRecord);
      lines.forEach((line, i) => {
        assert.equal(index.readUInt32LE(i * 8), Buffer.byteLength(line) + 1, `${indexName}: length of line ${i + 1}`);
        assert.equal(index.readUInt32LE(i * 8 + 4), crc32(`${line}\n`), `${indexName}: CRC-32 of line ${i + 1}`);
      });
    };
    for (const locale of LOCALES) {
      checkIndex(DETAILS_INDEX.name(locale), `details.${locale}.ndjson`);
      for (const [name, schema] of Object.entries(KEYED_BUILD_FILES)) {
        checkIndex(KEYED_FILE.index(name, locale), KEYED_FILE.lines(name, locale));
        const r = schema.safeParse(readKeyed(dir, name, locale));
        assert.ok(r.success, `${KEYED_FILE.lines(name, locale)}: ${r.error?.message}`);
      }
    }
    checkIndex(KEYED_FILE.index(LEAD_ROUTING.name), KEYED_FILE.lines(LEAD_ROUTING.name));
    const routing = LEAD_ROUTING.schema.safeParse(readKeyed(dir, LEAD_ROUTING.name));
    assert.ok(routing.success, `${KEYED_FILE.lines(LEAD_ROUTING.name)}: ${routing.error?.message}`);
    assert.equal(manifest.contractHash, CONTRACT_HASH);
    assert.ok(manifest.rowCounts.listings >= 1000);
    assert.ok(manifest.rowCounts.rejects > 0, 'the sample carries flawed rows to quarantine');
  });

  it('writes the listings in place order: by country, city, zone (none first), then slug', () => {
    const { columns } = readListingColumns(readFileSync(path.join(distDir, 'current', LISTING_COLUMNS_FILE)));
    const key = (i: number) => [columns.dict.country[columns.country[i]], columns.dict.city[columns.city[i]],
      columns.zone[i] < 0 ? '' : columns.dict.zone[columns.zone[i]], columns.slugs[i]];
    const before = (a: string[], b: string[]) => { const k = a.findIndex((v, j) => v !== b[j]); return k >= 0 && a[k] < b[k]; };
    for (let i = 1; i < columns.slugs.length; i++) assert.ok(before(key(i - 1), key(i)), `listing ${i}: ${key(i - 1).join('/')} before ${key(i).join('/')}`);
    assert.notDeepEqual(columns.slugs, [...columns.slugs].sort(), 'place order is not slug order in the sample');
  });

  it('writes every sort order as a comparator sort of the columns gives it (ties by slug, none last)', () => {
    const { data, columns } = readListingColumns(readFileSync(path.join(distDir, 'current', LISTING_COLUMNS_FILE)));
    const expected = listingOrders(columns);
    for (const name of LISTING_ORDERS) assert.deepEqual(Array.from(data.orders[name]), expected[name], `order ${name}`);
    assert.notDeepEqual(expected['price-asc'], expected.slug, 'the sample has prices to order by');
    assert.notDeepEqual(expected['rating-desc'], expected.slug, 'the sample has ratings to order by');
  });

  it('agrees on counts across datasets', () => {
    const dir = path.join(distDir, 'current');
    const read = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    const { columns } = readListingColumns(readFileSync(path.join(dir, LISTING_COLUMNS_FILE)));
    const count = (column: number[], dict: string[]) => {
      const m = new Map<string, number>();
      for (const i of column) if (i >= 0) m.set(dict[i], (m.get(dict[i]) ?? 0) + 1);
      return m;
    };
    const byCity = count(columns.city, columns.dict.city);
    const byZone = count(columns.zone, columns.dict.zone);
    const byCountry = count(columns.country, columns.dict.country);
    const byOperator = count(columns.operator, columns.dict.operator);
    const rates = read('market-rates.json');
    for (const c of rates.cities) assert.equal(c.propertyCount, byCity.get(c.rates.city.slug) ?? 0);
    for (const locale of LOCALES) {
      const geo = read(`geo.${locale}.json`);
      const lines = (f: string) => readFileSync(path.join(dir, f), 'utf8').slice(0, -1).split('\n').map((l) => JSON.parse(l));
      const cards = lines(`cards.${locale}.ndjson`);
      assert.deepEqual(cards.map((l: any) => l.slug), columns.slugs);
      assert.deepEqual(lines(`details.${locale}.ndjson`).map((p: any) => p.slug), columns.slugs);
      assert.deepEqual(lines(`markers.${locale}.ndjson`).map((m: any) => m?.slug ?? null),
        cards.map((c: any) => (c.coordinates ? c.slug : null)), 'a marker for every listing with coordinates');
      assert.equal(geo.countries.reduce((a: number, c: any) => a + c.propertyCount, 0), columns.slugs.length);
      for (const c of geo.countries) assert.equal(c.propertyCount, byCountry.get(c.slug) ?? 0, `country ${c.slug}`);
      for (const c of geo.cities) {
        assert.equal(c.propertyCount, byCity.get(c.slug) ?? 0, `city ${c.slug}`);
        for (const z of c.zones) assert.equal(z.propertyCount, byZone.get(z.slug) ?? 0, `zone ${z.slug}`);
      }
      const places = readKeyed(dir, 'places', locale);
      for (const c of geo.cities) assert.equal(places[`city/${c.slug}`].propertyCount, c.propertyCount);
      for (const c of geo.countries) assert.equal(places[`country/${c.slug}`].propertyCount, c.propertyCount);
      const rankings = readKeyed(dir, 'rankings', locale);
      for (const c of geo.cities) {
        assert.equal(rankings[c.slug].sampleSize, c.propertyCount, `rankings ${c.slug}: every listing is eligible`);
        assert.equal(rankings[c.slug].ranked.length, Math.min(c.propertyCount, MAX_RANKING_LIMIT), `rankings ${c.slug}: the top entries`);
      }
      const operators = readKeyed(dir, 'operators', locale);
      for (const [slug, hub] of Object.entries<any>(operators)) assert.equal(hub.propertyCount, byOperator.get(slug) ?? 0);
    }
    // past the first locale, `null` is an entry the same as in the first: every other line differs from it
    const suggestLines = LOCALES.map((locale) => readFileSync(path.join(dir, SUGGEST_FILES.lines(locale)), 'utf8').slice(0, -1).split('\n'));
    const suggestSlugs = LOCALES.map((locale, k) => {
      const lines = suggestLines[k].map((line, i) => {
        if (k === 0 || line !== 'null') {
          assert.ok(k === 0 || line !== suggestLines[0][i], `${locale} line ${i + 1}: the same as in ${LOCALES[0]}, written in full`);
          return line;
        }
        return suggestLines[0][i];
      });
      if (k > 0) assert.ok(suggestLines[k].some((line) => line === 'null') && suggestLines[k].some((line) => line !== 'null'), `${locale}: entries shared and own`);
      const suggest = lines.map((line) => SUGGEST_FILES.lineSchema.parse(JSON.parse(line)));
      assert.equal(suggest.filter((s) => s.kind === 'property').length, columns.slugs.length);
      return suggest.map((s) => `${s.kind}/${s.slug}`);
    });
    for (const slugs of suggestSlugs) assert.deepEqual(slugs, suggestSlugs[0], 'one entry per line, in the same rank order in every locale');
    decodeSuggestIndex(readFileSync(path.join(dir, SUGGEST_FILES.index)), suggestSlugs[0].length);
    assert.deepEqual(Object.keys(readKeyed(dir, LEAD_ROUTING.name)).sort(), [...columns.slugs].sort());
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
    second = await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress, now: () => new Date('2030-01-02T00:00:00Z') });
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
    await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress, keep: 2, now: () => new Date('2030-01-03T00:00:00Z') });
    const builds = readdirSync(path.join(distDir, 'builds')).sort();
    assert.equal(builds.length, 2);
    assert.equal(path.basename(readlinkSync(path.join(distDir, 'current'))), builds[1]);
    assert.ok(!builds.includes(first.buildId));
  });
});
