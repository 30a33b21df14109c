import { it } from 'node:test';
import assert from 'node:assert/strict';
import { TestSmtp, forEachStore, inquiryBody, inspectStore, leadsConfig, startLeadServer, storeConfig, storeEnv, tempDir, waitFor } from './support.ts';

const TOTAL = 60;

forEachStore((kind) => {
  it('kill -9 of the server during a stream of enquiries keeps every acknowledged enquiry exactly once and delivers it after restart', async (t) => {
    const dir = tempDir(t);
    const smtp = await new TestSmtp().start();
    t.after(() => smtp.stop());
    const config = leadsConfig(dir, await storeConfig(kind));
    // With PostgreSQL, keys and outbox rows the killed process had claimed are free again when
    // their leases end: shortened here so that the test need not wait.
    const env = {
      ...storeEnv(config), SMTP_URL: smtp.url, LEADS_TEAM_EMAIL: config.teamEmail, LEAD_CLAIM_LEASE_MS: '1000', RELAY_LEASE_MS: '1000',
    };

    const acked = new Map<number, string[]>(); // request number → references of its 200s
    const bodyOf = (i: number) => inquiryBody({ message: `request ${i} of the crash test` });
    const send = async (url: string, i: number) => {
      const res = await fetch(`${url}/v1/leads/inquiry`, {
        method: 'POST', body: JSON.stringify(bodyOf(i)),
        headers: { 'content-type': 'application/json', 'idempotency-key': `crash-${i}` },
      });
      const json = await res.json() as { data: { reference: string } };
      assert.equal(res.status, 200, JSON.stringify(json));
      acked.set(i, [...(acked.get(i) ?? []), json.data.reference]);
    };

    let server = await startLeadServer(env);
    let killed = false;
    const failed = new Set<number>();
    let next = 0;
    const worker = async () => {
      while (next < TOTAL && !killed) {
        const i = next++;
        try {
          await send(server.url, i);
          if (!killed && acked.size >= 20) { killed = true; void server.kill(); }
        } catch { failed.add(i); }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    assert.ok(killed, 'the server was killed mid-stream');
    await server.kill();
    const unacked = Array.from({ length: TOTAL }, (_, i) => i).filter((i) => !acked.has(i));
    assert.ok(failed.size > 0 || unacked.length > 0, 'some requests were cut off');

    server = await startLeadServer(env);
    t.after(() => server.kill());
    // the client retries everything it has no receipt for, under the same keys, and re-sends a few it has
    for (const i of unacked) await send(server.url, i);
    for (const i of [...acked.keys()].slice(0, 5)) await send(server.url, i);

    for (const [i, refs] of acked) assert.equal(new Set(refs).size, 1, `request ${i} always got the same reference`);
    const store = inspectStore(config);
    t.after(() => store.close());
    const leads = await store.listLeads(1000);
    assert.equal(leads.length, TOTAL, 'one lead per request: nothing lost, nothing doubled');
    const byMessage = new Map(leads.map((l) => [String(l.payload.message), l.reference]));
    for (let i = 0; i < TOTAL; i++) assert.equal(byMessage.get(bodyOf(i).message), acked.get(i)![0], `request ${i}`);

    await waitFor(async () => (await store.outboxCounts()).sent === TOTAL * 3, 15_000, 'every email delivered')
      .catch(async (e) => { throw new Error(`${e.message}: ${JSON.stringify(await store.outboxCounts())}`); });
    for (const l of leads) assert.ok(smtp.byMessageId(`<${l.reference}.team@desk-atlas.test>`).length >= 1, l.reference);
    const distinct = new Set(smtp.messages.map((m) => m.headers['message-id']));
    assert.equal(distinct.size, TOTAL * 3);
  });
});
