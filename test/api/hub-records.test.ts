/**
 * The hubs are keyed files (KEYED_FILE): the loader holds their keys and record indexes, and a
 * hub is read from disk when asked for, checked against its index.
 */
import assert from 'node:assert/strict';
import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BuildLoadError, loadBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { KEYED_FILE } from '../../contract/build.ts';
import { buildFixture, copyOfCurrent, type FixtureBuild } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { marketTables } from './market-support.ts';

let fixture: FixtureBuild;
const dirs: string[] = [];
before(async () => { fixture = await buildFixture(marketTables()); });
after(async () => { for (const d of dirs) await rm(d, { recursive: true, force: true }); });

/** A copy of the fixture's build, to damage. */
async function copyOfBuild(): Promise<string> {
  const dir = await copyOfCurrent(fixture, 'desk-atlas-hubs-');
  dirs.push(dir);
  return dir;
}

const refused = (pattern: RegExp) => (err: Error) => err instanceof BuildLoadError && pattern.test(err.message);

/** The byte offset of the line of `key` in a keyed file, and the file's bytes. */
async function lineOf(dir: string, name: string, locale: string, key: string) {
  const keys = JSON.parse(await readFile(join(dir, KEYED_FILE.keys(name, locale)), 'utf8')) as string[];
  const bytes = await readFile(join(dir, KEYED_FILE.lines(name, locale)));
  let at = 0;
  for (let k = keys.indexOf(key); k > 0; k--) at = bytes.indexOf(0x0a, at) + 1;
  assert.ok(keys.includes(key), `${key} in ${name}.${locale}`);
  return { at, bytes };
}

describe('hub files at load', () => {
  it('refuses a hub file cut short, naming it', async () => {
    const dir = await copyOfBuild();
    const file = join(dir, KEYED_FILE.lines('places', 'de'));
    await truncate(file, (await readFile(file)).length - 10);
    await assert.rejects(loadBuild(dir, { siteUrl: SITE }), refused(/places\.de\.ndjson is \d+ bytes, its index says \d+/));
  });

  it('refuses a damaged record index or key list, naming it', async () => {
    for (const name of [KEYED_FILE.index('rankings', 'es'), KEYED_FILE.keys('operators', 'en')]) {
      const dir = await copyOfBuild();
      const bytes = await readFile(join(dir, name));
      await writeFile(join(dir, name), bytes.subarray(0, bytes.length - 1));
      await assert.rejects(loadBuild(dir, { siteUrl: SITE }), refused(new RegExp(`${name.replace(/\./g, '\\.')} checksum mismatch`)));
    }
  });

  it('refuses on a reload that checks every line a hub line damaged in place', async () => {
    const dir = await copyOfBuild();
    const { at, bytes } = await lineOf(dir, 'operators', 'de', Object.keys(fixture.keyed('operators', 'de'))[0]);
    bytes[at + 1] = 0x7b;
    await writeFile(join(dir, KEYED_FILE.lines('operators', 'de')), bytes);
    await (await loadBuild(dir, { siteUrl: SITE })).close();
    await assert.rejects(loadBuild(dir, { siteUrl: SITE, checkAllDetails: true }), refused(/operators\.de\.ndjson: line 1 is damaged/));
  });
});

describe('a hub damaged after load', () => {
  it('is answered 500, never 200 with other bytes; the other hubs are served', async () => {
    const dir = await copyOfBuild();
    const build = await loadBuild(dir, { siteUrl: SITE });
    // no response cache: every request reads the hub from its file
    const app = await testApp({ catalog: staticCatalog(build), env: { QUERY_CACHE: '0' } });
    const before = await get(app, '/v1/places/city/berlin?locale=en');
    assert.equal(before.status, 200);

    const { at, bytes } = await lineOf(dir, 'places', 'en', 'city/berlin');
    const damaged = Buffer.from(bytes);
    damaged[at] = 0x5b; // '[': the same length, not the bytes the index holds
    await writeFile(join(dir, KEYED_FILE.lines('places', 'en')), damaged);
    const res = await get(app, '/v1/places/city/berlin?locale=en');
    assert.equal(res.status, 500);
    assert.equal(res.body.code, 'INTERNAL_ERROR');
    assert.equal((await get(app, '/v1/places/city/berlin?locale=de')).status, 200, 'the same hub in another locale');
    assert.equal((await get(app, '/v1/places/city/munich?locale=en')).status, 200, 'another hub of the file');
    assert.equal((await get(app, '/v1/places/city/nowhere?locale=en')).status, 404);

    await writeFile(join(dir, KEYED_FILE.lines('places', 'en')), bytes);
    assert.deepEqual((await get(app, '/v1/places/city/berlin?locale=en')).body, before.body, 'repaired in place: the same response');
    await app.close();
    await build.close();
  });
});
