import assert from 'node:assert/strict';
import { mkdtemp, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../api/app.ts';
import { BuildLoadError, loadBuild } from '../../api/loading/load.ts';
import { DamagedFileError, DamagedRecordError } from '../../api/loading/records.ts';
import { CatalogStore } from '../../api/loading/store.ts';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { BUILD_FORMAT_VERSION } from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';
import { fileDigests } from '../../contract/file-digests.ts';
import { encodeLineIndex, LINE_INDEX_FILE, lineIndexOf } from '../../contract/line-index.ts';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { SITE, testConfig } from '../support/app.ts';

const quiet = { info: () => undefined, error: () => undefined };
const dirs: string[] = [];
after(async () => { for (const d of dirs) await removeDir(d); });

async function dist() {
  const d = await mkdtemp(join(tmpdir(), 'desk-atlas-dist-'));
  dirs.push(d);
  return d;
}

/** A fixture build whose manifest is changed after it is written. */
async function withManifest(change: (m: Record<string, any>) => void) {
  const f = await writeBuildFixture();
  dirs.push(f.dir);
  const m = JSON.parse(await readFile(join(f.dir, 'manifest.json'), 'utf8'));
  change(m);
  await writeFile(join(f.dir, 'manifest.json'), JSON.stringify(m));
  return f;
}

/** A fixture build with one NDJSON file's lines changed (the manifest's checksum follows). */
/** A fixture whose binary file `name` (a card part) has its lines changed, its line index made anew. */
async function withBinary(name: string, change: (lines: string[]) => string[]) {
  const f = await writeBuildFixture(undefined, {
    mutateBinary: (binary) => {
      const lines = binary.get(name)!.toString().split('\n').slice(0, -1);
      const bytes = Buffer.from(change(lines).map((l) => `${l}\n`).join(''));
      binary.set(name, bytes);
      binary.set(LINE_INDEX_FILE(name), encodeLineIndex(lineIndexOf(bytes)));
    },
  });
  dirs.push(f.dir);
  return f;
}

async function withLines(name: string, change: (lines: string[]) => string[]) {
  const f = await writeBuildFixture(undefined, {
    mutate: (files) => {
      const lines = files.get(name)!.split('\n').slice(0, -1);
      files.set(name, change(lines).map((l) => `${l}\n`).join(''));
    },
  });
  dirs.push(f.dir);
  return f;
}

/** A fixture build with one file's bytes changed on disk and the manifest's checksum following. */
async function withBytes(name: string, change: (bytes: Buffer) => Buffer) {
  const f = await writeBuildFixture();
  dirs.push(f.dir);
  const bytes = change(await readFile(join(f.dir, name)));
  await writeFile(join(f.dir, name), bytes);
  const m = JSON.parse(await readFile(join(f.dir, 'manifest.json'), 'utf8'));
  ({ sha256: m.files[name], xxh64: m.xxh64[name] } = fileDigests(bytes));
  await writeFile(join(f.dir, 'manifest.json'), JSON.stringify(m));
  return f;
}

/** A store over the dist directory `d` keeping its error log lines ("<message>: <error>"), and an app serving it. */
async function servedWithErrorLog(d: string, env: Record<string, string> = {}) {
  const errors: string[] = [];
  const store = await CatalogStore.open(d, { siteUrl: SITE, log: { info: () => undefined, error: (obj: object, msg: string) => { errors.push(`${msg}: ${(obj as { err: Error }).err.message}`); } } });
  const app = await buildApp({ config: testConfig({ RATE_LIMIT_READS: '1000000', ...env }), catalog: store, logger: false });
  return { errors, store, app };
}

const refused = (pattern: RegExp) => (e: Error) => e instanceof BuildLoadError && pattern.test(e.message);

describe('loadBuild', () => {
  it('rejects a file whose checksum does not match the manifest', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    await writeFile(join(f.dir, 'config.json'), JSON.stringify({ minSupportedBuild: 0, flags: {} }));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/config\.json checksum mismatch/));
  });

  it('rejects an NDJSON file held in memory whose checksum does not match', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const text = await readFile(join(f.dir, 'card-texts.de.ndjson'), 'utf8');
    await writeFile(join(f.dir, 'card-texts.de.ndjson'), text.replace('"excerpt":', '"excerpz":'));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/card-texts\.de\.ndjson checksum mismatch/));
  });

  it('holds the card parts, not the cards of each locale they were split from (left unread)', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const whole = await readFile(join(f.dir, 'cards.en.ndjson'), 'utf8');
    await writeFile(join(f.dir, 'cards.en.ndjson'), 'damaged');
    const b = await loadBuild(f.dir, { siteUrl: SITE });
    try {
      const first = JSON.parse(whole.split('\n')[0]);
      const card = JSON.parse(b.engine.cardJson(0, 'en', {}));
      assert.deepEqual(Object.keys(card).slice(0, Object.keys(first).length), Object.keys(first), 'the card begins with every field of its line, in order');
      assert.equal(card.excerpt, first.excerpt);
      assert.equal(b.engine.title(0, 'en'), first.title);
    } finally {
      await b.close();
    }
  });

  it('names the checksum when a damaged file fails to parse before its checksum is known', async () => {
    for (const name of ['listing-columns.bin', 'markers.es.ndjson', 'market-rates.json']) {
      const f = await writeBuildFixture();
      dirs.push(f.dir);
      const bytes = await readFile(join(f.dir, name));
      await writeFile(join(f.dir, name), bytes.subarray(0, bytes.length >> 1));
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(new RegExp(`${name.replace(/\./g, '\\.')} checksum mismatch`)));
    }
  });

  it('rejects a file served as it is (price-report.csv) whose checksum does not match, though it is left on disk', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    await writeFile(join(f.dir, 'price-report.csv'), 'country_code,city_slug\nDE,berlin\n');
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/price-report\.csv checksum mismatch/));
  });

  it('reads a served file once for the requests that ask while it is read, and anew, checked, for a later one', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const b = await loadBuild(f.dir, { siteUrl: SITE });
    const [one, two] = await Promise.all([b.servedFiles.read('price-report.csv'), b.servedFiles.read('price-report.csv')]);
    assert.equal(one, two, 'one buffer for both');
    assert.equal(one!.toString('utf8'), 'country_code,city_slug\n');
    await writeFile(join(f.dir, 'price-report.csv'), 'country_code,city_slag\n');
    await assert.rejects(b.servedFiles.read('price-report.csv'), (e: Error) => e instanceof DamagedFileError
      && e.message === 'price-report.csv: the file is damaged (its bytes differ from the manifest)');
    assert.equal(await b.servedFiles.read('price-history.json'), undefined, 'a file the build does not publish');
    await b.close();
  });

  it('checks a detail line against its record index when it reads it, and every line when asked', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const text = await readFile(join(f.dir, 'details.es.ndjson'), 'utf8');
    const damagedLine = text.split('\n').findIndex((l) => l.includes('"featured":false'));
    await writeFile(join(f.dir, 'details.es.ndjson'), text.replace('"featured":false', '"featured":true '));
    const b = await loadBuild(f.dir, { siteUrl: SITE });
    assert.throws(() => b.engine.detailJson(damagedLine, 'es'), (e: Error) => e instanceof DamagedRecordError && e.message === `details.es.ndjson: line ${damagedLine + 1} is damaged (its bytes differ from the record index)`);
    JSON.parse(b.engine.detailJson(damagedLine + 1, 'es'));
    JSON.parse(b.engine.detailJson(damagedLine, 'en'));
    await b.close();
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE, checkAllDetails: true }), refused(new RegExp(`details\\.es\\.ndjson: line ${damagedLine + 1} is damaged`)));
  });

  it('rejects a record index that does not match its file or the manifest', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    await writeFile(join(f.dir, 'details.en.index'), Buffer.alloc(26 * 8));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/details\.en\.index checksum mismatch/));
  });

  it('rejects a build of another format version or contract', async () => {
    const old = await withManifest((m) => { m.formatVersion = 2; });
    await assert.rejects(loadBuild(old.dir, { siteUrl: SITE }), refused(new RegExp(`build format 2, this server loads format ${BUILD_FORMAT_VERSION}:`)));
    const other = await withManifest((m) => { m.contractHash = 'f'.repeat(64); });
    await assert.rejects(loadBuild(other.dir, { siteUrl: SITE }), refused(/built against another contract/));
    const none = await withManifest((m) => { delete m.contractHash; });
    await assert.rejects(loadBuild(none.dir, { siteUrl: SITE }), refused(/another contract \(contractHash undefined/));
  });

  it('rejects a manifest that misses a required file', async () => {
    const f = await withManifest((m) => { delete m.files['markers.es.ndjson']; });
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/manifest lists no markers\.es\.ndjson/));
  });

  it('rejects an NDJSON file with a line missing or one too many', async () => {
    const missing = await withLines('cards.en.ndjson', (lines) => lines.slice(1));
    await assert.rejects(loadBuild(missing.dir, { siteUrl: SITE }), refused(/card-parts\.ndjson has 50 lines for 26 listings/));
    const missingText = await withBinary('card-texts.es.ndjson', (lines) => lines.slice(1));
    await assert.rejects(loadBuild(missingText.dir, { siteUrl: SITE }), refused(/card-texts\.es\.ndjson has 25 lines for 26 listings/));
    const extra = await withLines('details.de.ndjson', (lines) => [...lines, lines[0]]);
    await assert.rejects(loadBuild(extra.dir, { siteUrl: SITE }), refused(/details\.de\.ndjson is \d+ bytes, its index says \d+/));
    const extraMarker = await withLines('markers.es.ndjson', (lines) => [...lines, 'null']);
    await assert.rejects(loadBuild(extraMarker.dir, { siteUrl: SITE }), refused(/markers\.es\.ndjson has 27 lines for 26 listings/));
  });

  it('rejects NDJSON lines that are not JSON objects where they should be', async () => {
    const cut = await withBinary('card-parts.ndjson', (lines) => lines.map((l, i) => (i === 7 ? l.slice(0, -1) : l)));
    await assert.rejects(loadBuild(cut.dir, { siteUrl: SITE }), refused(/card-parts\.ndjson: lines 7 and 8 are not the beginning and end of a card/));
    const headless = await withBinary('card-parts.ndjson', (lines) => lines.map((l, i) => (i === 2 ? l.slice(1) : l)));
    await assert.rejects(loadBuild(headless.dir, { siteUrl: SITE }), refused(/card-parts\.ndjson: lines 3 and 4 are not the beginning and end of a card/));
    const unterminated = await writeBuildFixture(undefined, { mutate: (files) => files.set('markers.en.ndjson', files.get('markers.en.ndjson')!.slice(0, -1)) });
    dirs.push(unterminated.dir);
    await assert.rejects(loadBuild(unterminated.dir, { siteUrl: SITE }), refused(/markers\.en\.ndjson does not end with a newline/));
  });

  it('rejects a marker that disagrees with the listing\'s coordinates', async () => {
    // kreuzberg-nook has no coordinates: its marker is null
    const f = await withLines('markers.de.ndjson', (lines) => lines.map((l) => (l === 'null' ? lines.find((m) => m !== 'null')! : l)));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/markers\.de\.ndjson: the marker of kreuzberg-nook disagrees/));
  });

  it('rejects listing columns whose places are not one range of listings each (not in place order)', async () => {
    const f = await writeBuildFixture(undefined, { columns: (c) => { c.city[c.city.length - 1] = c.city[0]; } });
    dirs.push(f.dir);
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/listing-columns\.bin: the listings of city [a-z-]+ are not one range/));
  });

  it('rejects damaged autocomplete files at load, each with what is wrong', async () => {
    const ok = await writeBuildFixture();
    dirs.push(ok.dir);
    const build = await loadBuild(ok.dir, { siteUrl: SITE });
    const { ranks } = build.suggestIndex.search('tor twelv', 8);
    const w = new JsonBytes();
    build.suggestIndex.writeItems(w, ranks, 'de');
    assert.deepEqual(JSON.parse(w.finish().toString())[0], { kind: 'property', slug: 'tor-twelve', label: 'Tor Twelve' }, 'the fixture finds a space by its title');
    await build.close();
    const cases: [string, (b: Buffer) => Buffer, RegExp][] = [
      ['suggest-index.bin', (b) => b.subarray(0, b.length - 8), /suggest-index\.bin: section answerTop is \d+ bytes, the file holds \d+/],
      ['suggest-index.bin', (b) => Buffer.concat([Buffer.from('XXXX'), b.subarray(4)]), /suggest-index\.bin: not a suggest index/],
      // the first two words swapped: the binary searches would miss words
      ['suggest-index.bin', (b) => {
        const text = b.toString('latin1');
        const words = text.slice(8, 8 + b.readUInt32LE(4)).split(' ');
        [words[0], words[1]] = [words[1], words[0]];
        return Buffer.concat([b.subarray(0, 8), Buffer.from(words.join(' '), 'latin1'), b.subarray(8 + b.readUInt32LE(4))]);
      }, /suggest-index\.bin: words not sorted at 1/],
      ['suggest.es.ndjson', (b) => Buffer.concat([b, Buffer.from('{"kind":"city","slug":"x","label":"X"}\n')]), /suggest\.es\.ndjson has 27 lines, suggest\.en\.ndjson 26/],
      ['suggest.de.ndjson', (b) => b.subarray(0, b.length - 1), /suggest\.de\.ndjson does not end with a newline/],
      // `null` stands for the first locale's entry: the first locale has none to stand for
      ['suggest.en.ndjson', (b) => Buffer.concat([Buffer.from('null\n'), b.subarray(b.indexOf(0x0a) + 1)]), /suggest\.en\.ndjson: line 1 is not a JSON object$/],
      ['suggest.de.ndjson', (b) => Buffer.concat([Buffer.from('[]\n'), b.subarray(b.indexOf(0x0a) + 1)]), /suggest\.de\.ndjson: line 1 is not a JSON object or null/],
    ];
    for (const [name, change, pattern] of cases) {
      const f = await withBytes(name, change);
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(pattern), String(pattern));
    }
  });

  it('rejects a corrupt JSON file at load, not at the first request', async () => {
    const f = await writeBuildFixture(undefined, { mutate: (files) => files.set('market-rates.json', '{"asOf": ') });
    dirs.push(f.dir);
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/market-rates\.json is not JSON/));
    // the price index is parsed on a load worker and served as its bytes: refused there just the same
    const index = await writeBuildFixture(undefined, { mutate: (files) => files.set('price-index.json', '{"asOf": "2026-11-01T00:00:00Z", "cities": [') });
    dirs.push(index.dir);
    await assert.rejects(loadBuild(index.dir, { siteUrl: SITE }), refused(/price-index\.json is not JSON/));
    const list = await writeBuildFixture(undefined, { mutate: (files) => files.set('price-index.json', '[]\n') });
    dirs.push(list.dir);
    await assert.rejects(loadBuild(list.dir, { siteUrl: SITE }), refused(/price-index\.json is not a JSON object/));
  });

  it('names the market rates\' cities from each locale\'s geo file, and refuses a city geo does not list', async () => {
    const rates = (city: string) => JSON.stringify({
      asOf: '2026-11-01T00:00:00Z',
      cities: [{ countrySlug: 'germany', propertyCount: 1, pricePointCount: 1, rates: { city: { slug: city }, currency: 'EUR', byType: [], sampleSize: 1 } }],
    });
    const named = await writeBuildFixture(undefined, { mutate: (files) => files.set('market-rates.json', rates('munich')) });
    dirs.push(named.dir);
    const build = await loadBuild(named.dir, { siteUrl: SITE });
    assert.deepEqual(LOCALES.map((l) => build.marketRates[l].cities[0].rates.city), LOCALES.map((l) => ({ slug: 'munich', name: build.geo[l].cities.find((c) => c.slug === 'munich')!.name })));
    assert.equal(build.marketRates.de.cities[0].rates.city.name, 'München');
    await build.close();
    const unnamed = await writeBuildFixture(undefined, { mutate: (files) => files.set('market-rates.json', rates('atlantis')) });
    dirs.push(unnamed.dir);
    await assert.rejects(loadBuild(unnamed.dir, { siteUrl: SITE }), refused(/market-rates\.json: city atlantis is not in geo\.en\.json/));
  });

  it('resolves site paths against SITE_URL in cards, markers and details', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const b = await loadBuild(f.dir, { siteUrl: 'https://example.org' });
    const i = b.engine.indexOf('tor-twelve')!;
    assert.match(b.engine.detailJson(i, 'en'), /"webUrl":"https:\/\/example\.org\/en\/space\/tor-twelve"/);
    assert.match(b.engine.detailJson(i, 'en'), /"url":"https:\/\/example\.org\/media\//);
    const card = JSON.parse(b.engine.cardJson(i, 'de', {}));
    assert.equal(card.operator.logo.url, 'https://example.org/media/operators/spacehub.svg');
    assert.equal(card.images[0].url, 'https://example.org/media/spaces/tor-twelve/0.svg');
    assert.deepEqual(card.fromPrice, { amount: 25, currency: 'EUR' });
    assert.equal(card.fromBillingPeriod, 'day');
    const marker = new JsonBytes();
    b.engine.writeMarkers(marker, [i], 'es', { pricingOptionType: 'private_office' });
    assert.equal(JSON.parse(marker.finish().toString()).image.url, 'https://example.org/media/spaces/tor-twelve/0.svg');
    await b.close();
  });

  it('writes a page of cards or markers, gathered a few dozen at a time, exactly as each one alone', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const b = await loadBuild(f.dir, { siteUrl: 'https://example.org' });
    // more listings than one gathering holds, each several times, in no order
    const indices = Array.from({ length: 75 }, (_, k) => (k * 7) % b.engine.n);
    for (const filters of [{}, { pricingOptionType: 'private_office' as const, lat: 52.52, lng: 13.4 }]) {
      const cards = new JsonBytes();
      b.engine.writeCards(cards, indices, 'de', filters);
      assert.equal(cards.finish().toString(), indices.map((i) => b.engine.cardJson(i, 'de', filters)).join(','));
      const page = new JsonBytes(), one = (i: number) => { const w = new JsonBytes(); b.engine.writeMarkers(w, [i], 'en', filters); return w.finish().toString(); };
      b.engine.writeMarkers(page, indices, 'en', filters);
      assert.equal(page.finish().toString(), indices.map(one).join(','));
    }
    await b.close();
  });

  it('reads a card\'s title from its bytes, escapes and all', async () => {
    const title = 'Quote " and \\\\ backslash, "title": 🏢 Zürich';
    const f = await writeBuildFixture(undefined, {
      mutate: (files) => files.set('cards.es.ndjson', files.get('cards.es.ndjson')!.replace('"title":"Tor Twelve"', `"title":${JSON.stringify(title)}`)),
    });
    dirs.push(f.dir);
    const b = await loadBuild(f.dir, { siteUrl: SITE });
    const i = b.engine.indexOf('tor-twelve')!;
    assert.equal(b.engine.title(i, 'es'), title);
    assert.equal(b.engine.title(i, 'en'), 'Tor Twelve');
    assert.equal(JSON.parse(b.engine.cardJson(i, 'es', {})).title, title);
    await b.close();
  });
});

