/**
 * The enquiry forms of the site (api/site/enquiry.ts) on a real server on loopback, with the
 * lead service on a real SQLite file, mailing through a real SMTP server (smtp-server) and, with
 * the challenge on, asking a local stand-in for Turnstile's verifier.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { InquiryBodySchema } from '../../contract/leads.ts';
import { STRINGS } from '../../api/site/strings.ts';
import { SqliteLeadStore } from '../../api/leads/sqlite-store.ts';
import { sharedBuild, testApp } from '../support/app.ts';
import { PERSON, TestSmtp, TestVerifier, openService, tableRows, tempDir, waitFor } from '../leads/support.ts';
import { html } from './sample.ts';

interface Setup { origin: string; store: SqliteLeadStore; smtp: TestSmtp; verifier?: TestVerifier; space: string }

async function setup(t: TestContext, opts: { challenge?: boolean; env?: Record<string, string> } = {}): Promise<Setup> {
  const dir = tempDir(t);
  const smtp = await new TestSmtp().start();
  t.after(() => smtp.stop());
  const verifier = opts.challenge ? await new TestVerifier().start() : undefined;
  if (verifier) t.after(() => verifier.stop());
  const service = await openService(dir, {
    smtpUrl: smtp.url,
    ...(verifier ? { challengeSecret: verifier.secret, challengeVerifyUrl: verifier.url } : {}),
  }, { challengeTimeoutMs: 2000 });
  const app = await testApp({
    leads: service,
    env: {
      RATE_LIMIT_LEADS: '1000',
      ...(verifier ? { CHALLENGE_SECRET: verifier.secret, CHALLENGE_SITE_KEY: 'site-key-for-tests', CHALLENGE_VERIFY_URL: verifier.url } : {}),
      ...opts.env,
    },
  });
  t.after(async () => { await app.close(); await service.close(); });
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  // a space whose operator has an enquiry address: the enquiry is mailed to the team and to it
  const { build } = await sharedBuild();
  const listed = await (await fetch(`${origin}/v1/properties?locale=en&pageSize=50&sortBy=date-desc`)).json() as { data: { slug: string }[] };
  let space: string | undefined;
  for (const { slug } of listed.data) if (!space && (await build.leadRouting.get(slug))?.enquiryEmail) space = slug;
  assert.ok(space, 'the fixture has a space whose operator takes enquiries');
  return { origin, store: service.store as SqliteLeadStore, smtp, verifier, space };
}

/** A textarea's value: linkedom leaves its character references as written (a browser decodes them). */
const textareaValue = (el: Element) => el.textContent!.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);

/** The form on a page, as a browser would send it: every field's current value. */
async function formOf(url: string): Promise<{ action: string; fields: Record<string, string> }> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  const form = html(await res.text()).querySelector('form.enquiry')!;
  assert.ok(form, `a form on ${url}`);
  const fields: Record<string, string> = {};
  for (const el of form.querySelectorAll('input[name], textarea[name], select[name]')) {
    fields[el.getAttribute('name')!] = el.tagName === 'TEXTAREA' ? textareaValue(el) : el.tagName === 'SELECT' ? '' : (el.getAttribute('value') ?? '');
  }
  return { action: form.getAttribute('action')!, fields };
}

const post = (origin: string, action: string, fields: Record<string, string>) =>
  fetch(origin + action, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

const filled = (fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  ...fields, name: PERSON.name, email: PERSON.email, phone: PERSON.phone, message: PERSON.message, ...extra,
});

/** The field error beside a control: inside the control's own field, named by its aria-describedby. */
function errorBeside(doc: Document, name: string): string | undefined {
  const control = doc.querySelector(`form.enquiry [name="${name}"]`)!;
  const id = control.getAttribute('aria-describedby');
  if (!id) return undefined;
  const error = doc.getElementById(id)!;
  assert.equal(error.closest('.field'), control.closest('.field'), `the error of ${name} is beside it`);
  assert.equal(control.getAttribute('aria-invalid'), 'true');
  return error.textContent!.trim();
}

