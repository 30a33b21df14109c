import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { RELEASE_DIGEST_DIGITS, RELEASE_FILES, ReleaseSchema } from '../../contract/research.ts';
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
  return { app, build, releaseId: build.manifest.releaseId };
}

/** The bytes of /api/releases and of every file of every release it lists, by URL path. */
async function everyReleaseByte(app: FastifyInstance): Promise<Map<string, string>> {
  const list = await get(app, '/api/releases');
  const bytes = new Map([['/api/releases', list.raw.body]]);
  for (const release of list.body.data) {
    for (const url of [release.url, release.datapackage, release.citationCff, release.bibtex, ...release.files.map((f: { url: string }) => f.url)]) {
      bytes.set(url.slice(SITE.length), (await get(app, url.slice(SITE.length))).raw.body);
    }
  }
  return bytes;
}

let distDir: string;
let first: Awaited<ReturnType<typeof appFor>>;
let rebuilt: Awaited<ReturnType<typeof appFor>>;
let second: Awaited<ReturnType<typeof appFor>>;
/** The release directories and every release byte after the first build, and after it was built again. */
let releases: Record<'built' | 'rebuilt', { dirs: string[]; bytes: Map<string, string> }>;
const releasesServed = async (app: FastifyInstance) => ({ dirs: readdirSync(path.join(distDir, 'releases')), bytes: await everyReleaseByte(app) });

before(async () => {
  distDir = tempDir();
  const t = randomTables(120, 3);
  const build = (night: string) => runBuild({ dataDir: writeSnapshot(t), distDir, progress: quietProgress, rejectLimit: 1, now: () => new Date(night) });
  await build('2026-01-10T01:00:00Z');
  first = await appFor(distDir);
  const built = await releasesServed(first.app);
  // the next night: the same data, built again
  await build('2026-01-11T01:00:00Z');
  rebuilt = await appFor(distDir);
  releases = { built, rebuilt: await releasesServed(rebuilt.app) };
  // the night after: new prices
  t.price_observations.push(...t.spaces.slice(0, 40).map((s) => observation(s.space_id, 'flex_desk', '999', 'month', {
    offer_id: `${s.space_id}-late`, currency: s.city_id === '2643743' ? 'GBP' : s.city_id === '3625549' ? 'VES' : 'EUR',
    observed_at: '2026-01-15T08:00:00Z',
  })));
  await build('2026-01-16T01:00:00Z');
  second = await appFor(distDir);
});
after(async () => { for (const app of apps) await app.close(); });

describe('a rebuild of the same data', () => {
  it('is a new build with the same release: no new directory, /api/releases and every release byte unchanged', async () => {
    assert.notEqual(rebuilt.build.id, first.build.id, 'a new build');
    assert.equal(rebuilt.releaseId, first.releaseId, 'the same release');
    assert.deepEqual(releases.rebuilt.dirs, releases.built.dirs);
    assert.deepEqual(releases.rebuilt.bytes, releases.built.bytes);
  });

  it('cites the release it shares with the earlier build, which the live datapackage pins', async () => {
    const index = await get(rebuilt.app, '/api/price-index');
    assert.match(index.body.meta.citation.text, new RegExp(`, release ${first.releaseId}$`));
    const live = (await get(rebuilt.app, '/api/price-report.datapackage.json')).body;
    assert.equal(live.version, first.releaseId);
    assert.equal(live.resources[0].path, `${SITE}/api/releases/${first.releaseId}/price-report.csv`);
    const page = await rebuilt.app.inject({ url: '/en/price-index' });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`/api/releases/${first.releaseId}/citation.bib`), 'the page links the shared release');
  });
});

describe('a release id', () => {
  it('is the data date and the start of the sha256 of its files\' sha256sum lines, in name order', async () => {
    const dir = path.join(distDir, 'releases', first.releaseId);
    const lines = [...RELEASE_FILES].sort().map((f) => `${sha256(readFileSync(path.join(dir, f))).slice('sha256:'.length)}  ${f}\n`).join('');
    const asOf = (await get(first.app, '/api/price-index')).body.data.asOf as string;
    assert.equal(first.releaseId, `${asOf.slice(0, 10)}-${sha256(Buffer.from(lines)).slice('sha256:'.length, 'sha256:'.length + RELEASE_DIGEST_DIGITS)}`);
  });

  it('changes with the data', () => {
    assert.notEqual(second.releaseId, first.releaseId);
  });
});

