/**
 * Lead throughput: enquiries per second and latency over loopback with synchronous=FULL, the
 * outbox relay spooling in the same process, one Idempotency-Key per request (the full write:
 * lead + outbox rows + idempotency record). Challenge off, lead rate limit raised.
 * Not a timed test: `npx tsx test/bench/leads.ts [seconds] [connections]`. Goal ≥ 200 req/s, p99 ≤ 50 ms.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadsService } from '../../api/leads/service.ts';
import { buildTestApp, inquiryBody } from '../leads/support.ts';

interface Result {
  requests: { average: number; total: number };
  latency: { average: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number; errors: number; timeouts: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'da-leads-bench-'));
const service = LeadsService.open({
  dbPath: join(dir, 'leads.db'), mailSpoolDir: join(dir, 'mail'), teamEmail: 'team@desk-atlas.test', nodeEnv: 'bench',
});
const app = await buildTestApp(service);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const body = JSON.stringify(inquiryBody({ desks: 4, moveInDate: '2026-09-01', duration: 'months' }));

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

const stored = service.store.countLeads();
await app.close();
await service.close();
rmSync(dir, { recursive: true, force: true });

const ok = result.requests.total - result.non2xx;
console.log(`leads benchmark: POST /v1/leads/inquiry, synchronous=FULL, ${connections} connections, ${seconds} s`);
console.log(`  throughput  ${result.requests.average.toFixed(0)} req/s (${ok} enquiries answered 200, ${stored} stored)`);
console.log(`  latency     avg ${result.latency.average.toFixed(1)} ms, p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
console.log(`  errors      non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
const pass = result.requests.average >= 200 && result.latency.p99 <= 50 && result.non2xx === 0;
console.log(`  goal (≥ 200 req/s, p99 ≤ 50 ms): ${pass ? 'met' : 'NOT met'}`);
