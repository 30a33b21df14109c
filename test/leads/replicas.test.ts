/**
 * Two lead server processes on loopback sharing one real PostgreSQL (and one SMTP server), as
 * two replicas behind a load balancer. LEADS_REPLICA_ENQUIRIES sets how many enquiries the kill -9
 * test sends (default 300; the figure for 1,000 is in docs/benchmarks.md).
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ProblemSchema } from '../../contract/problem.ts';
import { PostgresLeadStore } from '../../api/leads/postgres-store.ts';
import { TestPostgres } from '../support/postgres.ts';
import {
  TestSmtp, TestVerifier, inquiryBody, leadsConfig, startLeadServer, storeEnv, tempDir, waitFor, type LeadServer,
} from './support.ts';

const ENQUIRIES = Number(process.env.LEADS_REPLICA_ENQUIRIES ?? 300);
// Leases a killed replica leaves behind end after 1 s here (defaults: 20 s for a key, 2 min for an outbox row).
const SHORT_LEASES = { LEAD_CLAIM_LEASE_MS: '1000', RELAY_LEASE_MS: '1000' };

let postgres: TestPostgres;
before(async () => { postgres = await new TestPostgres().start(); });
after(() => postgres?.destroy());

interface Replicas { servers: LeadServer[]; store: PostgresLeadStore; smtp: TestSmtp; teamEmail: string }

/** A fresh database, an SMTP server and two replicas on it. */
async function replicas(t: TestContext, env: Record<string, string> = {}, smtp?: TestSmtp): Promise<Replicas> {
  const dir = tempDir(t);
  const config = leadsConfig(dir, { databaseUrl: await postgres.createDatabase() });
  if (!smtp) {
    smtp = await new TestSmtp().start();
    t.after(() => smtp!.stop());
  }
  const replicaEnv = { ...storeEnv(config), SMTP_URL: smtp.url, LEADS_TEAM_EMAIL: config.teamEmail, ...env };
  // one after the other would hide a migration race: both start at once
  const servers = await Promise.all([startLeadServer(replicaEnv), startLeadServer(replicaEnv)]);
  t.after(() => Promise.all(servers.map((s) => s.kill())));
  const store = new PostgresLeadStore(config.databaseUrl!, { poolSize: 2 });
  t.after(() => store.close());
  return { servers, store, smtp, teamEmail: config.teamEmail };
}

async function postInquiry(server: LeadServer, body: object, key?: string) {
  const res = await fetch(`${server.url}/v1/leads/inquiry`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  });
  return { status: res.status, replayed: res.headers.get('idempotency-replayed') === 'true', text: await res.text() };
}

