/**
 * A hung PostgreSQL (postmaster and backends frozen with SIGSTOP: connections stay open, nothing
 * answers), as opposed to a stopped one (store.test.ts, replicas.test.ts): enquiries must be
 * refused at once instead of waiting on it, never acknowledged without being stored, and accepted
 * again by themselves once it answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ProblemSchema } from '../../contract/problem.ts';
import { STORE_TIMEOUT_MS } from '../../api/leads/postgres-store.ts';
import type { LeadsService } from '../../api/leads/service.ts';
import { TestPostgres } from '../support/postgres.ts';
import { buildTestApp, inquiryBody, openService, waitFor } from './support.ts';

/** Longer than any answer the breaker allows, far shorter than the pool's own timeouts (3 s, 15 s). */
const GIVE_UP_MS = 2_000;

interface Answer { ms: number; status: number; code?: string; retryAfter: string | null; reference?: string }

async function timed(url: string, init?: RequestInit): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(GIVE_UP_MS) });
    const body = await res.json() as { data?: { reference?: string } };
    return {
      ms: performance.now() - started, status: res.status, retryAfter: res.headers.get('retry-after'),
      code: res.status >= 400 ? ProblemSchema.parse(body).code : undefined, reference: body.data?.reference,
    };
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
    return { ms: performance.now() - started, status: 0, retryAfter: null };
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('enquiries when PostgreSQL hangs (SIGSTOP)', () => {
  let postgres: TestPostgres;
  let service: LeadsService;
  let app: FastifyInstance;
  let base: string;
  /** the breaker's lines (the service also logs each refused enquiry) */
  const lines: string[] = [];
  const breakerLine = (_: object, msg: string) => { if (msg.startsWith('lead store: ')) lines.push(msg); };
  let dir: string;

  before(async () => {
    postgres = await new TestPostgres().start();
    const databaseUrl = await postgres.createDatabase();
    dir = mkdtempSync(join(tmpdir(), 'da-leads-'));
    service = await openService(dir, { databaseUrl }, { log: { info: breakerLine, warn: breakerLine, error: breakerLine } });
    app = await buildTestApp(service);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await app?.close();
    await service?.close();
    await postgres?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  const enquire = (keyed = true) => timed(`${base}/v1/leads/inquiry`, {
    method: 'POST', body: JSON.stringify(inquiryBody({ message: `hang test ${++n}` })),
    headers: { 'content-type': 'application/json', ...(keyed ? { 'idempotency-key': `hang-${n}` } : {}) },
  });
  const read = () => timed(`${base}/v1/properties?locale=en`);

  it('enquiries are refused at once with 502 and Retry-After while it hangs, reads are unaffected, and enquiries are accepted again after', async () => {
    const acknowledged: string[] = [];
    const ack = (a: Answer) => { if (a.status === 200) acknowledged.push(a.reference!); return a; };
    const beforeStop = [];
    for (let i = 0; i < 6; i++) beforeStop.push(ack(await enquire()));
    assert.deepEqual(beforeStop.map((a) => a.status), Array(6).fill(200));
    lines.length = 0;

    const during: Answer[] = [];
    const reads: Answer[] = [];
    const frozen = postgres.processes();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    try {
      // the first ones are in flight when it stops answering: several at once, then one at a time,
      // with and without a key
      during.push(...await Promise.all([enquire(), enquire(), enquire(), enquire()]));
      for (let i = 0; i < 12; i++) {
        during.push(await enquire(i % 2 === 0));
        reads.push(await read());
      }
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
    }
    const ms = (as: Answer[]) => as.map((a) => Math.round(a.ms));
    console.log(`enquiries, ms: before the stop ${ms(beforeStop).join(' ')}; while PostgreSQL hangs ${ms(during).join(' ')}; reads meanwhile ${ms(reads).join(' ')}`);
    for (const a of during) {
      assert.equal(a.status, 502, `refused, not left waiting (${Math.round(a.ms)} ms)`);
      assert.equal(a.code, 'UPSTREAM_UNAVAILABLE');
      assert.ok(Number(a.retryAfter) >= 1, 'with Retry-After');
    }
    const slowest = Math.max(...during.map((a) => a.ms));
    assert.ok(slowest < STORE_TIMEOUT_MS + 200, `no enquiry waits beyond the breaker's ${STORE_TIMEOUT_MS} ms: slowest ${Math.round(slowest)} ms`);
    assert.ok(median(ms(during)) < 100, `median ${median(ms(during))} ms while it hangs`);
    assert.ok(reads.every((a) => a.status === 200), 'every read served');
    assert.deepEqual(lines, ['lead store: PostgreSQL unavailable, enquiries refused until it answers'], 'one line when it opens');

    // answered again: the breaker's probe closes it, and enquiries are stored and acknowledged
    await waitFor(async () => ack(await enquire()).status === 200, 10_000, 'an enquiry accepted again');
    assert.deepEqual(lines, [
      'lead store: PostgreSQL unavailable, enquiries refused until it answers',
      'lead store: PostgreSQL answers again, enquiries accepted',
    ], 'one line when it closes');
    for (let i = 0; i < 3; i++) assert.equal(ack(await enquire(i % 2 === 0)).status, 200);

    // exactly the acknowledged enquiries are stored: none of the refused ones
    const stored = (await service.store.listLeads(100)).map((l) => l.reference);
    assert.deepEqual(stored.sort(), acknowledged.sort());
  });
});
