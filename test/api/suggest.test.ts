import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { envelope, PaginatedMetaSchema } from '../../contract/common.ts';
import { SuggestionSchema } from '../../contract/market.ts';
import { get, SITE } from '../support/app.ts';
import { marketFixture, type MarketFixture } from './market-support.ts';

const SuggestResponse = envelope(z.array(SuggestionSchema), PaginatedMetaSchema);

let f: MarketFixture;
before(async () => { f = await marketFixture(); });
after(() => f.app.close());

async function suggest(query: string) {
  const r = await get(f.app, `/v1/search/suggest?${query}`);
  assert.equal(r.status, 200, `${query}: ${JSON.stringify(r.body)}`);
  SuggestResponse.parse(r.body);
  return r;
}

describe('GET /v1/search/suggest', () => {
  it('finds München from munich, münchen, munc and muenchen', async () => {
    for (const q of ['munich', 'münchen', 'munc', 'muenchen', 'Muenchen', 'MÚNICH']) {
      const r = await suggest(`locale=de&q=${encodeURIComponent(q)}`);
      const first = r.body.data[0];
      assert.deepEqual([first.kind, first.slug, first.label], ['city', 'munich', 'München'], q);
      assert.equal(first.sublabel, 'Deutschland');
      assert.ok(first.center && first.propertyCount === 6, JSON.stringify(first));
    }
    const es = await suggest('locale=es&q=munich');
    assert.equal(es.body.data[0].label, 'Múnich');
  });

  it('finds Barcelona from barcelna (one typo)', async () => {
    const r = await suggest('locale=en&q=barcelna');
    assert.deepEqual([r.body.data[0].kind, r.body.data[0].slug], ['city', 'barcelona']);
  });

  it('ranks exact prefixes above typo matches and larger places first', async () => {
    const r = await suggest('locale=en&q=ber');
    const slugs = r.body.data.map((s: { slug: string }) => s.slug);
    assert.equal(slugs[0], 'berlin', 'the city before its zones and spaces');
    const weights = r.body.data.filter((s: { kind: string }) => s.kind !== 'property').map((s: { propertyCount: number }) => s.propertyCount);
    assert.deepEqual(weights, [...weights].sort((a, b) => b - a));
    // every query word must start a word of the same name
    const desk = await suggest('locale=en&q=desk+gar&limit=3');
    assert.ok(desk.body.data.every((s: { label: string }) => /Desk Garden/.test(s.label)));
  });

  it('caps at limit (default 8, at most 20) and always carries page-1 pagination and a citation', async () => {
    const def = await suggest('locale=en&q=desk');
    assert.equal(def.body.data.length, 8);
    assert.deepEqual(def.body.meta.pagination, { page: 1, pageSize: 8, total: f.tables.spaces.length + 1, pageCount: Math.ceil((f.tables.spaces.length + 1) / 8) });
    const three = await suggest('locale=en&q=desk&limit=3');
    assert.deepEqual(three.body.data, def.body.data.slice(0, 3));
    const none = await suggest('locale=en&q=zzzzzz');
    assert.deepEqual(none.body.data, []);
    assert.deepEqual(none.body.meta.pagination, { page: 1, pageSize: 8, total: 0, pageCount: 0 });
    assert.equal(none.body.meta.citation.url, `${SITE}/en`);
    assert.equal(def.headers['cache-control'], 'public, max-age=300, stale-while-revalidate=3600');
  });

  it('validates q (1..100 characters), limit (1..20) and locale', async () => {
    for (const [query, path] of [
      ['locale=en', 'q'], ['locale=en&q=', 'q'], [`locale=en&q=${'a'.repeat(101)}`, 'q'],
      ['locale=en&q=ber&limit=0', 'limit'], ['locale=en&q=ber&limit=21', 'limit'], ['q=ber', 'locale'], ['locale=it&q=ber', 'locale'],
    ]) {
      const r = await get(f.app, `/v1/search/suggest?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.ok(r.body.errors.some((e: { path: string }) => e.path === path), `${query}: ${JSON.stringify(r.body.errors)}`);
    }
    assert.equal((await get(f.app, `/v1/search/suggest?locale=en&q=${'a'.repeat(100)}`)).status, 200);
  });
});