describe('two replicas sharing PostgreSQL', () => {
  it('50 concurrent enquiries with one key spread over both replicas create exactly 1 enquiry and 49 replays', async (t) => {
    const verifier = await new TestVerifier().start();
    t.after(() => verifier.stop());
    const { servers, store, smtp } = await replicas(t, { CHALLENGE_SECRET: verifier.secret, CHALLENGE_SITE_KEY: 'test-site-key', CHALLENGE_VERIFY_URL: verifier.url });
    const body = inquiryBody({ challengeToken: verifier.issue() });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => postInquiry(servers[i % 2], body, 'one-key')));
    assert.deepEqual([...new Set(results.map((r) => r.status))], [200], results.map((r) => r.text).join('\n'));
    assert.equal(new Set(results.map((r) => r.text)).size, 1, 'every response carries the same receipt');
    assert.equal(results.filter((r) => r.replayed).length, 49);
    assert.equal(verifier.calls, 1, 'the single-use token was verified once, by one replica');
    assert.equal(await store.countLeads(), 1);
    await waitFor(async () => (await store.outboxCounts()).sent === 3, 10_000, 'the three emails');
    assert.equal(smtp.messages.length, 3);
  });

  it(`kill -9 of one replica during ${ENQUIRIES} retried enquiries: 0 lost, 0 duplicated`, async (t) => {
    const { servers, store, smtp, teamEmail } = await replicas(t, SHORT_LEASES);
    const doomed = servers[0];
    const domain = teamEmail.split('@')[1];
    const acked = new Map<number, Set<string>>(); // enquiry → the references its 200s carried
    const bodyOf = (i: number) => inquiryBody({ message: `enquiry ${i} of the replica kill test` });
    let frozen = false;
    let killed = false;
    let retries = 0;
    let sentToFrozen = 0;
    // The client of a load balancer: first try on one replica, retries (same key) on either.
    const enquire = async (i: number) => {
      for (let attempt = 0; ; attempt++) {
        const target = killed ? 1 : (i + attempt) % 2;
        if (frozen && target === 0) sentToFrozen++;
        try {
          const res = await postInquiry(servers[target], bodyOf(i), `kill-${i}`);
          if (res.status === 200) {
            acked.set(i, (acked.get(i) ?? new Set()).add(JSON.parse(res.text).data.reference));
            return;
          }
          assert.ok(res.status >= 500, `only server errors are retried: ${res.status} ${res.text}`);
        } catch (err) {
          if (err instanceof assert.AssertionError) throw err;
        }
        retries++;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    let next = 0;
    const workers = Promise.all(Array.from({ length: 16 }, async () => {
      while (next < ENQUIRIES) await enquire(next++);
    }));
    // kill -9 while enquiries are on their way to that replica: frozen first (SIGSTOP), so the
    // enquiries sent to it from then on cannot be answered before the kill however slow the
    // machine is (one sent just before may already have its answer on the wire)
    await waitFor(() => acked.size >= ENQUIRIES / 3, 120_000, 'a third acknowledged');
    doomed.child.kill('SIGSTOP');
    frozen = true;
    await waitFor(() => sentToFrozen >= 3, 120_000, 'several enquiries sent to the frozen replica');
    killed = true;
    await doomed.kill();
    await workers;
    t.diagnostic(`${retries} retries after the kill`);
    assert.ok(retries >= 3, 'the kill cut the enquiries sent to the frozen replica off');

    for (const [i, refs] of acked) assert.equal(refs.size, 1, `enquiry ${i} always got the same reference`);
    const leads = await store.listLeads(ENQUIRIES + 10);
    assert.equal(leads.length, ENQUIRIES, 'one lead per enquiry: nothing lost, nothing doubled');
    const byMessage = new Map(leads.map((l) => [String(l.payload.message), l.reference]));
    for (let i = 0; i < ENQUIRIES; i++) assert.equal(byMessage.get(bodyOf(i).message), [...acked.get(i)!][0], `enquiry ${i}`);

    // the survivor's relay also sends what the killed one had claimed, once its lease is over
    await waitFor(async () => (await store.outboxCounts()).sent === ENQUIRIES * 3, 60_000, 'every email delivered');
    for (const l of leads) assert.ok(smtp.byMessageId(`<${l.reference}.team@${domain}>`).length >= 1, l.reference);
    assert.equal(new Set(smtp.messages.map((m) => m.headers['message-id'])).size, ENQUIRIES * 3);
  });

  it('the relays of both replicas deliver every outbox message exactly once, across an SMTP outage', async (t) => {
    const smtp = await new TestSmtp().start();
    await smtp.stop(); // the port is known, nobody listens
    t.after(() => smtp.stop());
    const { servers, store } = await replicas(t, {}, smtp);
    const count = 40;
    for (let i = 0; i < count; i++) {
      assert.equal((await postInquiry(servers[i % 2], inquiryBody({ message: `outage ${i}` }))).status, 200);
    }
    await waitFor(async () => (await store.listOutbox('pending', 1000)).every((r) => r.attempts >= 1), 20_000, 'a failed attempt for every message');
    assert.deepEqual(await store.outboxCounts(), { pending: count * 3, sent: 0, dead: 0 });

    await smtp.start();
    await waitFor(async () => (await store.outboxCounts()).sent === count * 3, 30_000, 'the backlog delivered');
    // a second send would come from the other relay working on the same rows: give it time to show
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(smtp.messages.length, count * 3, 'each message sent once');
    assert.equal(new Set(smtp.messages.map((m) => m.headers['message-id'])).size, count * 3);
    t.diagnostic(`sent by replica 1: ${servers[0].relaySent}, by replica 2: ${servers[1].relaySent}`);
    assert.equal(servers[0].relaySent + servers[1].relaySent, count * 3);
    assert.ok(servers.every((s) => s.relaySent > 0), 'both relays took part');
  });

  it('PostgreSQL stopped and restarted under load: enquiries get 502 UPSTREAM_UNAVAILABLE, reads are unaffected, service resumes', async (t) => {
    const { servers, store } = await replicas(t, SHORT_LEASES);
    const statuses = new Map<number, number>();
    const problems = new Set<string>();
    const keys = new Map<string, number>(); // key → its last status
    let reads = 0;
    let readFailures = 0;
    let phase: 'before' | 'outage' | 'after' = 'before';
    const outage = { enquiries: 0, unavailable: 0 };
    let stop = false;
    let n = 0;

    const enquiries = async (worker: number) => {
      while (!stop) {
        const key = `load-${worker}-${n++}`;
        const res = await postInquiry(servers[n % 2], inquiryBody({ message: key }), key);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        keys.set(key, res.status);
        if (res.status !== 200) problems.add(`${res.status} ${ProblemSchema.parse(JSON.parse(res.text)).code}`);
        if (phase === 'outage') {
          outage.enquiries++;
          if (res.status === 502) outage.unavailable++;
        }
      }
    };
    const readers = async (worker: number) => {
      while (!stop) {
        const path = worker % 2 ? '/v1/health' : '/v1/properties?locale=en';
        const res = await fetch(`${servers[(reads + worker) % 2].url}${path}`);
        await res.arrayBuffer();
        reads++;
        if (res.status !== 200) readFailures++;
      }
    };
    const load = Promise.all([...Array.from({ length: 4 }, (_, w) => enquiries(w)), ...Array.from({ length: 2 }, (_, w) => readers(w))]);

    await waitFor(() => (statuses.get(200) ?? 0) >= 20, 20_000, 'enquiries before the outage');
    phase = 'outage';
    await postgres.stop();
    await waitFor(() => outage.unavailable >= 20, 20_000, '502s during the outage');
    const readsSoFar = reads;
    await waitFor(() => reads >= readsSoFar + 4, 20_000, 'reads while the database is down');
    await postgres.start();
    phase = 'after';
    const okBefore = statuses.get(200) ?? 0;
    await waitFor(() => (statuses.get(200) ?? 0) >= okBefore + 20, 30_000, 'enquiries succeed again, without a restart');
    stop = true;
    await load;

    t.diagnostic(`statuses ${JSON.stringify(Object.fromEntries(statuses))}, outage ${JSON.stringify(outage)}, reads ${reads}`);
    assert.deepEqual([...problems].sort(), ['502 UPSTREAM_UNAVAILABLE'], 'the only failure is 502 UPSTREAM_UNAVAILABLE: never a 500');
    assert.equal(readFailures, 0, 'every read answered 200');

    // The client retries what failed, under the same keys: each enquiry exists exactly once, whole.
    for (const [key, status] of keys) {
      if (status === 200) continue;
      const i = Number(key.split('-')[2]);
      assert.equal((await postInquiry(servers[i % 2], inquiryBody({ message: key }), key)).status, 200, key);
    }
    const leads = await store.listLeads(keys.size + 10);
    assert.deepEqual(leads.map((l) => String(l.payload.message)).sort(), [...keys.keys()].sort(), 'one lead per key');
    const { rows } = await store.pool.query(`
      SELECT count(*) AS n FROM leads l
      WHERE (SELECT count(*) FROM outbox o WHERE o.lead_id = l.lead_id) <> 3
         OR NOT EXISTS (SELECT 1 FROM idempotency i WHERE i.lead_id = l.lead_id)`);
    assert.equal(Number(rows[0].n), 0, 'no half-written enquiry: each has its three emails and its idempotency record');
  });
});
