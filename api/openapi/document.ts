/**
 * The published OpenAPI 3.1 description, generated from the route declarations
 * (`app.routeDefinitions`) and the zod contract schemas.
 * Never edited by hand: `npm run openapi` writes the committed copy (api/openapi/openapi.json)
 * and a test fails when the two drift. Output is deterministic: tags in the order of TAGS (prose.ts), paths by
 * tag then path, components sorted, everything else in declaration order.
 */
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import {
  CitationSchema, CONTRACT_VERSION, FaqSchema, ImageSchema, LatLngSchema, MarketPositionSchema, MetaSchema,
  MoneySchema, PaginatedMetaSchema, PaginationSchema, PriceRangeSchema, RatingSchema, SlugNameSchema,
} from '../../contract/common.ts';
import {
  ConfigPayloadSchema, FacetsPayloadSchema, GeoPayloadSchema, HealthPayloadSchema, ListingCardSchema,
  MapMarkerSchema, PricingOptionSchema, PropertyDetailSchema,
} from '../../contract/catalog.ts';
import { AttributionSchema, LeadReceiptResponseSchema, LeadReceiptSchema } from '../../contract/leads.ts';
import {
  MarketRatesPayloadSchema, OperatorHubSchema, PlaceHubSchema, PriceIndexCitySchema, PriceIndexPayloadSchema,
  RankingsPayloadSchema, SuggestionSchema,
} from '../../contract/market.ts';
import { PriceHistoryPayloadSchema, ReleaseSchema } from '../../contract/research.ts';
import { ProblemSchema, type ErrorCode } from '../../contract/problem.ts';
import { cacheControl, type CacheHint } from '../http/headers.ts';
import type { RouteDefinition } from '../http/route.ts';
import { applyExamples, publishedExamples, type Examples } from './examples.ts';
import { API_TITLE, apiDescription, LEAD_NOTES, OPERATION_NOTES, PARAMETER_NOTES, PROPERTY_NOTES, TAGS } from './prose.ts';

type Json = Record<string, any>;

type Route = RouteDefinition<any, any, any>;

interface DocumentInput {
  routes: readonly Route[];
  config: Pick<AppConfig, 'baseUrl' | 'siteUrl' | 'serviceName' | 'rateLimit'>;
  /** default: the committed examples of the sample build (api/openapi/examples.json) */
  examples?: Examples;
}

/** Shared shapes published as components; routes built from these constants reference them. */
const RESPONSE_COMPONENTS: [string, z.ZodType][] = [
  ['Problem', ProblemSchema],
  ['Money', MoneySchema],
  ['Image', ImageSchema],
  ['Citation', CitationSchema],
  ['Pagination', PaginationSchema],
  ['Meta', MetaSchema],
  ['PaginatedMeta', PaginatedMetaSchema],
  ['SlugName', SlugNameSchema],
  ['LatLng', LatLngSchema],
  ['Rating', RatingSchema],
  ['MarketPosition', MarketPositionSchema],
  ['Faq', FaqSchema],
  ['PriceRange', PriceRangeSchema],
  ['ListingCard', ListingCardSchema],
  ['PricingOption', PricingOptionSchema],
  ['PropertyDetail', PropertyDetailSchema],
  ['MapMarker', MapMarkerSchema],
  ['Facets', FacetsPayloadSchema],
  ['Geography', GeoPayloadSchema],
  ['ClientConfig', ConfigPayloadSchema],
  ['Health', HealthPayloadSchema],
  ['LeadReceipt', LeadReceiptSchema],
  ['LeadReceiptResponse', LeadReceiptResponseSchema],
  ['MarketRates', MarketRatesPayloadSchema],
  ['Rankings', RankingsPayloadSchema],
  ['PlaceHub', PlaceHubSchema],
  ['OperatorHub', OperatorHubSchema],
  ['Suggestion', SuggestionSchema],
  ['PriceIndex', PriceIndexPayloadSchema],
  ['PriceIndexCity', PriceIndexCitySchema],
  ['PriceIndexHistory', PriceHistoryPayloadSchema],
  ['Release', ReleaseSchema],
];

const REQUEST_COMPONENTS: [string, z.ZodType][] = [
  ['Attribution', AttributionSchema],
];

