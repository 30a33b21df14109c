import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import type { LoadedBuild } from '../build/load.ts';
import { isCurrent, type CachedBody } from '../catalog/engine.ts';
import type { Locale } from '../../contract/common.ts';
import { citation, type CitationPage } from './citation.ts';
import { envelope, envelopeJson, type MetaInput } from './envelope.ts';
import { parseOrThrow } from './errors.ts';
import type { CacheHint } from './headers.ts';

/**
 * What a handler may return: an envelope to serialize, or a JSON body already serialized (a
 * CachedBody, from routes/cached-body.ts, is also filed under the request URL: see below).
 */
export type RouteResult =
  | { data: unknown; meta?: MetaInput }
  | { json: string | Buffer; etag?: string; sameForUrl?: true }
  | { raw: string | Buffer; contentType: string; headers?: Record<string, string> };

export interface RouteContext<Q, P, B> {
  request: FastifyRequest;
  reply: FastifyReply;
  query: Q;
  params: P;
  body: B;
  /** The build this request is served from: captured once, so a hot reload never splits a response. */
  build: LoadedBuild;
  config: AppConfig;
  now: number;
  /** meta.citation for a page, in the request's locale */
  cite(locale: Locale, page: CitationPage): ReturnType<typeof citation>;
}

/**
 * One declaration per endpoint: schemas, statuses, cache hint, limits and handler in one place.
 * The app keeps every registered definition (`app.routeDefinitions`) so documents such as the
 * OpenAPI description can be generated from the same declarations.
 */
export interface RouteDefinition<QS extends z.ZodType = z.ZodType, PS extends z.ZodType = z.ZodType, BS extends z.ZodType = z.ZodType> {
  operationId: string;
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  description?: string;
  tags?: string[];
  querystring?: QS;
  params?: PS;
  body?: BS;
  /** schema of the 200 body (the whole envelope) */
  response: z.ZodType;
  /** every status the route can answer with */
  statuses: number[];
  cache: CacheHint | 'no-store';
  /** whether 200 bodies carry meta.citation */
  citation: boolean;
  /** `exempt`: not counted (headers still sent); `lead`: the lead bucket on top of the read bucket */
  rateLimit: 'read' | 'exempt' | 'lead';
  /** false on config and health: an outdated client must still reach them */
  clientBuildCheck?: boolean;
  handler(ctx: RouteContext<z.output<QS>, z.output<PS>, z.output<BS>>): RouteResult | Promise<RouteResult>;
}

export function defineRoute<QS extends z.ZodType, PS extends z.ZodType, BS extends z.ZodType>(
  def: RouteDefinition<QS, PS, BS>,
): RouteDefinition<QS, PS, BS> {
  return def;
}

/** Parts a route declares no schema for: ignored (the body of a GET is not read). */
const ANY = z.any().transform(() => ({}));
const NONE = z.any().transform(() => undefined);

/**
 * UTF-8 bytes of each result object sent: results kept in a body cache are encoded once, not on
 * every request (the encoding and its garbage dominated a cached list response).
 */
const encoded = new WeakMap<object, Buffer>();
function bytesOf(result: { json: string | Buffer }): Buffer {
  if (typeof result.json !== 'string') return result.json;
  let buf = encoded.get(result);
  if (!buf) {
    buf = Buffer.from(result.json);
    encoded.set(result, buf);
  }
  return buf;
}

function sendJson(reply: FastifyReply, result: { json: string | Buffer; etag?: string }) {
  reply.type('application/json; charset=utf-8');
  if (result.etag) reply.header('etag', result.etag);
  return reply.send(bytesOf(result));
}

export function registerRoute(app: FastifyInstance, def: RouteDefinition<any, any, any>) {
  app.routeDefinitions.push(def);
  app.route({
    method: def.method,
    url: def.url,
    config: {
      operationId: def.operationId,
      cache: def.cache,
      leadRateLimit: def.rateLimit === 'lead',
      rateLimitExempt: def.rateLimit === 'exempt',
      skipClientBuildCheck: def.clientBuildCheck === false,
    },
    handler: async (request, reply) => {
      const build = app.catalog.current();
      const now = app.clock();
      // A URL answered from a kept body before is answered again without parsing it: the same
      // URL parses to the same query, and the body depends on nothing else (hooks still run).
      const byUrl = def.method === 'GET' ? build.engine.bodiesByUrl : undefined;
      const seen = byUrl?.get(request.url);
      if (seen && isCurrent(seen, now)) return sendJson(reply, seen);
      const [params, query, body] = parseOrThrow([
        { schema: def.params ?? ANY, input: request.params ?? {}, what: 'path parameters' },
        { schema: def.querystring ?? ANY, input: request.query ?? {}, what: 'query parameters' },
        { schema: def.body ?? NONE, input: request.body, what: 'body fields' },
      ] as const);
      const cfg = app.config;
      const result = await def.handler({
        request, reply, query, params, body, build, config: cfg, now,
        cite: (locale, page) => citation({ siteUrl: cfg.siteUrl, serviceName: cfg.serviceName, locale, page, now }),
      });
      if ('raw' in result) {
        for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
        return reply.type(result.contentType).send(result.raw);
      }
      if ('json' in result) {
        if (result.sameForUrl) byUrl?.set(request.url, result as CachedBody);
        return sendJson(reply, result);
      }
      reply.type('application/json; charset=utf-8');
      return reply.send(envelope(result.data, result.meta));
    },
  });
}

export { envelopeJson };
