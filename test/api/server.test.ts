import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CONTRACT_HASH } from '../../contract/hash.ts';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { freePort } from '../support/ports.ts';
import { closeFetchPool, ROOT, startServer } from '../support/server-process.ts';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
  await closeFetchPool();
});

const canConnect = (port: number) => new Promise<boolean>((resolve) => {
  const socket = createConnection({ port, host: '127.0.0.1' });
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});

describe('the server as make serve runs it (dist/server/server.js) over a real socket', () => {
  it('starts its page worker when it listens, that thread alone at nice 10 (Linux: a nice value is per thread)', { skip: process.platform !== 'linux' && 'nice values are per thread on Linux only' }, async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-srv-'));
    dirs.push(dist);
    const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
    await publish(dist, a.dir);
    const { child } = await startServer(dist);
    try {
      // each thread's nice value: field 19 of its stat, counted after the command name (which may hold spaces)
      const nices = async () => {
        const tasks = join('/proc', String(child.pid), 'task');
        return new Map(await Promise.all((await readdir(tasks)).map(async (tid) => {
          const stat = await readFile(join(tasks, tid, 'stat'), 'utf8');
          return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const;
        })));
      };
      let seen = await nices();
      for (let i = 0; i < 50 && ![...seen.values()].includes(10); i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen = await nices();
      }
      assert.deepEqual([...seen.values()].filter((n) => n !== 0), [10], `one thread at nice 10, before any page was asked for: ${[...seen.values()]}`);
      assert.equal(seen.get(child.pid!), 0, 'the event loop\'s thread (its id is the process\'s) keeps nice 0');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('serves, takes an enquiry, reloads on SIGHUP and exits 0 on SIGTERM after finishing in-flight requests', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-srv-'));
    dirs.push(dist);
    const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
    await publish(dist, a.dir);
    const { child, base } = await startServer(dist);
    const health = async () => ((await (await fetch(`${base}/v1/health`)).json()) as { data: { buildId: string } }).data.buildId;
    assert.equal(await health(), 'a');

    const list = await fetch(`${base}/v1/properties?locale=en&pageSize=2`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('ratelimit-limit'), '120');
    const body = await list.json() as { meta: { pagination: { total: number } } };
    assert.equal(body.meta.pagination.total, 26);

    const missing = await fetch(`${base}/v1/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    assert.ok(missing.headers.get('ratelimit-remaining'));
    await missing.arrayBuffer();

    const lead = await fetch(`${base}/v1/leads/contact`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', locale: 'en' }),
    });
    assert.equal(lead.status, 200);
    assert.match(((await lead.json()) as { data: { reference: string } }).data.reference, /^DA-/);

    const b = await writeBuildFixture(join(dist, 'builds', 'b'), { buildId: 'b', extra: 4 });
    await publish(dist, b.dir);
    child.kill('SIGHUP');
    let total = 0;
    for (let i = 0; i < 100 && total !== 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await fetch(`${base}/v1/properties?locale=en&pageSize=1`);
      total = ((await r.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total;
    }
    assert.equal(total, 30);
    assert.equal(await health(), 'b', 'health names the build served after the reload');

    const inFlight = Array.from({ length: 20 }, (_, i) => fetch(`${base}/v1/properties/map?locale=en&seed=${i}`).then(async (r) => [r.status, (await r.text()).length]));
    await new Promise((r) => setTimeout(r, 5));
    // listening before the signal: the server may be gone before the requests' promises settle
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const results = await Promise.allSettled(inFlight);
    const [code] = await exited;
    assert.equal(code, 0);
    // Requests the server had received finish with 200; later ones are refused (503 while
    // closing, or no connection at all), never cut off half-way.
    const completed = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<number[]>[];
    assert.ok(completed.some((r) => r.value[0] === 200), JSON.stringify(results));
    for (const r of completed) {
      if (r.value[0] === 200) assert.ok(r.value[1] > 100);
      else assert.equal(r.value[0], 503);
    }
    await assert.rejects(fetch(`${base}/v1/health`), 'no longer accepting connections');
  });

  it('refuses to start on a build that fails its checks: exits non-zero, never listening', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-bad-'));
    dirs.push(dist);
    const bad = await writeBuildFixture(join(dist, 'builds', 'bad'), {
      buildId: 'bad',
      mutate: (files) => files.set('cards.es.ndjson', files.get('cards.es.ndjson')!.split('\n').slice(1).join('\n')),
    });
    await publish(dist, bad.dir);
    const port = await freePort();
    // the source, as `npx tsx api/server.ts` runs it
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'server.ts')], {
      cwd: ROOT,
      env: {
        ...process.env, DIST_DIR: dist, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
        LEADS_DB: join(dist, 'leads.db'), LEADS_MAIL_SPOOL: join(dist, 'mail'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { out += d; });
    const exited = once(child, 'exit');
    let connected = false;
    let running = true;
    void exited.then(() => { running = false; });
    while (running) {
      if (await canConnect(port)) connected = true;
      await new Promise((r) => setTimeout(r, 25));
    }
    const [code] = await exited;
    assert.notEqual(code, 0);
    assert.equal(connected, false, 'nothing listened on the port');
    assert.doesNotMatch(out, /listening on/);
    assert.match(out, /Cannot start: no loadable build at .*card-parts\.ndjson has 50 lines for 26 listings/);
  });

  it('refuses a build made against another contract (the bundle carries the hash the source computes)', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-contract-'));
    dirs.push(dist);
    const other = await writeBuildFixture(join(dist, 'builds', 'other'), { buildId: 'other' });
    const manifestFile = join(other.dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    assert.equal(manifest.contractHash, CONTRACT_HASH);
    await writeFile(manifestFile, JSON.stringify({ ...manifest, contractHash: 'f'.repeat(64) }));
    await publish(dist, other.dir);
    await assert.rejects(startServer(dist), new RegExp(`exited 1[\\s\\S]*built against another contract \\(contractHash f{64}, this server's is ${CONTRACT_HASH}\\)`));
  });

  it('refuses to start without a build', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-empty-'));
    dirs.push(dist);
    await assert.rejects(startServer(dist), /exited 1[\s\S]*make data/);
  });
});
