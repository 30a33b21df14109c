import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { MetaSchema, envelope } from '../../contract/common.ts';
import { defineRoute, registerRoute } from '../../api/http/route.ts';
import { get, testApp } from '../support/app.ts';

const events: string[] = [];

/** Routes that note when they are handled and when their response is sent; one whose body cannot be written. */
const probes: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', (request, _reply, payload, done) => { events.push(`send ${request.url}`); done(null, payload); });
  for (const name of ['a', 'b']) {
    registerRoute(app, defineRoute({
      operationId: `probe_${name}`, method: 'GET', url: `/v1/test/${name}`, summary: name,
      response: envelope(z.unknown(), MetaSchema), statuses: [200], cache: 'no-store', rateLimit: 'read',
      handler: ({ request }) => { events.push(`handle ${request.url}`); return { data: name }; },
    }));
  }
  registerRoute(app, defineRoute({
    operationId: 'probe_unwritable', method: 'GET', url: '/v1/test/unwritable', summary: 'a body that fails when it is serialized',
    response: envelope(z.unknown(), MetaSchema), statuses: [200, 500], cache: 'no-store', rateLimit: 'read',
    handler: () => ({ data: { toJSON() { throw new Error('cannot be written'); } } }),
  }));
};

let app: FastifyInstance;
let port: number;
before(async () => {
  app = await testApp({ plugins: [probes] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
after(() => app.close());

/** Sends raw HTTP/1.1 in one write and reads until `responses` status lines arrived. */
function exchange(raw: string, responses: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if ((text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === responses && text.endsWith('}')) { socket.end(); resolve(text); }
    });
    socket.on('error', reject);
  });
}

describe('responses are written at the end of the event loop turn', () => {
  it('answers two requests read in one turn after handling both, in order', async () => {
    events.length = 0;
    const request = (name: string) => `GET /v1/test/${name} HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    const text = await exchange(request('a') + request('b'), 2);
    assert.deepEqual(events, ['handle /v1/test/a', 'handle /v1/test/b', 'send /v1/test/a', 'send /v1/test/b']);
    assert.ok(text.indexOf('"data":"a"') < text.indexOf('"data":"b"'), text);
  });

  it('answers 500 for a response that fails as it is written, and keeps sending the others', async () => {
    const [failed, other] = await Promise.all([get(app, '/v1/test/unwritable'), get(app, '/v1/test/a')]);
    assert.equal(failed.status, 500);
    assert.equal(failed.body.code, 'INTERNAL_ERROR');
    assert.equal(other.status, 200);
    assert.equal(other.body.data, 'a');
  });
});
