import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { HealthPayloadSchema } from '../../contract/catalog.ts';
import { ProblemSchema } from '../../contract/problem.ts';
import { get, testApp } from '../support/app.ts';
import { publish, removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { closeFetchPool, startServer } from '../support/server-process.ts';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
  await closeFetchPool();
});

describe('readiness (GET /readyz) beside liveness (GET /v1/health)', () => {
  it('is ready with the build it serves, not counted, and leaves the health payload as it was', async () => {
    const app = await testApp({ env: { RATE_LIMIT_READS: '5' } });
    const ready = await get(app, '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.headers['cache-control'], 'no-store');
    assert.deepEqual(ready.body.data, { status: 'ready', buildId: ready.body.data.buildId, rateLimits: 'local' });
    assert.equal(typeof ready.body.data.buildId, 'string');
    assert.equal(ready.headers['ratelimit-remaining'], '5', 'not counted');
    const health = await get(app, '/v1/health');
    assert.deepEqual(HealthPayloadSchema.parse(health.body.data), { status: 'ok', sha: health.body.data.sha, buildId: ready.body.data.buildId }, 'the health payload as it was: liveness, code and data build');
    app.lifecycle.draining = true;
    const draining = await get(app, '/readyz');
    assert.equal(draining.status, 503);
    assert.match(String(draining.headers['content-type']), /application\/problem\+json/);
    assert.equal(ProblemSchema.parse(draining.body).status, 503);
    assert.equal((await get(app, '/v1/health')).status, 200, 'still alive while draining');
    await app.close();
  });

  it('the compiled server: ready once it listens; on SIGTERM not ready while it still serves for SHUTDOWN_DRAIN_MS, then exits 0', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'desk-atlas-ready-'));
    dirs.push(dist);
    const a = await writeBuildFixture(join(dist, 'builds', 'a'), { buildId: 'a' });
    await publish(dist, a.dir);
    const { child, base } = await startServer(dist, { SHUTDOWN_DRAIN_MS: '3000' });
    // it listens only once the build is loaded, so the first answer is already "ready"
    const first = await fetch(`${base}/readyz`);
    assert.equal(first.status, 200);
    assert.deepEqual(((await first.json()) as { data: unknown }).data, { status: 'ready', buildId: 'a', rateLimits: 'local' });

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    let readiness = 200;
    while (readiness === 200) {
      const r = await fetch(`${base}/readyz`);
      readiness = r.status;
      await r.arrayBuffer();
    }
    assert.equal(readiness, 503);
    // draining: not ready, yet requests are still served, on new connections too
    const list = await fetch(`${base}/v1/properties?locale=en&pageSize=1`);
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('connection'), 'close', 'keep-alive clients are told to reconnect elsewhere');
    assert.equal(((await list.json()) as { meta: { pagination: { total: number } } }).meta.pagination.total, 26);
    assert.equal((await fetch(`${base}/v1/health`)).status, 200);
    const [code] = await exited;
    assert.equal(code, 0);
    await assert.rejects(fetch(`${base}/readyz`), 'closed after the drain');
  });
});
