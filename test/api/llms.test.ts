import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { get, sharedBuild, testApp } from '../support/app.ts';

describe('/llms.txt', () => {
  let app: FastifyInstance;
  before(async () => { app = await testApp(); });
  after(async () => { await app.close(); });

  it('says what the build holds, in Markdown, with its data date and release', async () => {
    const r = await get(app, '/llms.txt');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/markdown; charset=utf-8/);
    const text = r.raw.body;
    const { build } = await sharedBuild();
    const geo = (await get(app, '/v1/geo/bootstrap?locale=en')).body.data;
    assert.match(text, /^# Desk Atlas\n\n> /);
    assert.ok(text.includes(`${build.engine.n.toLocaleString('en')} spaces in ${geo.cities.length} cities of ${geo.countries.length} countries`), text);
    assert.ok(text.includes(`release ${build.manifest.releaseId}`));
    assert.ok(text.includes('https://api.deskatlas.test/mcp'));
    assert.match(text, /search_coworking_spaces/);
  });

  it('says every page has a Markdown twin, with an example that answers', async () => {
    const text = (await get(app, '/llms.txt')).raw.body;
    const example = /Markdown twin[^\n]*\]\((https:\/\/deskatlas\.test(\/[^)]+\.md))\)/.exec(text);
    assert.ok(example, text);
    const twin = await get(app, example[2]);
    assert.equal(twin.status, 200, example[1]);
    assert.equal(twin.headers['content-type'], 'text/markdown; charset=utf-8');
  });
});
