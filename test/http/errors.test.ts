import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LOCALES, MetaSchema, envelope } from '../../contract/common.ts';
import { ProblemSchema } from '../../contract/problem.ts';
import { ApiError } from '../../api/http/problems.ts';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { get, testApp, SITE } from '../support/app.ts';

/** Routes that exercise the error paths: a body, a crash, a WWW-Authenticate header, an upstream failure. */
const probes: FastifyPluginAsync = async (app) => {
  registerRoute(app, defineRoute({
    operationId: 'probeEcho', method: 'POST', url: '/v1/test/echo', summary: 'echo',
    body: z.strictObject({ name: z.string().min(1).max(5), nested: z.object({ n: z.int() }).optional() }),
    response: envelope(z.unknown(), MetaSchema), statuses: [200, 400], cache: 'no-store', rateLimit: 'read',
    handler: ({ body }) => ({ data: body }),
  }));
  app.get('/v1/test/crash', async () => { throw new Error('secret internals at /srv/app.ts:42'); });
  app.get('/v1/test/auth', async (_req, reply) => { reply.header('WWW-Authenticate', 'Bearer'); throw new ApiError('NOT_FOUND'); });
  app.get('/v1/test/upstream', async () => { throw new ApiError('UPSTREAM_UNAVAILABLE', 'verifier down'); });
};

let app: FastifyInstance;
before(async () => { app = await testApp({ plugins: [probes] }); });
after(() => app.close());

function assertProblem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const p = ProblemSchema.parse(JSON.parse(res.body));
  assert.equal(p.status, status);
  assert.equal(p.code, code);
  assert.equal(p.type, `${SITE}/problems/${code.toLowerCase().replace(/_/g, '-')}`);
  assert.ok(p.traceId);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['www-authenticate'], undefined);
  return p;
}

