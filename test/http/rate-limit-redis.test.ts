import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { RedisCounters } from '../../api/http/rate-limit-redis.ts';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { testApp, testConfig } from '../support/app.ts';
import { TestRedis } from '../support/redis.ts';

const leadsLike: FastifyPluginAsync = async (app) => {
  registerRoute(app, defineRoute({
    operationId: 'probeLead', method: 'POST', url: '/v1/test/lead', summary: 'lead-like', response: z.unknown(),
    statuses: [200, 429], cache: 'no-store', rateLimit: 'lead',
    // as the lead routes do for an enquiry they create
    handler: async ({ request, reply }) => { await request.server.admitEnquiry(request, reply); return { data: { ok: true } }; },
  }));
};

const warnings: string[] = [];
const log = { warn: (_: object, msg: string) => { warnings.push(msg); }, info: (_: object, msg: string) => { warnings.push(msg); } };

interface Replica { app: FastifyInstance; base: string; counters: RedisCounters }

/** A replica as server.ts makes one with REDIS_URL: a real server on loopback counting in Redis. */
async function replica(redisUrl: string, env: Record<string, string>, prefix = `test-${Math.random().toString(36).slice(2)}`): Promise<Replica> {
  const counters = new RedisCounters(redisUrl, testConfig(env).rateLimit, log, prefix);
  assert.ok(await counters.connected(5_000), 'connected to Redis');
  const app = await testApp({ env, rateCounters: counters, plugins: [leadsLike] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, counters };
}

/** Two replicas sharing one Redis (and one key prefix). */
async function pair(redisUrl: string, env: Record<string, string>): Promise<[Replica, Replica]> {
  const prefix = `test-${Math.random().toString(36).slice(2)}`;
  return [await replica(redisUrl, env, prefix), await replica(redisUrl, env, prefix)];
}

async function closeAll(replicas: Replica[]) {
  for (const r of replicas) {
    await r.app.close();
    await r.counters.close();
  }
}

const read = async (r: Replica, path = '/v1/config') => {
  const res = await fetch(`${r.base}${path}`);
  const body = await res.json() as { data?: Record<string, unknown> };
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), limit: res.headers.get('ratelimit-limit'), reset: res.headers.get('ratelimit-reset'), retryAfter: res.headers.get('retry-after'), body };
};
const enquire = async (r: Replica) => {
  const res = await fetch(`${r.base}/v1/test/lead`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await res.arrayBuffer();
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), limit: res.headers.get('ratelimit-limit') };
};

describe('rate limits shared through a real Redis (REDIS_URL)', () => {
  let redis: TestRedis;
  before(async () => { redis = await TestRedis.start(); });
  after(async () => {
    await redis.close();
    await (globalThis as Record<symbol, { destroy?: () => Promise<void> }>)[Symbol.for('undici.globalDispatcher.1')]?.destroy?.();
  });

  it('two replicas: the 121st read in a minute from one client, spread over both, gets 429', async () => {
    const replicas = await pair(redis.url, { RATE_LIMIT_READS: '120' });
    const statuses: number[] = [];
    for (let i = 1; i <= 120; i++) {
      const r = await read(replicas[i % 2]);
      statuses.push(r.status);
      assert.equal(r.remaining, String(120 - i), `request ${i}: the count is shared`);
      assert.equal(r.limit, '120');
      assert.ok(Number(r.reset) >= 1 && Number(r.reset) <= 60);
    }
    assert.ok(statuses.every((s) => s === 200));
    for (const r of replicas) {
      const refused = await read(r);
      assert.equal(refused.status, 429);
      assert.equal(refused.remaining, '0');
      assert.ok(Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 60);
    }
    // health is exempt and reports the shared state; readiness says the limits are shared
    const health = await read(replicas[0], '/v1/health');
    assert.equal(health.status, 200);
    assert.equal(health.remaining, '0');
    assert.equal((await read(replicas[1], '/readyz')).body.data?.rateLimits, 'shared');
    console.log('two replicas sharing Redis: 120 reads spread over both served, the 121st on each refused with 429');
    await closeAll(replicas);
  });

  it('counts an enquiry against both buckets, and none when the read limit refuses it, as the local limiter does', async () => {
    const replicas = await pair(redis.url, { RATE_LIMIT_READS: '6', RATE_LIMIT_LEADS: '3' });
    const leads = [];
    for (let i = 0; i < 4; i++) leads.push(await enquire(replicas[i % 2]));
    assert.deepEqual(leads.map((l) => [l.status, l.limit, l.remaining]), [[200, '3', '2'], [200, '3', '1'], [200, '3', '0'], [429, '3', '0']]);
    // 4 reads counted of 6; two more, then the read limit refuses and uses up no enquiry
    assert.equal((await read(replicas[0])).remaining, '1');
    assert.equal((await read(replicas[1])).remaining, '0');
    assert.equal((await enquire(replicas[0])).status, 429);
    await closeAll(replicas);
  });

  it('when Redis stops: reads are served, enquiries are limited per replica; when it is back: shared again', async () => {
    const replicas = await pair(redis.url, { RATE_LIMIT_READS: '40', RATE_LIMIT_LEADS: '2' });
    assert.equal((await read(replicas[0])).remaining, '39');
    await redis.stop();
    warnings.length = 0;
    // every read is served, with the headers, counted by the replica that answers
    for (let i = 0; i < 10; i++) {
      const r = await read(replicas[i % 2]);
      assert.equal(r.status, 200, `read ${i} while Redis is down`);
      assert.ok(r.remaining !== null && r.limit === '40');
    }
    assert.equal((await read(replicas[0])).remaining, String(40 - 6), 'replica 0 counts its own reads');
    for (const r of replicas) assert.equal((await read(r, '/readyz')).body.data?.rateLimits, 'fallback');
    assert.ok(warnings.some((w) => /Redis unavailable, counting per replica/.test(w)), warnings.join('\n'));
    // enquiries keep a limit: 2 per replica
    const outage = [];
    for (const r of replicas) for (let i = 0; i < 3; i++) outage.push((await enquire(r)).status);
    assert.deepEqual(outage, [200, 200, 429, 200, 200, 429]);

    await redis.resume();
    for (const r of replicas) {
      // ioredis reconnects by itself (at most every 2 s); until then the local counters answer
      while ((await read(r, '/readyz')).body.data?.rateLimits !== 'shared') await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(warnings.some((w) => /Redis is back/.test(w)));
    // the restarted Redis kept nothing: counting starts again, shared by both
    const shared = [];
    for (let i = 0; i < 3; i++) shared.push((await enquire(replicas[i % 2])).status);
    assert.deepEqual(shared, [200, 200, 429]);
    console.log('Redis stopped: 10 of 10 reads served (per-replica counts), enquiries limited to 2 per replica; Redis back: shared again');
    await closeAll(replicas);
  });

  it('a single replica with REDIS_URL answers as the in-process limiter does', async () => {
    const r = await replica(redis.url, { RATE_LIMIT_READS: '2' });
    assert.deepEqual([(await read(r)).status, (await read(r)).status, (await read(r)).status], [200, 200, 429]);
    await closeAll([r]);
  });
});
