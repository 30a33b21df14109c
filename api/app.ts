import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppConfig } from './config.ts';
import type { CatalogSource } from './loading/store.ts';
import type { LeadsService } from './leads/service.ts';
import { installErrorHandling, sendProblem } from './http/errors.ts';
import { ApiError } from './http/problems.ts';
import { installClientBuildCheck, installEncodingTags, installResponseHeaders } from './http/headers.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { clientAddress, trustFunction } from './http/client-address.ts';
import { installRateLimit, LocalCounters, type RateCounters } from './http/rate-limit.ts';
import { registerRoute } from './http/route.ts';
import './http/types.ts';
import type { FilterRegistry } from './catalog/filter-index.ts';
import { FILTERS } from './catalog/filters.ts';
import { withPlaceSlugs } from './http/slug-hint.ts';
import { routes } from './routes/index.ts';
import { installPages, pageNotFound } from './site/pages.ts';
import { installEnquiries } from './site/enquiry.ts';
import { installMcp } from './mcp/http.ts';

// @fastify/compress asks of every payload whether it is `instanceof Response`; Node loads fetch's
// classes on the first read of that global (~20 ms). Read here, while the server imports this
// module beside the build's load, not on the first request.
void globalThis.Response;

export interface AppOptions {
  config: AppConfig;
  /** the build to serve (its response cache is the HTTP layer's, kept against it); `current()` is called once per request */
  catalog: CatalogSource;
  /** what the lead routes submit to (server.ts opens it); without one they answer 500 */
  leads?: LeadsService;
  /** a pino logger, or false for none (tests) */
  logger?: FastifyBaseLogger | false;
  /** ms since the epoch; tests inject a fake clock for rate-limit windows and citation dates */
  clock?: () => number;
  /** the filters the list, the map and the facets accept (default FILTERS); the catalog's engine must be built from the same */
  filters?: FilterRegistry;
  /** where rate limits are counted (server.ts passes RedisCounters with REDIS_URL); default this process */
  rateCounters?: RateCounters;
}

/** Header names a browser on an allowed origin may send and read. */
const CORS_ALLOWED_HEADERS = ['Content-Type', 'Idempotency-Key', 'X-Client-Build', 'If-None-Match'];
const CORS_EXPOSED_HEADERS = [
  'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'ETag', 'Idempotency-Replayed',
];

const noFastifySchemas = (): never => {
  throw new Error('a route declared a Fastify schema: declare it in defineRoute (api/http/route.ts), which validates with zod');
};

/** The levels that write the access log's `info` line (pino's). */
const ACCESS_LOG_LEVELS = new Set(['trace', 'debug', 'info']);

/** Builds the app; never listens (server.ts does). */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  // Set below, once the app exists: requests the router rejects (bad URL encoding) never reach
  // the hooks, so they are counted and answered here.
  let limitRequest: ((req: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined;
  const counters = opts.rateCounters ?? new LocalCounters(config.rateLimit);
  const clock = opts.clock ?? Date.now;
  // Only behind a proxy we trust is X-Forwarded-For the client address.
  const trustProxy = trustFunction(config.trustProxy);
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    requestTimeout: config.requestTimeoutMs,
    // how often idle and slow connections are checked against the request timeout
    http: { connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs) },
    // malformed requests, oversized heads and timed-out clients never become requests
    clientErrorHandler: clientErrorHandler({ siteUrl: config.siteUrl, counters, clock, trustProxy }),
    bodyLimit: 64 * 1024,
    genReqId: () => randomUUID(),
    // One log line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    // the 503 of a closing server is ours (problem+json, Retry-After): see the hook below
    return503OnClosing: false,
    // Requests are validated by the routes' zod schemas (api/http/route.ts), so Fastify's own
    // schema compilers (ajv, fast-json-stringify: ~50 ms of every start-up to load) are never used.
    schemaController: { compilersFactory: { buildValidator: noFastifySchemas, buildSerializer: noFastifySchemas } },
    // Slugs may be 200 characters; longer path segments reach the handlers and fail validation.
    routerOptions: { maxParamLength: 2048 },
    frameworkErrors: (error, request, reply) => {
      const invalid = new ApiError('VALIDATION_FAILED', 'The request URL is not valid.', [{ path: '(url)', message: error.message }]);
      void (limitRequest?.(request, reply) ?? Promise.resolve())
        .then(() => invalid, (err) => (err instanceof ApiError ? err : invalid))
        .then((apiError) => {
          reply.header('cache-control', 'no-store');
          return sendProblem(reply, config.siteUrl, apiError);
        });
    },
  }) as unknown as FastifyInstance;

  app.decorate('config', config);
  app.decorate('catalog', opts.catalog);
  app.decorate('leads', opts.leads);
  app.decorate('clock', clock);
  app.decorate('routeDefinitions', []);
  app.decorate('rateCounters', counters);
  app.decorate('lifecycle', { draining: false });
  // not Fastify's trustProxy: its `request.ip` takes the left-most entry of a chain shorter than declared
  app.decorateRequest('client', {
    getter(this: FastifyRequest) {
      return clientAddress(trustProxy, this.socket.remoteAddress ?? '', this.headers['x-forwarded-for'] as string | undefined);
    },
  });

  installErrorHandling(app, config.siteUrl, pageNotFound(app));
  // First hook of all: rate limits must see every request, preflights and 404s included.
  const limits = installRateLimit(app, counters, clock);
  limitRequest = limits.limitNow;
  app.decorate('admitEnquiry', limits.admitEnquiry);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, origin !== undefined && config.corsOrigins.includes(origin)),
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  // After CORS, so a 429 carries its headers too.
  limits.enforce();
  // Draining before shutdown: keep-alive clients reconnect, through the balancer, to a replica that stays.
  // Once closing, requests still arriving on open connections are refused, to be retried elsewhere.
  let closing = false;
  app.addHook('preClose', (done) => { closing = true; done(); });
  app.addHook('onRequest', (_request, reply, done) => {
    if (app.lifecycle.draining || closing) reply.header('connection', 'close');
    if (closing) return done(new ApiError('UPSTREAM_UNAVAILABLE', 'This replica is shutting down; retry, and another one answers.', undefined, 503));
    done();
  });
  installClientBuildCheck(app, () => opts.catalog.current().build.config.minSupportedBuild);
  installResponseHeaders(app);
  // After the ETag hook: tags and 304s are computed on the identity body.
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  installEncodingTags(app);

  app.addHook('onResponse', (request, reply, done) => {
    // the line's fields are not gathered when its level is off
    if (!ACCESS_LOG_LEVELS.has(request.log.level)) return done();
    request.log.info({
      method: request.method,
      route: request.routeOptions.url ?? '(not found)',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    }, 'request');
    done();
  });

  for (const def of routes(opts.filters ?? FILTERS)) registerRoute(app, def, withPlaceSlugs);
  installPages(app);
  await installEnquiries(app);
  installMcp(app);
  return app;
}
