/**
 * Fuzzing against the published document (fast-check, seeded; FUZZ_SEED=n to explore another
 * seed). Every query parameter of every GET and every field of both lead bodies gets random and
 * boundary values, odd encodings (percent-encoding, raw UTF-8, lone surrogates, malformed
 * escapes, repeated parameters), and the lead endpoints also get malformed JSON, wrong content
 * types and oversized bodies. Properties: never a 5xx; every response matches the document (the
 * shared hook of test/support/app.ts: status declared, problem+json with status = HTTP status,
 * headers, 2xx bodies); and where the document is exact, the server agrees with it: a value the
 * document allows is accepted, a value it forbids is a 400 naming that parameter or field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { LeadsService } from '../../api/leads/service.ts';
import { buildTestApp, openService, ROUTING, tempDir } from '../leads/support.ts';
import { sharedValidator } from '../support/openapi-validator.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const GET_RUNS = 1600;
const POST_RUNS = 900;
const RAW_RUNS = 300;

const validator = sharedValidator();
const doc = validator.doc;

let app: FastifyInstance;
let service: LeadsService;
let requests = 0;
const statuses = new Map<number, number>();

before(async () => {
  const dir = tempDir({ after });
  service = await openService(dir);
  app = await buildTestApp(service, { env: { RATE_LIMIT_READS: '100000000', RATE_LIMIT_LEADS: '100000000' } });
});
after(async () => { await app?.close(); await service?.close(); });

async function send(opts: { method: 'GET' | 'POST'; url: string; payload?: string | Buffer; headers?: Record<string, string> }) {
  requests++;
  // app.inject validates every response against the document (test/support/app.ts)
  const res = await app.inject(opts);
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  assert.ok(res.statusCode < 500, `5xx for ${opts.method} ${opts.url.slice(0, 300)}: ${res.body.slice(0, 300)}`);
  return res;
}

/** UTF-8 percent-encoding that, unlike encodeURIComponent, also takes lone surrogates (as WTF-8). */
function percentEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
    }
    if (cp < 0x80 && /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(cp))) { out += String.fromCharCode(cp); continue; }
    const bytes = cp < 0x80 ? [cp]
      : cp < 0x800 ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
        : cp < 0x10000 ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
          : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const hasLoneSurrogate = (s: string) => s.search(LONE_SURROGATE) !== -1;

// ---------------------------------------------------------------- values from schemas

const SPECIAL_STRINGS = ['', ' ', '%', '%zz', '+', '&', '=', 'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor',
  '\u0000', '\ud800', '\udfff', '\u00e9', 'e\u0301', '\ufeff', '😀', '١٢٣', 'Ａ', '\n', '\t', '<script>', '../..', 'a,b', ',,,'];
const NUMBER_STRINGS = ['0', '-0', '1', '-1', '1.0', '1.5', '.5', '5.', '+5', '007', '1e3', '1E-3', '0x10', '0b1', '1_000', 'NaN',
  'Infinity', '-Infinity', '9007199254740991', '9007199254740993', '1e309', '2147483647', '2147483648', '-2147483648', ' 5', '5 ', '٣'];

const str = (min = 0, max = 20) => fc.oneof(
  fc.string({ minLength: min, maxLength: max }),
  fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
  fc.string({ unit: 'binary', minLength: min, maxLength: max }),
);

/** Strings around a length limit, in ASCII, 2-unit emoji and lone surrogates (code points ≠ UTF-16 units). */
function lengthEdges(min: number | undefined, max: number | undefined): fc.Arbitrary<string> {
  const lens = [min ?? 0, (min ?? 0) - 1, (min ?? 0) + 1, max ?? 0, (max ?? 0) + 1, (max ?? 0) - 1].filter((n) => n >= 0 && n <= 5000);
  return fc.tuple(fc.constantFrom(...lens), fc.constantFrom('a', 'é', '😀', '\ud800', 'x😀')).map(([n, unit]) => {
    const cps = [...unit];
    return Array.from({ length: n }, (_, i) => cps[i % cps.length]).join('');
  });
}

