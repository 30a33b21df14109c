/**
 * Clients of the published contract, on a fresh build of the committed sample (data/):
 * - a client generated from the reference OpenAPI (reference-openapi.json, a copy of the
 *   document official apps are built on) gets responses that validate against it, with only the
 *   additions api/openapi/additions.ts lists, and has its requests and bodies accepted;
 * - the examples of our document are the real answers of that build.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { REFERENCE_ADDITIONS } from '../../api/openapi/additions.ts';
import { publishedExamples } from '../../api/openapi/examples.ts';
import { COMMITTED_PATH } from '../../scripts/openapi-document.ts';
import { collectExamples, sampleApp, stableExamples, type SampleApp } from '../../scripts/openapi-examples.ts';
import { OpenApiValidator } from '../support/openapi-validator.ts';

type Json = Record<string, any>;
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof import('ajv/dist/2020.js').default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;

const reference: Json = JSON.parse(readFileSync(new URL('./reference-openapi.json', import.meta.url), 'utf8'));
const ours: Json = JSON.parse(readFileSync(COMMITTED_PATH, 'utf8'));
const examples = publishedExamples();

interface Operation { path: string; method: string; op: Json }
const operations = (doc: Json): Map<string, Operation> => new Map(Object.entries(doc.paths as Json)
  .flatMap(([path, item]) => ['get', 'post'].filter((m) => item[m]).map((method) => [item[method].operationId, { path, method, op: item[method] }] as const)));
const referenceOps = operations(reference);
const ourOps = operations(ours);

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const explain = (errors: typeof ajv.errors) => (errors ?? []).slice(0, 6).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);

/** The reference's schema with the listed members added to the `properties` of the objects they belong to. */
function withAdditions(schema: Json, members: string[]): Json {
  const copy = structuredClone(schema);
  for (const member of members) {
    const steps = member.split('.');
    let node = copy;
    steps.forEach((step, i) => {
      const name = step.replace(/\[\]$/, '');
      assert.ok(node?.properties, `${member}: no object at ${steps.slice(0, i).join('.') || '(root)'} in the reference`);
      if (i === steps.length - 1) {
        assert.ok(!(name in node.properties), `${member} is in the reference: not an addition`);
        node.properties[name] = {};
      } else {
        node = node.properties[name];
        if (step.endsWith('[]')) node = node?.items;
      }
    });
  }
  return copy;
}

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function referenceValidator(operationId: string, status: number): ReturnType<typeof ajv.compile> {
  const key = `${operationId} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const { op } = referenceOps.get(operationId)!;
    const response = op.responses[String(status)] ?? op.responses['400'];
    const media = status < 400 ? 'application/json' : 'application/problem+json';
    const schema = response.content[media].schema;
    validate = ajv.compile(status < 400 ? withAdditions(schema, REFERENCE_ADDITIONS[operationId].members ?? []) : schema);
    validators.set(key, validate);
  }
  return validate;
}

/** A query or path value as the reference's parameter schema types it. */
function typed(schema: Json, raw: string): unknown {
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
}

/** What the reference finds wrong with a request's parameters (names it does not declare must be listed additions). */
function requestProblems(operationId: string, url: string): string[] {
  const { path, op } = referenceOps.get(operationId)!;
  const [pathname, search = ''] = url.split('?');
  const values = new Map<string, string>(new URLSearchParams(search));
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const match = new RegExp(`^${path.replace(/\{[^}]+\}/g, '([^/]+)')}$`).exec(pathname);
  assert.ok(match, `${url} is not ${path}`);
  names.forEach((name, i) => values.set(name, decodeURIComponent(match[i + 1])));
  const problems: string[] = [];
  const declared = new Map<string, Json>((op.parameters ?? []).map((p: Json) => [p.name, p]));
  for (const [name, p] of declared) {
    if (p.required && !values.has(name)) problems.push(`${name} is required`);
  }
  for (const [name, raw] of values) {
    const p = declared.get(name);
    if (!p) {
      if (!REFERENCE_ADDITIONS[operationId].parameters?.includes(name)) problems.push(`${name} is neither in the reference nor a listed addition`);
      continue;
    }
    const validate = ajv.compile(p.schema);
    if (!validate(typed(p.schema, raw))) problems.push(`${name}=${raw}: ${explain(validate.errors).join('; ')}`);
  }
  return problems;
}

function bodyProblems(operationId: string, body: unknown): string[] {
  const validate = ajv.compile(referenceOps.get(operationId)!.op.requestBody.content['application/json'].schema);
  return validate(body) ? [] : explain(validate.errors);
}

let sample: SampleApp;
before(async () => { sample = await sampleApp(); });
after(() => sample?.close());

/** Sends a request as a client generated from the reference and checks both sides against it. */
async function asReferenceClient(operationId: string, url: string, expected: { status: number; body?: unknown }) {
  const method = referenceOps.get(operationId)!.method.toUpperCase();
  const requestSide = requestProblems(operationId, url);
  if (expected.status === 400 && expected.body === undefined) assert.notDeepEqual(requestSide, [], `the reference also rejects ${url}`);
  else assert.deepEqual(requestSide, [], `${method} ${url}: the request is valid by the reference`);
  if (expected.body !== undefined) {
    const bodySide = bodyProblems(operationId, expected.body);
    if (expected.status === 400) assert.notDeepEqual(bodySide, [], 'the reference also rejects this body');
    else assert.deepEqual(bodySide, [], 'the body is valid by the reference');
  }
  const res = await sample.app.inject({ method, url, ...(expected.body === undefined ? {} : { payload: expected.body as object }) });
  assert.equal(res.statusCode, expected.status, `${method} ${url}: ${res.body.slice(0, 300)}`);
  const declared = Object.keys(referenceOps.get(operationId)!.op.responses).map(Number);
  assert.ok(declared.includes(res.statusCode) || REFERENCE_ADDITIONS[operationId].statuses?.includes(res.statusCode),
    `${operationId} answered ${res.statusCode}, which the reference does not declare and additions.ts does not list`);
  const validate = referenceValidator(operationId, res.statusCode);
  assert.ok(validate(res.json()), `${method} ${url} → ${res.statusCode} does not match the reference:\n  ${explain(validate.errors).join('\n  ')}`);
  return res.json();
}

const P = (operationId: string) => examples.operations[operationId].parameters;
const qs = (params: Record<string, unknown>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const pick = (operationId: string, ...names: string[]) => Object.fromEntries(names.map((n) => [n, P(operationId)[n]]));

describe('the reference OpenAPI (test/contract/reference-openapi.json)', () => {
  it('names its 14 operations by its own operationIds and tags, at the same paths', () => {
    assert.equal(referenceOps.size, 14);
    for (const [operationId, { path, method, op }] of referenceOps) {
      const mine = ours.paths[path]?.[method];
      assert.ok(mine, `${method} ${path} missing`);
      assert.equal(mine.operationId, operationId);
      assert.deepEqual(mine.tags, op.tags, operationId);
    }
  });

  it('lists as additions exactly the parameters the reference does not declare', () => {
    assert.deepEqual(Object.keys(REFERENCE_ADDITIONS).sort(), [...referenceOps.keys()].sort());
    for (const [operationId, { op }] of referenceOps) {
      const theirs = new Set((op.parameters ?? []).map((p: Json) => p.name));
      const mine = (ourOps.get(operationId)!.op.parameters ?? []).map((p: Json) => p.name ?? p.$ref.split('/').pop());
      assert.deepEqual(mine.filter((n: string) => !theirs.has(n)).sort(), [...REFERENCE_ADDITIONS[operationId].parameters ?? []].sort(), operationId);
    }
  });

  it('declares the defaults the reference declares (the map pages its whole set: its own pageSize default)', () => {
    for (const [operationId, { op }] of referenceOps) {
      for (const p of op.parameters ?? []) {
        if (p.schema.default === undefined || (operationId === 'mapProperties' && p.name === 'pageSize')) continue;
        const mine = ourOps.get(operationId)!.op.parameters.find((q: Json) => q.name === p.name);
        assert.equal(mine.schema.default, p.schema.default, `${operationId} ${p.name}`);
      }
    }
  });

  it('accepts the live responses of every one of its operations, with only the listed additions', async () => {
    const list = P('listProperties');
    const point = pick('listProperties', 'lat', 'lng', 'radiusMeters');
    const reads: [string, string, number][] = [
      ['listProperties', examples.operations.listProperties.request!.slice(4), 200],
      ['listProperties', `/v1/properties?${qs({ locale: 'de', ...point, sortBy: 'distance', pageSize: 5 })}`, 200],
      ['listProperties', `/v1/properties?${qs({ locale: 'es', ...pick('listProperties', 'country', 'pricingOptionType', 'currency', 'amenities'), page: 2, seed: list.seed, pageSize: 3 })}`, 200],
      ['listProperties', `/v1/properties?${qs({ locale: 'en', ...pick('listProperties', 'zone', 'operator', 'minCapacity', 'minPrice', 'maxPrice', 'bbox'), sortBy: 'price-asc' })}`, 200],
      ['listProperties', `/v1/properties?${qs({ locale: 'en', sortBy: 'date-desc', pageSize: 50 })}`, 200],
      ['listProperties', '/v1/properties?city=London', 400],
      ['mapProperties', examples.operations.mapProperties.request!.slice(4), 200],
      ['mapProperties', `/v1/properties/map?${qs({ locale: 'es', ...point, pageSize: 50 })}`, 200],
      ['mapProperties', `/v1/properties/map?${qs({ locale: 'en', bbox: list.bbox })}`, 200],
      ['propertyDetail', `/v1/properties/${P('propertyDetail').slug}?locale=de`, 200],
      ['propertyDetail', `/v1/properties/${P('propertyDetail').slug}?locale=es`, 200],
      ['propertyDetail', `/v1/properties/${P('propertyDetail').slug}-closed?locale=en`, 404],
      ['facets', examples.operations.facets.request!.slice(4), 200],
      ['facets', `/v1/facets?${qs({ locale: 'de', ...pick('facets', 'country', 'pricingOptionType', 'currency') })}`, 200],
      ['facets', '/v1/facets', 400],
      ['geoBootstrap', '/v1/geo/bootstrap?locale=en', 200],
      ['geoBootstrap', '/v1/geo/bootstrap?locale=es', 200],
      ['marketRates', examples.operations.marketRates.request!.slice(4), 200],
      ['marketRates', '/v1/market/rates?locale=de', 200],
      ['marketRates', `/v1/market/rates?${qs({ locale: 'es', ...pick('marketRates', 'country', 'currency') })}`, 200],
      ['rankings', examples.operations.rankings.request!.slice(4), 200],
      ['rankings', `/v1/rankings?${qs({ locale: 'de', city: P('rankings').city })}`, 200],
      ['rankings', '/v1/rankings?locale=en&city=atlantis', 404],
      ['rankings', '/v1/rankings?locale=en', 400],
      ['placeProfile', `/v1/places/city/${P('placeProfile').slug}?locale=de`, 200],
      ['placeProfile', `/v1/places/country/${list.country}?locale=es`, 200],
      ['placeProfile', `/v1/places/zone/${list.zone}?locale=en`, 200],
      ['placeProfile', '/v1/places/city/atlantis?locale=en', 404],
      ['operatorProfile', `/v1/operators/${P('operatorProfile').slug}?locale=de`, 200],
      ['operatorProfile', '/v1/operators/atlantis-works?locale=en', 404],
      ['searchSuggest', examples.operations.searchSuggest.request!.slice(4), 200],
      ['searchSuggest', '/v1/search/suggest?locale=es&q=m%C3%BCnchen', 200],
      ['searchSuggest', '/v1/search/suggest?locale=en', 400],
      ['config', '/v1/config', 200],
      ['health', '/v1/health', 200],
    ];
    for (const [operationId, url, status] of reads) await asReferenceClient(operationId, url, { status });
    assert.deepEqual(new Set(reads.map(([id]) => id)), new Set([...referenceOps.keys()].filter((id) => referenceOps.get(id)!.method === 'get')));
  });

  it('accepts the enquiries a client generated from it sends, members it leaves open included', async () => {
    for (const operationId of ['contact', 'inquiry']) {
      const body = examples.operations[operationId].body as Json;
      await asReferenceClient(operationId, `/v1/leads/${operationId}`, { status: 200, body });
      const extended = { ...body, referrer: 'partner-app', attribution: { ...body.attribution, utmSource: 'newsletter' } };
      await asReferenceClient(operationId, `/v1/leads/${operationId}`, { status: 200, body: extended });
      await asReferenceClient(operationId, `/v1/leads/${operationId}`, { status: 400, body: { ...extended, name: 'x'.repeat(121) } });
      await asReferenceClient(operationId, `/v1/leads/${operationId}`, { status: 400, body: { ...body, attribution: { source: 'email' } } });
    }
  });

  it('fails a response member that is neither in the reference nor a listed addition', () => {
    const response = structuredClone(examples.operations.rankings.response) as Json;
    assert.ok(referenceValidator('rankings', 200)(response));
    response.data.ranked[0].bonus = 1;
    assert.ok(!referenceValidator('rankings', 200)(response));
  });
});

describe('the examples of the document (api/openapi/examples.json)', () => {
  it('are the real answers of a fresh build of the committed sample (run `npm run openapi` when this fails)', async () => {
    assert.deepEqual(stableExamples(await collectExamples(sample)), stableExamples(examples));
  });

  it('show a value for every parameter and the body of every answer, each valid against its schema', () => {
    const validator = new OpenApiValidator(ours);
    for (const [operationId, { path, method, op }] of ourOps) {
      for (const [i, p] of (op.parameters ?? []).entries()) {
        const param = p.$ref ? ours.components.parameters[p.$ref.split('/').pop()] : p;
        assert.ok(param.example !== undefined, `${operationId} ${param.name} has no example`);
        const at = p.$ref ? ['components', 'parameters', p.$ref.split('/').pop(), 'schema'] : ['paths', path, method, 'parameters', String(i), 'schema'];
        assert.deepEqual(validator.validateAt(at, param.example), [], `${operationId} ${param.name}`);
      }
      const content = op.responses['200'].content as Json;
      const media = Object.keys(content).find((m) => content[m].examples) ?? Object.keys(content)[0];
      if (operationId === 'getDocsAsset' || operationId === 'getOpenApiDocument') continue; // not examples of themselves
      const shown = content[media].examples?.sample?.value;
      assert.ok(shown !== undefined, `${operationId} has no response example`);
      if (media.endsWith('json')) assert.deepEqual(validator.validateAt(['paths', path, method, 'responses', '200', 'content', media, 'schema'], shown), [], operationId);
      if (op.requestBody) {
        assert.deepEqual(validator.validateAt(['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'], op.requestBody.content['application/json'].examples.sample.value), [], operationId);
      }
    }
    for (const name of ['BadRequest', 'NotFound']) {
      const shown = ours.components.responses[name].content['application/problem+json'].examples.sample.value;
      assert.deepEqual(validator.validateAt(['components', 'responses', name, 'content', 'application/problem+json', 'schema'], shown), [], name);
    }
  });

  it('pick values the sample holds: each parameter example, alone with the required ones, finds something', async () => {
    const needs: Record<string, string[]> = { radiusMeters: ['lat', 'lng'], lat: ['lng'], lng: ['lat'] };
    for (const [operationId, { path, method, op }] of ourOps) {
      if (method !== 'get' || !op.parameters) continue;
      // a release is named by its content: the fresh sample's, which a change of any research file moves
      const ex: Record<string, unknown> = { ...examples.operations[operationId].parameters };
      if ('releaseId' in ex) ex.releaseId = sample.build.manifest.releaseId;
      const required = op.parameters.filter((p: Json) => p.required).map((p: Json) => p.name as string);
      const pathOf = (params: Record<string, unknown>) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => String(params[name]));
      for (const p of op.parameters.filter((q: Json) => !q.required && q.in === 'query')) {
        const names = [...required, p.name, ...(needs[p.name] ?? [])];
        const query = qs(Object.fromEntries(names.filter((n) => op.parameters.some((q: Json) => q.name === n && q.in === 'query')).map((n) => [n, ex[n]])));
        const url = `${pathOf(ex)}?${query}`;
        const r = await sample.app.inject({ url });
        assert.equal(r.statusCode, 200, `${url}: ${r.body.slice(0, 200)}`);
        if (operationId === 'listProperties' || operationId === 'mapProperties') assert.ok(r.json().meta.pagination.total > 0, `${url} finds nothing`);
      }
      if (!op.parameters.some((q: Json) => !q.required && q.in === 'query')) {
        const url = `${pathOf(ex)}${required.some((n: string) => op.parameters.find((q: Json) => q.name === n).in === 'query') ? `?${qs(Object.fromEntries(required.filter((n: string) => op.parameters.find((q: Json) => q.name === n).in === 'query').map((n: string) => [n, ex[n]])))}` : ''}`;
        assert.equal((await sample.app.inject({ url })).statusCode, 200, url);
      }
    }
  });

  it('rank as many spaces as the declared default when no limit is given (a city larger than that)', async () => {
    const declared = ourOps.get('rankings')!.op.parameters.find((p: Json) => p.name === 'limit').schema.default;
    assert.equal(declared, 10);
    const r = (await sample.app.inject({ url: `/v1/rankings?locale=en&city=${P('rankings').city}` })).json();
    assert.equal(r.data.ranked.length, declared);
  });
});
