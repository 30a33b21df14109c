import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LocalCounters } from '../../api/http/rate-limit.ts';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { get, testApp } from '../support/app.ts';

/** A route of the lead rate-limit class, declared as the enquiry routes are. */
const leadsLike: FastifyPluginAsync = async (app) => {
  registerRoute(app, defineRoute({
    operationId: 'probeLead', method: 'POST', url: '/v1/test/lead', summary: 'lead-like', response: z.unknown(),
    statuses: [200, 429], cache: 'no-store', rateLimit: 'lead',
    // as the lead routes do for an enquiry they create
    handler: async ({ request, reply }) => { await request.server.admitEnquiry(request, reply); return { data: { ok: true } }; },
  }));
};

const rl = (h: Record<string, unknown>) => [h['ratelimit-limit'], h['ratelimit-remaining'], h['ratelimit-reset']].map(String);

describe('rate limits', () => {
  it('allows 120 reads a minute per IP; the 121st gets 429 with Retry-After', async () => {
    let now = Date.UTC(2026, 0, 1);
    const app = await testApp({ env: { RATE_LIMIT_READS: '120' }, clock: () => now });
    for (let i = 1; i <= 120; i++) {
      const r = await get(app, '/v1/config');
      assert.equal(r.status, 200, `request ${i}`);
      assert.deepEqual(rl(r.headers), ['120', String(120 - i), '60']);
    }
    now += 15_000;
    const r = await get(app, '/v1/config');
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'RATE_LIMITED');
    assert.equal(r.headers['retry-after'], '45');
    assert.deepEqual(rl(r.headers), ['120', '0', '45']);
    assert.match(String(r.headers['content-type']), /problem\+json/);
    // another client is not affected
    const other = await app.inject({ url: '/v1/config', remoteAddress: '10.0.0.2' });
    assert.equal(other.statusCode, 200);
    // health is exempt and still reports the headers
    const health = await get(app, '/v1/health');
    assert.equal(health.status, 200);
    assert.equal(health.headers['ratelimit-remaining'], '0');
    // a new window
    now += 45_000;
    assert.equal((await get(app, '/v1/config')).status, 200);
    await app.close();
  });

  it('does not count health', async () => {
    const app = await testApp({ env: { RATE_LIMIT_READS: '120' } });
    for (let i = 0; i < 130; i++) assert.equal((await get(app, '/v1/health')).status, 200);
    const r = await get(app, '/v1/config');
    assert.equal(r.headers['ratelimit-remaining'], '119');
    await app.close();
  });

  it('sends the headers on 404s, 400s, 5xx-free errors and OPTIONS (preflights are not counted)', async () => {
    const app = await testApp({ env: { RATE_LIMIT_READS: '120', CORS_ORIGINS: 'https://deskatlas.test' } });
    const notFound = await get(app, '/v1/nothing-here');
    assert.equal(notFound.status, 404);
    assert.deepEqual(rl(notFound.headers), ['120', '119', '60']);
    const invalid = await get(app, '/v1/properties?locale=xx');
    assert.deepEqual(rl(invalid.headers), ['120', '118', '60']);
    const preflight = await app.inject({ method: 'OPTIONS', url: '/v1/properties', headers: { origin: 'https://deskatlas.test', 'access-control-request-method': 'GET' } });
    assert.equal(preflight.statusCode, 204);
    assert.deepEqual(rl(preflight.headers), ['120', '118', '60']);
    assert.deepEqual(rl((await get(app, '/v1/config')).headers), ['120', '117', '60']);
    await app.close();
  });

  it('answers a 429 with the CORS headers of an allowed origin, so the browser can read Retry-After', async () => {
    const app = await testApp({ env: { RATE_LIMIT_READS: '1', CORS_ORIGINS: 'https://deskatlas.test' } });
    const origin = { origin: 'https://deskatlas.test' };
    assert.equal((await get(app, '/v1/config', origin)).status, 200);
    const refused = await get(app, '/v1/config', origin);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['access-control-allow-origin'], 'https://deskatlas.test');
    assert.match(String(refused.headers['access-control-expose-headers']), /Retry-After/);
    const preflight = await app.inject({ method: 'OPTIONS', url: '/v1/config', headers: { ...origin, 'access-control-request-method': 'GET' } });
    assert.equal(preflight.statusCode, 204, 'a preflight is not refused');
    assert.equal((await get(app, '/v1/config', { origin: 'https://elsewhere.example' })).headers['access-control-allow-origin'], undefined);
    await app.close();
  });

  it('keys on X-Forwarded-For only with TRUST_PROXY', async () => {
    for (const trust of ['0', '1']) {
      const app = await testApp({ env: { RATE_LIMIT_READS: '2', TRUST_PROXY: trust } });
      const hit = (ip: string) => app.inject({ url: '/v1/config', headers: { 'x-forwarded-for': ip } });
      await hit('203.0.113.1');
      await hit('203.0.113.1');
      const third = await hit('203.0.113.2');
      assert.equal(third.statusCode, trust === '1' ? 200 : 429, `TRUST_PROXY=${trust}`);
      await app.close();
    }
  });

  it('adds the lead bucket (10 per 10 minutes) to routes that opt in, reporting the tighter one', async () => {
    let now = Date.UTC(2026, 0, 1);
    const app = await testApp({ env: { RATE_LIMIT_READS: '120' }, clock: () => now, plugins: [leadsLike] });
    for (let i = 1; i <= 10; i++) {
      const r = await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} });
      assert.equal(r.statusCode, 200);
      assert.deepEqual(rl(r.headers), ['10', String(10 - i), '600']);
    }
    const eleventh = await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} });
    assert.equal(eleventh.statusCode, 429);
    assert.equal(eleventh.headers['retry-after'], '600');
    // reads are still allowed: 11 counted of 120
    const read = await get(app, '/v1/config');
    assert.equal(read.status, 200);
    assert.equal(read.headers['ratelimit-remaining'], '108');
    now += 61_000;
    assert.equal((await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} })).statusCode, 429, 'the lead window is 10 minutes');
    now += 540_000;
    assert.equal((await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} })).statusCode, 200);
    await app.close();
  });

  it('does not use up an enquiry on a request the read limit refuses', async () => {
    let now = Date.UTC(2026, 0, 1);
    const app = await testApp({ env: { RATE_LIMIT_READS: '12' }, clock: () => now, plugins: [leadsLike] });
    for (let i = 0; i < 12; i++) assert.equal((await get(app, '/v1/config')).status, 200);
    const refused = await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} });
    assert.equal(refused.statusCode, 429);
    now += 60_000;
    const next = await app.inject({ method: 'POST', url: '/v1/test/lead', payload: {} });
    assert.equal(next.statusCode, 200);
    assert.deepEqual(rl(next.headers), ['10', '9', '600']);
    await app.close();
  });

  it('remembers at most maxClients clients, forgetting the least recently seen first', () => {
    const now = Date.UTC(2026, 0, 1);
    const counters = new LocalCounters({ readMax: 5, readWindowMs: 60_000, leadMax: 1, leadWindowMs: 60_000, maxClients: 3 });
    for (const ip of ['a', 'b', 'c']) counters.count(ip, 'read', now);
    counters.count('a', 'read', now); // a is seen again: b is now the least recently seen
    counters.count('d', 'read', now);
    assert.equal(counters.count('a', 'peek', now).remaining, 3);
    assert.equal(counters.count('c', 'peek', now).remaining, 4);
    assert.equal(counters.count('d', 'peek', now).remaining, 4);
    assert.equal(counters.count('b', 'peek', now).remaining, 5, 'b was forgotten');
  });

  it('starts a fresh window when one ends, however the clock moves between requests', () => {
    const start = Date.UTC(2026, 0, 1);
    const counters = new LocalCounters({ readMax: 2, readWindowMs: 60_000, leadMax: 1, leadWindowMs: 60_000, maxClients: 10 });
    counters.count('a', 'read', start);
    counters.count('a', 'read', start + 1_000);
    const over = counters.count('a', 'read', start + 59_999);
    assert.deepEqual([over.exceeded, over.remaining, over.resetSeconds], [true, 0, 1]);
    assert.deepEqual(counters.count('a', 'peek', start + 60_000), { limit: 2, remaining: 2, resetSeconds: 60, exceeded: false }, 'the window is over: nothing counted');
    const fresh = counters.count('a', 'read', start + 60_000);
    assert.deepEqual([fresh.exceeded, fresh.remaining, fresh.resetSeconds], [false, 1, 60]);
    assert.equal(counters.count('a', 'read', start + 119_999).remaining, 0, 'the new window lasts its full length');
    assert.equal(counters.count('a', 'read', start + 120_000).remaining, 1);
  });
});
