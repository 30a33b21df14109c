/**
 * The monthly history's cities are a keyed file of their own (PRICE_HISTORY_BY_CITY): the price
 * pages read the cities they show, a line each, checked against its record index, and never
 * price-history.json whole (637 MB at 1,000,000 spaces).
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { KEYED_FILE, PRICE_HISTORY_BY_CITY } from '../../contract/build.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';
import { buildFixture, copyOfCurrent, type FixtureBuild } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { marketTables } from './market-support.ts';

const NAME = PRICE_HISTORY_BY_CITY.name;
let fixture: FixtureBuild;
const dirs: string[] = [];
before(async () => { fixture = await buildFixture(marketTables()); });
after(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

async function copyOfBuild(): Promise<string> {
  const dir = await copyOfCurrent(fixture, 'desk-atlas-history-');
  dirs.push(dir);
  return dir;
}

const historyFile = async (dir: string) => JSON.parse(await readFile(join(dir, 'price-history.json'), 'utf8')) as { cities: PriceHistoryCity[] };

describe('the history by city', () => {
  it('holds every city of price-history.json, a line each, in the order of their slugs', async () => {
    const dir = join(fixture.distDir, 'current');
    const { cities } = await historyFile(dir);
    const keys = JSON.parse(await readFile(join(dir, KEYED_FILE.keys(NAME)), 'utf8')) as string[];
    const lines = (await readFile(join(dir, KEYED_FILE.lines(NAME)), 'utf8')).split('\n').slice(0, -1);
    assert.ok(cities.length >= 2, 'the fixture has a history of several cities');
    assert.deepEqual(keys, cities.map((c) => c.city.slug).sort());
    assert.deepEqual(lines.map((line) => JSON.parse(line)), keys.map((slug) => cities.find((c) => c.city.slug === slug)));
  });

  it('serves the price pages without price-history.json, a city at a time; a damaged city is answered 500, never other figures', async () => {
    const dir = await copyOfBuild();
    const { cities } = await historyFile(dir);
    const build = await loadBuild(dir, { siteUrl: SITE });
    const app = await testApp({ catalog: staticCatalog(build), env: { QUERY_CACHE: '0' } });
    const city = cities.find((c) => c.points.some((p) => p.published))!;
    const country = build.geo.en.countries.find((c) => c.code === city.countryCode)!;
    const pages = [`/en/prices/${city.city.slug}`, `/en/price-index/${country.slug}`, `/api/price-index/cities/${city.city.slug}`];

    // the whole history gone after load: only its download needs it
    await writeFile(join(dir, 'price-history.json'), 'damaged');
    const served = new Map<string, string>();
    for (const path of pages) {
      const res = await get(app, path);
      assert.equal(res.status, 200, path);
      served.set(path, res.raw.body);
    }
    assert.match(served.get(pages[0])!, /class="history-table"/, 'the city page shows its history');
    assert.equal((await get(app, `/api/price-index/cities/${city.city.slug}`)).body.data.history.points.length, city.points.length);

    const file = join(dir, KEYED_FILE.lines(NAME));
    const bytes = await readFile(file);
    const keys = JSON.parse(await readFile(join(dir, KEYED_FILE.keys(NAME)), 'utf8')) as string[];
    let at = 0;
    for (let k = keys.indexOf(city.city.slug); k > 0; k--) at = bytes.indexOf(0x0a, at) + 1;
    const damaged = Buffer.from(bytes);
    damaged[at] = 0x5b; // '[': the same length, not the bytes the index holds
    await writeFile(file, damaged);
    for (const path of pages) assert.equal((await get(app, path)).status, 500, path);

    await writeFile(file, bytes);
    for (const path of pages) assert.equal((await get(app, path)).raw.body, served.get(path), `${path} repaired in place`);
    await app.close();
    await build.close();
  });
});