describe('enquiry forms of the site', () => {
  it('have Markdown twins: the fields, where a person sends the form, the API operation an app uses', async (t) => {
    const { origin, space } = await setup(t);
    for (const [page, operation] of [['/es/contact', 'contact'], [`/es/space/${space}/enquiry`, 'inquiry']] as const) {
      const htmlPage = await fetch(`${origin}${page}`);
      assert.match(htmlPage.headers.get('link')!, new RegExp(`<[^>]*${page}\\.md>; rel="alternate"; type="text/markdown"`), page);
      const twin = await fetch(`${origin}${page}.md`);
      assert.equal(twin.status, 200, page);
      assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
      const text = await twin.text();
      const doc = html(await (await fetch(`${origin}${page}`)).text());
      assert.ok(text.startsWith(`# ${doc.querySelector('h1')!.textContent}\n`), text.slice(0, 80));
      for (const label of doc.querySelectorAll('form.enquiry label')) {
        const words = label.textContent!.replace(/\s*\(.*\)\s*$/, '').trim();
        if (words && !label.closest('.honeypot')) assert.ok(text.includes(words), `${page}: ${words}`);
      }
      assert.ok(text.includes(`${page} `) || text.includes(`${page}\n`), `${page}: where the form is sent`);
      assert.ok(text.includes(`POST https://api.deskatlas.test/v1/leads/${operation}`), text);
      assert.ok(text.includes(STRINGS.es.enquiry.twinApi));
    }
    const unknown = await fetch(`${origin}/en/space/no-such-space/enquiry.md`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('content-type'), 'text/markdown; charset=utf-8');
  });

  it('a space page\'s form posts an inquiry: 303 to a confirmation page, one lead stored and mailed through the outbox', async (t) => {
    const { origin, store, smtp, space } = await setup(t);
    const { action, fields } = await formOf(`${origin}/de/space/${space}`);
    assert.equal(action, `/de/space/${space}/enquiry`);
    const res = await post(origin, action, filled(fields, { desks: '4', duration: 'months', moveInDate: '2027-03-01' }));
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const location = new URL(res.headers.get('location')!, origin);
    assert.equal(location.pathname, '/de/enquiry/sent');
    const reference = location.searchParams.get('reference')!;

    const confirmation = await fetch(location);
    assert.equal(confirmation.status, 200);
    assert.match(confirmation.headers.get('content-type')!, /^text\/html/);
    const doc = html(await confirmation.text());
    assert.equal(doc.documentElement.getAttribute('lang'), 'de');
    assert.equal(doc.querySelector('h1')!.textContent, STRINGS.de.enquiry.sentTitle);
    assert.equal(doc.querySelector('[data-reference]')!.textContent, reference);
    assert.ok(doc.querySelector(`a[href="/de/space/${space}"]`), 'a way back to the space');

    const lead = await store.getLead(reference);
    assert.ok(lead, 'the lead is stored under the reference the page shows');
    assert.equal(lead.endpoint, 'inquiry');
    assert.deepEqual(
      { ...lead.payload, attribution: undefined },
      { name: PERSON.name, email: PERSON.email, phone: PERSON.phone, message: PERSON.message, locale: 'de', properties: [space], desks: 4, duration: 'months', moveInDate: '2027-03-01', attribution: undefined },
    );
    assert.equal(await tableRows(store, 'leads'), 1);
    // the relay marks a message sent once the SMTP server has taken it
    await waitFor(async () => (await store.outboxCounts()).sent === 2, 5000, 'the team\'s and the operator\'s email sent');
    assert.deepEqual(await store.outboxCounts(), { pending: 0, sent: 2, dead: 0 });
    assert.equal(smtp.messages.length, 2);
    assert.ok(smtp.messages.every((m) => m.headers.subject.includes(reference)));
  });

  it('the contact page\'s form posts a contact enquiry', async (t) => {
    const { origin, store } = await setup(t);
    const { action, fields } = await formOf(`${origin}/es/contact`);
    assert.equal(action, '/es/contact');
    const res = await post(origin, action, filled(fields, { subject: 'Datos' }));
    assert.equal(res.status, 303);
    const location = new URL(res.headers.get('location')!, origin);
    assert.equal(location.pathname, '/es/enquiry/sent');
    const lead = await store.getLead(location.searchParams.get('reference')!);
    assert.equal(lead?.endpoint, 'contact');
    assert.equal(lead?.payload.subject, 'Datos');
    assert.equal((await fetch(location)).status, 200);
  });

  it('sending the same form twice makes one enquiry; the same token with other details is refused with a new form', async (t) => {
    const { origin, store, space } = await setup(t);
    const { action, fields } = await formOf(`${origin}/en/space/${space}`);
    const [first, second] = await Promise.all([post(origin, action, filled(fields)), post(origin, action, filled(fields))]);
    const third = await post(origin, action, filled(fields));
    assert.deepEqual([first.status, second.status, third.status], [303, 303, 303]);
    assert.equal(second.headers.get('location'), first.headers.get('location'));
    assert.equal(third.headers.get('location'), first.headers.get('location'));
    assert.equal(await tableRows(store, 'leads'), 1);

    // someone else who got the same rendering of the page (a cache) makes an enquiry of their own
    const other = await post(origin, action, filled(fields, { name: 'Otto Other', email: 'otto@example.org' }));
    assert.equal(other.status, 303);
    assert.notEqual(other.headers.get('location'), first.headers.get('location'));
    assert.equal(await tableRows(store, 'leads'), 2);

    const changed = await post(origin, action, filled(fields, { message: 'Something else entirely' }));
    assert.equal(changed.status, 422);
    const doc = html(await changed.text());
    assert.ok(doc.querySelector('.error-summary')!.textContent!.includes(STRINGS.en.enquiry.conflict));
    const token = doc.querySelector('input[name="formToken"]')!.getAttribute('value');
    assert.notEqual(token, fields.formToken, 'a new token, so that sending again makes a new enquiry');
    assert.equal(textareaValue(doc.querySelector('textarea[name="message"]')!), 'Something else entirely');
    const again = await post(origin, action, filled(fields, { message: 'Something else entirely', formToken: token! }));
    assert.equal(again.status, 303);
    assert.equal(await tableRows(store, 'leads'), 3);
  });

  it('invalid input: the form again (400), each error beside its field, every value kept, nothing stored', async (t) => {
    const { origin, store, space } = await setup(t);
    const { action, fields } = await formOf(`${origin}/en/space/${space}`);
    const typed = { name: '', email: 'zelda@', phone: PERSON.phone, desks: '0', moveInDate: '2027-02-30', message: 'Hello <b>there</b> & co' };
    const res = await post(origin, action, { ...fields, ...typed });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const doc = html(await res.text());
    const e = STRINGS.en.enquiry;
    assert.ok(doc.title.startsWith(e.errorTitle('')), doc.title);
    assert.equal(errorBeside(doc, 'name'), e.required);
    assert.equal(errorBeside(doc, 'email'), e.email);
    assert.equal(errorBeside(doc, 'desks'), e.atLeast(InquiryBodySchema.shape.desks.unwrap().minValue!));
    assert.equal(errorBeside(doc, 'moveInDate'), e.date);
    assert.equal(errorBeside(doc, 'phone'), undefined);
    assert.equal(errorBeside(doc, 'message'), undefined);
    for (const [name, value] of Object.entries(typed)) {
      const control = doc.querySelector(`form.enquiry [name="${name}"]`)!;
      assert.equal(control.tagName === 'TEXTAREA' ? textareaValue(control) : control.getAttribute('value'), value, `${name} is kept`);
    }
    const summary = [...doc.querySelectorAll('.error-summary a')].map((a) => a.getAttribute('href'));
    assert.deepEqual(summary, ['#enquiry-name', '#enquiry-email', '#enquiry-desks', '#enquiry-moveInDate']);
    assert.equal(doc.querySelector('input[name="formToken"]')!.getAttribute('value'), fields.formToken, 'still the same form');
    assert.equal(await tableRows(store, 'leads'), 0);

    const tooLong = await post(origin, action, filled(fields, { name: 'x'.repeat(InquiryBodySchema.shape.name.maxLength! + 1) }));
    assert.equal(tooLong.status, 400);
    assert.equal(errorBeside(html(await tooLong.text()), 'name'), e.tooLong(InquiryBodySchema.shape.name.maxLength!));
  });

  it('each field carries the limits of the API\'s schema', async (t) => {
    const { origin, space } = await setup(t);
    const doc = html(await (await fetch(`${origin}/en/space/${space}/enquiry`)).text());
    const attr = (name: string, a: string) => doc.querySelector(`form.enquiry [name="${name}"]`)!.getAttribute(a);
    const { shape } = InquiryBodySchema;
    assert.equal(Number(attr('name', 'maxlength')), shape.name.maxLength);
    assert.equal(attr('name', 'required'), '');
    assert.equal(Number(attr('email', 'maxlength')), shape.email.maxLength);
    assert.equal(Number(attr('message', 'maxlength')), shape.message.unwrap().maxLength);
    assert.equal(attr('phone', 'required'), null);
    assert.equal(Number(attr('desks', 'min')), shape.desks.unwrap().minValue);
    assert.equal(Number(attr('desks', 'max')), shape.desks.unwrap().maxValue);
    assert.deepEqual([...doc.querySelectorAll('select[name="duration"] option')].map((o) => o.getAttribute('value')).filter(Boolean), shape.duration.unwrap().options);
  });

  it('over the lead limit: the form again as a page (429, Retry-After) with the values kept, not JSON', async (t) => {
    const { origin, store, space } = await setup(t, { env: { RATE_LIMIT_LEADS: '2' } });
    const { action, fields } = await formOf(`${origin}/de/space/${space}`);
    for (const email of ['a@example.org', 'b@example.org']) assert.equal((await post(origin, action, filled(fields, { email }))).status, 303);
    const res = await post(origin, action, filled(fields, { email: 'c@example.org' }));
    assert.equal(res.status, 429);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    const doc = html(await res.text());
    assert.equal(doc.documentElement.getAttribute('lang'), 'de');
    assert.ok(doc.querySelector('.error-summary')!.textContent!.includes(STRINGS.de.enquiry.rateLimited(10)));
    assert.equal(doc.querySelector('input[name="email"]')!.getAttribute('value'), 'c@example.org');
    assert.equal(textareaValue(doc.querySelector('textarea[name="message"]')!), PERSON.message);
    assert.equal(await tableRows(store, 'leads'), 2);
  });

  it('with the challenge on, the form carries the widget; a bad token is refused (403) and a solved one goes through', async (t) => {
    const { origin, store, verifier, space } = await setup(t, { challenge: true });
    for (const url of [`${origin}/en/space/${space}`, `${origin}/en/contact`]) {
      const doc = html(await (await fetch(url)).text());
      const widget = doc.querySelector('form.enquiry .cf-turnstile')!;
      assert.ok(widget, `the widget on ${url}`);
      assert.equal(widget.getAttribute('data-sitekey'), 'site-key-for-tests');
      assert.ok(doc.querySelector('form.enquiry script[src^="https://challenges.cloudflare.com/turnstile/"]'));
    }
    const { action, fields } = await formOf(`${origin}/en/space/${space}`);
    const refused = await post(origin, action, filled(fields, { 'cf-turnstile-response': 'not-a-real-token' }));
    assert.equal(refused.status, 403);
    const doc = html(await refused.text());
    assert.ok(doc.querySelector('.error-summary')!.textContent!.includes(STRINGS.en.enquiry.challengeFailed));
    assert.equal(doc.querySelector('input[name="name"]')!.getAttribute('value'), PERSON.name);
    assert.equal((await post(origin, action, filled(fields))).status, 403, 'no token at all');
    assert.equal(await tableRows(store, 'leads'), 0);
    assert.equal(verifier!.calls, 1, 'a missing token is refused without asking the verifier');

    const solved = await post(origin, action, filled(fields, { 'cf-turnstile-response': verifier!.issue() }));
    assert.equal(solved.status, 303);
    assert.equal(await tableRows(store, 'leads'), 1);
  });

  it('without the challenge no widget is shown; an unknown space or reference is a 404', async (t) => {
    const { origin, space } = await setup(t);
    const doc = html(await (await fetch(`${origin}/en/space/${space}`)).text());
    assert.equal(doc.querySelector('.cf-turnstile'), null);
    assert.equal(doc.querySelector('form.enquiry script'), null);
    assert.equal((await fetch(`${origin}/en/space/no-such-space/enquiry`)).status, 404);
    assert.equal((await post(origin, '/en/space/no-such-space/enquiry', { name: 'x', email: 'x@example.org' })).status, 404);
    assert.equal((await fetch(`${origin}/en/enquiry/sent?reference=DA-0000`)).status, 404);
    assert.equal((await fetch(`${origin}/en/enquiry/sent?reference=DA-0000000000&space=no-such-space`)).status, 404);
  });
});
