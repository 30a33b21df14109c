import assert from 'node:assert/strict';
import { once } from 'node:events';
import { cpSync, mkdirSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { CheckedFile } from '../../api/loading/checked-file.ts';
import { DamagedFileError } from '../../api/loading/records.ts';
import { BuildDownloader } from '../../api/loading/download.ts';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { KEYED_FILE, PRICE_HISTORY_BY_CITY } from '../../contract/build.ts';
import { isPrecompressed, RELEASE_FILES } from '../../contract/research.ts';
import { runBuild } from '../../pipeline/run.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { quietProgress, randomTables, tempDir, writeSnapshot } from '../support/pipeline-fixtures.ts';

/** A dist directory built once by the pipeline; each test serves its own copy, which it may damage. */
let origin: string;
const apps: FastifyInstance[] = [];
const builds: LoadedBuild[] = [];

before(async () => {
  origin = tempDir();
  await runBuild({ dataDir: writeSnapshot(randomTables(120, 3)), distDir: origin, progress: quietProgress, rejectLimit: 1, now: () => new Date('2026-01-10T01:00:00Z') });
});
after(async () => {
  for (const app of apps) await app.close();
  for (const build of builds) await build.close();
});

async function served(dist = copyOf(origin), log?: { error(obj: object, msg: string): void }) {
  const build = await loadBuild(realpathSync(path.join(dist, 'current')), { siteUrl: SITE, log });
  builds.push(build);
  const app = await testApp({ catalog: staticCatalog(build) });
  apps.push(app);
  return { app, build, dist, release: path.join(dist, 'releases', build.manifest.releaseId) };
}

function copyOf(dist: string): string {
  const copy = tempDir();
  cpSync(dist, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

const bytesOf = (r: { rawPayload: Buffer }) => r.rawPayload;

describe('research downloads: precompressed by the pipeline, chosen by Accept-Encoding', () => {
  it('sends the stored gzip or brotli sibling as it is, with its length and a strong tag per encoding; identity without one', async () => {
    const { app, build } = await served();
    for (const [url, file] of [['/api/price-report', 'price-report.csv'], ['/api/price-report/history', 'price-report-history.csv'],
      [`/api/releases/${build.manifest.releaseId}/price-history.json`, 'price-history.json']]) {
      const identity = await app.inject({ url });
      assert.equal(identity.statusCode, 200, url);
      assert.equal(identity.headers['content-encoding'], undefined);
      assert.ok(bytesOf(identity).equals(readFileSync(path.join(build.dir, file))), `${url}: the file as it is`);
      for (const [encoding, suffix, decode] of [['gzip', '.gz', gunzipSync], ['br', '.br', brotliDecompressSync]] as const) {
        const r = await app.inject({ url, headers: { 'accept-encoding': `${encoding}, identity;q=0.5` } });
        assert.equal(r.headers['content-encoding'], encoding, url);
        assert.ok(bytesOf(r).equals(readFileSync(path.join(build.dir, file + suffix))), `${url}: the pipeline's ${encoding} file, not one made per request`);
        assert.ok(decode(bytesOf(r)).equals(bytesOf(identity)));
        assert.equal(Number(r.headers['content-length']), bytesOf(r).length);
        assert.match(String(r.headers.vary), /Accept-Encoding/);
        assert.equal(r.headers.etag, `${String(identity.headers.etag).slice(0, -1)}-${encoding}"`, 'a strong tag of its own');
      }
      assert.match(String(identity.headers.etag), /^"[^"]+"$/, 'strong');
    }
  });
});

describe('a damaged file is never served', () => {
  it('a build file changed after the load: 500, yet a 304 to a client holding the published bytes, answered without reading them', async () => {
    const { app, build } = await served();
    const first = await app.inject({ url: '/api/price-report', headers: { 'accept-encoding': 'gzip' } });
    const history = await app.inject({ url: '/api/price-index/history' });
    assert.equal(history.statusCode, 200);
    for (const file of ['price-report.csv.gz', 'price-history.json']) writeFileSync(path.join(build.dir, file), 'damaged');
    assert.equal((await app.inject({ url: '/api/price-report', headers: { 'accept-encoding': 'gzip' } })).statusCode, 500);
    assert.equal((await app.inject({ url: '/api/price-index/history' })).statusCode, 500, 'the history too: not held in memory');
    const again = await app.inject({ url: '/api/price-report', headers: { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers['cache-control'], first.headers['cache-control'], 'a 304 keeps the 200\'s Cache-Control');
    const historyAgain = await app.inject({ url: '/api/price-index/history', headers: { 'if-none-match': String(history.headers.etag) } });
    assert.equal(historyAgain.statusCode, 304);
  });

  it('a history damaged before a page first reads it: the city\'s price page answers 500 (its line is checked when read)', async () => {
    const { app, build } = await served();
    const city = JSON.parse((await app.inject({ url: '/api/price-index' })).body).data.cities[0].city.slug;
    writeFileSync(path.join(build.dir, KEYED_FILE.lines(PRICE_HISTORY_BY_CITY.name)), 'damaged');
    const r = await app.inject({ url: `/en/prices/${city}`, headers: { accept: 'text/html' } });
    assert.equal(r.statusCode, 500);
    assert.match(String(r.headers['content-type']), /text\/html/);
  });

  it('a release file rewritten in place, even with its old mtime put back: 500, never 200 with a year of max-age', async () => {
    const { app, build, release } = await served();
    const url = `/api/releases/${build.manifest.releaseId}/price-report.csv`;
    assert.equal((await app.inject({ url })).statusCode, 200);
    const file = path.join(release, 'price-report.csv');
    const { atime, mtime } = statSync(file);
    const bytes = readFileSync(file);
    bytes[bytes.length - 2] ^= 1;
    writeFileSync(file, bytes);
    utimesSync(file, atime, mtime);
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 500);
    assert.equal(r.headers['cache-control'], 'no-store');
  });

  it('a release file damaged before it is first asked for fails its sha256: 500; a damaged compressed sibling is left out', async () => {
    const dist = copyOf(origin);
    const releaseId = JSON.parse(readFileSync(path.join(dist, 'current', 'manifest.json'), 'utf8')).releaseId;
    const release = path.join(dist, 'releases', releaseId);
    writeFileSync(path.join(release, 'source.json'), readFileSync(path.join(release, 'source.json'), 'utf8').replace('"sampleData":true', '"sampleData":fals'));
    writeFileSync(path.join(release, 'methodology.md.gz'), 'not gzip');
    const errors: string[] = [];
    const { app } = await served(dist, { error: (_obj, msg) => { errors.push(msg); } });
    assert.equal((await app.inject({ url: `/api/releases/${releaseId}/source.json` })).statusCode, 500);
    const md = await app.inject({ url: `/api/releases/${releaseId}/methodology.md`, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(md.statusCode, 200);
    const body = md.headers['content-encoding'] === 'gzip' ? gunzipSync(bytesOf(md)) : bytesOf(md);
    assert.ok(body.equals(readFileSync(path.join(release, 'methodology.md'))), 'the published bytes, not the damaged sibling');
    assert.ok(errors.includes('damaged compressed release file left out'), errors.join('; '));
  });

  it('a file changed while it is streamed ends the stream with an error; then it is checked again: refused, served once repaired', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'big.csv');
    const published = Buffer.alloc(4 << 20, 'a');
    writeFileSync(file, published);
    const fh = await open(file, 'r');
    const verify = async () => {
      if (!readFileSync(file).equals(published)) throw new DamagedFileError('big.csv', 'the file', 'its bytes differ from the published ones');
    };
    const checked = CheckedFile.checked('big.csv', fh, await fh.stat(), verify);
    const stream = await checked.open();
    const chunks = stream[Symbol.asyncIterator]();
    assert.equal((await chunks.next()).done, false);
    writeFileSync(file, Buffer.alloc(4 << 20, 'b'));
    await assert.rejects(async () => { for (let c = await chunks.next(); !c.done; c = await chunks.next()); }, /changed on disk while it was sent/);
    await assert.rejects(checked.open(), /differ from the published ones/, 'refused from then on');
    writeFileSync(file, published);
    assert.ok(Buffer.concat(await (await checked.open()).toArray()).equals(published), 'served again once repaired');
    await checked.close();
  });
});

describe('release directories', () => {
  it('one without a datapackage and one with an invalid one are logged and skipped; the list and the good releases still answer', async () => {
    const dist = copyOf(origin);
    const releases = path.join(dist, 'releases');
    mkdirSync(path.join(releases, '2020-01-01-0123456789ab'));
    mkdirSync(path.join(releases, '2020-01-02-0123456789ab'));
    writeFileSync(path.join(releases, '2020-01-02-0123456789ab', 'datapackage.json'), '{"version": "2020-01-02-0123456789ab", "resources": [}');
    const errors: object[] = [];
    const { app, build } = await served(dist, { error: (obj) => { errors.push(obj); } });
    const list = await get(app, '/api/releases');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((r: { buildId: string }) => r.buildId), [build.manifest.releaseId]);
    assert.deepEqual(errors.map((e) => (e as { release: string }).release).sort(), ['2020-01-01-0123456789ab', '2020-01-02-0123456789ab']);
    assert.equal((await get(app, '/api/releases/2020-01-01-0123456789ab')).status, 404);
    assert.equal((await get(app, `/api/releases/${build.manifest.releaseId}/price-report.csv`)).status, 200);
  });
});

describe('BUILD_URL replicas', () => {
  it('carry the releases: the list and every file as at the origin', async () => {
    const root = origin;
    const server = createServer((req, res) => {
      const file = path.join(root, path.normalize(decodeURIComponent(req.url!.split('?')[0])).replace(/^\/+/, ''));
      if (!file.startsWith(root)) { res.writeHead(400).end(); return; }
      readFile(file).then((body) => res.writeHead(200).end(body), () => res.writeHead(404).end());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const local = tempDir();
      const downloader = new BuildDownloader({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, distDir: local, log: { info: () => undefined, error: () => undefined } });
      assert.equal(await downloader.sync(), 'downloaded');
      const replica = await served(local);
      const atOrigin = await served(copyOf(origin));
      const list = await get(replica.app, '/api/releases');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.data, (await get(atOrigin.app, '/api/releases')).body.data);
      for (const file of RELEASE_FILES) {
        const url = `/api/releases/${replica.build.manifest.releaseId}/${file}`;
        const [here, there] = [await replica.app.inject({ url, headers: { 'accept-encoding': 'br' } }), await atOrigin.app.inject({ url, headers: { 'accept-encoding': 'br' } })];
        assert.equal(here.statusCode, 200, url);
        assert.equal(here.headers['content-encoding'], isPrecompressed(file) ? 'br' : undefined, url);
        assert.ok(bytesOf(here).equals(bytesOf(there)), url);
      }
    } finally {
      server.close();
    }
  });
});
