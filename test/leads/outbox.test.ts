import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InquiryBodySchema, ContactBodySchema } from '../../contract/leads.ts';
import { backoffDelay, redactError } from '../../api/leads/outbox.ts';
import type { LeadsService } from '../../api/leads/service.ts';
import {
  LogCapture, PERSON, ROUTING, TestSmtp, contactBody, forEachStore, inquiryBody, openService, parseMail, storeConfig, tempDir, waitFor,
} from './support.ts';

const submitInquiry = (service: LeadsService, key?: string) => service.submit({
  endpoint: 'inquiry', body: InquiryBodySchema.parse(inquiryBody()), routing: ROUTING, idempotencyKey: key,
});

forEachStore((kind) => {
  describe('outbox relay', () => {
    it('loses nothing while SMTP is down and drains the backlog once it is back', async (t) => {
      const dir = tempDir(t);
      const store = await storeConfig(kind);
      const smtp = await new TestSmtp().start();
      await smtp.stop(); // the port is known, nobody listens
      t.after(() => smtp.stop());
      const logs = new LogCapture();
      const { default: pino } = await import('pino');
      const service = await openService(dir, { ...store, smtpUrl: smtp.url }, { log: pino(logs) });
      t.after(() => service.close());
      const refs: string[] = [];
      for (let i = 0; i < 5; i++) refs.push((await submitInquiry(service)).body.data.reference);
      await waitFor(async () => (await service.store.listOutbox('pending')).every((r) => r.attempts >= 2), 5000, 'failed attempts');
      assert.deepEqual(await service.store.outboxCounts(), { pending: 15, sent: 0, dead: 0 });
      assert.match((await service.store.listOutbox('pending'))[0].lastError ?? '', /ECONNREFUSED|ESOCKET|ECONNECTION/);

      await smtp.start();
      await waitFor(async () => (await service.store.outboxCounts()).sent === 15, 5000, 'backlog drained');
      const ids = (await service.store.listOutbox('sent')).map((r) => r.messageId).sort();
      assert.deepEqual([...new Set(smtp.messages.map((m) => m.headers['message-id']))].sort(), ids,
        'every stored message arrived, under the Message-ID it was given at enqueue time');
      for (const ref of refs) assert.equal(smtp.byMessageId(`<${ref}.team@desk-atlas.test>`).length, 1);
      assert.ok(!logs.text.includes(PERSON.email) && !logs.text.includes('spacehub.example'), 'relay logs carry no addresses');
      assert.ok(logs.text.includes('will retry'));
    });

    it('drains what a previous process left pending when it starts', async (t) => {
      const dir = tempDir(t);
      const store = await storeConfig(kind);
      const smtp = await new TestSmtp().start();
      await smtp.stop();
      t.after(() => smtp.stop());
      const first = await openService(dir, { ...store, smtpUrl: smtp.url });
      const { body } = await submitInquiry(first);
      await first.close();
      await smtp.start();
      const second = await openService(dir, { ...store, smtpUrl: smtp.url });
      t.after(() => second.close());
      await waitFor(async () => (await second.store.outboxCounts()).sent === 3, 5000, 'backlog drained after restart');
      assert.equal(smtp.byMessageId(`<${body.data.reference}.team@desk-atlas.test>`).length, 1);
    });

    it('dead-letters a message after N attempts and delivers it on redelivery', async (t) => {
      const dir = tempDir(t);
      const store = await storeConfig(kind);
      const smtp = await new TestSmtp().start();
      await smtp.stop();
      t.after(() => smtp.stop());
      const service = await openService(dir, { ...store, smtpUrl: smtp.url }, { relay: { pollMs: 30, baseDelayMs: 10, maxDelayMs: 20, maxAttempts: 3 } });
      t.after(() => service.close());
      await service.submit({ endpoint: 'contact', body: ContactBodySchema.parse(contactBody()), routing: ROUTING });
      await waitFor(async () => (await service.store.outboxCounts()).dead === 1, 5000, 'dead letter');
      const [dead] = await service.store.listOutbox('dead');
      assert.equal(dead.attempts, 3);
      await smtp.start();
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(smtp.messages.length, 0, 'a dead letter is not retried on its own');
      assert.equal(await service.store.redeliver('all-dead', Date.now()), 1);
      service.relay.kick();
      await waitFor(async () => (await service.store.outboxCounts()).sent === 1, 5000, 'redelivered');
      assert.equal(smtp.messages[0].headers['message-id'], dead.messageId);
    });

    it('without SMTP writes one .eml per message into the spool, atomically and named after its Message-ID', async (t) => {
      const dir = tempDir(t);
      const store = await storeConfig(kind);
      const service = await openService(dir, store);
      t.after(() => service.close());
      assert.equal(service.transportKind, 'spool');
      const { body } = await submitInquiry(service);
      await waitFor(async () => (await service.store.outboxCounts()).sent === 3, 5000, 'spooled');
      const spool = join(dir, 'mail');
      const files = readdirSync(spool).sort();
      assert.equal(files.length, 3, files.join());
      assert.ok(files.every((f) => f.endsWith('.eml') && !f.startsWith('.')), 'no temp file is left behind');
      const mails = files.map((f) => parseMail(readFileSync(join(spool, f), 'utf8')));
      const team = mails.find((m) => m.headers.to === 'team@desk-atlas.test')!;
      assert.equal(team.headers['message-id'], `<${body.data.reference}.team@desk-atlas.test>`);
      assert.ok(team.text.includes(PERSON.message));
      // redelivering a sent message rewrites its file rather than adding a copy
      await service.store.redeliver({ outboxId: (await service.store.listOutbox('sent'))[0].outboxId }, Date.now());
      service.relay.kick();
      await waitFor(async () => (await service.store.outboxCounts()).sent === 3);
      assert.equal(readdirSync(spool).length, 3);
    });
  });
});

describe('outbox relay rules', () => {
  it('backs off exponentially up to a ceiling and redacts addresses from errors', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 20].map((n) => backoffDelay(n, 1000, 10_000)), [1000, 2000, 4000, 8000, 10_000, 10_000]);
    const msg = redactError(Object.assign(new Error('550 5.1.1 <zelda@example.org>: mailbox unavailable'), { code: 'EENVELOPE', responseCode: 550 }));
    assert.ok(!msg.includes('zelda'));
    assert.match(msg, /EENVELOPE 550 .*<address>/);
  });
});
