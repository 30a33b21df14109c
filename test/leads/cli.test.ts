import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ContactBodySchema, InquiryBodySchema } from '../../contract/leads.ts';
import { runCli } from '../../api/leads/cli.ts';
import { PERSON, ROUTING, TestSmtp, contactBody, inquiryBody, leadsConfig, openService, tempDir, waitFor } from './support.ts';

function cli(args: string[], dbPath: string) {
  const lines: string[] = [];
  const code = runCli(args, dbPath, (s) => lines.push(s));
  return { code, text: lines.join('\n') };
}

describe('leads CLI', () => {
  it('lists, shows, prints the outbox and redelivers dead letters', async (t) => {
    const dir = tempDir(t);
    const smtp = await new TestSmtp().start();
    await smtp.stop();
    t.after(() => smtp.stop());
    const db = leadsConfig(dir).dbPath;
    const service = await openService(dir, { smtpUrl: smtp.url }, { relay: { pollMs: 30, baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 } });
    t.after(() => service.close());
    const a = await service.submit({ endpoint: 'inquiry', body: InquiryBodySchema.parse(inquiryBody()), routing: ROUTING });
    await service.submit({ endpoint: 'contact', body: ContactBodySchema.parse(contactBody()), routing: ROUTING });
    await waitFor(() => service.store.outboxCounts().dead === 4, 5000, 'dead letters');
    const ref = a.body.data.reference;

    const list = cli(['list'], db);
    assert.equal(list.code, 0);
    assert.ok(list.text.includes(ref) && list.text.includes('0/3 sent, 3 dead'), list.text);
    assert.ok(!list.text.includes(PERSON.email), 'the list shows no personal data');

    const show = cli(['show', ref.toLowerCase()], db);
    assert.equal(show.code, 0);
    assert.ok(show.text.includes(PERSON.email) && show.text.includes('leads@spacehub.example'), show.text);
    assert.equal(cli(['show', 'DA-0000000000'], db).code, 1);

    const outbox = cli(['outbox', 'dead'], db);
    assert.ok(outbox.text.startsWith('pending 0  sent 0  dead 4'), outbox.text);

    await smtp.start();
    const one = service.store.listOutbox('dead')[0].outboxId;
    assert.equal(cli(['redeliver', String(one)], db).code, 0);
    await waitFor(() => service.store.outboxCounts().sent === 1, 5000, 'one redelivered');
    assert.match(cli(['redeliver', '--all-dead'], db).text, /^3 dead letter/);
    await waitFor(() => service.store.outboxCounts().sent === 4, 5000, 'all redelivered');
    assert.equal(smtp.messages.length, 4);
    assert.equal(cli(['redeliver', 'x'], db).code, 2);
    assert.equal(cli(['nonsense'], db).code, 2);
  });

  it('runs as `npm run leads`', () => {
    const out = execFileSync('npx', ['tsx', 'api/leads/cli.ts', 'help'], { encoding: 'utf8' });
    assert.match(out, /redeliver --all-dead/);
  });
});