function numberText(schema: any): fc.Arbitrary<string> {
  const lo = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
  const hi = schema.maximum ?? 1e6;
  const edges = [schema.minimum, schema.maximum, schema.exclusiveMinimum].filter((v) => v !== undefined)
    .flatMap((v: number) => [v, v - 1, v + 1, v - 0.5, v + 0.5]);
  const span = Math.min(hi, 1e7) - Math.max(lo, -1e7);
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.max(-1e7, Math.floor(lo) - 2), max: Math.min(1e7, Math.ceil(hi) + 2) }).map(String) },
    { weight: 2, arbitrary: fc.constantFrom(...edges.map(String), ...NUMBER_STRINGS) },
    { weight: 1, arbitrary: fc.double({ min: Math.max(lo, -1e7) - 1, max: Math.max(lo, -1e7) + span + 1, noNaN: true }).map(String) },
    { weight: 1, arbitrary: str(0, 8) },
  );
}

/** Text for a query or path parameter of this schema: valid values, edges and junk. */
function paramText(schema: any): fc.Arbitrary<string> {
  if (schema.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum.map(String)) }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...SPECIAL_STRINGS), str()) });
  if (schema.type === 'integer' || schema.type === 'number') return numberText(schema);
  const parts: fc.Arbitrary<string>[] = [str(0, 30), fc.constantFrom(...SPECIAL_STRINGS), lengthEdges(schema.minLength, schema.maxLength)];
  if (schema.pattern) parts.push(fc.stringMatching(new RegExp(schema.pattern), { maxLength: 40 }) as fc.Arbitrary<string>, fc.stringMatching(new RegExp(schema.pattern)).map((s) => s.slice(0, 205)));
  return fc.oneof(...parts);
}

/** JSON values for a body field of this schema. */
function bodyValue(schema: any): fc.Arbitrary<unknown> {
  const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.constant([]), fc.constant({}), str());
  if (schema.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: junk });
  if (schema.const !== undefined) return fc.oneof(fc.constant(schema.const), junk);
  if (schema.type === 'integer' || schema.type === 'number') {
    return fc.oneof(numberText(schema).map((t) => (Number.isFinite(Number(t)) ? Number(t) : t)), junk);
  }
  if (schema.type === 'array') {
    const item = schema.items ? bodyValue(schema.items) : junk;
    const n = [schema.minItems ?? 0, schema.maxItems ?? 3, (schema.maxItems ?? 3) + 1].filter((x) => x >= 0);
    return fc.oneof(
      fc.array(item, { maxLength: 4 }),
      fc.constantFrom(...n).chain((len) => fc.array(schema.items?.pattern ? fc.stringMatching(new RegExp(schema.items.pattern), { maxLength: 12 }) : item, { minLength: len, maxLength: len })),
      junk,
    );
  }
  if (schema.type === 'object') return fc.oneof(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), junk);
  if (schema.type === 'string') {
    const parts: fc.Arbitrary<unknown>[] = [str(0, 40), fc.constantFrom(...SPECIAL_STRINGS), lengthEdges(schema.minLength, schema.maxLength), junk];
    if (schema.pattern) parts.push(fc.stringMatching(new RegExp(schema.pattern), { maxLength: 60 }));
    if (schema.format === 'date' || /\\d\{4\}/.test(schema.pattern ?? '')) parts.push(fc.constantFrom('2024-02-29', '2023-02-29', '2026-13-01', '2026-04-31', '2026-4-1', '2026-04-01T00:00:00Z'));
    return fc.oneof(...parts);
  }
  return junk;
}

// ---------------------------------------------------------------- the oracle

