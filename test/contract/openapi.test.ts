import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { LOCALES } from '../../contract/common.ts';
import { ContactBodySchema } from '../../contract/leads.ts';
import { buildOpenApiDocument, openApiPath } from '../../api/openapi/document.ts';
import { COMMITTED_PATH, generateDocument } from '../../scripts/openapi-document.ts';
import { cacheControl } from '../../api/http/headers.ts';
import { testApp } from '../support/app.ts';
import { ContractMismatch, OpenApiValidator } from '../support/openapi-validator.ts';

const committedText = readFileSync(COMMITTED_PATH, 'utf8');
const doc = JSON.parse(committedText);
const ops = Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => ['get', 'post'].filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })));
const deref = (node: any): any => (node?.$ref ? deref(node.$ref.slice(2).split('/').reduce((o: any, k: string) => o[k], doc)) : node);

/** Every endpoint of the reference and of docs/design.md §3/§5 that the document must describe. */
const REQUIRED = [
  'GET /v1/config', 'GET /v1/facets', 'GET /v1/geo/bootstrap', 'GET /v1/health', 'GET /v1/properties',
  'POST /v1/leads/contact', 'POST /v1/leads/inquiry',
  'GET /v1/properties/{slug}', 'GET /v1/properties/map', 'GET /v1/market/rates', 'GET /v1/rankings',
  'GET /v1/places/{kind}/{slug}', 'GET /v1/operators/{slug}', 'GET /v1/search/suggest',
  'GET /api/price-index', 'GET /api/price-report', 'GET /api/price-report.datapackage.json', 'GET /openapi.json',
];

let app: FastifyInstance;
before(async () => { app = await testApp(); });
after(() => app.close());

