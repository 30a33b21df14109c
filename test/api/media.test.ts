import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { get, SITE, testApp } from '../support/app.ts';

let app: FastifyInstance;
before(async () => { app = await testApp(); });
after(() => app.close());

describe('GET /media/*', () => {
  it('answers every image URL of a listing with an SVG placeholder of its size naming the space', async () => {
    const list = await get(app, '/v1/properties?locale=en&pageSize=5&sortBy=date-desc');
    const cards = list.body.data.filter((c: { images: unknown[] }) => c.images.length > 0);
    assert.ok(cards.length > 0);
    for (const card of cards) {
      for (const img of card.images) {
        assert.ok(img.url.startsWith(`${SITE}/media/`), img.url);
        const r = await get(app, img.url.slice(SITE.length));
        assert.equal(r.status, 200);
        assert.equal(r.headers['content-type'], 'image/svg+xml; charset=utf-8');
        assert.match(r.body, new RegExp(`^<svg [^>]*width="${img.width}" height="${img.height}"`));
        const escaped = card.title.replace(/&/g, '&#38;').replace(/</g, '&#60;').replace(/>/g, '&#62;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
        assert.ok(r.body.includes(`>${escaped}</text>`), `placeholder names ${card.title}`);
      }
    }
  });

  it('answers an unknown media path with a 404 problem', async () => {
    const r = await get(app, '/media/spaces/no-such-space/0.svg');
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(r.body.code, 'NOT_FOUND');
  });
});
