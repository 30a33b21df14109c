/**
 * A hung Redis (redis-server frozen with SIGSTOP: connections stay open, nothing answers), as
 * opposed to a dead one (rate-limit-redis.test.ts): reads must not wait on it, and the shared
 * count must come back by itself when it answers again.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { REDIS_TIMEOUT_MS, RedisCounters } from '../../api/http/rate-limit-redis.ts';
import { testApp, testConfig } from '../support/app.ts';
import { TestRedis } from '../support/redis.ts';

interface Replica { app: FastifyInstance; base: string; counters: RedisCounters; lines: string[] }

const ENV = { RATE_LIMIT_READS: '100000' };

async function replica(redisUrl: string, prefix: string): Promise<Replica> {
  const lines: string[] = [];
  const log = { warn: (_: object, msg: string) => { lines.push(msg); }, info: (_: object, msg: string) => { lines.push(msg); } };
  const counters = new RedisCounters(redisUrl, testConfig(ENV).rateLimit, log, prefix);
  assert.ok(await counters.connected(5_000), 'connected to Redis');
  const app = await testApp({ env: ENV, rateCounters: counters });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, counters, lines };
}

/** A listing read: its time in ms and the shared count it reports. */
async function timedRead(r: Replica) {
  const started = performance.now();
  const res = await fetch(`${r.base}/v1/properties?locale=en`);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, remaining: Number(res.headers.get('ratelimit-remaining')) };
}

const rateLimits = async (r: Replica) => ((await (await fetch(`${r.base}/readyz`)).json()) as { data: { rateLimits: string } }).data.rateLimits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('rate limits when Redis hangs (SIGSTOP)', () => {
  let redis: TestRedis;
  before(async () => { redis = await TestRedis.start(); });
  after(async () => {
    await redis.close();
    await (globalThis as Record<symbol, { destroy?: () => Promise<void> }>)[Symbol.for('undici.globalDispatcher.1')]?.destroy?.();
  });

  it('reads keep their usual latency while it hangs; once it answers again, both replicas count together', async () => {
    const prefix = `hang-${Math.random().toString(36).slice(2)}`;
    const replicas = [await replica(redis.url, prefix), await replica(redis.url, prefix)];
    try {
      for (let i = 0; i < 10; i++) await timedRead(replicas[i % 2]); // warm-up: the routes' first runs
      const before = [];
      for (let i = 0; i < 20; i++) before.push(await timedRead(replicas[i % 2]));
      assert.ok(before.every((r) => r.status === 200));
      for (const r of replicas) {
        assert.equal(await rateLimits(r), 'shared');
        r.lines.length = 0;
      }

      const during = [];
      process.kill(redis.pid, 'SIGSTOP');
      try {
        // the first ones are in flight when it stops answering: several at once, then one at a time
        during.push(...await Promise.all(replicas.flatMap((r) => [timedRead(r), timedRead(r)])));
        for (let i = 0; i < 30; i++) during.push(await timedRead(replicas[i % 2]));
        for (const r of replicas) assert.equal(await rateLimits(r), 'fallback');
      } finally {
        process.kill(redis.pid, 'SIGCONT');
      }
      const ms = (rs: { ms: number }[]) => rs.map((r) => Math.round(r.ms));
      console.log(`GET /v1/properties, ms: before the stop ${ms(before).join(' ')}; while Redis hangs ${ms(during).join(' ')}`);
      assert.ok(during.every((r) => r.status === 200), 'every read served');
      const slowest = Math.max(...during.map((r) => r.ms));
      assert.ok(slowest < REDIS_TIMEOUT_MS + 200, `no read waits beyond the breaker's ${REDIS_TIMEOUT_MS} ms: slowest ${slowest} ms`);
      assert.ok(median(ms(during)) < Math.max(100, 3 * median(ms(before))), `median ${median(ms(during))} ms while it hangs, ${median(ms(before))} ms before`);

      for (const r of replicas) {
        const deadline = Date.now() + 10_000;
        while (await rateLimits(r) !== 'shared') {
          assert.ok(Date.now() < deadline, 'the breaker closes within 10 s of Redis answering again');
          await new Promise((res) => setTimeout(res, 50));
        }
        assert.deepEqual(r.lines, [
          'rate limits: Redis unavailable, counting per replica until it is back',
          'rate limits: Redis is back, counting shared again',
        ], 'one line when it opens, one when it closes');
      }
      // counted in Redis again: one count, whichever replica takes the request
      const first = await timedRead(replicas[0]);
      const second = await timedRead(replicas[1]);
      assert.equal(second.remaining, first.remaining - 1, 'the second replica sees the first one\'s count');
    } finally {
      for (const r of replicas) {
        await r.app.close();
        await r.counters.close();
      }
    }
  });

  it('a replica itself short of CPU past the timeout does not take the answer waiting in its socket for a hang', async () => {
    const cfg = testConfig(ENV).rateLimit;
    const lines: string[] = [];
    const log = { warn: (_: object, msg: string) => { lines.push(msg); }, info: (_: object, msg: string) => { lines.push(msg); } };
    const counters = new RedisCounters(redis.url, cfg, log, `starved-${Math.random().toString(36).slice(2)}`);
    try {
      assert.ok(await counters.connected(5_000));
      // the first count loads the script into Redis: a round trip more
      assert.equal((await counters.count('198.51.100.9', 'read', Date.now())).remaining, cfg.readMax - 1);
      const counted = counters.count('198.51.100.9', 'read', Date.now());
      // the event loop blocked well past the timeout: Redis answers meanwhile, unread, and the
      // timer is due in the same turn as the answer
      const blockedUntil = Date.now() + REDIS_TIMEOUT_MS * 3;
      while (Date.now() < blockedUntil);
      assert.equal((await counted).remaining, cfg.readMax - 2, 'counted in Redis');
      assert.equal(counters.mode, 'shared');
      assert.deepEqual(lines, []);
    } finally {
      await counters.close();
    }
  });
});