describe('the OpenAPI document', () => {
  it('is committed exactly as generated (run `npm run openapi` after changing a route or schema)', async () => {
    assert.ok(committedText === await generateDocument(), 'api/openapi/openapi.json is stale: run `npm run openapi`');
  });

  it('is served at /openapi.json with the same paths and components, its server and examples on the origin it was requested at', async () => {
    const origin = 'http://docs.example.test:8443';
    const r = await app.inject({ url: '/openapi.json', headers: { host: 'docs.example.test:8443' } });
    assert.equal(r.statusCode, 200);
    assert.ok(!r.body.includes(doc.servers[0].url), `no URL on ${doc.servers[0].url}, where the examples were recorded`);
    const served = r.json();
    const committed = JSON.parse(committedText.replaceAll(doc.servers[0].url, origin));
    const withoutServers = (paths: Record<string, any>) => Object.fromEntries(Object.entries(paths).map(([k, { servers: _, ...item }]) => [k, item]));
    assert.deepEqual(withoutServers(served.paths), withoutServers(committed.paths));
    assert.deepEqual(served.components, committed.components);
    assert.deepEqual(served.servers, [{ url: origin, description: 'The API' }]);
    assert.deepEqual(served.paths['/api/price-index'].servers, [{ url: 'https://deskatlas.test', description: 'The site origin' }]);
    const example = served.paths['/v1/properties'].get.responses['200'].content['application/json'].examples.sample.value;
    assert.ok(example.data[0].images[0].url.startsWith(`${origin}/media/`), example.data[0].images[0].url);
  });

  it('puts no Host that is not a host into the document', async () => {
    const r = await app.inject({ url: '/openapi.json', headers: { host: 'evil.test"},{"url":"x' } });
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json().servers, [{ url: 'https://api.deskatlas.test', description: 'The API' }]);
  });

  it('is OpenAPI 3.1.0 with the base URL as server and no security requirement anywhere', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: 'http://localhost:3000', description: 'The API' }]);
    assert.ok(!/"security(Schemes)?"\s*:/.test(committedText), 'no security requirement or scheme');
  });

  for (const endpoint of REQUIRED) {
    it(`describes ${endpoint}`, () => {
      const [method, path] = endpoint.split(' ');
      assert.ok(doc.paths[path]?.[method.toLowerCase()], `${endpoint} is missing`);
    });
  }

  it('describes every route the app registers, the enquiries included, with its statuses and cache hint', () => {
    const leads = app.routeDefinitions.filter((def) => def.url.startsWith('/v1/leads/'));
    assert.deepEqual(leads.map((def) => `${def.method} ${def.url}`), ['POST /v1/leads/contact', 'POST /v1/leads/inquiry']);
    for (const def of app.routeDefinitions.filter((d) => !leads.includes(d))) {
      const op = doc.paths[openApiPath(def.url)]?.[def.method.toLowerCase()];
      assert.ok(op, `${def.method} ${def.url} missing`);
      assert.equal(op.operationId, def.operationId);
      assert.deepEqual(op['x-cache'], def.cache, def.operationId);
      assert.deepEqual(Object.keys(op.responses).map(Number).filter((s) => s !== 304).sort(), [...def.statuses].sort(), def.operationId);
      assert.equal(deref(op.responses['200']).headers['Cache-Control'].schema.const, cacheControl(def.cache));
    }
    for (const lead of leads) {
      const op = doc.paths[lead.url].post;
      assert.equal(op.operationId, lead.operationId);
      assert.deepEqual(Object.keys(op.responses).map(Number).sort(), [...lead.statuses].sort());
      assert.equal(op['x-cache'], 'no-store');
      assert.deepEqual(op.parameters, [{ $ref: '#/components/parameters/Idempotency-Key' }]);
      assert.equal(deref(op.responses['200']).headers['Idempotency-Replayed'].$ref, '#/components/headers/Idempotency-Replayed');
      assert.ok(op.requestBody.required);
      assert.match(op.description, /explicitly asked/);
      assert.match(op.description, /Never call/);
    }
    assert.deepEqual(doc.components.parameters['Idempotency-Key'].schema, { type: 'string', minLength: 1, maxLength: 200 });
  });

  it('sends RateLimit-* on every response, Retry-After on 429 and problem+json with its own status on every error', () => {
    for (const { path, method, op } of ops) {
      for (const [status, ref] of Object.entries(op.responses as Record<string, any>)) {
        const response = deref(ref);
        for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
          assert.ok(deref(response.headers?.[h])?.required, `${method} ${path} ${status} ${h}`);
        }
        if (status === '429') assert.ok(deref(response.headers['Retry-After']).required);
        if (Number(status) >= 400) {
          const schema = response.content['application/problem+json'].schema;
          assert.equal(schema.allOf[0].$ref, '#/components/schemas/Problem');
          assert.equal(schema.allOf[1].properties.status.const, Number(status));
        }
      }
    }
  });

  it('states the limits of the spec on parameters and bodies', () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name);
    assert.deepEqual(param('/v1/properties', 'locale'), { ...param('/v1/properties', 'locale'), required: true, schema: { type: 'string', enum: [...LOCALES] } });
    const list = (name: string) => param('/v1/properties', name).schema;
    assert.deepEqual([list('page').minimum, list('page').maximum], [1, 500]);
    assert.deepEqual([list('pageSize').minimum, list('pageSize').maximum], [1, 50]);
    assert.deepEqual([list('seed').minimum, list('seed').maximum], [0, 2147483647]);
    assert.deepEqual([list('radiusMeters').exclusiveMinimum, list('radiusMeters').maximum], [0, 200000]);
    assert.deepEqual([list('address').minLength, list('address').maxLength], [3, 120]);
    assert.deepEqual([list('city').minLength, list('city').maxLength, list('city').pattern], [1, 200, '^[a-z0-9-]+$']);
    assert.match(param('/v1/properties', 'seed').description, /meta\.seed/);
    const contact = doc.components.schemas.ContactLeadBody;
    assert.deepEqual(contact.required, ['name', 'email', 'locale']);
    assert.deepEqual([contact.properties.name.minLength, contact.properties.name.maxLength], [1, 120]);
    assert.equal(contact.properties.message.maxLength, 4000);
    assert.equal(contact.properties.website.maxLength, 0);
    assert.equal(contact.additionalProperties, undefined, 'open, as in the reference: unknown members are accepted and dropped');
    assert.equal(doc.components.schemas.Attribution.additionalProperties, undefined);
    const inquiry = doc.components.schemas.InquiryLeadBody;
    assert.deepEqual([inquiry.properties.properties.minItems, inquiry.properties.properties.maxItems], [1, 20]);
    assert.deepEqual([inquiry.properties.desks.minimum, inquiry.properties.desks.maximum], [1, 1000]);
    assert.equal(inquiry.properties.subject, undefined);
  });

  it('declares as `default` what the server does when a parameter is absent', async () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema.default;
    const declared = {
      list: [param('/v1/properties', 'page'), param('/v1/properties', 'pageSize'), param('/v1/properties', 'sortBy')],
      map: [param('/v1/properties/map', 'page'), param('/v1/properties/map', 'pageSize'), param('/v1/properties/map', 'sortBy')],
      rankings: param('/v1/rankings', 'limit'),
      suggest: param('/v1/search/suggest', 'limit'),
    };
    assert.deepEqual(declared, { list: [1, 20, 'random'], map: [1, 5000, 'random'], rankings: 10, suggest: 8 });
    for (const [path, [page, pageSize]] of [['/v1/properties', declared.list], ['/v1/properties/map', declared.map]] as const) {
      const r = (await app.inject({ url: `${path}?locale=en` })).json();
      assert.deepEqual([r.meta.pagination.page, r.meta.pagination.pageSize], [page, pageSize], path);
      assert.equal(typeof r.meta.seed, 'number', `${path}: the default order is random`);
    }
    const suggest = (await app.inject({ url: '/v1/search/suggest?locale=en&q=b' })).json();
    assert.equal(suggest.meta.pagination.pageSize, declared.suggest);
    // the rankings' default is checked on the sample build (test/contract/reference.test.ts): the fixture's cities are small
  });

  it('lists the catalogue, market and search before the discovery documents, in /docs and in the paths', () => {
    const tags = doc.tags.map((t: { name: string }) => t.name);
    assert.deepEqual(tags.slice(0, 8), ['properties', 'facets', 'geo', 'market', 'rankings', 'places', 'operators', 'search']);
    assert.deepEqual(tags.slice(-2), ['docs', 'discovery']);
    const tagOfPath = Object.values(doc.paths as Record<string, any>).map((item) => (item.get ?? item.post).tags[0] as string);
    const ranks = tagOfPath.map((t) => tags.indexOf(t));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'paths follow the order of the tags');
    assert.equal(Object.keys(doc.paths)[0], '/v1/properties');
    assert.equal(tagOfPath.at(-1), 'discovery');
  });

  it('tells an integrator what a sample size is and how to page a random list', () => {
    assert.match(doc.info.description, /## Sample sizes/);
    assert.match(doc.info.description, /send it back as `seed`/);
    assert.match(doc.components.schemas.MarketPosition.properties.sampleSize.description, /distinct spaces/);
  });
});

