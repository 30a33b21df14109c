import assert from 'node:assert/strict';
import { xxh64 } from '@node-rs/xxhash';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { LOCALES } from '../../contract/common.ts';
import { testApp } from '../support/app.ts';

let app: FastifyInstance;
before(async () => { app = await testApp({ env: { CORS_ORIGINS: 'https://deskatlas.test,https://www.deskatlas.test' } }); });
after(() => app.close());

describe('CORS', () => {
  it('allows the configured origins', async () => {
    const r = await app.inject({ url: '/v1/config', headers: { origin: 'https://www.deskatlas.test' } });
    assert.equal(r.headers['access-control-allow-origin'], 'https://www.deskatlas.test');
    assert.match(String(r.headers['access-control-expose-headers']), /RateLimit-Remaining/);
    const pre = await app.inject({ method: 'OPTIONS', url: '/v1/properties', headers: { origin: 'https://deskatlas.test', 'access-control-request-method': 'GET' } });
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'https://deskatlas.test');
  });

  it('denies other origins', async () => {
    const r = await app.inject({ url: '/v1/config', headers: { origin: 'https://evil.example' } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const pre = await app.inject({ method: 'OPTIONS', url: '/v1/properties', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
  });

  it('defaults to the origin of SITE_URL', async () => {
    const def = await testApp();
    const r = await def.inject({ url: '/v1/config', headers: { origin: 'https://deskatlas.test' } });
    assert.equal(r.headers['access-control-allow-origin'], 'https://deskatlas.test');
    await def.close();
  });
});

describe('caching', () => {
  it('sends a strong ETag and answers If-None-Match with 304', async () => {
    const url = '/v1/properties?locale=en&sortBy=date-desc&pageSize=5';
    const first = await app.inject({ url });
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[^"]+"$/, 'strong: no W/ prefix');
    assert.equal(first.headers['cache-control'], 'public, max-age=300, stale-while-revalidate=3600');
    const again = await app.inject({ url });
    assert.equal(again.headers.etag, etag, 'same body, same tag');
    const notModified = await app.inject({ url, headers: { 'if-none-match': etag } });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.body, '');
    const changed = await app.inject({ url, headers: { 'if-none-match': '"other"' } });
    assert.equal(changed.statusCode, 200);
    // If-None-Match compares weakly (RFC 9110): a weak form of the tag, in a list, matches too
    const weak = await app.inject({ url, headers: { 'if-none-match': `"other", W/${etag}` } });
    assert.equal(weak.statusCode, 304);
    const other = await app.inject({ url: '/v1/properties?locale=de&sortBy=date-desc&pageSize=5' });
    assert.notEqual(other.headers.etag, etag);
  });

  it('tags the bytes sent: list, map and detail bodies written as bytes, in every locale', async () => {
    const tagOf = (bytes: Buffer) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64BE(xxh64(bytes));
      return `"${b.toString('base64url')}"`;
    };
    for (const locale of LOCALES) {
      for (const url of [`/v1/properties?locale=${locale}&seed=7`, `/v1/properties/map?locale=${locale}&pageSize=3`, `/v1/properties/tor-twelve?locale=${locale}`]) {
        const r = await app.inject({ url });
        assert.equal(r.statusCode, 200, url);
        assert.equal(r.headers.etag, tagOf(r.rawPayload), `${url}: the tag is the hash of the bytes sent`);
        assert.equal(Number(r.headers['content-length']), r.rawPayload.length, url);
        const { data } = JSON.parse(r.body);
        const first = Array.isArray(data) ? data[0] : data;
        assert.match(first.images?.[0]?.url ?? first.image.url, /^https:\/\/deskatlas\.test\/media\//, `${url}: site paths resolved`);
      }
    }
    const page1 = await app.inject({ url: '/v1/properties?locale=de&seed=7&pageSize=2' });
    const page2 = await app.inject({ url: '/v1/properties?locale=de&seed=7&pageSize=2&page=2' });
    assert.notEqual(page1.headers.etag, page2.headers.etag, 'another body, another tag');
    assert.equal((await app.inject({ url: '/v1/properties?locale=de&seed=7&pageSize=2&page=2', headers: { 'if-none-match': String(page2.headers.etag) } })).statusCode, 304);
  });

  it('uses the hints per endpoint and no-store on errors', async () => {
    const hint = async (url: string) => (await app.inject({ url })).headers['cache-control'];
    assert.equal(await hint('/v1/facets?locale=en'), 'public, max-age=600, stale-while-revalidate=3600');
    assert.equal(await hint('/v1/properties/map?locale=en'), 'public, max-age=300, stale-while-revalidate=3600');
    assert.equal(await hint('/v1/properties/tor-twelve?locale=en'), 'public, max-age=300, stale-while-revalidate=3600');
    assert.equal(await hint('/v1/properties/nope?locale=en'), 'no-store');
    assert.equal(await hint('/v1/health'), 'no-store');
  });
});

describe('compression', () => {
  it('compresses with gzip and brotli when asked', async () => {
    const url = '/v1/properties?locale=en&sortBy=date-desc&pageSize=20';
    const plain = await app.inject({ url });
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
    const br = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    assert.equal(plain.headers['content-encoding'], undefined);
    // one strong tag per representation; a 304 answers with the tag the client holds
    const tag = String(plain.headers.etag);
    assert.equal(gz.headers.etag, `${tag.slice(0, -1)}-gzip"`);
    assert.equal(br.headers.etag, `${tag.slice(0, -1)}-br"`);
    const revalidated = await app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) } });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.headers.etag, gz.headers.etag);
  });
});

describe('access log', () => {
  /** An app whose logger writes JSON lines into `lines`, at `level`. */
  const logged = async (level: string) => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
    return { app: await testApp({ logger }), lines };
  };

  it('writes a line per request at info: method, route, status and time', async () => {
    const { app: logging, lines } = await logged('info');
    try {
      await logging.inject({ url: '/v1/properties?locale=en&pageSize=1' });
      await logging.inject({ url: '/v1/nope' });
      const requests = lines.filter((l) => l.msg === 'request');
      assert.deepEqual(requests.map(({ method, route, status }) => ({ method, route, status })), [
        { method: 'GET', route: '/v1/properties', status: 200 },
        { method: 'GET', route: '(not found)', status: 404 },
      ]);
      assert.ok(requests.every((l) => typeof l.ms === 'number' && l.ms >= 0));
    } finally {
      await logging.close();
    }
  });

  it('writes none when info is off', async () => {
    const { app: quiet, lines } = await logged('warn');
    try {
      await quiet.inject({ url: '/v1/properties?locale=en&pageSize=1' });
      assert.deepEqual(lines.filter((l) => l.msg === 'request'), []);
    } finally {
      await quiet.close();
    }
  });
});