describe('GET /api/releases', () => {
  it('lists every release, the newest data first, each file with its URL, size and sha256', async () => {
    const r = await get(second.app, '/api/releases');
    assert.equal(r.status, 200);
    envelope(ReleaseSchema.array(), MetaSchema).parse(r.body);
    assert.deepEqual(r.body.data.map((x: { buildId: string }) => x.buildId), [second.releaseId, first.releaseId]);
    const [newest] = r.body.data;
    assert.equal(newest.url, `${SITE}/api/releases/${second.releaseId}`);
    assert.equal(newest.created, (await get(second.app, '/api/price-index')).body.data.asOf, 'the data\'s time, not the build\'s');
    assert.equal(newest.sampleData, true);
    assert.deepEqual(newest.files.map((f: { name: string }) => f.name), [...RELEASE_FILES]);
  });

  it('serves a release file byte for byte after the next build, matching the hash in its datapackage', async () => {
    const pkg = (await get(first.app, `/api/releases/${first.releaseId}/datapackage.json`)).body;
    assert.equal(pkg.version, first.releaseId);
    assert.equal(pkg.id, `${SITE}/api/releases/${first.releaseId}`);
    for (const resource of pkg.resources) {
      const url = resource.path.slice(SITE.length);
      const before = await get(first.app, url);
      const after = await get(second.app, url);
      assert.equal(after.status, 200, url);
      // raw bytes: a Parquet file is not UTF-8
      const bytes = after.raw.rawPayload;
      assert.ok(bytes.equals(before.raw.rawPayload), `${url}: the same bytes after the next build`);
      assert.equal(sha256(bytes), resource.hash, `${url}: hash`);
      assert.equal(bytes.length, resource.bytes, `${url}: bytes`);
    }
    const report = await get(second.app, `/api/releases/${first.releaseId}/price-report.csv`);
    assert.equal(report.headers['content-disposition'], 'attachment; filename="price-report.csv"');
    assert.notEqual(report.raw.body, (await get(second.app, '/api/price-report')).raw.body, 'the live report moved on');
    // the live datapackage points at the current build's release
    const live = (await get(second.app, '/api/price-report.datapackage.json')).body;
    assert.equal(live.resources[0].path, `${SITE}/api/releases/${second.releaseId}/price-report.csv`);
  });

  it('offers CITATION.cff and BibTeX naming the release and its data date', async () => {
    const id = first.releaseId;
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

  it('answers 404 for an unknown release or file, 400 for a malformed release id', async () => {
    assert.equal((await get(second.app, '/api/releases/2020-01-01-0123456789ab/price-report.csv')).status, 404);
    assert.equal((await get(second.app, '/api/releases/20200101T000000000Z-1/price-report.csv')).status, 404);
    assert.equal((await get(second.app, `/api/releases/${first.releaseId}/manifest.json`)).status, 404);
    assert.equal((await get(second.app, `/api/releases/${first.releaseId}/..%2Fmanifest.json`)).status, 404);
    assert.equal((await get(second.app, '/api/releases/latest')).status, 400);
    assert.equal((await get(second.app, '/api/releases/2020-01-01-0123456789AB')).status, 400);
  });

  it('names the data date and the release in the citation of the price index', async () => {
    const r = await get(second.app, '/api/price-index?locale=es');
    const asOf = r.body.data.asOf.slice(0, 10);
    assert.equal(r.body.meta.citation.text,
      `Fuente: Desk Atlas, Índice de precios de coworking, ${SITE}/es/price-index, CC BY 4.0, datos a ${asOf}, versión ${second.releaseId}`);
  });

  it('keeps serving a release named by the build that made it, before releases were named by their content', async () => {
    const dist = tempDir();
    cpSync(distDir, dist, { recursive: true, verbatimSymlinks: true });
    const legacyId = '20251230T010000000Z-4242';
    const legacyDir = path.join(dist, 'releases', legacyId);
    cpSync(path.join(dist, 'releases', first.releaseId), legacyDir, { recursive: true });
    const pkgFile = path.join(legacyDir, 'datapackage.json');
    writeFileSync(pkgFile, readFileSync(pkgFile, 'utf8').replaceAll(first.releaseId, legacyId)
      .replace(/"created":"[^"]+"/, '"created":"2025-12-30T01:00:00.000Z"'));
    const { app } = await appFor(dist);
    const list = (await get(app, '/api/releases')).body.data.map((r: { buildId: string }) => r.buildId);
    assert.ok(list.includes(legacyId), `listed: ${list.join(', ')}`);
    assert.equal(list[0], second.releaseId, 'the newest data first');
    const report = await get(app, `/api/releases/${legacyId}/price-report.csv`);
    assert.equal(report.status, 200);
    assert.equal((await get(app, `/api/releases/${legacyId}/CITATION.cff`)).status, 200);
  });
});