describe('string limits', () => {
  it('are counted in code points by the server, as JSON Schema counts them (zod >= 4.1 does)', async () => {
    const validator = new OpenApiValidator(doc);
    const at = doc.paths['/v1/properties'].get.parameters.findIndex((p: any) => p.name === 'address');
    for (const [value, ok] of [['😀😀', false], ['😀😀😀', true], ['😀'.repeat(120), true], ['😀'.repeat(121), false]] as const) {
      assert.equal(validator.validateAt(['paths', '/v1/properties', 'get', 'parameters', String(at), 'schema'], value).length === 0, ok, `document, ${value.length} units`);
      const r = await app.inject({ url: `/v1/properties?locale=en&address=${encodeURIComponent(value)}` });
      assert.equal(r.statusCode, ok ? 200 : 400, `server, ${value.length} units`);
    }
    const name = '😀'.repeat(120);
    assert.equal(ContactBodySchema.safeParse({ name, email: 'a@b.cd', locale: 'en' }).success, true);
    assert.equal(validator.validateAt(['components', 'schemas', 'ContactLeadBody'], { name, email: 'a@b.cd', locale: 'en' }).length, 0);
  });
});

describe('Spectral (spectral:oas, every rule)', () => {
  it('finds no error and no warning that .spectral.yaml does not justify', async () => {
    const bin = fileURLToPath(new URL('../../node_modules/.bin/spectral', import.meta.url));
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const { stdout } = await promisify(execFile)(bin, ['lint', '-q', '-f', 'json', '--fail-severity', 'error', '--ruleset', '.spectral.yaml', 'api/openapi/openapi.json'], { cwd: root, maxBuffer: 16 << 20 })
      .catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '[]' }));
    const results = JSON.parse(stdout || '[]') as { code: string; severity: number; path: string[]; message: string }[];
    const lines = results.map((r) => `${['error', 'warning', 'info', 'hint'][r.severity]} ${r.code} at ${r.path.join('.')}: ${r.message}`);
    assert.deepEqual(lines.filter((l) => l.startsWith('error')), []);
    assert.deepEqual(lines, [], 'fix each warning, or switch the rule off in .spectral.yaml with the reason');
  });
});

