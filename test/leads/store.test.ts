import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { InquiryBodySchema } from '../../contract/leads.ts';
import { ProblemSchema } from '../../contract/problem.ts';
import { readMigrations } from '../../api/leads/migrations.ts';
import { PostgresLeadStore } from '../../api/leads/postgres-store.ts';
import { StoreUnavailableError } from '../../api/leads/store.ts';
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

  it('a server that shuts down as the connection becomes ready: the call fails with StoreUnavailableError, the process lives on', async (t) => {
    // A stand-in speaking just enough of the wire protocol to put "ready for query" and the
    // shutdown notice (FATAL 57P01) in one packet, the race a real server hits when stopped.
    const message = (type: string, body: Buffer) => {
      const head = Buffer.alloc(5);
      head.write(type, 0);
      head.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([head, body]);
    };
    const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`);
    const packet = Buffer.concat([
      message('R', Buffer.alloc(4)), // AuthenticationOk
      message('Z', Buffer.from('I')), // ReadyForQuery
      message('E', Buffer.concat([field('S', 'FATAL'), field('C', '57P01'),
        field('M', 'terminating connection due to administrator command'), Buffer.from('\0')])),
    ]);
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => socket.write(packet)); // the startup message
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => { for (const s of sockets) s.destroy(); server.close(); });
    const { port } = server.address() as AddressInfo;
    const store = new PostgresLeadStore(`postgres://atlas@127.0.0.1:${port}/atlas`, { poolSize: 1 });
    t.after(() => store.close());

    await assert.rejects(store.migrate(), StoreUnavailableError);
    await assert.rejects(store.migrate(), StoreUnavailableError, 'and again on a new connection');
  });
});