/** Names of the request bodies, by operationId (kept from before the reference's operation ids). */
const BODY_COMPONENTS: Record<string, string> = { contact: 'ContactLeadBody', inquiry: 'InquiryLeadBody' };

/** Media types of bodies that are not JSON, by operationId (a string response schema says only "text"). */
const MEDIA_TYPES: Record<string, string | string[]> = {
  getPriceReport: 'text/csv',
  getPriceReportHistory: 'text/csv',
  getReleaseFile: ['text/csv', 'application/json', 'text/markdown', 'application/x-yaml', 'application/x-bibtex', 'application/vnd.apache.parquet'],
  getAuthGuide: 'text/markdown',
  getLlmsText: 'text/markdown',
  getApiCatalog: 'application/linkset+json',
  getDocsPage: 'text/html',
  getMedia: 'image/svg+xml',
  getDocsAsset: ['image/png', 'text/css', 'text/javascript'],
};

/** The error responses, one per status, with the codes each can carry. */
const ERROR_RESPONSES: Record<number, { name: string; codes: ErrorCode[]; description: string }> = {
  400: { name: 'BadRequest', codes: ['VALIDATION_FAILED', 'CLIENT_TOO_OLD'], description: 'Invalid parameters or body (`VALIDATION_FAILED`, with `errors[]` naming each offending field; also for malformed JSON, a wrong content type or a body over 64 KiB), or an official client below the supported build (`CLIENT_TOO_OLD`).' },
  403: { name: 'ChallengeFailed', codes: ['CHALLENGE_FAILED'], description: 'The challenge token is missing or invalid (`CHALLENGE_FAILED`). It is solved by a person in a browser; never invent or replay one.' },
  404: { name: 'NotFound', codes: ['NOT_FOUND'], description: 'No such resource (`NOT_FOUND`).' },
  422: { name: 'IdempotencyKeyConflict', codes: ['IDEMPOTENCY_KEY_CONFLICT'], description: 'The `Idempotency-Key` was used before with a different body (`IDEMPOTENCY_KEY_CONFLICT`). Use a new key for a new enquiry.' },
  429: { name: 'RateLimited', codes: ['RATE_LIMITED'], description: 'Rate limit exceeded (`RATE_LIMITED`); wait `Retry-After` seconds.' },
  500: { name: 'InternalError', codes: ['INTERNAL_ERROR'], description: 'Internal failure (`INTERNAL_ERROR`); never carries internals.' },
  503: { name: 'NotReady', codes: ['UPSTREAM_UNAVAILABLE'], description: 'This replica is not ready to take traffic (`UPSTREAM_UNAVAILABLE` with status 503): it is draining before it stops; send requests to another one.' },
  502: { name: 'UpstreamUnavailable', codes: ['UPSTREAM_UNAVAILABLE'], description: 'A dependency is unavailable (`UPSTREAM_UNAVAILABLE`); retry later. A failed enquiry may be retried under the same `Idempotency-Key`.' },
};

/** The errors that say when to try again: a rate limit, an unavailable dependency, a replica not ready. */
const RETRY_STATUSES = new Set(['429', '502', '503']);

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

const HEADER_COMPONENTS: Json = {
  'RateLimit-Limit': { description: 'Requests allowed in the current window (the tighter bucket when two apply).', required: true, schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', required: true, schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', required: true, schema: { type: 'integer', minimum: 1 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 1 } },
  ETag: { description: 'Strong validator of the body; send it in If-None-Match to get 304 when nothing changed.', required: true, schema: { type: 'string' } },
  'Idempotency-Replayed': { description: 'Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key and body; no second enquiry was created.', schema: { type: 'string', const: 'true' } },
};

/** Fastify `/v1/places/:kind/:slug` and `/x/*` → OpenAPI `/v1/places/{kind}/{slug}` and `/x/{path}`. */
export function openApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

/**
 * The tag of an operation: the reference's tags for the /v1 operations (the first path segment:
 * `properties`, `geo`, `search` …); our additions name their own.
 */
function tagOf(url: string, tags?: string[]): string {
  if (tags?.length) return tags[0];
  if (url === '/readyz') return 'health';
  const v1 = /^\/v1\/([^/]+)/.exec(url);
  if (v1) return v1[1];
  if (url === '/openapi.json' || url.startsWith('/docs')) return 'docs';
  if (url.startsWith('/.well-known/') || url === '/auth.md') return 'discovery';
  return 'site';
}

