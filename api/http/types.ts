import type { AppConfig } from '../config.ts';
import type { CatalogSource } from '../build/store.ts';
import type { LeadsService } from '../leads/service.ts';
import type { CacheHint } from './headers.ts';
import type { RateCounters } from './rate-limit.ts';
import type { RouteDefinition } from './route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    /** The build being served; `current()` is the one to answer the request with. */
    catalog: CatalogSource;
    /** what the lead routes submit to; undefined in an app built without one */
    leads: LeadsService | undefined;
    /** milliseconds since the epoch; injected so tests can move time */
    clock: () => number;
    /** every route declared through registerRoute (OpenAPI is generated from these) */
    routeDefinitions: RouteDefinition<any, any, any>[];
    /** where this app counts rate limits (readiness reports their mode) */
    rateCounters: RateCounters;
    /** `draining`: SIGTERM received; readiness answers 503 while requests are still served (server.ts) */
    lifecycle: { draining: boolean };
  }
  interface FastifyContextConfig {
    cache?: CacheHint | 'no-store';
    /** 10 per 10 minutes per IP on top of the read limit (DESIGN.md §3) */
    leadRateLimit?: boolean;
    rateLimitExempt?: boolean;
    /** a request over its limit reaches the handler, which refuses it (exceededLimit of rate-limit.ts) */
    answersOverLimit?: boolean;
    skipClientBuildCheck?: boolean;
  }
}
export {};
