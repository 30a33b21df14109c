import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { LeadStore } from '../../api/leads/store.ts';
import { TestSmtp, inquiryBody, leadsConfig, tempDir, waitFor } from './support.ts';

function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/leads/crash-server.ts'], {
    env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

const TOTAL = 60;

describe('kill -9 of the server during a stream of enquiries', () => {
  it('keeps every acknowledged enquiry exactly once and delivers it after restart', async (t) => {
    const dir = tempDir(t);
    const smtp = await new TestSmtp().start();
    t.after(() => smtp.stop());
    const config = leadsConfig(dir);
    const env = { LEADS_DB: config.dbPath, SMTP_URL: smtp.url, LEADS_TEAM_EMAIL: config.teamEmail, NODE_ENV: 'test', CHALLENGE_SECRET: '' };

    const acked = new Map<number, string[]>(); // request number → references of its 200s
    const bodyOf = (i: number) => inquiryBody({ message: `request ${i} of the crash test` });
    const send = async (port: number, i: number) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/leads/inquiry`, {
        method: 'POST', body: JSON.stringify(bodyOf(i)),
        headers: { 'content-type': 'application/json', 'idempotency-key': `crash-${i}` },
      });
      const json = await res.json() as { data: { reference: string } };
      assert.equal(res.status, 200, JSON.stringify(json));
      acked.set(i, [...(acked.get(i) ?? []), json.data.reference]);
    };

    let server = await startServer(env);
    let killed = false;
    const failed = new Set<number>();
    let next = 0;
    const worker = async () => {
      while (next < TOTAL && !killed) {
        const i = next++;
        try {
          await send(server.port, i);
          if (!killed && acked.size >= 20) { killed = true; server.child.kill('SIGKILL'); }
        } catch { failed.add(i); }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    assert.ok(killed, 'the server was killed mid-stream');
    await new Promise((r) => server.child.exitCode !== null || server.child.signalCode ? r(null) : server.child.once('exit', r));
    const unacked = Array.from({ length: TOTAL }, (_, i) => i).filter((i) => !acked.has(i));
    assert.ok(failed.size > 0 || unacked.length > 0, 'some requests were cut off');

    server = await startServer(env);
    t.after(() => { server.child.kill('SIGKILL'); });
    // the client retries everything it has no receipt for, under the same keys, and re-sends a few it has
    for (const i of unacked) await send(server.port, i);
    for (const i of [...acked.keys()].slice(0, 5)) await send(server.port, i);

    for (const [i, refs] of acked) assert.equal(new Set(refs).size, 1, `request ${i} always got the same reference`);
    const store = new LeadStore(config.dbPath);
    t.after(() => store.close());
    const leads = store.listLeads(1000);
    assert.equal(leads.length, TOTAL, 'one lead per request: nothing lost, nothing doubled');
    const byMessage = new Map(leads.map((l) => [String(l.payload.message), l.reference]));
    for (let i = 0; i < TOTAL; i++) assert.equal(byMessage.get(bodyOf(i).message), acked.get(i)![0], `request ${i}`);

    await waitFor(() => store.outboxCounts().sent === TOTAL * 3, 15_000, 'every email delivered').catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(store.outboxCounts())} ${JSON.stringify(store.listOutbox('pending').slice(0, 2))}`); });
    for (const l of leads) assert.ok(smtp.byMessageId(`<${l.reference}.team@desk-atlas.test>`).length >= 1, l.reference);
    const distinct = new Set(smtp.messages.map((m) => m.headers['message-id']));
    assert.equal(distinct.size, TOTAL * 3);
  });
});
