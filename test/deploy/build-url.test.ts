import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { after, describe, it } from 'node:test';
import { BuildDownloader } from '../../api/loading/download.ts';
import { loadBuild } from '../../api/loading/load.ts';
import { SITE } from '../support/app.ts';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { closeFetchPool, startServer, type ServerProcess } from '../support/server-process.ts';

const dirs: string[] = [];
const servers: ServerProcess[] = [];
after(async () => {
  for (const s of servers) if (s.child.exitCode === null) { s.child.kill('SIGTERM'); await once(s.child, 'exit'); }
  for (const d of dirs) await removeDir(d);
  await closeFetchPool();
});

async function tempDir(prefix: string) {
  const d = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A dist directory served as static files (symlinks followed, as Caddy's or nginx's file server does); counts GETs per path. */
async function staticDist(root: string): Promise<{ server: Server; url: string; gets: Map<string, number> }> {
  const gets = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(req.url!.split('?')[0])).replace(/^\/+/, '');
    gets.set(path, (gets.get(path) ?? 0) + 1);
    if (path.startsWith('..')) { res.writeHead(400).end(); return; }
    readFile(join(root, path)).then((body) => res.writeHead(200).end(body), () => res.writeHead(404).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, gets };
}

const errors: string[] = [];
const log = { info: () => undefined, error: (obj: object, msg: string) => { errors.push(`${msg}: ${(obj as { err?: Error }).err?.message}`); } };

describe('BUILD_URL: builds downloaded by each replica, checked against the manifest, then published locally', () => {
  it('downloads the published build, checks every sha256, publishes it; refuses a tampered one and does not retry it back to back', async () => {
    const source = await tempDir('desk-atlas-origin-');
    const local = await tempDir('desk-atlas-replica-');
    const a = await writeBuildFixture(join(source, 'builds', 'a'), { buildId: 'a' });
    await publish(source, a.dir);
    const origin = await staticDist(source);
    const downloader = new BuildDownloader({ baseUrl: `${origin.url}/`, distDir: local, log });

    assert.equal(await downloader.sync(), 'downloaded');
    assert.equal(await readlink(join(local, 'current')), join('builds', 'a'));
    assert.equal((await loadBuild(join(local, 'builds', 'a'), { siteUrl: SITE })).engine.n, 26, 'the copy loads with every check');
    assert.equal(await downloader.sync(), 'unchanged');

    // a file changed after the manifest was written: refused, nothing published, nothing left behind
    const c = await writeBuildFixture(join(source, 'builds', 'c'), { buildId: 'c', extra: 3 });
    const cards = join(c.dir, 'cards.en.ndjson');
    await writeFile(cards, (await readFile(cards, 'utf8')).replace('"featured":false', '"featured":true '));
    await publish(source, c.dir);
    assert.equal(await downloader.sync(), 'failed');
    assert.match(errors.join('\n'), /build download refused.*cards\.en\.ndjson: sha256 [0-9a-f]{64} does not match the manifest's/);
    assert.equal(await readlink(join(local, 'current')), join('builds', 'a'));
    assert.deepEqual((await readdir(join(local, 'builds'))).sort(), ['a']);
    const fetched = origin.gets.get('builds/c/cards.en.ndjson');
    for (let i = 0; i < 20; i++) assert.equal(await downloader.sync(), 'backing-off');
    assert.equal(origin.gets.get('builds/c/cards.en.ndjson'), fetched, 'not downloaded again');

    // a manifest naming a file outside the build directory is refused
    const d = await writeBuildFixture(join(source, 'builds', 'd'), { buildId: 'd' });
    const manifest = JSON.parse(await readFile(join(d.dir, 'manifest.json'), 'utf8'));
    manifest.files['../../escape'] = '0'.repeat(64);
    await writeFile(join(d.dir, 'manifest.json'), JSON.stringify(manifest));
    await publish(source, d.dir);
    assert.equal(await downloader.sync(), 'failed');
    assert.match(errors.at(-1)!, /outside the build directory/);
    assert.equal(existsSync(join(local, 'escape')), false);

    // the next good build is taken at once
    const b = await writeBuildFixture(join(source, 'builds', 'b'), { buildId: 'b', extra: 4 });
    await publish(source, b.dir);
    assert.equal(await downloader.sync(), 'downloaded');
    assert.equal(await readlink(join(local, 'current')), join('builds', 'b'));
    origin.server.close();
  });

  it('the compiled server with BUILD_URL and an empty DIST_DIR: starts on the downloaded build and follows the next one', async () => {
    const source = await tempDir('desk-atlas-origin-');
    const local = await tempDir('desk-atlas-replica-');
    const a = await writeBuildFixture(join(source, 'builds', 'a'), { buildId: 'a' });
    await publish(source, a.dir);
    const origin = await staticDist(source);
    const replica = await startServer(local, { BUILD_URL: origin.url, BUILD_POLL_MS: '100' });
    servers.push(replica);
    const readiness = async () => ((await (await fetch(`${replica.base}/readyz`)).json()) as { data: { buildId: string } }).data.buildId;
    assert.equal(await readiness(), 'a');
    const b = await writeBuildFixture(join(source, 'builds', 'b'), { buildId: 'b', extra: 4 });
    await publish(source, b.dir);
    while (await readiness() !== 'b') await new Promise((r) => setTimeout(r, 50));
    const list = await fetch(`${replica.base}/v1/properties?locale=en&pageSize=1`);
    assert.equal(((await list.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total, 30);
    origin.server.close();
  });
});
