import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ProblemSchema } from '../../contract/problem.ts';
import { LeadReceiptResponseSchema } from '../../contract/leads.ts';
import { IDEMPOTENCY_TTL_MS } from '../../api/leads/service.ts';
import { testApp } from '../support/app.ts';
import {
  PERSON, TestSmtp, TestVerifier, buildTestApp, contactBody, forEachStore, inquiryBody, openService, storeConfig, tableRows,
  tempDir, waitFor, LogCapture, type StoreKind,
} from './support.ts';

async function setup(t: TestContext, kind: StoreKind, opts: { challenge?: boolean; now?: () => number; timeoutMs?: number; logs?: LogCapture; env?: Record<string, string> } = {}) {
  const dir = tempDir(t);
  const smtp = await new TestSmtp().start();
  t.after(() => smtp.stop());
  let verifier: TestVerifier | undefined;
  if (opts.challenge) {
    verifier = await new TestVerifier().start();
    t.after(() => verifier!.stop());
  }
  const service = await openService(dir, {
    ...await storeConfig(kind),
    smtpUrl: smtp.url,
    ...(verifier ? { challengeSecret: verifier.secret, challengeVerifyUrl: verifier.url } : {}),
  }, { now: opts.now, challengeTimeoutMs: opts.timeoutMs ?? 300 });
  const app = await buildTestApp(service, { logs: opts.logs, env: opts.env });
  t.after(async () => { await app.close(); await service.close(); });
  const post = (endpoint: 'contact' | 'inquiry', payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: `/v1/leads/${endpoint}`, payload: payload as object, headers });
  return { dir, smtp, verifier, service, app, post };
}

function problem(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const p = ProblemSchema.parse(JSON.parse(res.body));
  assert.equal(p.code, code);
  return p;
}

