import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InquiryBodySchema } from '../../contract/leads.ts';
import { ProblemSchema } from '../../contract/problem.ts';
import { readMigrations } from '../../api/leads/migrations.ts';
import { PostgresLeadStore } from '../../api/leads/postgres-store.ts';
import { TestPostgres, sharedPostgres, stopSharedPostgres } from '../support/postgres.ts';
import { ROUTING, buildTestApp, inquiryBody, openService, tempDir } from './support.ts';

after(stopSharedPostgres);

describe('PostgreSQL lead store', () => {
  it('replicas starting together migrate once: every migration applied, under the advisory lock', async (t) => {
    const url = await (await sharedPostgres()).createDatabase();
    const stores = Array.from({ length: 4 }, () => new PostgresLeadStore(url, { poolSize: 2 }));
    t.after(() => Promise.all(stores.map((s) => s.close())));
    await Promise.all(stores.map((s) => s.migrate()));
    const versions = readMigrations('postgres').map((m) => m.version);
    for (const s of stores) assert.equal(await s.schemaVersion(), Math.max(...versions));
    const { rows } = await stores[0].pool.query('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.map((r) => r.version), versions);
  });

  it('unreachable at start-up: the service opens, enquiries get 502 UPSTREAM_UNAVAILABLE, then it migrates and serves by itself', async (t) => {
    const postgres = await new TestPostgres().start();
    t.after(() => postgres.destroy());
    const url = await postgres.createDatabase();
    await postgres.stop();

    const service = await openService(tempDir(t), { databaseUrl: url });
    const app = await buildTestApp(service);
    t.after(async () => { await app.close(); await service.close(); });
    const post = () => app.inject({ method: 'POST', url: '/v1/leads/inquiry', payload: inquiryBody(), headers: { 'idempotency-key': 'k' } });

    const down = await post();
    assert.equal(down.statusCode, 502, down.body);
    assert.equal(ProblemSchema.parse(down.json()).code, 'UPSTREAM_UNAVAILABLE');
    assert.equal((await app.inject({ method: 'GET', url: '/v1/properties?locale=en' })).statusCode, 200, 'reads do not need the store');

    await postgres.start();
    const up = await post();
    assert.equal(up.statusCode, 200, up.body);
    assert.equal(await service.store.countLeads(), 1);
    const replay = await service.submit({ endpoint: 'inquiry', body: InquiryBodySchema.parse(inquiryBody()), routing: ROUTING, idempotencyKey: 'k' });
    assert.equal(replay.replayed, true);
  });
});
