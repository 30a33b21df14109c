import type { AppConfig } from '../config.ts';
import type { CatalogSource } from '../loading/store.ts';
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
    /** counts an enquiry the request is about to create against its client's limit; rejects with the 429 over it (rate-limit.ts) */
    admitEnquiry(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** `draining`: SIGTERM received; readiness answers 503 while requests are still served (server.ts) */
    lifecycle: { draining: boolean };
  }
  interface FastifyRequest {
    /** the client's address: the socket's peer, or behind the proxies of TRUST_PROXY the address they saw (client-address.ts) */
    readonly client: string;
  }
  interface FastifyContextConfig {
    cache?: CacheHint | 'no-store';
    /** 10 per 10 minutes per IP on top of the read limit (docs/design.md §3) */
    leadRateLimit?: boolean;
    rateLimitExempt?: boolean;
    /** a request over its limit reaches the handler, which refuses it (exceededLimit of rate-limit.ts) */
    answersOverLimit?: boolean;
    skipClientBuildCheck?: boolean;
  }
}
export {};
