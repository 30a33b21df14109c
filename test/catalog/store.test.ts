import assert from 'node:assert/strict';
import { mkdtemp, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../api/app.ts';
import { BuildLoadError, loadBuild } from '../../api/build/load.ts';
import { CatalogStore } from '../../api/build/store.ts';
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

describe('loadBuild', () => {
  it('rejects a file whose checksum does not match the manifest', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    await writeFile(join(f.dir, 'config.json'), JSON.stringify({ minSupportedBuild: 0, flags: {} }));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), (e: Error) => e instanceof BuildLoadError && /config\.json checksum/.test(e.message));
  });

  it('rejects a file that breaks the contract, naming it', async () => {
    const f = await writeBuildFixture(undefined, {
      mutate: (files) => {
        const cards = JSON.parse(files.get('listings.de.json')!);
        cards[3].featured = 'yes';
        files.set('listings.de.json', JSON.stringify(cards));
      },
    });
    dirs.push(f.dir);
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), /listings\.de\.json does not match the contract: \/3\/featured/);
  });

  it('rejects a manifest that misses a required file', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const m = JSON.parse(await readFile(join(f.dir, 'manifest.json'), 'utf8'));
    delete m.files['geo.es.json'];
    await writeFile(join(f.dir, 'manifest.json'), JSON.stringify(m));
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), /geo\.es\.json/);
  });

  it('resolves site paths against SITE_URL', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const b = await loadBuild(f.dir, { siteUrl: 'https://example.org' });
    assert.match(await b.engine.detailJson(0, 'en'), /"webUrl":"https:\/\/example\.org\/en\/space\//);
    assert.match(await b.engine.detailJson(0, 'en'), /"url":"https:\/\/example\.org\/media\//);
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

    const broken = await writeBuildFixture(join(d, 'builds', 'broken'), { buildId: 'broken', mutate: (files) => files.set('geo.en.json', '{"countries": 1}') });
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
    store.close();
    await app.close();
    assert.equal(failures, 0, `${failures} of ${requests} requests failed`);
    assert.ok(requests > 50);
    assert.deepEqual([...totals].sort(), [26, 31, 66].filter((t) => totals.has(t)));
    assert.ok(totals.has(26) && totals.has(66), `served both builds: ${[...totals]}`);
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
    assert.equal(await store.reload(), 'unchanged');
    assert.equal(await store.reload(true), 'swapped', 'SIGHUP forces a reload of the same target');
  });
});