forEachStore((kind) => {
  describe('POST /v1/leads/contact and /v1/leads/inquiry', () => {
    it('returns a receipt, stores the lead and emails the team and each operator concerned', async (t) => {
      const { post, smtp, service } = await setup(t, kind);
      const res = await post('inquiry', inquiryBody({ properties: ['loft-mitte', 'spree-works', 'sol-madrid', 'indie-desk'], desks: 8 }));
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = LeadReceiptResponseSchema.parse(res.json());
      assert.equal(body.meta.contractVersion, '1.0.0');
      const ref = body.data.reference;
      const lead = await service.store.getLead(ref);
      assert.ok(lead);
      assert.equal(lead.endpoint, 'inquiry');
      assert.equal('challengeToken' in lead.payload, false);

      await waitFor(() => smtp.messages.length >= 3, 5000, 'three emails');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(smtp.messages.length, 3, 'team + SpaceHub (two spaces, one email) + WorkCo; indie-desk has no address');
      const team = smtp.byMessageId(`<${ref}.team@desk-atlas.test>`)[0];
      assert.deepEqual(team.rcpt, ['team@desk-atlas.test']);
      assert.equal(team.headers['reply-to'], PERSON.email);
      for (const s of ['Loft Mitte', 'Spree Works', 'Sol Madrid', 'indie-desk', 'no operator address on file', PERSON.name, PERSON.phone, PERSON.message, 'Desks: 8']) {
        assert.ok(team.text.includes(s), `team email mentions ${s}`);
      }
      const spacehub = smtp.byMessageId(`<${ref}.op.spacehub@desk-atlas.test>`)[0];
      assert.deepEqual(spacehub.rcpt, ['leads@spacehub.example']);
      assert.ok(spacehub.text.includes('Loft Mitte') && spacehub.text.includes('Spree Works'));
      assert.ok(!spacehub.text.includes('Sol Madrid'), 'an operator sees only its own spaces');
      const workco = smtp.byMessageId(`<${ref}.op.workco@desk-atlas.test>`)[0];
      assert.deepEqual(workco.rcpt, ['hola@workco.example']);
      assert.ok(workco.headers.subject.includes(ref));
      assert.deepEqual(await service.store.outboxCounts(), { pending: 0, sent: 3, dead: 0 });
    });

    it('contact sends exactly one email, to the team', async (t) => {
      const { post, smtp } = await setup(t, kind);
      const res = await post('contact', contactBody({ subject: 'Partnership' }));
      assert.equal(res.statusCode, 200, res.body);
      await waitFor(() => smtp.messages.length >= 1);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(smtp.messages.length, 1);
      assert.ok(smtp.messages[0].headers.subject.includes('Partnership'));
    });

    it('returns 400 VALIDATION_FAILED naming each offending body path', async (t) => {
      const { post, service } = await setup(t, kind);
      const p = problem(await post('inquiry', inquiryBody({
        email: '.bad@example.com', desks: 0, website: 'http://spam', attribution: { source: 'web', viewedProperties: ['a', 'b', 'c', 'NO'] },
      })), 400, 'VALIDATION_FAILED');
      assert.deepEqual(p.errors!.map((e) => e.path).sort(), ['attribution.viewedProperties.3', 'desks', 'email', 'website']);
      assert.equal(await service.store.countLeads(), 0);
    });

    it('returns 400 naming properties.N for spaces that do not exist', async (t) => {
      const { post, service } = await setup(t, kind);
      const p = problem(await post('inquiry', inquiryBody({ properties: ['loft-mitte', 'nowhere', 'sol-madrid', 'gone-too'] })), 400, 'VALIDATION_FAILED');
      assert.deepEqual(p.errors, [{ path: 'properties.1', message: 'Unknown space' }, { path: 'properties.3', message: 'Unknown space' }]);
      assert.equal(await service.store.countLeads(), 0);
    });

    it('returns 400 for malformed JSON, a wrong content type, an oversized body and a non-object body', async (t) => {
      const { app, service } = await setup(t, kind);
      const send = (payload: string, type: string) => app.inject({ method: 'POST', url: '/v1/leads/contact', payload, headers: { 'content-type': type } });
      problem(await send('{"name":', 'application/json'), 400, 'VALIDATION_FAILED');
      problem(await send('name=x', 'application/x-www-form-urlencoded'), 400, 'VALIDATION_FAILED');
      problem(await send(JSON.stringify(contactBody({ message: 'x'.repeat(70 * 1024) })), 'application/json'), 400, 'VALIDATION_FAILED');
      const arr = problem(await send('[1,2]', 'application/json'), 400, 'VALIDATION_FAILED');
      assert.deepEqual(arr.errors!.map((e) => e.path), ['(body)']);
      assert.equal(await service.store.countLeads(), 0);
    });

    it('returns 400 for an Idempotency-Key over 200 characters', async (t) => {
      const { post } = await setup(t, kind);
      const p = problem(await post('contact', contactBody(), { 'idempotency-key': 'k'.repeat(201) }), 400, 'VALIDATION_FAILED');
      assert.equal(p.errors![0].path, 'Idempotency-Key');
      assert.equal((await post('contact', contactBody(), { 'idempotency-key': 'k'.repeat(200) })).statusCode, 200);
    });
  });

  describe('lead rate limit', () => {
    it('allows 10 enquiries per 10 minutes per IP, then answers 429 with Retry-After and RateLimit headers', async (t) => {
      const { post, service } = await setup(t, kind, { env: { RATE_LIMIT_LEADS: '10' } });
      for (let i = 0; i < 10; i++) {
        const res = await post('contact', contactBody());
        assert.equal(res.statusCode, 200, `request ${i + 1}`);
        assert.ok(res.headers['ratelimit-remaining'] !== undefined);
      }
      const res = await post('inquiry', inquiryBody());
      problem(res, 429, 'RATE_LIMITED');
      assert.ok(res.headers['retry-after']);
      assert.equal(res.headers['ratelimit-remaining'], '0');
      assert.equal(await service.store.countLeads(), 10);
    });

    it('answers replays of a stored enquiry (same Idempotency-Key, same body) without counting them: 20 tries, 20 × 200, one lead', async (t) => {
      const { post, service } = await setup(t, kind, { env: { RATE_LIMIT_LEADS: '3' } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await post('contact', contactBody(), { 'idempotency-key': 'retry-1' })).statusCode);
      assert.deepEqual(statuses, Array(20).fill(200));
      assert.equal(await service.store.countLeads(), 1);
      // the limit counted the one enquiry created: two new ones are left, then 429
      const fresh: number[] = [];
      for (let i = 0; i < 3; i++) fresh.push((await post('contact', contactBody(), { 'idempotency-key': `new-${i}` })).statusCode);
      assert.deepEqual(fresh, [200, 200, 429]);
      // over the limit, a replay is still answered with its receipt, and a conflict is still a conflict
      const replay = await post('contact', contactBody(), { 'idempotency-key': 'retry-1' });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotency-replayed'], 'true');
      assert.equal(replay.headers['ratelimit-remaining'], '0');
      problem(await post('contact', contactBody({ message: 'another enquiry' }), { 'idempotency-key': 'retry-1' }), 422, 'IDEMPOTENCY_KEY_CONFLICT');
      assert.equal(await service.store.countLeads(), 3);
    });
  });

  describe('idempotency', () => {
    it('replays the first response with Idempotency-Replayed: true and creates nothing new', async (t) => {
      const { post, service, smtp } = await setup(t, kind);
      const first = await post('inquiry', inquiryBody(), { 'idempotency-key': 'k-1' });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['idempotency-replayed'], undefined);
      // same body, keys in another order: the same enquiry
      const reordered = Object.fromEntries(Object.entries(inquiryBody()).reverse());
      const again = await post('inquiry', reordered, { 'idempotency-key': 'k-1' });
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotency-replayed'], 'true');
      assert.equal(again.body, first.body);
      assert.equal(await service.store.countLeads(), 1);
      await waitFor(() => smtp.messages.length >= 3);
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(smtp.messages.length, 3);
    });

    it('answers 422 IDEMPOTENCY_KEY_CONFLICT for the same key with a different body', async (t) => {
      const { post, service } = await setup(t, kind);
      assert.equal((await post('contact', contactBody(), { 'idempotency-key': 'k-2' })).statusCode, 200);
      problem(await post('contact', contactBody({ message: 'something else' }), { 'idempotency-key': 'k-2' }), 422, 'IDEMPOTENCY_KEY_CONFLICT');
      assert.equal(await service.store.countLeads(), 1);
    });

    it('scopes keys per endpoint', async (t) => {
      const { post, service } = await setup(t, kind);
      const a = await post('contact', contactBody(), { 'idempotency-key': 'shared' });
      const b = await post('inquiry', inquiryBody(), { 'idempotency-key': 'shared' });
      assert.equal(a.statusCode, 200);
      assert.equal(b.statusCode, 200);
      assert.equal(b.headers['idempotency-replayed'], undefined);
      assert.notEqual(a.json().data.reference, b.json().data.reference);
      assert.equal(await service.store.countLeads(), 2);
    });

    it('executes every request that has no key', async (t) => {
      const { post, service } = await setup(t, kind);
      const refs = new Set<string>();
      for (let i = 0; i < 3; i++) refs.add((await post('contact', contactBody())).json().data.reference);
      assert.equal(refs.size, 3);
      assert.equal(await service.store.countLeads(), 3);
    });

    it('keeps keys 24 hours, then forgets and purges them', async (t) => {
      let now = Date.parse('2026-03-01T10:00:00Z');
      const { post, service } = await setup(t, kind, { now: () => now });
      const first = await post('contact', contactBody(), { 'idempotency-key': 'day' });
      now += IDEMPOTENCY_TTL_MS - 1;
      const within = await post('contact', contactBody(), { 'idempotency-key': 'day' });
      assert.equal(within.headers['idempotency-replayed'], 'true');
      assert.equal(within.body, first.body);
      now += 2;
      const after = await post('contact', contactBody({ message: 'a new enquiry a day later' }), { 'idempotency-key': 'day' });
      assert.equal(after.statusCode, 200, 'an expired key is free again, even with another body');
      assert.equal(after.headers['idempotency-replayed'], undefined);
      assert.equal(await service.store.countLeads(), 2);
      now += IDEMPOTENCY_TTL_MS + 1;
      assert.equal(await service.purgeExpired(), 1);
      assert.equal(await tableRows(service.store, 'idempotency'), 0);
    });

    it('50 concurrent requests with one key create exactly one enquiry and one set of emails', async (t) => {
      // the verifier's deadline at its default (5 s): 50 requests at once on a busy machine must not hit the 300 ms test deadline
      const { post, service, smtp, verifier } = await setup(t, kind, { challenge: true, timeoutMs: 5000 });
      const body = inquiryBody({ challengeToken: verifier!.issue() });
      const results = await Promise.all(Array.from({ length: 50 }, () => post('inquiry', body, { 'idempotency-key': 'burst' })));
      assert.deepEqual([...new Set(results.map((r) => r.statusCode))], [200]);
      assert.equal(new Set(results.map((r) => r.body)).size, 1, 'every response carries the same receipt');
      assert.equal(results.filter((r) => r.headers['idempotency-replayed'] === 'true').length, 49);
      assert.equal(verifier!.calls, 1, 'the single-use token was verified once');
      assert.equal(await service.store.countLeads(), 1);
      await waitFor(() => smtp.messages.length >= 3);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(smtp.messages.length, 3);
    });
  });

  describe('challenge', () => {
    it('passes a valid single-use token and sends the client IP; a replay under the key skips the verifier', async (t) => {
      const { post, verifier, service } = await setup(t, kind, { challenge: true });
      const body = contactBody({ challengeToken: verifier!.issue() });
      const first = await post('contact', body, { 'idempotency-key': 'once' });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(verifier!.lastRemoteIp, '127.0.0.1');
      // the token is spent: verifying it again would fail, so a 200 here proves the replay skipped the challenge
      const replay = await post('contact', body, { 'idempotency-key': 'once' });
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers['idempotency-replayed'], 'true');
      assert.equal(verifier!.calls, 1);
      // a form that re-solved the challenge and resends the same enquiry gets its first receipt
      const resolved = await post('contact', { ...body, challengeToken: verifier!.issue() }, { 'idempotency-key': 'once' });
      assert.equal(resolved.body, first.body);
      // without a key the spent token is refused
      problem(await post('contact', body), 403, 'CHALLENGE_FAILED');
      assert.equal(await service.store.countLeads(), 1);
    });

    it('answers 403 CHALLENGE_FAILED for a missing or invented token and stores nothing', async (t) => {
      const { post, verifier, service } = await setup(t, kind, { challenge: true });
      problem(await post('contact', contactBody()), 403, 'CHALLENGE_FAILED');
      problem(await post('contact', contactBody({ challengeToken: 'invented' }), { 'idempotency-key': 'bad' }), 403, 'CHALLENGE_FAILED');
      assert.equal(verifier!.calls, 1, 'a missing token is refused without asking');
      assert.equal(await service.store.countLeads(), 0);
      // a 403 is not stored: the key stays usable with a valid token
      const ok = await post('contact', contactBody({ challengeToken: verifier!.issue() }), { 'idempotency-key': 'bad' });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['idempotency-replayed'], undefined);
    });

    it('answers 502 UPSTREAM_UNAVAILABLE when the verifier is slower than its deadline, stores nothing, and a retry under the key succeeds', async (t) => {
      const { post, verifier, service, smtp } = await setup(t, kind, { challenge: true, timeoutMs: 150 });
      verifier!.mode = 'slow';
      verifier!.slowMs = 600;
      const token = verifier!.issue();
      problem(await post('inquiry', inquiryBody({ challengeToken: token }), { 'idempotency-key': 'slow' }), 502, 'UPSTREAM_UNAVAILABLE');
      assert.equal(await service.store.countLeads(), 0);
      assert.equal(await tableRows(service.store, 'idempotency'), 0, '5xx are not stored');
      verifier!.mode = 'ok';
      await new Promise((r) => setTimeout(r, 600)); // the late answer spent the first token
      const retry = await post('inquiry', inquiryBody({ challengeToken: verifier!.issue() }), { 'idempotency-key': 'slow' });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers['idempotency-replayed'], undefined);
      assert.equal(await service.store.countLeads(), 1);
      await waitFor(() => smtp.messages.length >= 3);
    });

    it('answers 502 when the verifier is unreachable or failing, and stores nothing', async (t) => {
      const { post, verifier, service } = await setup(t, kind, { challenge: true });
      verifier!.mode = 'error';
      problem(await post('contact', contactBody({ challengeToken: verifier!.issue() })), 502, 'UPSTREAM_UNAVAILABLE');
      await verifier!.stop();
      problem(await post('contact', contactBody({ challengeToken: verifier!.issue() }), { 'idempotency-key': 'down' }), 502, 'UPSTREAM_UNAVAILABLE');
      assert.equal(await service.store.countLeads(), 0);
      assert.deepEqual(await service.store.outboxCounts(), { pending: 0, sent: 0, dead: 0 });
    });
  });

  describe('privacy', () => {
    it('the captured log of a run contains none of the personal data sent', async (t) => {
      const logs = new LogCapture();
      const { post, smtp, verifier } = await setup(t, kind, { logs, challenge: true });
      assert.equal((await post('inquiry', inquiryBody({ company: 'Quarterfield GmbH', challengeToken: verifier!.issue() }), { 'idempotency-key': 'p1' })).statusCode, 200);
      await post('inquiry', inquiryBody({ company: 'Quarterfield GmbH' }), { 'idempotency-key': 'p1' });
      await post('contact', contactBody({ desks: 3 }));
      await post('contact', contactBody({ challengeToken: 'nope' }));
      await post('contact', contactBody({ email: 'zelda..q@example.org' }));
      await waitFor(() => smtp.messages.length >= 3);
      assert.ok(logs.text.includes('lead received'), 'the log is captured');
      assert.ok(/"reference":"DA-/.test(logs.text));
      for (const value of [PERSON.name, PERSON.email, PERSON.phone, PERSON.message, 'secret-marker-9137', 'Quarterfield', 'zelda', '5550199']) {
        assert.ok(!logs.text.toLowerCase().includes(value.toLowerCase()), `log must not contain ${value}`);
      }
    });
  });
});

