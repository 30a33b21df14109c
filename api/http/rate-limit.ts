import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { RateLimitConfig } from '../config.ts';
import { ApiError } from './problems.ts';

interface Window { count: number; resetAt: number }

/**
 * Fixed-window counters per client IP. The store is bounded (least recently seen clients are
 * forgotten first) and sized far above @fastify/rate-limit's default of 5,000 keys, so a burst of
 * many addresses cannot wipe the counters of the clients being limited.
 */
class RateBucket {
  private readonly windows: LRUCache<string, Window>;
  constructor(readonly name: string, readonly max: number, readonly windowMs: number, maxClients: number) {
    this.windows = new LRUCache({ max: maxClients, ttl: windowMs, ttlAutopurge: false });
  }

  private current(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    return w && w.resetAt > now ? w : undefined;
  }

  hit(key: string, now: number): BucketState {
    let w = this.current(key, now);
    if (!w) {
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return this.state(w, now);
  }

  peek(key: string, now: number): BucketState {
    return this.state(this.current(key, now) ?? { count: 0, resetAt: now + this.windowMs }, now);
  }

  private state(w: Window, now: number): BucketState {
    return {
      limit: this.max,
      remaining: Math.max(0, this.max - w.count),
      resetSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
      exceeded: w.count > this.max,
    };
  }
}

interface BucketState { limit: number; remaining: number; resetSeconds: number; exceeded: boolean }

function setHeaders(reply: FastifyReply, s: BucketState) {
  reply.header('ratelimit-limit', String(s.limit));
  reply.header('ratelimit-remaining', String(s.remaining));
  reply.header('ratelimit-reset', String(s.resetSeconds));
}

/** The bucket to report: an exceeded one, else the one with fewer requests left. */
function tighter(a: BucketState, b: BucketState): BucketState {
  if (a.exceeded !== b.exceeded) return a.exceeded ? a : b;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetSeconds >= b.resetSeconds ? a : b;
}

/**
 * Rate limiting as the first onRequest hook of the root instance, so it covers every route,
 * the not-found handler, CORS preflights and errors (the headers set here survive the error
 * handler). A route declared with `rateLimit: 'exempt'` is not counted (health: headers, no
 * count); one with `rateLimit: 'lead'` also counts against the lead bucket (route.ts sets both flags).
 * Preflights (OPTIONS) are answered with the headers but not counted: they are the browser's,
 * not reads. A request over its limit is refused by the hook `enforce()` adds, after CORS, so
 * a browser on an allowed origin can read the 429 and its Retry-After.
 */
export function installRateLimit(app: FastifyInstance, cfg: RateLimitConfig, clock: () => number) {
  const reads = new RateBucket('read', cfg.readMax, cfg.readWindowMs, cfg.maxClients);
  const leads = new RateBucket('lead', cfg.leadMax, cfg.leadWindowMs, cfg.maxClients);
  /** Counts the request and sets the headers; returns the state when the request is over a limit. */
  const count = (request: FastifyRequest, reply: FastifyReply): BucketState | undefined => {
    const now = clock();
    const key = request.ip;
    const config = request.routeOptions?.config ?? {};
    if (config.rateLimitExempt || request.method === 'OPTIONS') {
      setHeaders(reply, reads.peek(key, now));
      return undefined;
    }
    let state = reads.hit(key, now);
    // a request refused by the read limit does not use up an enquiry
    if (config.leadRateLimit) state = tighter(state, state.exceeded ? leads.peek(key, now) : leads.hit(key, now));
    setHeaders(reply, state);
    return state.exceeded ? state : undefined;
  };
  const refuse = (reply: FastifyReply, state: BucketState): never => {
    reply.header('retry-after', String(state.resetSeconds));
    throw new ApiError('RATE_LIMITED', `Rate limit of ${state.limit} requests exceeded; retry after ${state.resetSeconds} s.`);
  };
  const over = new WeakMap<FastifyRequest, BucketState>();
  // hooks in callback style here and in headers.ts: they run on every request, and an async hook
  // costs a promise and a microtask each
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const state = count(request, reply);
    if (state) over.set(request, state);
    done();
  });
  return {
    /** Adds the hook that refuses requests over their limit (install it after CORS). */
    enforce: () => app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const state = over.get(request);
      if (!state) return done();
      try {
        refuse(reply, state);
      } catch (err) {
        done(err as Error);
      }
    }),
    /** Counts and, over the limit, refuses at once: for requests the router rejects before any hook. */
    limitNow: (request: FastifyRequest, reply: FastifyReply) => {
      const state = count(request, reply);
      if (state) refuse(reply, state);
    },
  };
}