describe('hot reload', () => {
  it('swaps builds under concurrent requests with zero failures; a broken build is ignored', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const store = await CatalogStore.open(d, { siteUrl: SITE, log: quiet, pollMs: 20 });
    store.watch();
    const app = await buildApp({ config: testConfig({ RATE_LIMIT_READS: '1000000' }), catalog: store, logger: false });
    await app.ready();

    let stop = false;
    let failures = 0;
    let requests = 0;
    const totals = new Set<number>();
    const load = async () => {
      while (!stop) {
        const urls = ['/v1/properties?locale=en&seed=3', '/v1/facets?locale=de&city=berlin', '/v1/properties/tor-twelve?locale=es', '/v1/properties/map?locale=en'];
        const res = await Promise.all(urls.map((url) => app.inject({ url })));
        for (const r of res) {
          requests++;
          if (r.statusCode !== 200) failures++;
        }
        totals.add(JSON.parse(res[0].body).meta.pagination.total);
        // inject never touches the network: let timers and fs events (the watcher) run
        await new Promise((r) => setImmediate(r));
      }
    };
    const workers = Array.from({ length: 8 }, load);

    const b = await writeBuildFixture(join(d, 'builds', 'b'), { buildId: 'b', extra: 40 });
    const swapped = once(store, 'swap');
    await publish(d, b.dir);
    await swapped;
    assert.equal(store.current().build.id, 'b');

    const broken = await writeBuildFixture(join(d, 'builds', 'broken'), {
      buildId: 'broken', extra: 20, mutate: (files) => files.set('details.es.ndjson', files.get('details.es.ndjson')!.replace(/\n[^\n]*\n$/, '\n')),
    });
    const failed = once(store, 'failed');
    await publish(d, broken.dir);
    await failed;
    assert.equal(store.current().build.id, 'b', 'the broken build is not served');

    const c = await writeBuildFixture(join(d, 'builds', 'c'), { buildId: 'c', extra: 5 });
    const swappedC = once(store, 'swap');
    await publish(d, c.dir);
    await swappedC;
    await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await Promise.all(workers);
    await app.close();
    await store.close();
    assert.equal(failures, 0, `${failures} of ${requests} requests failed`);
    assert.ok(requests > 50);
    assert.deepEqual([...totals].sort(), [26, 31, 66].filter((t) => totals.has(t)));
    assert.ok(totals.has(26) && totals.has(66), `served both builds: ${[...totals]}`);
  });

  it('keeps serving the old build when a reload fails, and logs why', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const { errors, store, app } = await servedWithErrorLog(d);
    const bad = await writeBuildFixture(join(d, 'builds', 'bad'), { buildId: 'bad', extra: 3 });
    const m = JSON.parse(await readFile(join(bad.dir, 'manifest.json'), 'utf8'));
    m.xxh64['card-texts.en.ndjson'] = '0'.repeat(16);
    await writeFile(join(bad.dir, 'manifest.json'), JSON.stringify(m));
    await publish(d, bad.dir);
    assert.equal(await store.reload(), 'failed');
    assert.equal(store.current().build.id, 'a');
    assert.match(errors.join('\n'), /build rejected; still serving the previous one: build .*bad: card-texts\.en\.ndjson checksum mismatch/);
    const detail = await app.inject({ url: '/v1/properties/tor-twelve?locale=de' });
    assert.equal(detail.statusCode, 200);
    assert.equal(JSON.parse(detail.body).data.slug, 'tor-twelve');
    assert.equal(JSON.parse((await app.inject({ url: '/v1/properties?locale=en' })).body).meta.pagination.total, 26);
    await app.close();
    await store.close();
  });

  it('never serves a detail damaged in the live build: 500 for that record, a log line, one reload that refuses the damaged file', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const { errors, store, app } = await servedWithErrorLog(d);
    const file = join(a.dir, 'details.en.ndjson');
    const original = await readFile(file);
    const lines = original.toString('utf8').split('\n');
    const i = store.current().build.engine.indexOf('tor-twelve')!;
    // one byte changed in place: same length, so nothing but the record index can tell
    const at = lines.slice(0, i).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0) + lines[i].indexOf('"slug"') + 2;
    const damaged = Buffer.from(original);
    damaged[at] = 0x7b; // '{': the line is no longer JSON
    await writeFile(file, damaged);

    const failed = once(store, 'failed');
    const res = await app.inject({ url: '/v1/properties/tor-twelve?locale=en' });
    assert.equal(res.statusCode, 500);
    assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(JSON.parse(res.body).code, 'INTERNAL_ERROR');
    await failed;
    assert.match(errors.join('\n'), /damaged build file; reloading the build: details\.en\.ndjson: line \d+ is damaged/);
    assert.match(errors.join('\n'), /build rejected; still serving the previous one: build .*: details\.en\.ndjson: line \d+ is damaged/);
    assert.equal(store.current().build.id, 'a');
    assert.equal((await app.inject({ url: '/v1/properties/tor-twelve?locale=de' })).statusCode, 200, 'the same space in another locale');
    for (const slug of ['kreuzberg-nook', 'tor-twelve']) {
      const other = await app.inject({ url: `/v1/properties/${slug}?locale=${slug === 'tor-twelve' ? 'es' : 'en'}` });
      assert.equal(other.statusCode, 200);
      assert.equal(JSON.parse(other.body).data.slug, slug);
    }
    assert.equal((await app.inject({ url: '/v1/properties/tor-twelve?locale=en' })).statusCode, 500, 'still refused, with no second reload');
    assert.equal(errors.filter((e) => e.startsWith('damaged build file')).length, 1);

    // repaired in place: served again, checked line by line as before
    await writeFile(file, original);
    const repaired = await app.inject({ url: '/v1/properties/tor-twelve?locale=en' });
    assert.equal(repaired.statusCode, 200);
    assert.equal(JSON.parse(repaired.body).data.slug, 'tor-twelve');
    await app.close();
    await store.close();
  });

  it('never serves a file served as it is that changed after the load: 500, a log line, a reload that refuses it, served again once repaired', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const { errors, store, app } = await servedWithErrorLog(d, { QUERY_CACHE: '0' });
    const file = join(a.dir, 'price-report.csv');
    const original = await readFile(file);
    const before = await app.inject({ url: '/api/price-report' });
    assert.equal(before.statusCode, 200);
    assert.equal(before.body, original.toString('utf8'));

    // same length, one letter changed: only the checksum can tell
    await writeFile(file, original.toString('utf8').replace('city_slug', 'city_slag'));
    const failed = once(store, 'failed');
    const res = await app.inject({ url: '/api/price-report' });
    assert.equal(res.statusCode, 500);
    assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(JSON.parse(res.body).code, 'INTERNAL_ERROR');
    assert.doesNotMatch(res.body, /city_slag/);
    await failed;
    assert.match(errors.join('\n'), /damaged build file; reloading the build: price-report\.csv: the file is damaged \(its bytes differ from the manifest\)/);
    assert.match(errors.join('\n'), /build rejected; still serving the previous one: build .*: price-report\.csv checksum mismatch/);
    assert.equal(store.current().build.id, 'a');
    assert.equal((await app.inject({ url: '/v1/properties?locale=en' })).statusCode, 200, 'the rest of the build is served');

    await writeFile(file, original);
    const repaired = await app.inject({ url: '/api/price-report' });
    assert.equal(repaired.statusCode, 200);
    assert.equal(repaired.body, original.toString('utf8'));
    await app.close();
    await store.close();
  });

  it('refuses a page whose file changed after the load the same way (methodology.md, in the price index page)', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a', mutate: (files) => files.set('methodology.md', '# How the index is made\n\nMedians of the month.\n') });
    await publish(d, a.dir);
    const { errors, store, app } = await servedWithErrorLog(d, { QUERY_CACHE: '0' });
    const file = join(a.dir, 'methodology.md');
    const original = await readFile(file);
    await writeFile(file, Buffer.concat([original, Buffer.from('Changed after publishing.\n')]));
    const failed = once(store, 'failed');
    const res = await app.inject({ url: '/en/price-index' });
    assert.equal(res.statusCode, 500);
    assert.doesNotMatch(res.body, /Changed after publishing/);
    await failed;
    assert.match(errors.join('\n'), /damaged build file; reloading the build: methodology\.md: the file is damaged/);
    assert.equal(store.current().build.id, 'a');

    await writeFile(file, original);
    const repaired = await app.inject({ url: '/en/price-index' });
    assert.equal(repaired.statusCode, 200);
    assert.match(repaired.body, /Medians of the month\./);
    // what was read and checked is what the build serves from then on
    await writeFile(file, Buffer.concat([original, Buffer.from('Changed after publishing.\n')]));
    assert.match((await app.inject({ url: '/en/price-index' })).body, /Medians of the month\./);
    await app.close();
    await store.close();
  });

  it('refuses the lines a truncation cut from the live build, and a reload reads the file that replaced it', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const store = await CatalogStore.open(d, { siteUrl: SITE, log: quiet });
    const app = await buildApp({ config: testConfig({ RATE_LIMIT_READS: '1000000' }), catalog: store, logger: false });
    const file = join(a.dir, 'details.de.ndjson');
    const original = await readFile(file);
    await truncate(file, Math.floor(original.length / 2));
    const { slugs } = store.current().build.engine;
    const failed = once(store, 'failed');
    const statuses = await Promise.all(slugs.map(async (slug) => (await app.inject({ url: `/v1/properties/${slug}?locale=de` })).statusCode));
    const [failedErr] = await failed;
    assert.match((failedErr as Error).message, /details\.de\.ndjson is \d+ bytes, its index says \d+/);
    const firstRefused = statuses.indexOf(500);
    assert.ok(firstRefused > 0, 'the lines before the cut are served');
    assert.deepEqual(statuses, slugs.map((_, k) => (k < firstRefused ? 200 : 500)), 'every line from the cut on is refused');

    // the file is replaced whole (a new file renamed over it): the open handle still reads the cut one
    await writeFile(`${file}.new`, original);
    await rename(`${file}.new`, file);
    assert.equal((await app.inject({ url: `/v1/properties/${slugs[slugs.length - 1]}?locale=de` })).statusCode, 500);
    assert.equal(await store.reload(true), 'swapped');
    const statusesAfter = await Promise.all(slugs.map(async (slug) => (await app.inject({ url: `/v1/properties/${slug}?locale=de` })).statusCode));
    assert.deepEqual(new Set(statusesAfter), new Set([200]));
    await app.close();
    await store.close();
  });

  it('finishes an in-flight request on the build it started with', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const store = await CatalogStore.open(d, { siteUrl: SITE, log: quiet });
    const before = store.current().build;
    const b = await writeBuildFixture(join(d, 'builds', 'b'), { buildId: 'b', extra: 10 });
    await publish(d, b.dir);
    assert.equal(await store.reload(), 'swapped');
    assert.equal(before.engine.n, 26, 'the old build object stays intact for requests holding it');
    assert.equal(store.current().build.engine.n, 36);
    const middle = store.current().build;
    assert.equal(await store.reload(), 'unchanged');
    assert.equal(await store.reload(true), 'swapped', 'SIGHUP forces a reload of the same target');
    // the replaced builds stay readable for a while; close() closes them and the current one
    assert.match(before.engine.detailJson(0, 'en'), /^\{"slug":/);
    const current = store.current().build;
    await store.close();
    for (const build of [before, middle, current]) assert.throws(() => build.engine.detailJson(0, 'en'), /"fd" is out of range/);
    assert.equal(await store.reload(true), 'unchanged', 'a closed store loads nothing');
  });

  it('loads a broken build once while current points at it, not on every poll; SIGHUP or a new target tries again', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const rejected: string[] = [];
    const store = await CatalogStore.open(d, {
      siteUrl: SITE, pollMs: 10,
      log: { info: () => undefined, error: (obj: object) => { if ('dir' in obj) rejected.push(String((obj as { dir: string }).dir)); } },
    });
    const bad = await writeBuildFixture(join(d, 'builds', 'bad'), {
      buildId: 'bad', mutate: (files) => files.set('cards.en.ndjson', files.get('cards.en.ndjson')!.split('\n').slice(1).join('\n')),
    });
    store.watch();
    const failed = once(store, 'failed');
    await publish(d, bad.dir);
    await failed;
    // a hundred polls of the same target: no second load
    let polls = 0;
    while (polls < 100) {
      assert.equal(await store.reload(), 'backing-off');
      polls += 1;
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rejected.length, 1, `loaded ${rejected.length} times: ${rejected.join(', ')}`);
    assert.equal(store.current().build.id, 'a');
    // SIGHUP tries it again, once
    assert.equal(await store.reload(true), 'failed');
    assert.equal(await store.reload(), 'backing-off');
    assert.equal(rejected.length, 2);
    // the explicit reloads below must not race the watcher for the new targets
    store.unwatch();
    // another broken target is tried at once; a good one is swapped in and forgets the failure
    const bad2 = await writeBuildFixture(join(d, 'builds', 'bad2'), {
      buildId: 'bad2', mutate: (files) => files.set('cards.de.ndjson', ''),
    });
    await publish(d, bad2.dir);
    assert.equal(await store.reload(), 'failed');
    assert.equal(rejected.length, 3);
    const b = await writeBuildFixture(join(d, 'builds', 'b'), { buildId: 'b', extra: 2 });
    await publish(d, b.dir);
    assert.equal(await store.reload(), 'swapped');
    assert.equal(store.current().build.id, 'b');
    await store.close();
  });

  it('backs off a dangling current (its build removed) like a failed build: one log line without a stack, not one per poll', async () => {
    const d = await dist();
    const a = await writeBuildFixture(join(d, 'builds', 'a'), { buildId: 'a' });
    await publish(d, a.dir);
    const lines: string[] = [];
    const store = await CatalogStore.open(d, {
      siteUrl: SITE, pollMs: 10,
      log: { info: () => undefined, error: (obj: object, msg: string) => { lines.push(`${msg} ${JSON.stringify(obj)}`); } },
    });
    try {
      const gone = join(d, 'builds', 'gone');
      await publish(d, gone);
      store.watch();
      await new Promise((r) => setTimeout(r, 500));
      for (let polls = 0; polls < 50; polls++) assert.equal(await store.reload(), 'backing-off');
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0], /current points to no build/);
      assert.ok(lines[0].includes(gone), 'the line names the missing build');
      assert.ok(!lines[0].includes('"stack"'), 'no stack');
      assert.equal(store.current().build.id, 'a', 'the previous build is still served');
      // a build published over it is taken at once
      store.unwatch();
      const b = await writeBuildFixture(join(d, 'builds', 'b'), { buildId: 'b', extra: 2 });
      await publish(d, b.dir);
      assert.equal(await store.reload(), 'swapped');
    } finally {
      await store.close();
    }
  });
});
