import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LOCALES } from '../../contract/common.ts';
import {
  ContactBodySchema, IdempotencyKeySchema, InquiryBodySchema, LeadReceiptSchema,
} from '../../contract/leads.ts';
import { fieldErrors } from '../../api/http/errors.ts';
import { unknownMembers } from '../../api/http/unknown-members.ts';
import { newReference } from '../../api/leads/service.ts';

const contact = { name: 'A', email: 'a@example.com', locale: 'en' };
const inquiry = { ...contact, properties: ['loft-mitte'] };
const s = (n: number, c = 'x') => c.repeat(n);
const slugs = (n: number) => Array.from({ length: n }, (_, i) => `space-${i}`);

function paths(schema: typeof ContactBodySchema | typeof InquiryBodySchema, body: unknown): string[] {
  const r = schema.safeParse(body);
  return r.success ? [] : fieldErrors(r.error, '(body)').map((e) => e.path);
}

/** [field, largest accepted value, smallest rejected value] */
const stringLimits: Array<[string, unknown, unknown]> = [
  ['name', s(120), s(121)],
  ['phone', s(40), s(41)],
  ['company', s(160), s(161)],
  ['message', s(4000), s(4001)],
  ['challengeToken', s(4000), s(4001)],
  ['website', '', 'x'],
];

describe('lead bodies: every limit on both sides of its boundary', () => {
  for (const [schema, base, name] of [[ContactBodySchema, contact, 'contact'], [InquiryBodySchema, inquiry, 'inquiry']] as const) {
    for (const [field, ok, bad] of stringLimits) {
      it(`${name}.${field} accepts the limit and rejects one past it`, () => {
        assert.deepEqual(paths(schema, { ...base, [field]: ok }), []);
        assert.deepEqual(paths(schema, { ...base, [field]: bad }), [field]);
      });
    }
    it(`${name}.name needs at least 1 character`, () => {
      assert.deepEqual(paths(schema, { ...base, name: 'Q' }), []);
      assert.deepEqual(paths(schema, { ...base, name: '' }), ['name']);
    });
    it(`${name}.email is at most 200 characters`, () => {
      const at200 = `${s(200 - '@example.com'.length)}@example.com`;
      assert.equal(at200.length, 200);
      assert.deepEqual(paths(schema, { ...base, email: at200 }), []);
      assert.deepEqual(paths(schema, { ...base, email: `x${at200}` }), ['email']);
    });
    it(`${name}: name, email and locale are required; locale is one of LOCALES`, () => {
      assert.deepEqual(paths(schema, { ...base, name: undefined, email: undefined, locale: undefined }).sort(), ['email', 'locale', 'name']);
      for (const locale of LOCALES) assert.deepEqual(paths(schema, { ...base, locale }), []);
      assert.deepEqual(paths(schema, { ...base, locale: 'xx' }), ['locale']);
    });
    it(`${name}: unknown members are accepted and dropped at every level (open objects, as in the reference)`, () => {
      const parsed = schema.parse({ ...base, referrer: 'partner-app', attribution: { source: 'web', utmSource: 'x' } });
      assert.equal('referrer' in parsed, false);
      assert.deepEqual(parsed.attribution, { source: 'web' });
      assert.deepEqual(unknownMembers(schema, { ...base, referrer: 'partner-app', attribution: { source: 'web', utmSource: 'x' } }), ['referrer', 'attribution.utmSource']);
      assert.deepEqual(unknownMembers(schema, base), []);
    });
    it(`${name}: a declared member keeps its limits next to unknown ones`, () => {
      assert.deepEqual(paths(schema, { ...base, extra: 1, name: '' }), ['name']);
      assert.deepEqual(paths(schema, { ...base, attribution: { source: 'web', utm: 'x', campaign: s(121) } }), ['attribution.campaign']);
      assert.deepEqual(paths(schema, { ...base, attribution: { utm: 'x' } }), ['attribution.source']);
    });
    it(`${name}.attribution: source web|app required; touches ≤ 200, campaign ≤ 120, ≤ 50 viewed slugs`, () => {
      const a = (x: object) => paths(schema, { ...base, attribution: { source: 'web', ...x } });
      assert.deepEqual(paths(schema, { ...base, attribution: { source: 'app' } }), []);
      assert.deepEqual(paths(schema, { ...base, attribution: {} }), ['attribution.source']);
      assert.deepEqual(paths(schema, { ...base, attribution: { source: 'email' } }), ['attribution.source']);
      assert.deepEqual(a({ firstTouch: s(200), lastTouch: s(200), campaign: s(120), viewedProperties: slugs(50) }), []);
      assert.deepEqual(a({ firstTouch: s(201) }), ['attribution.firstTouch']);
      assert.deepEqual(a({ lastTouch: s(201) }), ['attribution.lastTouch']);
      assert.deepEqual(a({ campaign: s(121) }), ['attribution.campaign']);
      assert.deepEqual(a({ viewedProperties: slugs(51) }), ['attribution.viewedProperties']);
      assert.deepEqual(a({ viewedProperties: ['ok', 'fine', 'also-ok', 'Not_A_Slug'] }), ['attribution.viewedProperties.3']);
      assert.deepEqual(a({ viewedProperties: [s(200, 'a')] }), []);
      assert.deepEqual(a({ viewedProperties: [s(201, 'a')] }), ['attribution.viewedProperties.0']);
      assert.deepEqual(a({ viewedProperties: [''] }), ['attribution.viewedProperties.0']);
    });
  }

  it('contact.subject is at most 200 characters; inquiry has no subject (one sent is dropped)', () => {
    assert.deepEqual(paths(ContactBodySchema, { ...contact, subject: s(200) }), []);
    assert.deepEqual(paths(ContactBodySchema, { ...contact, subject: s(201) }), ['subject']);
    assert.equal('subject' in InquiryBodySchema.parse({ ...inquiry, subject: 'x' }), false);
  });

  it('inquiry.properties: 1 to 20 slugs, each 1-200 chars of [a-z0-9-]', () => {
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: slugs(1) }), []);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: slugs(20) }), []);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: [] }), ['properties']);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: slugs(21) }), ['properties']);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: undefined }), ['properties']);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: ['a', 'b', 'C'] }), ['properties.2']);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: [s(200, 'a')] }), []);
    assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, properties: [s(201, 'a')] }), ['properties.0']);
  });

  it('inquiry.desks is an integer from 1 to 1000', () => {
    for (const desks of [1, 1000]) assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, desks }), []);
    for (const desks of [0, 1001, 2.5, '3', -1]) assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, desks }), ['desks'], String(desks));
  });

  it('inquiry.duration is hours, days, weeks, months or years', () => {
    for (const duration of ['hours', 'days', 'weeks', 'months', 'years']) assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, duration }), []);
    for (const duration of ['decades', 'Months', '']) assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, duration }), ['duration']);
  });

  it('inquiry.moveInDate is a real calendar date, leap years respected', () => {
    for (const d of ['2024-02-29', '2000-02-29', '2400-02-29', '2025-12-31', '2025-01-01', '2025-04-30']) {
      assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, moveInDate: d }), [], d);
    }
    for (const d of ['2023-02-29', '1900-02-29', '2100-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-32',
      '2025-1-01', '20250101', '2025-01-01T00:00:00Z', '']) {
      assert.deepEqual(paths(InquiryBodySchema, { ...inquiry, moveInDate: d }), ['moveInDate'], d);
    }
  });
});