describe('GET /docs', () => {
  it('lists every operation of the document in its HTML, before any script has run', async () => {
    const r = await app.inject({ url: '/docs' });
    const listed = [...r.body.matchAll(/<span class="opblock-summary-method">(\w+)<\/span> <code class="opblock-summary-path">([^<]+)<\/code>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(listed, ops.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    const scripts = [...r.body.matchAll(/<script [^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0 && scripts.every((tag) => / defer[ >]/.test(tag)), `scripts wait for the page: ${scripts}`);
  });

  it('renders the reference from /openapi.json with assets served by us, nothing from a CDN', async () => {
    const r = await app.inject({ url: '/docs' });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    const refs = [...r.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length >= 3);
    for (const ref of refs) {
      assert.ok(ref.startsWith('/'), `${ref} is not served by us`);
      const asset = await app.inject({ url: ref });
      assert.equal(asset.statusCode, 200, ref);
    }
    const init = await app.inject({ url: '/docs/init.js' });
    assert.match(init.body, /url: '\/openapi\.json'/);
    assert.match(init.body, /supportedSubmitMethods: \['get'\]/, 'enquiries must never be tried out from the page');
    assert.equal((await app.inject({ url: '/docs/swagger-ui.css' })).headers['content-type'], 'text/css; charset=utf-8');
  });
});

describe('the shared response validator', () => {
  const validator = new OpenApiValidator(doc);
  const ok = { 'content-type': 'application/json', 'cache-control': 'no-store', etag: '"x"', 'ratelimit-limit': '120', 'ratelimit-remaining': '3', 'ratelimit-reset': '60' };
  const health = (body: unknown, headers: Record<string, string> = ok, statusCode = 200) =>
    validator.check({ method: 'GET', url: '/v1/health', route: '/v1/health', statusCode, headers, body: Buffer.from(JSON.stringify(body)) });

  it('accepts a response that matches and names what does not', () => {
    assert.deepEqual(health({ data: { status: 'ok', sha: 'abc' }, meta: { contractVersion: '1.0.0' } }), []);
    assert.match(health({ data: { status: 'ok' }, meta: { contractVersion: '1.0.0' } }).join(), /sha/);
    assert.match(health({ data: { status: 'ok', sha: 'a', extra: 1 }, meta: { contractVersion: '1.0.0' } }).join(), /additional/);
    const { 'ratelimit-remaining': _, ...noRemaining } = ok;
    assert.match(health({ data: { status: 'ok', sha: 'a' }, meta: { contractVersion: '1.0.0' } }, noRemaining).join(), /RateLimit-Remaining/);
    assert.match(health({}, ok, 418).join(), /418 is not declared/);
    assert.match(health({ data: { status: 'ok', sha: 'a' }, meta: { contractVersion: '1.0.0' } }, { ...ok, 'content-type': 'text/plain' }).join(), /content type/);
    const problem = { type: 'x', title: 't', status: 400, code: 'VALIDATION_FAILED' };
    const errHeaders = { ...ok, 'content-type': 'application/problem+json' };
    assert.deepEqual(health(problem, errHeaders, 400), []);
    assert.match(health({ ...problem, status: 404 }, errHeaders, 400).join(), /status/);
    assert.match(health(problem, { ...errHeaders, 'cache-control': 'public' }, 400).join(), /Cache-Control/);
  });

  it('makes app.inject reject when a response does not match, failing the test that made it', async () => {
    const corrupt: FastifyPluginAsync = async (instance) => {
      instance.addHook('onSend', async (request, _reply, payload) => (request.url === '/v1/health' ? String(payload).replace('"sha"', '"shaa"') : payload));
    };
    // not encapsulated (what fastify-plugin does), so the hook sees the app's own routes
    (corrupt as any)[Symbol.for('skip-override')] = true;
    const bad = await testApp({ plugins: [corrupt] });
    try {
      await assert.rejects(bad.inject({ url: '/v1/health' }), (err: Error) => err instanceof ContractMismatch && /sha/.test(err.message));
      assert.equal((await bad.inject({ url: '/v1/config' })).statusCode, 200);
    } finally {
      await bad.close();
    }
  });
});