const JSON_INTEGER = /^-?(0|[1-9]\d*)$/;
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const LENIENT_NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Whether the document allows `text` for a parameter; undefined where it cannot say exactly. */
function documentAllows(schema: any, pointer: string[], text: string): boolean | undefined {
  if (schema.type === 'integer' || schema.type === 'number') {
    const grammar = schema.type === 'integer' ? JSON_INTEGER : JSON_NUMBER;
    if (grammar.test(text)) {
      const n = Number(text);
      // beyond what a double holds (1e309) or a safe integer: no exact reading to compare with
      if (!Number.isFinite(n) || (schema.type === 'integer' && !Number.isSafeInteger(n))) return undefined;
      return validator.validateAt(pointer, n).length === 0;
    }
    if (LENIENT_NUMBER.test(text) || /^[+-]?(Infinity|0x|0b|0o)/i.test(text)) return undefined; // forms a server may read as numbers
    return false;
  }
  // Free-form lists (amenities, bbox) are parsed by the server beyond what a schema states.
  if (schema.type === 'string' && !schema.enum && !schema.pattern && schema.maxLength === undefined && schema.minLength === undefined) return undefined;
  return validator.validateAt(pointer, text).length === 0;
}

interface GetOp { path: string; params: { name: string; in: string; required: boolean; schema: any; pointer: string[] }[] }
const GET_OPS: GetOp[] = Object.entries(doc.paths as Record<string, any>)
  .filter(([, item]) => item.get)
  .map(([path, item]) => ({
    path,
    params: (item.get.parameters ?? []).map((p: any, i: number) => ({ ...p, pointer: ['paths', path, 'get', 'parameters', String(i), 'schema'] })),
  }));

/** A valid value for each required parameter (and lat/lng together, so geo parameters can be tried). */
function baseParams(op: GetOp): Map<string, string> {
  const base = new Map<string, string>();
  const pick: Record<string, string> = { locale: 'en', city: 'berlin', q: 'ber', slug: 'loft-mitte', kind: 'city', asset: 'init.js', path: 'en' };
  for (const p of op.params) if (p.required) base.set(p.name, pick[p.name] ?? (p.schema.enum?.[0] ?? 'x'));
  if (op.params.some((p) => p.name === 'lat') && op.params.some((p) => p.name === 'lng')) { base.set('lat', '52.52'); base.set('lng', '13.405'); }
  return base;
}