/** Removes what zod adds for a standalone schema; the document is one 2020-12 dialect. */
function clean(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/**
 * The document's own adjustments to converted schemas, applied everywhere:
 * - `format: email` next to a `pattern` is dropped: the pattern is the rule the server enforces,
 *   and format validators disagree between tools (some reject `a@b-c.de`-like domains zod accepts).
 * - a property without a description gets the shared one for its name (PROPERTY_NOTES).
 */
function polish(node: unknown): void {
  if (Array.isArray(node)) { node.forEach(polish); return; }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.format === 'email' && typeof o.pattern === 'string') delete o.format;
  if (o.properties && typeof o.properties === 'object') {
    for (const [name, prop] of Object.entries(o.properties as Json)) {
      if (prop && typeof prop === 'object' && !prop.description && !prop.$ref && PROPERTY_NOTES[name]) prop.description = PROPERTY_NOTES[name];
    }
  }
  for (const v of Object.values(o)) polish(v);
}

function refName(operationId: string) {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1) + 'Response';
}

/** Converts a set of named schemas at once, so shared instances become `$ref`s to each other. */
function convertNamed(named: [string, z.ZodType][], io: 'input' | 'output'): Json {
  const registry = z.registry<{ id: string }>();
  const seen = new Set<z.ZodType>();
  for (const [id, schema] of named) {
    if (seen.has(schema)) continue;
    seen.add(schema);
    registry.add(schema, { id });
  }
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12', io, unrepresentable: 'throw', uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(out.schemas).map(([k, v]) => [k, clean(v)]));
}

function convertInline(schema: z.ZodType, io: 'input' | 'output'): Json {
  return clean(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' }) as Json);
}

function isStringSchema(schema: z.ZodType): boolean {
  return convertInline(schema, 'output').type === 'string';
}

function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path'): Json[] {
  if (!schema) return [];
  const json = convertInline(schema, 'input');
  const required = new Set<string>(json.required ?? []);
  return Object.entries((json.properties ?? {}) as Json).map(([name, s]) => {
    const { description, ...rest } = s as Json;
    const param: Json = { name, in: where };
    const text = description ?? PARAMETER_NOTES[name];
    if (text) param.description = text;
    param.required = where === 'path' || required.has(name);
    param.schema = rest;
    return param;
  });
}

function cacheHeader(hint: CacheHint | 'no-store'): Json {
  return { description: 'Caching as in `x-cache`.', required: true, schema: { type: 'string', const: cacheControl(hint) } };
}

function errorRefs(statuses: number[]): Json {
  const out: Json = {};
  for (const status of statuses) {
    if (status < 400) continue;
    const known = ERROR_RESPONSES[status];
    if (!known) throw new Error(`no error response for status ${status}`);
    out[String(status)] = { $ref: `#/components/responses/${known.name}` };
  }
  return out;
}

function errorResponseComponents(used: Set<number>): Json {
  const out: Json = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    if (!used.has(Number(status))) continue;
    const headers: Json = { 'Cache-Control': { description: 'Errors are never cached.', required: true, schema: { type: 'string', const: 'no-store' } }, ...RATE_LIMIT_HEADERS };
    if (RETRY_STATUSES.has(status)) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
    out[r.name] = {
      description: r.description,
      headers,
      content: {
        'application/problem+json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              { properties: { status: { const: Number(status) }, code: { enum: r.codes } } },
            ],
          },
        },
      },
    };
  }
  return out;
}

interface Op {
  path: string;
  method: 'get' | 'post';
  site: boolean;
  operation: Json;
}

function sortKeys<T extends Json>(o: T): T {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]])) as T;
}

function collectRefs(node: unknown, into: Set<string>) {
  if (Array.isArray(node)) { node.forEach((n) => collectRefs(n, into)); return; }
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') into.add(v);
    else collectRefs(v, into);
  }
}

/** Drops component schemas nothing refers to (e.g. shapes of endpoints not registered in this app). */
function pruneSchemas(doc: Json) {
  const schemas = doc.components.schemas as Json;
  const reachable = new Set<string>();
  const queue: string[] = [];
  const visit = (node: unknown) => {
    const refs = new Set<string>();
    collectRefs(node, refs);
    for (const ref of refs) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
      if (m && !reachable.has(m[1])) { reachable.add(m[1]); queue.push(m[1]); }
    }
  };
  visit(doc.paths);
  visit(doc.components.responses);
  while (queue.length) visit(schemas[queue.pop()!]);
  for (const name of Object.keys(schemas)) if (!reachable.has(name)) delete schemas[name];
}

