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
  constructor(readonly max: number, readonly windowMs: number, maxClients: number) {
    // bounded by size (one per client) rather than `max`, which allocates maxClients slots up front
    // (tens of ms at start-up); no ttl: a window's end is its own resetAt (current), and the cache's
    // ttl would read the clock and arm a timer every millisecond of a busy server
    this.windows = new LRUCache({ maxSize: maxClients, sizeCalculation: () => 1 });
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
    return bucketState(this.max, w.count, w.resetAt - now);
  }

  peek(key: string, now: number): BucketState {
    const w = this.current(key, now);
    return peeked(bucketState(this.max, w?.count ?? 0, w ? w.resetAt - now : this.windowMs));
  }
}

export interface BucketState { limit: number; remaining: number; resetSeconds: number; exceeded: boolean }

/** A bucket's state from its count and the time left in its window. */
export function bucketState(limit: number, count: number, msLeft: number): BucketState {
  return {
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
    exceeded: count > limit,
  };
}

/** A bucket read without counting: reported, never what refuses the request. */
export const peeked = (state: BucketState): BucketState => ({ ...state, exceeded: false });

function setHeaders(reply: FastifyReply, s: BucketState) {
  reply.header('ratelimit-limit', String(s.limit));
  reply.header('ratelimit-remaining', String(s.remaining));
  reply.header('ratelimit-reset', String(s.resetSeconds));
}

/** The bucket to report: an exceeded one, else the one with fewer requests left. */
export function tighter(a: BucketState, b: BucketState): BucketState {
  if (a.exceeded !== b.exceeded) return a.exceeded ? a : b;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetSeconds >= b.resetSeconds ? a : b;
}

/**
 * What a request counts against: `peek` reports the read bucket without counting (health,
 * preflights), `read` counts a read, `lead-request` counts a read and reports the enquiry bucket
 * too (a request to a lead route), `lead` counts an enquiry (once the request is known to create
 * one, not replay it) and reports the read bucket.
 */
export type Counting = 'peek' | 'read' | 'lead-request' | 'lead';

/** `local`: this process's counters; `shared`: Redis; `fallback`: Redis unreachable, this process's counters meanwhile. */
export type RateLimitMode = 'local' | 'shared' | 'fallback';

/** Where the counters live: in this process, or shared by every replica (rate-limit-redis.ts). */
export interface RateCounters {
  /** Counts a request of client `key` (or only reads its state) and returns the state to report. */
  count(key: string, counting: Counting, now: number): BucketState | Promise<BucketState>;
  readonly mode: RateLimitMode;
  close(): Promise<void>;
}

/** The counters of one process: a single replica, or every replica's own while Redis is away. */
export class LocalCounters implements RateCounters {
  readonly mode = 'local';
  private readonly reads: RateBucket;
  private readonly leads: RateBucket;
  constructor(cfg: RateLimitConfig) {
    this.reads = new RateBucket(cfg.readMax, cfg.readWindowMs, cfg.maxClients);
    this.leads = new RateBucket(cfg.leadMax, cfg.leadWindowMs, cfg.maxClients);
  }

  count(key: string, counting: Counting, now: number): BucketState {
    switch (counting) {
      case 'peek': return this.reads.peek(key, now);
      case 'read': return this.reads.hit(key, now);
      case 'lead-request': return tighter(this.reads.hit(key, now), this.leads.peek(key, now));
      case 'lead': return tighter(this.reads.peek(key, now), this.leads.hit(key, now));
    }
  }

  async close() {}
}

/** Requests over a limit, with the state to report. */
const over = new WeakMap<FastifyRequest, BucketState>();

/**
 * The limit a request is over, for a route that answers such requests itself (`answersOverLimit`:
 * a form shows itself again with what was typed, which only its handler has read); else undefined.
 */
export const exceededLimit = (request: FastifyRequest): BucketState | undefined => over.get(request);

/**
 * Rate limiting as the first onRequest hook of the root instance, so it covers every route,
 * the not-found handler, CORS preflights and errors (the headers set here survive the error
 * handler). A route declared with `rateLimit: 'exempt'` is not counted (health: headers, no
 * count); one with `rateLimit: 'lead'` reports the lead bucket, which its handler counts through
 * admitEnquiry only for an enquiry it creates (route.ts sets both flags).
 * Preflights (OPTIONS) are answered with the headers but not counted: they are the browser's,
 * not reads. A request over its limit is refused by the hook `enforce()` adds, after CORS, so
 * a browser on an allowed origin can read the 429 and its Retry-After.
 */
export function installRateLimit(app: FastifyInstance, counters: RateCounters, clock: () => number) {
  const countingOf = (request: FastifyRequest): Counting => {
    const config = request.routeOptions?.config ?? {};
    if (config.rateLimitExempt || request.method === 'OPTIONS') return 'peek';
    return config.leadRateLimit ? 'lead-request' : 'read';
  };
  /** Sets the headers; returns the state when the request is over a limit (one that is not counted never is). */
  const settle = (reply: FastifyReply, state: BucketState, counting: Counting): BucketState | undefined => {
    setHeaders(reply, state);
    return state.exceeded && counting !== 'peek' ? state : undefined;
  };
  const refuse = (reply: FastifyReply, state: BucketState): never => {
    reply.header('retry-after', String(state.resetSeconds));
    throw new ApiError('RATE_LIMITED', `Rate limit of ${state.limit} requests exceeded; retry after ${state.resetSeconds} s.`);
  };
  // hooks in callback style here and in headers.ts: they run on every request, and an async hook
  // costs a promise and a microtask each (the local counters answer synchronously)
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const counting = countingOf(request);
    const counted = counters.count(request.client, counting, clock());
    if (counted instanceof Promise) {
      counted.then((state) => {
        const exceeded = settle(reply, state, counting);
        if (exceeded) over.set(request, exceeded);
        done();
      }, done);
      return;
    }
    const exceeded = settle(reply, counted, counting);
    if (exceeded) over.set(request, exceeded);
    done();
  });
  return {
    /** Adds the hook that refuses requests over their limit (install it after CORS). */
    enforce: () => app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const state = over.get(request);
      if (!state || request.routeOptions.config?.answersOverLimit) return done();
      try {
        refuse(reply, state);
      } catch (err) {
        done(err as Error);
      }
    }),
    /**
     * Counts an enquiry about to be created (a replay of a stored one never is) and, over the
     * limit, rejects with the 429; the lead routes call it (app.admitEnquiry).
     */
    admitEnquiry: async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const state = await counters.count(request.client, 'lead', clock());
      setHeaders(reply, state);
      if (state.exceeded) refuse(reply, state);
    },
    /** Counts and, over the limit, rejects with the 429: for requests the router rejects before any hook. */
    limitNow: async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const counting = countingOf(request);
      const exceeded = settle(reply, await counters.count(request.client, counting, clock()), counting);
      if (exceeded) refuse(reply, exceeded);
    },
  };
}
