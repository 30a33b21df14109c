import assert from 'node:assert/strict';
import { createConnection, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ProblemSchema } from '../../contract/problem.ts';
import { testApp } from '../support/app.ts';

interface RawResponse { status: number; headers: Record<string, string>; body: string }

/** Writes bytes on a fresh connection and reads the answer until the server closes it. */
function raw(port: number, chunks: string[], from = '127.0.0.1'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1', localAddress: from });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => { text += d; });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => { const i = l.indexOf(':'); return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()]; }));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.on('connect', () => { for (const c of chunks) socket.write(c); });
  });
}

async function listening(env: Record<string, string>): Promise<{ app: FastifyInstance; port: number }> {
  const app = await testApp({ env });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

function assertProblem(r: RawResponse, status: number, code: string) {
  assert.equal(r.status, status, r.body);
  assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(r.headers['cache-control'], 'no-store');
  const problem = ProblemSchema.parse(JSON.parse(r.body));
  assert.equal(problem.status, status);
  assert.equal(problem.code, code);
  assert.equal(Number(r.headers['content-length']), Buffer.byteLength(r.body));
  return problem;
}

const rateHeaders = (r: RawResponse) => [r.headers['ratelimit-limit'], r.headers['ratelimit-remaining'], r.headers['ratelimit-reset']];

describe('requests Node refuses before they reach the app (clientErrorHandler), over a raw socket', () => {
  it('headers over 16 KiB: 431 problem+json with the rate-limit headers, counted as a read', async () => {
    const { app, port } = await listening({ RATE_LIMIT_READS: '10' });
    const r = await raw(port, [`GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    const problem = assertProblem(r, 431, 'VALIDATION_FAILED');
    assert.match(problem.detail ?? '', /larger than 16 KiB/);
    assert.ok(problem.traceId);
    const [limit, remaining, reset] = rateHeaders(r);
    assert.deepEqual([limit, remaining], ['10', '9']);
    assert.ok(Number(reset) >= 1);
    // the app's own count goes on from there
    assert.equal((await app.inject({ url: '/v1/config' })).headers['ratelimit-remaining'], '8');
    // a request line over 16 KiB
    assertProblem(await raw(port, [`GET /v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]), 431, 'VALIDATION_FAILED');
    await app.close();
  });

  it('malformed: 400 problem+json with the rate-limit headers, counted when the request line parses, and 429 over the limit', async () => {
    const { app, port } = await listening({ RATE_LIMIT_READS: '2' });
    const garbage = await raw(port, ['GARBAGE\r\n\r\n']);
    assertProblem(garbage, 400, 'VALIDATION_FAILED');
    assert.deepEqual(rateHeaders(garbage).slice(0, 2), ['2', '2'], 'no request line: the socket address\'s bucket, not counted');
    const badHeader = (n: number) => raw(port, [`GET /v1/config HTTP/1.1\r\nHost: x\r\nbad header ${n}\r\n\r\n`]);
    const first = await badHeader(1);
    assertProblem(first, 400, 'VALIDATION_FAILED');
    assert.deepEqual(rateHeaders(first).slice(0, 2), ['2', '1']);
    assert.deepEqual(rateHeaders(await badHeader(2)).slice(0, 2), ['2', '0']);
    const over = await badHeader(3);
    assertProblem(over, 429, 'RATE_LIMITED');
    assert.ok(Number(over.headers['retry-after']) >= 1);
    assert.equal((await app.inject({ url: '/v1/config' })).statusCode, 429, 'the malformed requests counted');
    await app.close();
  });

  it('a client too slow to send its request: 408 problem+json with the rate-limit headers, connection closed', async () => {
    const { app, port } = await listening({ REQUEST_TIMEOUT_MS: '300' });
    const r = await raw(port, ['GET /v1/config HTTP/1.1\r\nHost: x\r\n']);
    const problem = assertProblem(r, 408, 'VALIDATION_FAILED');
    assert.match(problem.detail ?? '', /not received in time/);
    assert.equal(r.headers.connection, 'close');
    const [limit, remaining, reset] = rateHeaders(r);
    assert.deepEqual([limit, remaining], ['1000000', '1000000'], 'the socket address\'s bucket, not counted');
    assert.ok(Number(reset) >= 1);
    await app.close();
  });

  it('counts a malformed request through a trusted proxy against the client, not the proxy or a written address', async () => {
    const { app, port } = await listening({ RATE_LIMIT_READS: '3', TRUST_PROXY: '127.0.0.2' });
    const viaProxy = (n: number) => raw(port, [`GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.9.9.${n}, 127.0.0.5\r\nbad header\r\n\r\n`], '127.0.0.2');
    assert.deepEqual(rateHeaders(await viaProxy(1)).slice(0, 2), ['3', '2']);
    assert.deepEqual(rateHeaders(await viaProxy(2)).slice(0, 2), ['3', '1']);
    // a well-formed request of the same client through the proxy shares the bucket
    const valid = await raw(port, ['GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 127.0.0.5\r\nConnection: close\r\n\r\n'], '127.0.0.2');
    assert.deepEqual([valid.status, valid.headers['ratelimit-remaining']], [200, '0']);
    assert.equal((await viaProxy(3)).status, 429, 'the real client is 127.0.0.5 every time');
    await app.close();
  });
});