export function buildOpenApiDocument(input: DocumentInput): Json {
  const { config } = input;
  // Reads take their parameters from the URL; writes (the enquiries) a body.
  const routes = input.routes.filter((def) => !def.body);
  const writes = input.routes.filter((def): def is Route & { body: z.ZodType } => def.body !== undefined);

  // Response bodies: the shared components plus one envelope per operation, converted together.
  const responseNamed: [string, z.ZodType][] = [...RESPONSE_COMPONENTS];
  const responseRef = new Map<z.ZodType, string>(RESPONSE_COMPONENTS.map(([id, s]) => [s, id]));
  const mediaOf = new Map<string, string[]>();
  for (const def of [...routes].sort((a, b) => a.operationId.localeCompare(b.operationId))) {
    const media = [MEDIA_TYPES[def.operationId] ?? (isStringSchema(def.response) ? 'text/plain' : 'application/json')].flat();
    mediaOf.set(def.operationId, media);
    if (media.length !== 1 || !media[0].endsWith('json') || responseRef.has(def.response)) continue;
    const id = refName(def.operationId);
    responseNamed.push([id, def.response]);
    responseRef.set(def.response, id);
  }
  for (const op of writes) {
    if (!responseRef.has(op.response)) {
      responseNamed.push([refName(op.operationId), op.response]);
      responseRef.set(op.response, refName(op.operationId));
    }
  }
  const schemas: Json = convertNamed(responseNamed, 'output');

  // Request bodies are described as the server reads them (io: input).
  const requestNamed: [string, z.ZodType][] = [...REQUEST_COMPONENTS];
  const bodyRef = new Map<z.ZodType, string>();
  for (const op of writes) {
    const id = BODY_COMPONENTS[op.operationId] ?? refName(op.operationId).replace(/Response$/, 'Body');
    requestNamed.push([id, op.body]);
    bodyRef.set(op.body, id);
  }
  for (const [id, s] of Object.entries(convertNamed(requestNamed, 'input'))) {
    if (schemas[id] && JSON.stringify(schemas[id]) !== JSON.stringify(s)) throw new Error(`component ${id} differs between request and response`);
    schemas[id] = s;
  }

  const usedErrors = new Set<number>();
  const ops: Op[] = [];
  for (const def of routes) {
    const path = openApiPath(def.url);
    const params = [...parametersOf(def.params, 'path'), ...parametersOf(def.querystring, 'query')];
    if (def.url.endsWith('*')) {
      params.unshift({ name: 'path', in: 'path', description: 'The rest of the path; may contain slashes.', required: true, schema: { type: 'string' } });
    }
    const media = mediaOf.get(def.operationId)!;
    const ref = responseRef.get(def.response);
    const content: Json = {};
    for (const m of media) {
      content[m] = { schema: m.endsWith('json') && ref ? { $ref: `#/components/schemas/${ref}` } : convertInline(def.response, 'output') };
    }
    const ok: Json = {
      description: 'Success.',
      headers: { 'Cache-Control': cacheHeader(def.cache), ETag: { $ref: '#/components/headers/ETag' }, ...RATE_LIMIT_HEADERS },
      content,
    };
    const responses: Json = { '200': ok, '304': { $ref: '#/components/responses/NotModified' }, ...errorRefs(def.statuses) };
    def.statuses.forEach((s) => usedErrors.add(s));
    const description = [def.description, OPERATION_NOTES[def.operationId]].filter(Boolean).join('\n\n');
    const operation: Json = {
      tags: [tagOf(def.url, def.tags)],
      summary: def.summary,
      description: description || def.summary,
      operationId: def.operationId,
      parameters: params,
      responses,
      'x-cache': def.cache,
      'x-rate-limit': def.rateLimit,
    };
    if (!params.length) delete operation.parameters;
    ops.push({ path, method: def.method === 'GET' ? 'get' : 'post', site: !def.url.startsWith('/v1/'), operation });
  }

  for (const op of writes) {
    const ok: Json = {
      description: 'The enquiry is stored and will be delivered (or this is the replay of an earlier identical request).',
      headers: {
        'Cache-Control': cacheHeader(op.cache),
        ...Object.fromEntries((op.responseHeaders ?? []).map((name) => [name, { $ref: `#/components/headers/${name}` }])),
        ...RATE_LIMIT_HEADERS,
      },
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${responseRef.get(op.response)}` } } },
    };
    op.statuses.forEach((s) => usedErrors.add(s));
    ops.push({
      path: openApiPath(op.url),
      method: 'post',
      site: false,
      operation: {
        tags: [tagOf(op.url)],
        summary: op.summary,
        description: LEAD_NOTES[op.operationId] ?? op.summary,
        operationId: op.operationId,
        parameters: Object.keys(op.headers ?? {}).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: {
          description: 'The enquiry, as entered by the end user. JSON, at most 64 KiB.',
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${bodyRef.get(op.body)}` } } },
        },
        responses: { '200': ok, ...errorRefs(op.statuses) },
        'x-cache': op.cache,
        'x-rate-limit': op.rateLimit,
      },
    });
  }

  const headerParams: Json = {};
  for (const op of writes) {
    for (const [name, schema] of Object.entries(op.headers ?? {})) {
      headerParams[name] = {
        name, in: 'header', required: false,
        description: 'Client-chosen key, one per enquiry, that makes retries safe: the same key with the same body replays the first answer; with a different body it is a 422. Kept 24 hours per endpoint.',
        schema: convertInline(schema, 'input'),
      };
    }
  }

  const paths: Json = {};
  for (const { path, method, site, operation } of ops) {
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`two operations for ${method.toUpperCase()} ${path}`);
    if (site && config.siteUrl !== config.baseUrl) item.servers = [{ url: config.siteUrl, description: 'The site origin' }];
    item[method] = operation;
  }
  for (const item of Object.values(paths)) {
    const ordered: Json = {};
    for (const k of ['servers', 'get', 'post']) if (item[k]) ordered[k] = item[k];
    Object.keys(item).forEach((k) => delete item[k]);
    Object.assign(item, ordered);
  }

  // Tags, and the paths with them, in the order of TAGS: what a client reads first comes first.
  const tagRank = (name: string) => {
    const rank = Object.keys(TAGS).indexOf(name);
    if (rank < 0) throw new Error(`tag ${name} has no description in TAGS (api/openapi/prose.ts)`);
    return rank;
  };
  const tagNames = [...new Set(ops.map((o) => o.operation.tags[0] as string))].sort((a, b) => tagRank(a) - tagRank(b));
  const pathRank = new Map(ops.map((o) => [o.path, tagRank(o.operation.tags[0])]));
  const orderedPaths = Object.fromEntries(Object.keys(paths)
    .sort((a, b) => pathRank.get(a)! - pathRank.get(b)! || (a < b ? -1 : a > b ? 1 : 0))
    .map((p) => [p, paths[p]]));
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: CONTRACT_VERSION,
      summary: `The ${config.serviceName} catalogue of coworking spaces, its open price index and enquiries.`,
      description: apiDescription(config),
      contact: { name: `${config.serviceName} team`, url: config.siteUrl },
      license: { name: 'CC BY 4.0 (catalogue and market data)', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    servers: [{ url: config.baseUrl, description: 'The API' }],
    tags: tagNames.map((name) => ({ name, description: TAGS[name] })),
    paths: orderedPaths,
    components: {
      schemas: sortKeys(schemas),
      responses: sortKeys({
        NotModified: {
          description: 'The body is unchanged since the ETag sent in If-None-Match.',
          headers: { ETag: { $ref: '#/components/headers/ETag' }, ...RATE_LIMIT_HEADERS },
        },
        ...errorResponseComponents(usedErrors),
      }),
      parameters: sortKeys(headerParams),
      headers: sortKeys(HEADER_COMPONENTS),
    },
  };
  polish(doc.components.schemas);
  polish(doc.paths);
  applyExamples(doc, input.examples ?? publishedExamples());
  pruneSchemas(doc);
  if (!Object.keys(doc.components.parameters).length) delete doc.components.parameters;
  return doc;
}

/** The exact bytes of the published document. */
export function serializeDocument(doc: Json): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The configuration the committed copy is generated with (servers: the defaults of api/config.ts). */
export const CANONICAL_ENV = { PORT: '3000', BUILD_SHA: 'openapi' } as const;