describe('error handling', () => {
  it('refuses a route with a Fastify schema when it is registered: requests are validated by defineRoute', async () => {
    const other = await testApp({
      plugins: [async (a) => { a.get('/v1/test/schema', { schema: { querystring: { type: 'object' } } }, async () => ({})); }],
    }).catch((err: Error) => err);
    assert.ok(other instanceof Error, 'the app was built');
    assert.match(other.message, /a route declared a Fastify schema: declare it in defineRoute/);
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    assertProblem(await app.inject({ url: '/v2/properties' }), 404, 'NOT_FOUND');
    assertProblem(await app.inject({ method: 'DELETE', url: '/v1/properties' }), 404, 'NOT_FOUND');
  });

  it('turns a crash into 500 INTERNAL_ERROR without internals, traceId = request id', async () => {
    const res = await app.inject({ url: '/v1/test/crash' });
    const p = assertProblem(res, 500, 'INTERNAL_ERROR');
    assert.ok(!res.body.includes('secret') && !res.body.includes('/srv/'));
    assert.match(p.traceId!, /^[0-9a-f-]{36}$/);
  });

  it('passes 502 UPSTREAM_UNAVAILABLE through', async () => {
    assertProblem(await app.inject({ url: '/v1/test/upstream' }), 502, 'UPSTREAM_UNAVAILABLE');
  });

  it('says when to retry on every 502 and 503: Retry-After on an upstream failure and on a draining replica\'s readiness', async () => {
    const upstream = await app.inject({ url: '/v1/test/upstream' });
    assertProblem(upstream, 502, 'UPSTREAM_UNAVAILABLE');
    assert.equal(upstream.headers['retry-after'], '1');
    const draining = await testApp();
    try {
      draining.lifecycle.draining = true;
      const res = await draining.inject({ url: '/readyz' });
      assertProblem(res, 503, 'UPSTREAM_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '1');
      assert.ok(res.headers['ratelimit-limit']);
    } finally {
      await draining.close();
    }
  });

  it('answers a request that reaches a closing server with 503 problem+json, Retry-After and RateLimit-*, not Fastify\'s plain JSON', async () => {
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => { started = resolve; });
    let finish!: () => void;
    const slow: FastifyPluginAsync = async (a) => {
      a.get('/v1/test/slow', async () => {
        started();
        await new Promise<void>((resolve) => { finish = resolve; });
        return { ok: true };
      });
    };
    const closing = await testApp({ plugins: [slow] });
    await closing.listen({ port: 0, host: '127.0.0.1' });
    const socket = connect((closing.server.address() as AddressInfo).port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => { received += chunk.toString('latin1'); });
    socket.write('GET /v1/test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await inFlight;
    const closed = closing.close();
    // a keep-alive connection still open while the server closes: its next request
    socket.write('GET /v1/config HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    finish();
    await once(socket, 'close');
    await closed;
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    const [head, body] = second.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1.1 503 /, received);
    assert.match(head, /\r\ncontent-type: application\/problem\+json/i);
    assert.match(head, /\r\nretry-after: 1\r\n/i);
    assert.match(head, /\r\nratelimit-remaining: \d+\r\n/i);
    assert.match(head, /\r\nconnection: close\r\n/i);
    const p = ProblemSchema.parse(JSON.parse(body));
    assert.equal(p.status, 503);
    assert.equal(p.code, 'UPSTREAM_UNAVAILABLE');
  });

  it('never sends WWW-Authenticate', async () => {
    const res = await app.inject({ url: '/v1/test/auth' });
    assertProblem(res, 404, 'NOT_FOUND');
  });

  it('validates bodies with dotted paths', async () => {
    const ok = await app.inject({ method: 'POST', url: '/v1/test/echo', payload: { name: 'abc' } });
    assert.equal(ok.statusCode, 200);
    const p = assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', payload: { name: 'abcdef', nested: { n: 1.5 } } }), 400, 'VALIDATION_FAILED');
    assert.deepEqual(p.errors!.map((e) => e.path).sort(), ['name', 'nested.n']);
  });

  it('says a missing required parameter or member is required, not "expected string, received undefined"', async () => {
    const errors = async (url: string) => assertProblem((await get(app, url)).raw, 400, 'VALIDATION_FAILED').errors;
    assert.deepEqual(await errors('/v1/properties'), [{ path: 'locale', message: `locale is required: one of ${LOCALES.join(', ')}` }]);
    assert.deepEqual(await errors('/v1/rankings?locale=en'), [{ path: 'city', message: 'city is required' }]);
    assert.deepEqual(await errors('/v1/search/suggest?locale=de'), [{ path: 'q', message: 'q is required' }]);
    const body = assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', payload: { nested: {} } }), 400, 'VALIDATION_FAILED');
    assert.deepEqual(body.errors, [{ path: 'name', message: 'name is required' }, { path: 'nested.n', message: 'nested.n is required' }]);
    // a value that is there but wrong keeps the message of what is wrong with it
    const wrong = assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', payload: { name: 3 } }), 400, 'VALIDATION_FAILED');
    assert.match(wrong.errors![0].message, /expected string, received number/);
    assert.match((await errors('/v1/properties?locale=fr'))![0].message, /expected one of/);
  });

  it('hints at the slug form when a name is given where a slug goes (an unknown slug stays an empty page)', async () => {
    const errors = async (url: string) => assertProblem((await get(app, url)).raw, 400, 'VALIDATION_FAILED').errors!;
    assert.deepEqual(await errors('/v1/properties?locale=en&city=Berlin'), [{ path: 'city', message: 'Not a slug: use the slug of the city "Berlin", "berlin"' }]);
    // a name the build does not know gets the slug form of the value and where the slugs are listed
    const [city] = await errors('/v1/market/rates?locale=en&city=Bad%20Homburg');
    assert.equal(city.path, 'city');
    assert.match(city.message, /use the slug .*e\.g\. "bad-homburg".*GET \/v1\/geo\/bootstrap/);
    assert.match((await errors('/v1/places/zone/Atlantis%20Bay?locale=en'))[0].message, /e\.g\. "atlantis-bay"/);
    // a name the build knows, in any locale, gets its own slug
    assert.deepEqual(await errors('/v1/properties?locale=en&country=Deutschland&city=M%C3%BCnchen&zone=Mitte'), [
      { path: 'country', message: 'Not a slug: use the slug of the country "Deutschland", "germany"' },
      { path: 'city', message: 'Not a slug: use the slug of the city "München", "munich"' },
      { path: 'zone', message: 'Not a slug: use the slug of the zone "Mitte", "berlin-mitte"' },
    ]);
    assert.match((await errors('/v1/rankings?locale=es&city=Valencia'))[0].message, /"valencia" or "valencia-ve"$/);
    assert.match((await errors('/v1/places/city/M%C3%BAnich?locale=es'))[0].message, /"munich"$/);
    const unknown = await get(app, '/v1/properties?locale=en&city=atlantis');
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.meta.pagination.total, 0);
  });

  it('names every bad parameter at once: path and query, and the rules between parameters when another one fails', async () => {
    const paths = async (url: string) => assertProblem((await get(app, url)).raw, 400, 'VALIDATION_FAILED').errors!.map((e) => e.path).sort();
    assert.deepEqual(await paths('/v1/properties?locale=xx&sortBy=distance'), ['locale', 'sortBy']);
    assert.deepEqual(await paths('/v1/properties?locale=en&lat=1&bbox=1,4,3,2'), ['bbox', 'lng']);
    assert.deepEqual(await paths('/v1/properties/map?locale=en&lat=abc&radiusMeters=0'), ['lat', 'lng', 'radiusMeters']);
    assert.deepEqual(await paths('/v1/facets?radiusMeters=5'), ['locale', 'radiusMeters']);
    assert.deepEqual(await paths('/v1/places/region/BAD'), ['kind', 'locale', 'slug']);
    assert.deepEqual(await paths('/v1/properties/BAD?locale=xx'), ['locale', 'slug']);
  });

  it('answers malformed JSON, a wrong content type and a body over 64 KiB with 400 VALIDATION_FAILED', async () => {
    assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload: '{"name": ' }), 400, 'VALIDATION_FAILED');
    assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'text/xml' }, payload: '<a/>' }), 400, 'VALIDATION_FAILED');
    assertProblem(await app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload: '' }), 400, 'VALIDATION_FAILED');
    const pad = (size: number) => JSON.stringify({ name: 'abc', pad: 'x'.repeat(size) });
    const exact = pad(65536 - pad(0).length);
    assert.equal(Buffer.byteLength(exact), 65536);
    const atLimit = await app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload: exact });
    assertProblem(atLimit, 400, 'VALIDATION_FAILED'); // strict body: `pad` is unknown, but the size was accepted
    assert.ok(JSON.parse(atLimit.body).errors.some((e: { path: string }) => e.path !== '(body)'));
    const over = await app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload: pad(65537 - pad(0).length) });
    const p = assertProblem(over, 400, 'VALIDATION_FAILED');
    assert.match(p.detail!, /64 KiB/);
  });

  it('answers an outdated X-Client-Build with 400 CLIENT_TOO_OLD, except on config and health', async () => {
    assertProblem(await app.inject({ url: '/v1/properties?locale=en', headers: { 'x-client-build': '99' } }), 400, 'CLIENT_TOO_OLD');
    assert.equal((await app.inject({ url: '/v1/properties?locale=en', headers: { 'x-client-build': '100' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/config', headers: { 'x-client-build': '1' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/health', headers: { 'x-client-build': '1' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/v1/properties?locale=en', headers: { 'x-client-build': 'web' } })).statusCode, 200);
  });

  it('answers a URL that is not valid UTF-8 with 400 problem+json and rate-limit headers; a 150-character slug is just unknown', async () => {
    for (const url of ['/v1/properties/%ED%A0%80?locale=en', '/v1/properties/%E0%A4%A?locale=en']) {
      const res = await app.inject({ url });
      assertProblem(res, 400, 'VALIDATION_FAILED');
      assert.ok(res.headers['ratelimit-remaining'], url);
    }
    const long = await app.inject({ url: `/v1/properties/${'a'.repeat(150)}?locale=en` });
    assertProblem(long, 404, 'NOT_FOUND');
    const tooLong = await app.inject({ url: `/v1/properties/${'a'.repeat(201)}?locale=en` });
    assertProblem(tooLong, 400, 'VALIDATION_FAILED');
  });

  it('keeps problem objects closed and status equal to the HTTP status on every error path', async () => {
    for (const url of ['/v1/properties', '/v1/facets?locale=xx', '/v1/properties/zzz?locale=en', '/nothing', '/v1/geo/bootstrap?locale=']) {
      const res = await get(app, url);
      assert.ok(res.status >= 400);
      ProblemSchema.parse(res.body);
      assert.equal(res.body.status, res.status);
    }
  });
});
