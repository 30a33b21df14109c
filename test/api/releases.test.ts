import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadBuild } from '../../api/build/load.ts';
import { staticCatalog } from '../../api/build/store.ts';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { RELEASE_FILES, ReleaseSchema } from '../../contract/research.ts';
import { runBuild } from '../../pipeline/run.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { observation, quietProgress, randomTables, tempDir, writeSnapshot } from '../support/pipeline-fixtures.ts';

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const apps: FastifyInstance[] = [];

/** An app serving the build `current` points to in `distDir`, as the server resolves it. */
async function appFor(distDir: string) {
  const build = await loadBuild(realpathSync(path.join(distDir, 'current')), { siteUrl: SITE });
  const app = await testApp({ catalog: staticCatalog(build) });
  apps.push(app);
  return { app, build };
}

let distDir: string;
let first: Awaited<ReturnType<typeof appFor>>;
let second: Awaited<ReturnType<typeof appFor>>;

before(async () => {
  distDir = tempDir();
  const t = randomTables(120, 3);
  await runBuild({ dataDir: writeSnapshot(t), distDir, progress: quietProgress, rejectLimit: 1 });
  first = await appFor(distDir);
  // the next night: new prices
  t.price_observations.push(...t.spaces.slice(0, 40).map((s) => observation(s.space_id, 'flex_desk', '999', 'month', {
    offer_id: `${s.space_id}-late`, currency: s.city_id === '2643743' ? 'GBP' : s.city_id === '3625549' ? 'VES' : 'EUR',
    observed_at: '2026-01-15T08:00:00Z',
  })));
  await runBuild({ dataDir: writeSnapshot(t), distDir, progress: quietProgress, rejectLimit: 1 });
  second = await appFor(distDir);
});
after(async () => { for (const app of apps) await app.close(); });

describe('GET /api/releases', () => {
  it('lists every published build, newest first, each file with its URL, size and sha256', async () => {
    const r = await get(second.app, '/api/releases');
    assert.equal(r.status, 200);
    envelope(ReleaseSchema.array(), MetaSchema).parse(r.body);
    assert.deepEqual(r.body.data.map((x: { buildId: string }) => x.buildId), [second.build.id, first.build.id]);
    const [newest] = r.body.data;
    assert.equal(newest.url, `${SITE}/api/releases/${second.build.id}`);
    assert.equal(newest.sampleData, true);
    assert.deepEqual(newest.files.map((f: { name: string }) => f.name), [...RELEASE_FILES]);
  });

  it('serves a release file byte for byte after the next build, matching the hash in its datapackage', async () => {
    assert.notEqual(first.build.id, second.build.id);
    const pkg = (await get(first.app, `/api/releases/${first.build.id}/datapackage.json`)).body;
    assert.equal(pkg.version, first.build.id);
    assert.equal(pkg.id, `${SITE}/api/releases/${first.build.id}`);
    for (const resource of pkg.resources) {
      const url = resource.path.slice(SITE.length);
      const before = await get(first.app, url);
      const after = await get(second.app, url);
      assert.equal(after.status, 200, url);
      const bytes = Buffer.from(after.raw.body, 'utf8');
      assert.ok(bytes.equals(Buffer.from(before.raw.body, 'utf8')), `${url}: the same bytes after the next build`);
      assert.equal(sha256(bytes), resource.hash, `${url}: hash`);
      assert.equal(bytes.length, resource.bytes, `${url}: bytes`);
    }
    const report = await get(second.app, `/api/releases/${first.build.id}/price-report.csv`);
    assert.equal(report.headers['content-disposition'], 'attachment; filename="price-report.csv"');
    assert.notEqual(report.raw.body, (await get(second.app, '/api/price-report')).raw.body, 'the live report moved on');
    // the live datapackage points at the current build's release
    const live = (await get(second.app, '/api/price-report.datapackage.json')).body;
    assert.equal(live.resources[0].path, `${SITE}/api/releases/${second.build.id}/price-report.csv`);
  });

  it('offers CITATION.cff and BibTeX naming the release and its data date', async () => {
    const id = first.build.id;
    const asOf = (await get(first.app, '/api/price-index')).body.data.asOf.slice(0, 10);
    const cff = await get(second.app, `/api/releases/${id}/CITATION.cff`);
    assert.equal(cff.status, 200);
    assert.match(cff.raw.body, /^cff-version: 1\.2\.0$/m);
    assert.match(cff.raw.body, new RegExp(`^version: "${id}"$`, 'm'));
    assert.match(cff.raw.body, new RegExp(`release ${id} \\(data as of ${asOf}\\)`));
    const bib = await get(second.app, `/api/releases/${id}/citation.bib`);
    assert.match(bib.raw.body, new RegExp(`^@misc\\{deskatlas_${id.replace(/[^A-Za-z0-9]/g, '_')},`));
    assert.match(bib.raw.body, new RegExp(`url = \\{${SITE}/api/releases/${id}\\}`));
    const one = await get(second.app, `/api/releases/${id}?locale=de`);
    assert.equal(one.status, 200);
    assert.match(one.body.meta.citation.text, new RegExp(`, CC BY 4\\.0, Datenstand ${asOf}, Release ${id}$`));
  });

  it('answers 404 for an unknown release or file, 400 for a malformed build id', async () => {
    assert.equal((await get(second.app, '/api/releases/20200101T000000000Z-1/price-report.csv')).status, 404);
    assert.equal((await get(second.app, `/api/releases/${first.build.id}/manifest.json`)).status, 404);
    assert.equal((await get(second.app, `/api/releases/${first.build.id}/..%2Fmanifest.json`)).status, 404);
    assert.equal((await get(second.app, '/api/releases/latest')).status, 400);
  });

  it('names the data date and the release in the citation of the price index', async () => {
    const r = await get(second.app, '/api/price-index?locale=es');
    const asOf = r.body.data.asOf.slice(0, 10);
    assert.equal(r.body.meta.citation.text,
      `Fuente: Desk Atlas, Índice de precios de coworking, ${SITE}/es/price-index, CC BY 4.0, datos a ${asOf}, versión ${second.build.id}`);
  });
});
