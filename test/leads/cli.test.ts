import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ContactBodySchema, InquiryBodySchema } from '../../contract/leads.ts';
import { runCli, type CliStore } from '../../api/leads/cli.ts';
import {
  PERSON, ROUTING, TestSmtp, contactBody, forEachStore, inquiryBody, leadsConfig, openService, storeConfig, tempDir, waitFor,
} from './support.ts';

async function cli(args: string[], where: CliStore) {
  const lines: string[] = [];
  const code = await runCli(args, where, (s) => lines.push(s));
  return { code, text: lines.join('\n') };
}

forEachStore((kind) => {
  describe('leads CLI', () => {
    it('lists, shows, prints the outbox and redelivers dead letters', async (t) => {
      const dir = tempDir(t);
      const smtp = await new TestSmtp().start();
      await smtp.stop();
      t.after(() => smtp.stop());
      const store = await storeConfig(kind);
      const db = { ...leadsConfig(dir), ...store };
      const service = await openService(dir, { ...store, smtpUrl: smtp.url }, { relay: { pollMs: 30, baseDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 } });
      t.after(() => service.close());
      const a = await service.submit({ endpoint: 'inquiry', body: InquiryBodySchema.parse(inquiryBody()), routing: ROUTING });
      await service.submit({ endpoint: 'contact', body: ContactBodySchema.parse(contactBody()), routing: ROUTING });
      await waitFor(async () => (await service.store.outboxCounts()).dead === 4, 5000, 'dead letters');
      const ref = a.body.data.reference;

      const list = await cli(['list'], db);
      assert.equal(list.code, 0);
      assert.ok(list.text.includes(ref) && list.text.includes('0/3 sent, 3 dead'), list.text);
      assert.ok(!list.text.includes(PERSON.email), 'the list shows no personal data');

      const show = await cli(['show', ref.toLowerCase()], db);
      assert.equal(show.code, 0);
      assert.ok(show.text.includes(PERSON.email) && show.text.includes('leads@spacehub.example'), show.text);
      assert.equal((await cli(['show', 'DA-0000000000'], db)).code, 1);

      const outbox = await cli(['outbox', 'dead'], db);
      assert.ok(outbox.text.startsWith('pending 0  sent 0  dead 4'), outbox.text);

      await smtp.start();
      const one = (await service.store.listOutbox('dead'))[0].outboxId;
      assert.equal((await cli(['redeliver', String(one)], db)).code, 0);
      await waitFor(async () => (await service.store.outboxCounts()).sent === 1, 5000, 'one redelivered');
      assert.match((await cli(['redeliver', '--all-dead'], db)).text, /^3 dead letter/);
      await waitFor(async () => (await service.store.outboxCounts()).sent === 4, 5000, 'all redelivered');
      assert.equal(smtp.messages.length, 4);
      assert.equal((await cli(['redeliver', 'x'], db)).code, 2);
      assert.equal((await cli(['nonsense'], db)).code, 2);

      // `make leads` (npm run leads) finds the same store through the environment
      const env = { ...process.env, LEADS_DB: db.dbPath, DATABASE_URL: db.databaseUrl ?? '' };
      const listed = execFileSync('npx', ['tsx', 'api/leads/cli.ts', 'list'], { encoding: 'utf8', env });
      assert.ok(listed.includes(ref) && listed.includes('3/3 sent'), listed);
    });
  });
});

describe('leads CLI as a command', () => {
  it('runs as `npm run leads`', () => {
    const out = execFileSync('npx', ['tsx', 'api/leads/cli.ts', 'help'], { encoding: 'utf8' });
    assert.match(out, /redeliver --all-dead/);
  });
});