describe('lead email rule', () => {
  const valid = [
    'a@example.com', 'first.last@example.co', 'o\'brien+tag@sub.example.travel', 'x_y-z@a-b.example.de',
    'UPPER@EXAMPLE.ORG', '1@2.io',
  ];
  const invalid = [
    '.lead@example.com', // local part starts with a dot
    'a..b@example.com', // consecutive dots
    'a@example', // one label only
    'a@example.c', // final label shorter than 2
    'a@example.c0m', // final label not letters
    'a@exa..mple.com', // empty label
    'a@.example.com',
    'a b@example.com', 'a@exa mple.com', '<a@example.com>', 'a@example.com, b@example.com',
    'a@b@example.com', 'plainaddress', '@example.com', 'a@', 'a\n@example.com',
  ];
  for (const email of valid) it(`accepts ${email}`, () => assert.deepEqual(paths(ContactBodySchema, { ...contact, email }), []));
  for (const email of invalid) it(`rejects ${JSON.stringify(email)}`, () => assert.deepEqual(paths(ContactBodySchema, { ...contact, email }), ['email']));
});

describe('Idempotency-Key header and receipt', () => {
  it('accepts 1 to 200 characters', () => {
    assert.equal(IdempotencyKeySchema.safeParse(s(200)).success, true);
    assert.equal(IdempotencyKeySchema.safeParse(s(201)).success, false);
    assert.equal(IdempotencyKeySchema.safeParse('').success, false);
  });
  it('references look like DA-7K3QX9M2PT, random and from an unambiguous alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const ref = newReference();
      assert.match(ref, /^DA-[0-9A-HJKMNP-TV-Z]{10}$/);
      assert.equal(LeadReceiptSchema.safeParse({ received: true, reference: ref }).success, true);
      seen.add(ref);
    }
    assert.equal(seen.size, 2000);
  });
});
