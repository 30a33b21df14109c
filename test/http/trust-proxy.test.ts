import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { testApp } from '../support/app.ts';

const leadsLike: FastifyPluginAsync = async (app) => {
  registerRoute(app, defineRoute({
    operationId: 'probeLead', method: 'POST', url: '/v1/test/lead', summary: 'lead-like', response: z.unknown(),
    statuses: [200, 429], cache: 'no-store', rateLimit: 'lead',
    // as the lead routes do for an enquiry they create
    handler: async ({ request, reply }) => { await request.server.admitEnquiry(request, reply); return { data: { ok: true } }; },
  }));
};

// Distinct loopback addresses (all of 127/8 is local on Linux): the client, the proxy's outgoing side.
const CLIENT = '127.0.0.5';
const PROXY_OUT = '127.0.0.2';

/** An HTTP proxy that appends the address it saw to X-Forwarded-For, as Caddy and nginx do. */
async function appendingProxy(upstream: number): Promise<Server> {
  const proxy = createServer((req, res) => {
    const seen = req.socket.remoteAddress!.replace(/^::ffff:/, '');
    const prior = req.headers['x-forwarded-for'];
    const forwarded = prior ? `${prior}, ${seen}` : seen;
    const out = request({
      host: '127.0.0.1', port: upstream, localAddress: PROXY_OUT, method: req.method, path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwarded },
    }, (up) => {
      res.writeHead(up.statusCode!, up.headers);
      up.pipe(res);
    });
    req.pipe(out);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return proxy;
}

function send(port: number, method: string, path: string, headers: Record<string, string>, from = CLIENT): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, localAddress: from, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('TRUST_PROXY over a real appending proxy', () => {
  for (const trust of [PROXY_OUT, '127.0.0.0/30', '1']) {
    it(`TRUST_PROXY=${trust}: X-Forwarded-For "10.9.9.N, <real>" gets no fresh bucket, for reads and for enquiries`, async () => {
      const app = await testApp({ env: { TRUST_PROXY: trust, RATE_LIMIT_READS: '5', RATE_LIMIT_LEADS: '2' }, plugins: [leadsLike] });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const proxy = await appendingProxy((app.server.address() as AddressInfo).port);
      const port = (proxy.address() as AddressInfo).port;
      const statuses: number[] = [];
      for (let n = 1; n <= 3; n++) statuses.push((await send(port, 'POST', '/v1/test/lead', { 'x-forwarded-for': `10.9.9.${n}`, 'content-type': 'application/json' })).status);
      assert.deepEqual(statuses, [200, 200, 429], 'the enquiry limit holds whatever the client writes');
      const reads: number[] = [];
      for (let n = 4; n <= 7; n++) reads.push((await send(port, 'GET', '/v1/config', { 'x-forwarded-for': `10.9.9.${n}` })).status);
      // 3 enquiries and 2 reads use up the 5 reads
      assert.deepEqual(reads, [200, 200, 429, 429]);
      // the client as the proxy saw it is the key: writing its own address changes nothing,
      // and another client behind the same proxy has its own bucket
      assert.equal((await send(port, 'GET', '/v1/config', { 'x-forwarded-for': CLIENT })).status, 429);
      assert.equal((await send(port, 'GET', '/v1/config', {}, '127.0.0.6')).status, 200);
      proxy.close();
      await app.close();
    });
  }

  it('TRUST_PROXY=3 behind one real proxy: X-Forwarded-For "10.9.9.N" gets no fresh bucket (the chain is shorter than declared)', async () => {
    const app = await testApp({ env: { TRUST_PROXY: '3', RATE_LIMIT_READS: '2' } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const proxy = await appendingProxy((app.server.address() as AddressInfo).port);
    const port = (proxy.address() as AddressInfo).port;
    try {
      const statuses: number[] = [];
      for (let n = 1; n <= 4; n++) statuses.push((await send(port, 'GET', '/v1/config', { 'x-forwarded-for': `10.9.9.${n}` })).status);
      assert.deepEqual(statuses, [200, 200, 429, 429]);
    } finally {
      proxy.close();
      await app.close();
    }
  });

  it('without TRUST_PROXY the proxy is the client, and X-Forwarded-For is ignored', async () => {
    const app = await testApp({ env: { RATE_LIMIT_READS: '2' } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const statuses = [];
    for (let n = 1; n <= 3; n++) statuses.push((await send(port, 'GET', '/v1/config', { 'x-forwarded-for': `10.9.9.${n}` })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
    await app.close();
  });
});