const encodings = fc.constantFrom('percent', 'percent', 'plus', 'raw');
function encodeValue(value: string, how: string): string {
  if (how === 'plus') return percentEncode(value).replace(/%20/g, '+');
  // raw: only what would break the query's own syntax is escaped; the rest goes over the wire as UTF-8
  if (how === 'raw' && !hasLoneSurrogate(value)) return value.replace(/[%&#+=\s]/g, (c) => percentEncode(c));
  return percentEncode(value);
}

// ---------------------------------------------------------------- GET

describe('fuzzing', () => {
  const started = Date.now();

  it(`GET: every query and path parameter, ${GET_RUNS} requests`, async () => {
    const opArb = fc.constantFrom(...GET_OPS).chain((op) => {
      const target = op.params.length ? fc.constantFrom(...op.params) : fc.constant(undefined);
      return fc.record({
        op: fc.constant(op),
        target,
        value: target.chain((p) => (p ? paramText(p.schema) : fc.constant(''))),
        how: encodings,
        extra: fc.constantFrom('', '', '', 'repeat', 'junk', 'unknown', 'proto'),
      });
    });
    await fc.assert(fc.asyncProperty(opArb, async ({ op, target, value, how, extra }) => {
      const params = baseParams(op);
      if (target) params.set(target.name, value);
      let path = op.path;
      const query: string[] = [];
      for (const [name, v] of params) {
        const p = op.params.find((x) => x.name === name)!;
        if (p.in === 'path') {
          // a path segment cannot be empty or carry a slash and stay on this route; a lone surrogate
          // cannot be percent-encoded (invalid UTF-8 in a path has its own test below)
          const safe = v.replace(LONE_SURROGATE, '\ufffd');
          // always percent-encoded: raw, a backslash would become a slash and leave the route
          const seg = safe === '' ? '%20' : encodeValue(safe, 'percent').replace(/\//g, '%2F');
          path = path.replace(`{${name}}`, seg);
        } else query.push(`${percentEncode(name)}=${encodeValue(v, how)}`);
      }
      if (extra === 'repeat' && target?.in === 'query') query.push(`${target.name}=${encodeValue(value, 'percent')}`);
      if (extra === 'junk') query.push('%', '=x', '&', 'a[b]=1', 'x=%E0%A4%A');
      if (extra === 'unknown') query.push('utm_source=fuzz', 'page[size]=3');
      if (extra === 'proto') query.push('__proto__=x', 'constructor=y', 'toString=z');
      const url = query.length ? `${path}?${query.join('&')}` : path;
      const res = await send({ method: 'GET', url });

      if (!target || extra === 'junk' || hasLoneSurrogate(value)) return;
      if (how === 'raw' && /[^\x21-\x7e]/.test(value)) return; // raw non-ASCII bytes: the server may read them differently
      if (target.in === 'path' && (hasLoneSurrogate(value) || value.includes('%') || value === '' || value === '.' || value === '..' || value.includes('/'))) return;
      const allowed = extra === 'repeat' && target.in === 'query' ? false : documentAllows(target.schema, target.pointer, value);
      if (allowed === undefined) return;
      const paths = res.statusCode === 400 ? (JSON.parse(res.body).errors ?? []).map((e: { path: string }) => e.path) : [];
      if (allowed) {
        assert.ok(!paths.includes(target.name), `the document allows ${target.name}=${JSON.stringify(value)} on ${op.path} but the server rejected it: ${res.body.slice(0, 300)}`);
      } else {
        assert.equal(res.statusCode, 400, `the document forbids ${target.name}=${JSON.stringify(value)} on ${op.path} but the server answered ${res.statusCode}`);
        if (target.in === 'query') assert.ok(paths.includes(target.name), `400 without errors[].path ${target.name}: ${res.body.slice(0, 300)}`);
      }
    }), { seed: SEED, numRuns: GET_RUNS, endOnFailure: true, includeErrorInReport: true });
  });

  // -------------------------------------------------------------- POST bodies

  const leadOps = (['contact', 'inquiry'] as const).map((endpoint) => {
    const op = doc.paths[`/v1/leads/${endpoint}`].post;
    const ref: string = op.requestBody.content['application/json'].schema.$ref;
    const name = ref.split('/').pop()!;
    return { endpoint, name, schema: doc.components.schemas[name], pointer: ['components', 'schemas', name] };
  });
  const slugs = Object.keys(ROUTING);
  const baseBody = (endpoint: 'contact' | 'inquiry'): Record<string, unknown> => ({
    name: 'Fuzz Person', email: 'fuzz.person@example.org', locale: 'en',
    ...(endpoint === 'inquiry' ? { properties: [slugs[0]] } : {}),
  });
  let keyCounter = 0;

  it(`POST: every body field and the Idempotency-Key header, ${POST_RUNS} requests`, async () => {
    const arb = fc.constantFrom(...leadOps).chain((lead) => {
      const props = lead.schema.properties as Record<string, any>;
      const field = fc.constantFrom(...Object.keys(props));
      return fc.record({
        lead: fc.constant(lead),
        mutation: fc.oneof(
          { weight: 6, arbitrary: field.chain((f) => fc.record({ kind: fc.constant('set' as const), field: fc.constant(f), value: bodyValue(props[f]) })) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...(lead.schema.required as string[])), value: fc.constant(undefined) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknown' as const), field: fc.constantFrom('extra', '__proto__', 'constructor', 'Name', ''), value: fc.jsonValue({ maxDepth: 1 }) }) },
          { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), field: fc.constant(''), value: fc.jsonValue({ maxDepth: 3 }) }) },
          { weight: 2, arbitrary: fc.record({ kind: fc.constant('attribution' as const), field: fc.constantFrom('source', 'firstTouch', 'lastTouch', 'campaign', 'viewedProperties', 'other'), value: fc.jsonValue({ maxDepth: 1 }) }) },
        ),
        key: fc.oneof({ weight: 4, arbitrary: fc.constant('unique') }, { weight: 1, arbitrary: fc.constant('none') }, { weight: 1, arbitrary: lengthEdges(1, 200) }, { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) }),
        pretty: fc.boolean(),
      });
    });
    await fc.assert(fc.asyncProperty(arb, async ({ lead, mutation, key, pretty }) => {
      let body: unknown = baseBody(lead.endpoint);
      const obj = body as Record<string, unknown>;
      if (mutation.kind === 'set') {
        obj[mutation.field] = mutation.value;
        // an inquiry can name only spaces that exist; unknown slugs are checked separately below
        if (mutation.field === 'properties' && Array.isArray(mutation.value)) obj.properties = mutation.value.map((v, i) => (typeof v === 'string' && /^[a-z0-9-]{1,200}$/.test(v) ? slugs[i % slugs.length] : v));
      } else if (mutation.kind === 'drop') delete obj[mutation.field];
      else if (mutation.kind === 'unknown') Object.defineProperty(obj, mutation.field, { value: mutation.value, enumerable: true, configurable: true, writable: true });
      else if (mutation.kind === 'replace') body = mutation.value;
      else {
        const attribution: Record<string, unknown> = { source: 'web' };
        attribution[mutation.field] = mutation.field === 'viewedProperties' && !Array.isArray(mutation.value) ? [mutation.value] : mutation.value;
        obj.attribution = attribution;
      }
      const payload = pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body);
      if (payload === undefined) return;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      let keyValid = true;
      if (key === 'unique') headers['idempotency-key'] = `fuzz-${SEED}-${++keyCounter}`;
      else if (key !== 'none') {
        headers['idempotency-key'] = key.length ? key : '';
        if (/[^\t\x20-\x7e\x80-\xff]/.test(key) || key !== key.trim()) return; // not sendable as an HTTP header value
        keyValid = validator.validateAt(['components', 'parameters', 'Idempotency-Key', 'schema'], key).length === 0;
        if (keyValid) headers['idempotency-key'] = `${key}-${++keyCounter}`.slice(-200);
      }
      const res = await send({ method: 'POST', url: `/v1/leads/${lead.endpoint}`, payload, headers });
      // the body is open, but a `__proto__` member (or `constructor.prototype`) is refused as prototype poisoning
      const poisoned = /"__proto__"\s*:|"constructor"\s*:\s*\{[^}]*"prototype"\s*:/.test(payload);
      const docValid = validator.validateAt(lead.pointer, JSON.parse(payload)).length === 0 && !poisoned;
      if (docValid && keyValid) {
        assert.equal(res.statusCode, 200, `the document allows this ${lead.endpoint} body but the server answered ${res.statusCode}: ${payload.slice(0, 300)} → ${res.body.slice(0, 400)}`);
      } else {
        assert.equal(res.statusCode, 400, `the document forbids this ${lead.endpoint} body but the server answered ${res.statusCode}: ${payload.slice(0, 300)}`);
      }
    }), { seed: SEED + 1, numRuns: POST_RUNS, endOnFailure: true, includeErrorInReport: true });
  });

  // -------------------------------------------------------------- malformed requests

  it(`POST: malformed JSON, wrong content types, oversized bodies, odd encodings, ${RAW_RUNS} requests`, async () => {
    const valid = JSON.stringify({ name: 'Fuzz', email: 'fuzz@example.org', locale: 'en' });
    const payloads = fc.oneof(
      fc.constantFrom('', '{', '}', '[', 'null', 'true', '0', '""', '[]', '{"name":', valid.slice(0, -1), `${valid}x`, `\ufeff${valid}`,
        '{"name":"a","name":"b","email":"a@b.cd","locale":"en"}', '{"__proto__":{"admin":true},"name":"a","email":"a@b.cd","locale":"en"}',
        '{"name":"\\ud800","email":"a@b.cd","locale":"en"}', '{"name":"\\u0000","email":"a@b.cd","locale":"en"}', "{'name':'a'}", 'NaN',
        '['.repeat(30_000), '{"a":'.repeat(10_000), `{"name":"${'x'.repeat(70_000)}","email":"a@b.cd","locale":"en"}`,
        `{"name":"Fuzz","email":"a@b.cd","locale":"en","message":"${'😀'.repeat(17_000)}"}`),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
    ).map((s) => Buffer.from(s));
    const bytePayloads = fc.constantFrom(
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // invalid UTF-8 in a string
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","email":"a@b.cd","locale":"en"}')]), // CESU surrogate
      Buffer.from(valid, 'utf16le'),
      Buffer.alloc(64 * 1024 + 1, 0x20),
    );
    const contentTypes = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/JSON', 'application/vnd.api+json',
      '', 'application/json, text/plain', '*/*');
    await fc.assert(fc.asyncProperty(fc.oneof(payloads, bytePayloads), contentTypes, fc.constantFrom('contact', 'inquiry'),
      async (payload, contentType, endpoint) => {
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        const res = await send({ method: 'POST', url: `/v1/leads/${endpoint}`, payload, headers });
        let parsed: unknown;
        let json = false;
        try { parsed = JSON.parse(payload.toString('utf8').replace(/^\ufeff/, '')); json = true; } catch { /* malformed */ }
        // the JSON parser reads every application/json body as UTF-8, whatever its charset parameter says
        const jsonType = /^application\/json(\s*;.*)?$/i.test(contentType);
        const docValid = json && payload.length <= 64 * 1024 && validator.validateAt(leadOps.find((l) => l.endpoint === endpoint)!.pointer, parsed).length === 0;
        if (!jsonType || !docValid) assert.equal(res.statusCode, 400, `expected 400 for ${contentType} ${payload.toString('utf8').slice(0, 120)}: ${res.statusCode}`);
      }), { seed: SEED + 2, numRuns: RAW_RUNS, endOnFailure: true, includeErrorInReport: true });
  });

  it('replays an idempotent enquiry, rejects a changed body under the same key and refuses unknown spaces', async () => {
    const body = JSON.stringify({ ...baseBody('inquiry'), properties: [slugs[1]] });
    const headers = { 'content-type': 'application/json', 'idempotency-key': `fuzz-replay-${SEED}` };
    const first = await send({ method: 'POST', url: '/v1/leads/inquiry', payload: body, headers });
    const again = await send({ method: 'POST', url: '/v1/leads/inquiry', payload: body, headers });
    assert.equal(first.statusCode, 200);
    assert.equal(again.headers['idempotency-replayed'], 'true');
    assert.equal(again.body, first.body);
    const changed = await send({ method: 'POST', url: '/v1/leads/inquiry', payload: body.replace('Fuzz Person', 'Other Person'), headers });
    assert.equal(changed.statusCode, 422);
    const unknown = await send({ method: 'POST', url: '/v1/leads/inquiry', payload: JSON.stringify({ ...baseBody('inquiry'), properties: [slugs[0], 'no-such-space'] }), headers: { 'content-type': 'application/json' } });
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(JSON.parse(unknown.body).errors.map((e: { path: string }) => e.path), ['properties.1']);
  });

  it('answers a path segment that is not valid UTF-8, or longer than 100 characters, with problem+json and rate-limit headers', async () => {
    await send({ method: 'GET', url: '/v1/properties/%ED%A0%80?locale=en' });
    await send({ method: 'GET', url: '/v1/properties/%E0%A4%A?locale=en' });
    const r = await send({ method: 'GET', url: `/v1/properties/${'a'.repeat(150)}?locale=en` });
    assert.equal(r.statusCode, 404, 'a slug of 150 characters is valid: unknown, not too long');
  });

  it('keeps the resource of a page\'s protected-resource document a valid URI', async () => {
    const r = await send({ method: 'GET', url: '/.well-known/oauth-protected-resource/%25' });
    assert.ok(r.statusCode === 404 || /^https?:\/\/[^%]*(%[0-9A-F]{2}[^%]*)*$/i.test(r.json().resource));
  });

  it('sent every request it was asked for', () => {
    const elapsed = Date.now() - started;
    const summary = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`fuzzing: ${requests} requests in ${elapsed} ms (seed ${SEED}): ${summary}`);
    assert.ok(requests >= 2000, `only ${requests} requests`);
  });
});
