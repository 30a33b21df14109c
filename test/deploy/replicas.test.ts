import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { TestRedis } from '../support/redis.ts';
import { closeFetchPool, startServer, type ServerProcess } from '../support/server-process.ts';

const dirs: string[] = [];
const started: ServerProcess[] = [];

async function replica(dist: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(dist, env);
  started.push(server);
  return server;
}

async function stopServer(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  return (await exited)[0] as number | null;
}

interface Readiness { data: { buildId: string; rateLimits: string } }

const buildIdOf = async (replica: ServerProcess) => ((await (await fetch(`${replica.base}/readyz`)).json()) as Readiness).data;

describe('several replicas of the compiled server on one DIST_DIR and one Redis', () => {
  let redis: TestRedis;
  before(async () => { redis = await TestRedis.start(); });
  after(async () => {
    for (const server of started) await stopServer(server);
    await redis.close();
    for (const d of dirs) await removeDir(d);
    await closeFetchPool();
  });

  it('a build published once reaches both replicas with 0 failed requests under a steady stream', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-replicas-'));
    dirs.push(dist);
    const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
    const b = await writeBuildFixture(join(dist, 'builds', 'b'), { buildId: 'b', extra: 40 });
    await publish(dist, a.dir);
    const env = { REDIS_URL: redis.url, RATE_LIMIT_READS: '1000000', RELOAD_POLL_MS: '1000' };
    const replicas = [await replica(dist, { ...env, LEADS_DB: join(dist, 'leads-1.db') }), await replica(dist, { ...env, LEADS_DB: join(dist, 'leads-2.db') })];
    for (const r of replicas) assert.deepEqual(await buildIdOf(r), { status: 'ready', buildId: 'a', rateLimits: 'shared' });

    // 8 clients, each alternating between the replicas, until both serve build b
    let requests = 0;
    const failures: string[] = [];
    const totals = new Set<number>();
    let streaming = true;
    const client = async (n: number) => {
      for (let i = n; streaming; i++) {
        const replica = replicas[i % 2];
        const path = i % 3 === 0 ? `/v1/properties/tor-twelve?locale=de` : `/v1/properties?locale=en&pageSize=5&seed=${i}`;
        try {
          const res = await fetch(`${replica.base}${path}`);
          const body = await res.json() as { meta?: { pagination?: { total: number } } };
          requests += 1;
          if (res.status !== 200) failures.push(`${res.status} ${path}`);
          if (body.meta?.pagination) totals.add(body.meta.pagination.total);
        } catch (err) {
          failures.push(`${path}: ${(err as Error).message}`);
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    while (requests < 200) await new Promise((r) => setTimeout(r, 20));
    const published = Date.now();
    await publish(dist, b.dir);
    const reached: number[] = [];
    for (const r of replicas) {
      while ((await buildIdOf(r)).buildId !== 'b') await new Promise((res) => setTimeout(res, 20));
      reached.push(Date.now() - published);
    }
    const atPublish = requests;
    while (requests < atPublish + 200) await new Promise((r) => setTimeout(r, 20));
    streaming = false;
    await Promise.all(clients);
    assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
    assert.deepEqual([...totals].sort((x, y) => x - y), [26, 66], 'served build a, then build b');
    console.log(`two replicas on one DIST_DIR: build b published once, served by both after ${reached.map((ms) => `${ms} ms`).join(' and ')}; ${requests} requests from 8 clients across the swap, ${failures.length} failed`);

    for (const r of replicas) assert.equal(await stopServer(r), 0);
  });

  it('behind one trusted proxy, one client is one bucket in Redis for both replicas, whatever it writes in X-Forwarded-For', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-replicas-'));
    dirs.push(dist);
    const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
    await publish(dist, a.dir);
    // the test is the proxy (loopback), appending the client's address 198.51.100.77
    const env = { REDIS_URL: redis.url, RATE_LIMIT_READS: '10', TRUST_PROXY: '127.0.0.1' };
    const replicas = [await replica(dist, { ...env, LEADS_DB: join(dist, 'leads-1.db') }), await replica(dist, { ...env, LEADS_DB: join(dist, 'leads-2.db') })];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await fetch(`${replicas[i % 2].base}/v1/config`, { headers: { 'x-forwarded-for': `10.9.9.${i}, 198.51.100.77` } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
    for (const r of replicas) assert.equal(await stopServer(r), 0);
  });
});
