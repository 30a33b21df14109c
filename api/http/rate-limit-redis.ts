import { Redis } from 'ioredis';
import { CircuitBreaker, type BreakerLog } from '../circuit-breaker.ts';
import type { RateLimitConfig } from '../config.ts';
import { bucketState, LocalCounters, peeked, tighter, type BucketState, type Counting, type RateCounters, type RateLimitMode } from './rate-limit.ts';

/**
 * One round trip per request: the same fixed windows as LocalCounters, counted atomically in
 * Redis. KEYS: the client's read and lead counters; ARGV: counting (as in LocalCounters), the
 * read window (ms), the lead window (ms). Returns the read count and the ms left in its window,
 * then the same for the lead counter (0 and 0 unless a lead route asks).
 */
const COUNT_SCRIPT = `
local function hit(key, window)
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = tonumber(window)
  end
  return n, ttl
end
local function peek(key, window)
  local n = tonumber(redis.call('GET', key) or '0')
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then ttl = tonumber(window) end
  return n, ttl
end
local counting = ARGV[1]
local reads, readTtl
if counting == 'peek' or counting == 'lead' then reads, readTtl = peek(KEYS[1], ARGV[2]) else reads, readTtl = hit(KEYS[1], ARGV[2]) end
if counting == 'peek' or counting == 'read' then return {reads, readTtl, 0, 0} end
local leads, leadTtl
if counting == 'lead' then leads, leadTtl = hit(KEYS[2], ARGV[3]) else leads, leadTtl = peek(KEYS[2], ARGV[3]) end
return {reads, readTtl, leads, leadTtl}
`;

interface RedisWithScript extends Redis {
  countRequest(readKey: string, leadKey: string, counting: Counting, readWindowMs: number, leadWindowMs: number): Promise<[number, number, number, number]>;
}

/**
 * Far above a healthy round trip (well under a millisecond on a LAN). A hung Redis costs it once
 * per outage, to the requests in flight when it stopped answering; after that the breaker answers.
 * Those few are not spared: to never wait, each request would have to be decided on local counts
 * and sent to Redis afterwards, which makes the shared limit approximate all the time (every
 * replica admitting on stale totals) to save one bounded wait per outage.
 */
export const REDIS_TIMEOUT_MS = 100;

/**
 * Rate-limit counters every replica shares (`REDIS_URL`). Every call goes through a circuit
 * breaker: once Redis fails or does not answer within REDIS_TIMEOUT_MS, each request is counted
 * by this replica's own counters without waiting on Redis, until a background probe finds it
 * answering again. Reads go on being served under the per-replica limit (the shared limit fails
 * open), and enquiries keep a per-replica limit (they never go unlimited). The breaker logs the
 * switch and the recovery; `mode` says which counters answer (readiness reports it).
 */
export class RedisCounters implements RateCounters {
  private readonly redis: RedisWithScript;
  private readonly local: LocalCounters;
  private readonly breaker: CircuitBreaker;

  constructor(url: string, private readonly cfg: RateLimitConfig, log: BreakerLog, private readonly prefix = 'desk-atlas:rate') {
    this.local = new LocalCounters(cfg);
    this.redis = new Redis(url, {
      // fail at once while disconnected instead of queueing: the local counters answer meanwhile
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2_000,
      // reconnect for ever, at most every 2 s
      retryStrategy: (times) => Math.min(times * 100, 2_000),
    }) as RedisWithScript;
    this.redis.defineCommand('countRequest', { numberOfKeys: 2, lua: COUNT_SCRIPT });
    // connection errors surface as failed commands; without a listener ioredis would print each one
    this.redis.on('error', () => undefined);
    this.breaker = new CircuitBreaker({
      timeoutMs: REDIS_TIMEOUT_MS,
      probe: () => this.redis.ping(),
      log,
      messages: {
        opened: 'rate limits: Redis unavailable, counting per replica until it is back',
        closed: 'rate limits: Redis is back, counting shared again',
      },
    });
  }

  /** Waits for the first connection, at most `ms`; true when connected (otherwise requests count locally until it is). */
  async connected(ms: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => { this.redis.off('ready', onReady); resolve(false); }, ms);
      const onReady = () => { clearTimeout(timer); resolve(true); };
      this.redis.once('ready', onReady);
    });
  }

  get mode(): RateLimitMode {
    return this.breaker.isOpen ? 'fallback' : 'shared';
  }

  count(key: string, counting: Counting, now: number): BucketState | Promise<BucketState> {
    if (this.breaker.isOpen) return this.local.count(key, counting, now);
    // a hash tag keeps both counters of a client in one slot (Redis Cluster runs the script on one node)
    const tag = `${this.prefix}:{${key}}`;
    return this.breaker.call(() => this.redis.countRequest(
      `${tag}:read`, `${tag}:lead`, counting, this.cfg.readWindowMs, this.cfg.leadWindowMs,
    )).then(([reads, readMs, leads, leadMs]) => {
      const read = bucketState(this.cfg.readMax, reads, readMs);
      if (counting === 'peek' || counting === 'read') return counting === 'peek' ? peeked(read) : read;
      const lead = bucketState(this.cfg.leadMax, leads, leadMs);
      return counting === 'lead' ? tighter(peeked(read), lead) : tighter(read, peeked(lead));
    }, () => this.local.count(key, counting, now));
  }

  async close() {
    this.breaker.stop();
    this.redis.disconnect();
  }
}