forEachStore((kind) => describe(`a client generated from the reference (open bodies), ${kind}`, () => {
  it('an enquiry with members this version does not declare is received, stored without them, and only their names are logged', async (t) => {
    const logs = new LogCapture();
    const { post, service } = await setup(t, kind, { logs });
    const res = await post('inquiry', inquiryBody({
      referrer: 'partner-app', tracking: { campaignId: 'cid-4471' },
      attribution: { source: 'app', campaign: 'spring', utmSource: 'newsletter-7731' },
    }));
    assert.equal(res.statusCode, 200, res.body);
    const lead = (await service.store.getLead(res.json().data.reference))!;
    assert.equal('referrer' in lead.payload, false);
    assert.equal('tracking' in lead.payload, false);
    assert.deepEqual((lead.payload as { attribution?: unknown }).attribution, { source: 'app', campaign: 'spring' });
    const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'unknown body members ignored');
    assert.deepEqual(line?.ignored, ['referrer', 'tracking', 'attribution.utmSource']);
    for (const value of ['partner-app', 'cid-4471', 'newsletter-7731']) assert.ok(!logs.text.includes(value), `log must not contain ${value}`);
  });

  it('keeps every declared member\'s limits: an unknown member never hides a bad declared one', async (t) => {
    const { post } = await setup(t, kind);
    const p = problem(await post('contact', contactBody({ referrer: 'x', attribution: { source: 'web', utmSource: 'y', campaign: 'c'.repeat(121) } })), 400, 'VALIDATION_FAILED');
    assert.deepEqual(p.errors, [{ path: 'attribution.campaign', message: p.errors![0].message }]);
  });
}));

describe('the lead routes', () => {
  it('are declared like every other route: in app.routeDefinitions, lead rate limit, no-store', async () => {
    const app = await testApp();
    try {
      const leads = app.routeDefinitions.filter((def) => def.url.startsWith('/v1/leads/'));
      assert.deepEqual(leads.map((def) => [def.operationId, def.method, def.url, def.rateLimit, def.cache, def.cacheKey]), [
        ['contact', 'POST', '/v1/leads/contact', 'lead', 'no-store', undefined],
        ['inquiry', 'POST', '/v1/leads/inquiry', 'lead', 'no-store', undefined],
      ]);
    } finally {
      await app.close();
    }
  });

  it('answer 500 in an app built without a leads service, after validating the body', async () => {
    const app = await testApp();
    try {
      problem(await app.inject({ method: 'POST', url: '/v1/leads/contact', payload: { name: 'x' } }), 400, 'VALIDATION_FAILED');
      problem(await app.inject({ method: 'POST', url: '/v1/leads/contact', payload: contactBody() }), 500, 'INTERNAL_ERROR');
    } finally {
      await app.close();
    }
  });
});
