import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import type { LoadedBuild } from '../loading/load.ts';
import { DamagedFileError } from '../loading/records.ts';
import type { Locale } from '../../contract/common.ts';
import { citation, type CitationPage, type CitedData } from './citation.ts';
import { envelope, type MetaInput } from './envelope.ts';
import { parseOrThrow } from './errors.ts';
import { quickQueryReading } from '../../contract/quick-query.ts';
import { ApiError } from './problems.ts';
import type { CacheHint } from './headers.ts';
import { responsesOf, type KeptResponse, type RouteResponse } from './response-cache.ts';
import type { FileBody } from '../loading/checked-file.ts';
import { sendFileBody } from './file-body.ts';
import { sendAtTurnEnd } from './turn-end.ts';
import { unknownMembers } from './unknown-members.ts';

/**
 * What a handler may return: an envelope to serialize, its JSON (text or UTF-8 bytes) already
 * made, other bytes, or a body streamed from disk (never kept in the response cache).
 */
export type RouteResult =
  | { data: unknown; meta?: MetaInput }
  | { json: string | Buffer }
  | { raw: string | Buffer; contentType: string; headers?: Record<string, string> }
  | { file: FileBody };

type BytesResult = Exclude<RouteResult, { file: FileBody }>;

const JSON_TYPE = 'application/json; charset=utf-8';

function responseOf(result: BytesResult): RouteResponse {
  if ('raw' in result) return { body: result.raw, contentType: result.contentType, headers: result.headers };
  return { body: 'json' in result ? result.json : envelope(result.data, result.meta), contentType: JSON_TYPE };
}

/** A response kept in the build's response cache, with its ETag. */
function sendKept(reply: FastifyReply, kept: KeptResponse) {
  reply.header('etag', kept.etag);
  return send(reply, kept);
}

/** Sends a body as bytes: encoded once here, not again by the ETag's hash and by the socket. */
function send(reply: FastifyReply, { body, contentType, headers }: RouteResponse) {
  if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.type(contentType).send(typeof body === 'string' ? Buffer.from(body) : body);
}

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
  /** meta.citation for a page, in the request's locale; `data` names the data date (and release) in its text */
  cite(locale: Locale, page: CitationPage, data?: CitedData): ReturnType<typeof citation>;
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
  /** request headers the handler reads, by name (described as header parameters) */
  headers?: Record<string, z.ZodType>;
  /** components/headers a 200 may carry besides the common ones */
  responseHeaders?: string[];
  /** schema of the 200 body (the whole envelope) */
  response: z.ZodType;
  /** every status the route can answer with */
  statuses: number[];
  cache: CacheHint | 'no-store';
  /**
   * For answers that depend on nothing but the build, the parsed request, the configuration and
   * the date: the key (requestKey of response-cache.ts, or one of the route's own) under which a
   * 200 response is kept in the build's response cache through the UTC day, from the second time
   * the key is asked for; undefined for a request not to keep.
   */
  cacheKey?: (request: { query: z.output<QS>; params: z.output<PS> }) => string | undefined;
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

/** Makes a request's 400 more helpful with what the build knows (e.g. the slug of a place it named). */
export type ExplainInvalid = (error: ApiError, request: FastifyRequest, build: LoadedBuild) => ApiError;

/**
 * What answers an error met while answering from `build`: a damaged record or file
 * (DamagedFileError) is logged, reported to the store, which loads the build again, and
 * answered 500; any other error is thrown on.
 */
export function refuseDamaged(app: FastifyInstance, request: FastifyRequest, build: LoadedBuild): (err: unknown) => never {
  return (err) => {
    if (!(err instanceof DamagedFileError)) throw err;
    request.log.error({ err, buildId: build.id }, 'damaged record refused');
    app.catalog.damaged(build, err);
    throw new ApiError('INTERNAL_ERROR', 'The stored record behind this response is damaged; it is not served until the build is repaired or replaced.');
  };
}

export function registerRoute(app: FastifyInstance, def: RouteDefinition<any, any, any>, explainInvalid?: ExplainInvalid) {
  app.routeDefinitions.push(def);
  const quickQuery = def.querystring && !def.params && !def.body ? quickQueryReading(def.querystring) : undefined;
  app.route({
    method: def.method,
    url: def.url,
    config: {
      cache: def.cache,
      leadRateLimit: def.rateLimit === 'lead',
      rateLimitExempt: def.rateLimit === 'exempt',
      skipClientBuildCheck: def.clientBuildCheck === false,
    },
    // Not async: a handler that answers at once (every read) is sent without a promise in between.
    handler: (request, reply) => {
      const served = app.catalog.current();
      const { build } = served, responses = responsesOf(served);
      const now = app.clock();
      // a plain query of a route with nothing else to parse is read quickly; anything else, and every 400, by the schemas
      const quick = quickQuery?.(request.query);
      let params, query, body;
      if (quick) [params, query, body] = [{}, quick, undefined];
      else {
        try {
          [params, query, body] = parseOrThrow([
            { schema: def.params ?? ANY, input: request.params ?? {}, what: 'path parameters' },
            { schema: def.querystring ?? ANY, input: request.query ?? {}, what: 'query parameters' },
            { schema: def.body ?? NONE, input: request.body, what: 'body' },
          ] as const);
        } catch (err) {
          throw err instanceof ApiError && explainInvalid ? explainInvalid(err, request, build) : err;
        }
      }
      // Bodies are open: members the schema does not declare are dropped; their names (never their values) are logged.
      if (def.body) {
        const ignored = unknownMembers(def.body, request.body);
        if (ignored.length) request.log.info({ route: def.url, ignored }, 'unknown body members ignored');
      }
      const requestKey = app.config.queryCache ? def.cacheKey?.({ query, params }) : undefined;
      const key = requestKey === undefined ? undefined : `${def.operationId}|${requestKey}`;
      const kept = key === undefined ? undefined : responses.get(key, now);
      if (kept) {
        sendAtTurnEnd(reply, () => sendKept(reply, kept));
        return undefined;
      }
      const cfg = app.config;
      /** a damaged record or file is refused the same way whether the handler throws or rejects */
      const refuse = refuseDamaged(app, request, build);
      const answer = (result: RouteResult) => {
        if ('file' in result) return sendFileBody(request, reply, result.file).catch(refuse);
        const response = responseOf(result);
        if (key === undefined || !responses.admits(key)) return send(reply, response);
        return sendKept(reply, responses.keep(key, now, response));
      };
      let result: RouteResult | Promise<RouteResult>;
      try {
        result = def.handler({
          request, reply, query, params, body, build, config: cfg, now,
          cite: (locale, page, data) => citation({ siteUrl: cfg.siteUrl, serviceName: cfg.serviceName, locale, page, now, data }),
        });
      } catch (err) {
        return refuse(err);
      }
      if (result instanceof Promise || 'file' in result) return Promise.resolve(result).then(answer, refuse);
      // sent with the turn's other responses (turn-end.ts); returning the reply would make
      // Fastify wait on it as on a promise
      sendAtTurnEnd(reply, () => answer(result));
      return undefined;
    },
  });
}
