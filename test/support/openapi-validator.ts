/**
 * The one shared contract hook: every response a test app produces is checked against the
 * published OpenAPI document (api/openapi/openapi.json), compiled with Ajv for JSON Schema
 * 2020-12 with formats. Checked: the status is declared for the operation, the content type is
 * one it declares, every declared header (RateLimit-*, Retry-After, Cache-Control, ETag,
 * Idempotency-Replayed) is present when required and valid, and the body validates. Errors on
 * paths the document does not know (unknown routes) must still be problem+json with a matching
 * status; the public pages (api/site/pages.ts, not API operations) are not in the document and
 * answer their errors in HTML. A mismatch makes `app.inject` reject, which fails the test that made the request.
 */
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { openApiPath } from '../../api/openapi/document.ts';
import { routes } from '../../api/routes/index.ts';
import { FILTERS } from '../../api/catalog/filters.ts';

type Json = Record<string, any>;
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof import('ajv/dist/2020.js').default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;

export const DOCUMENT_PATH = new URL('../../api/openapi/openapi.json', import.meta.url);
const DOC_ID = 'openapi.json';

export interface ResponseToCheck {
  method: string;
  /** path with query, as requested */
  url: string;
  /** the Fastify route that answered (`/v1/properties/:slug`), undefined for the not-found handler */
  route?: string;
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

const mediaType = (contentType: unknown) => String(contentType ?? '').split(';')[0].trim().toLowerCase();
const pointer = (parts: string[]) => '#/' + parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** Routes the app itself serves; a test's own probe routes are not expected in the document. */
const SERVED = new Set(routes(FILTERS).map((r) => `${r.method} ${r.url}`));
/** The first path segments of the API's routes: any other URL is a page's, whose errors are HTML pages (api/site/pages.ts). */
const firstSegment = (url: string) => url.split(/[/?#]/)[1] ?? '';
const API_SEGMENTS = new Set(routes(FILTERS).map((r) => firstSegment(r.url)));

export class OpenApiValidator {
  readonly doc: Json;
  private readonly ajv: InstanceType<typeof Ajv2020>;
  private readonly compiled = new Map<string, ReturnType<InstanceType<typeof Ajv2020>['compile']>>();

  constructor(doc: Json = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'))) {
    this.doc = doc;
    // strict: false because the document around the schemas is OpenAPI, not JSON Schema.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
  }

  /** Validates `value` against the schema at a JSON pointer inside the document. */
  validateAt(parts: string[], value: unknown): string[] {
    const ref = DOC_ID + pointer(parts);
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  }

  private deref(node: Json): Json {
    let n = node;
    while (n && typeof n.$ref === 'string') {
      n = n.$ref.slice(2).split('/').reduce((o: Json, k: string) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    }
    return n;
  }

  /** The document path of a request: from the Fastify route when known, else by matching templates. */
  findPath(route: string | undefined, url: string): string | undefined {
    if (route !== undefined) {
      const p = openApiPath(route);
      return this.doc.paths[p] ? p : undefined;
    }
    const path = url.split('?')[0];
    const candidates = Object.keys(this.doc.paths).filter((t) => new RegExp(`^${t.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
  }

  private decode(res: ResponseToCheck): Buffer {
    const enc = String(res.headers['content-encoding'] ?? '').trim();
    if (enc === 'br') return brotliDecompressSync(res.body);
    if (enc === 'gzip') return gunzipSync(res.body);
    if (enc === 'deflate') return inflateSync(res.body);
    return res.body;
  }

  /** Problems with a response, empty when it matches the document. */
  check(res: ResponseToCheck): string[] {
    const method = res.method.toUpperCase();
    if (method === 'OPTIONS') return [];
    const path = this.findPath(res.route, res.url);
    const opMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = path ? this.doc.paths[path][opMethod] as Json | undefined : undefined;
    if (!operation) return this.checkUndocumented(res, method);

    const problems: string[] = [];
    const declared = operation.responses[String(res.statusCode)] ?? operation.responses.default;
    if (!declared) return [`status ${res.statusCode} is not declared for ${operation.operationId} (declared: ${Object.keys(operation.responses).join(', ')})`];
    const response = this.deref(declared);

    for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
      const header = this.deref(h);
      const raw = res.headers[name.toLowerCase()];
      if (raw === undefined) {
        if (header.required) problems.push(`missing header ${name}`);
        continue;
      }
      if (Array.isArray(raw)) { problems.push(`header ${name} sent ${raw.length} times`); continue; }
      const type = header.schema?.type;
      const text = String(raw);
      let value: unknown = text;
      if (type === 'integer' || type === 'number') value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
      const errs = this.ajvCheckInline(header.schema ?? {}, value);
      if (errs.length) problems.push(`header ${name}: "${text}" ${errs.join('; ')}`);
    }

    const body = this.decode(res);
    const content = response.content as Json | undefined;
    if (!content) {
      if (body.length) problems.push(`status ${res.statusCode} declares no body but ${body.length} bytes were sent`);
      return problems;
    }
    const media = mediaType(res.headers['content-type']);
    if (!(media in content)) {
      problems.push(`content type "${media}" not declared (declared: ${Object.keys(content).join(', ')})`);
      return problems;
    }
    if (method === 'HEAD' || !/[/+]json$/.test(media)) return problems;
    let value: unknown;
    try { value = JSON.parse(body.toString('utf8')); } catch { return [...problems, `body is not JSON: ${body.toString('utf8').slice(0, 120)}`]; }
    const declaredKey = Object.keys(operation.responses).includes(String(res.statusCode)) ? String(res.statusCode) : 'default';
    const parts = declared.$ref
      ? [...declared.$ref.slice(2).split('/').map((k: string) => k.replace(/~1/g, '/').replace(/~0/g, '~')), 'content', media, 'schema']
      : ['paths', path!, opMethod, 'responses', declaredKey, 'content', media, 'schema'];
    problems.push(...this.validateAt(parts, value).map((e) => `body ${e}`));
    return problems;
  }

  private ajvCheckInline(schema: Json, value: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.message}`);
  }

  /** No operation in the document: the app's own routes must be documented; errors are problems. */
  private checkUndocumented(res: ResponseToCheck, method: string): string[] {
    if (res.route !== undefined && SERVED.has(`${method === 'HEAD' ? 'GET' : method} ${res.route}`)) {
      return [`${method} ${res.route} is served but missing from the document (run \`npm run openapi\`)`];
    }
    if (res.statusCode < 400) return [];
    const problems: string[] = [];
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      if (res.headers[name.toLowerCase()] === undefined) problems.push(`missing header ${name}`);
    }
    if (res.statusCode === 429 && res.headers['retry-after'] === undefined) problems.push('missing header Retry-After');
    if (method === 'HEAD') return problems;
    // a public page (api/site/pages.ts) answers its errors as a page too: one that does not exist or failed, a search with bad
    // parameters, an enquiry form shown again with its problems (api/site/enquiry.ts: 400, 403, 422, 429, 502); a page's Markdown twin in Markdown
    const page = !API_SEGMENTS.has(firstSegment(res.url));
    if (page && ['text/html', 'text/markdown'].includes(mediaType(res.headers['content-type']))) return problems;
    if (mediaType(res.headers['content-type']) !== 'application/problem+json') {
      return [...problems, `error ${res.statusCode} is not application/problem+json but "${res.headers['content-type']}"`];
    }
    let value: any;
    try { value = JSON.parse(this.decode(res).toString('utf8')); } catch { return [...problems, 'problem body is not JSON']; }
    problems.push(...this.validateAt(['components', 'schemas', 'Problem'], value).map((e) => `problem ${e}`));
    if (value?.status !== res.statusCode) problems.push(`problem status ${value?.status} differs from the HTTP status ${res.statusCode}`);
    return problems;
  }
}

let shared: OpenApiValidator | undefined;
export const sharedValidator = () => (shared ??= new OpenApiValidator());

export class ContractMismatch extends Error {
  override name = 'ContractMismatch';
}

/**
 * Makes every `app.inject(...)` of this app check its response against the document and reject
 * with ContractMismatch when it does not match. Call after buildApp, before ready (it adds an
 * onRequest hook that remembers which route answered each request).
 */
export function validateResponses<T extends FastifyInstance>(app: T, validator: () => OpenApiValidator = sharedValidator): T {
  const routes = new WeakMap<object, string | undefined>();
  app.addHook('onRequest', async (request) => { routes.set(request.raw, request.routeOptions.url); });
  const inject = app.inject.bind(app) as (...args: any[]) => any;
  (app as any).inject = (...args: any[]) => {
    if (args.length === 0 || typeof args[args.length - 1] === 'function') return inject(...args);
    return (inject(...args) as Promise<any>).then((res) => {
      const opts = typeof args[0] === 'string' ? { url: args[0] } : args[0];
      const url = typeof opts.url === 'string' ? opts.url : String(opts.path ?? opts.url?.pathname ?? '/');
      const problems = validator().check({
        method: opts.method ?? 'GET',
        url,
        route: routes.get(res.raw.req),
        statusCode: res.statusCode,
        headers: res.headers,
        body: res.rawPayload,
      });
      if (problems.length) {
        throw new ContractMismatch(`response does not match the OpenAPI document: ${String(opts.method ?? 'GET')} ${url.slice(0, 300)} → ${res.statusCode}\n  ${problems.join('\n  ')}\n  body: ${res.body.slice(0, 400)}`);
      }
      return res;
    });
  };
  return app;
}
