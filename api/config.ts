import { execFileSync } from 'node:child_process';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_DIST_DIR } from '../contract/build.ts';

/** The environments the service knows; production turns on what protects the public (the challenge). */
const NODE_ENVS = ['production', 'development', 'test'] as const;

const flag = z.enum(['0', '1', 'true', 'false', 'on', 'off', '']).transform((v) => v === '1' || v === 'true' || v === 'on');
const positiveInt = z.coerce.number().int().min(1);

/** Every environment variable the service reads (docs/design.md §2), validated once at start. */
const EnvSchema = z.object({
  // trimmed and in any case (`Production`), so a stray space cannot turn production's checks off
  NODE_ENV: z.string().transform((v) => v.trim().toLowerCase()).pipe(z.enum(NODE_ENVS, {
    error: (issue) => `"${String(issue.input)}" is not one of ${NODE_ENVS.join(', ')}`,
  })).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z.url().optional(),
  SITE_URL: z.url().optional(),
  SERVICE_NAME: z.string().min(1).default('Desk Atlas'),
  DIST_DIR: z.string().min(1).default(DEFAULT_DIST_DIR),
  CORS_ORIGINS: z.string().optional(),
  // A replica without the pipeline's volume: the base URL of a served dist directory to download builds from.
  BUILD_URL: z.url().optional(),
  BUILD_POLL_MS: positiveInt.default(30_000),
  TRUST_PROXY: z.string().optional(),
  // Shared rate limits across replicas; unset: each process counts on its own.
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL').optional(),
  // A request (head and body) not received within this is answered 408 and its connection closed.
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  // After SIGTERM: how long /readyz answers 503 while requests are still served, before closing.
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(0),
  LEADS_DB: z.string().min(1).default('var/leads.db'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'expected postgres://user:password@host:port/database').optional(),
  LEADS_MAIL_SPOOL: z.string().min(1).default('var/mail'),
  // The operator's word that LEADS_MAIL_SPOOL is a volume that outlives the container (compose sets it).
  LEADS_MAIL_SPOOL_VOLUME: flag.default(false),
  SMTP_URL: z.string().optional(),
  LEADS_TEAM_EMAIL: z.string().min(1).default('team@localhost'),
  CHALLENGE_SECRET: z.string().optional(),
  // Turnstile's public site key, paired with the secret: the site's enquiry forms show the widget with it.
  CHALLENGE_SITE_KEY: z.string().optional(),
  CHALLENGE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  BUILD_SHA: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Tuning: the benchmark raises the limits so they do not trip; production keeps the defaults.
  RATE_LIMIT_READS: positiveInt.default(120),
  RATE_LIMIT_LEADS: positiveInt.default(10),
  // How often the watcher checks where dist/current points (ms).
  RELOAD_POLL_MS: positiveInt.default(1000),
  // Tuning: the benchmark turns the per-build query and response caches off to measure the engine itself.
  QUERY_CACHE: flag.default(true),
});

export interface RateLimitConfig {
  /** reads per window per client IP */
  readMax: number;
  readWindowMs: number;
  /** lead submissions per window per client IP, on top of the read limit */
  leadMax: number;
  leadWindowMs: number;
  /** how many client IPs are remembered; least recently seen are forgotten first */
  maxClients: number;
}

/**
 * Which peers may tell us the client's address in X-Forwarded-For (`TRUST_PROXY`):
 * - `none`: the socket's peer is the client (the default);
 * - `hops`: exactly this many proxies stand in front of every replica and nothing reaches it
 *   around them; the client is the address the outermost one saw;
 * - `addresses`: the proxies by address or CIDR; the chain is walked from the socket's peer
 *   towards the client while the address is one of them.
 * Never "every hop": the left-most entry is whatever the client wrote, and keying the rate limit
 * on it would give a fresh bucket per request.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; addresses: string[] };

/**
 * The widest networks proxies are named by: 10.0.0.0/8 and fc00::/7, the widest private ranges.
 * A wider range (0.0.0.0/0, ::/0, and ::ffff:0:0/96, which holds every IPv4 address as Node
 * compares them) trusts clients, not proxies.
 */
const WIDEST_PROXY_PREFIX = { ipv4: 8, ipv6: 7 };
const IPV4_MAPPED = { first: '::ffff:0.0.0.0', last: '::ffff:255.255.255.255', prefix: 96 };

function tooWide(address: string, prefix: number, family: number): boolean {
  if (family === 4) return prefix < WIDEST_PROXY_PREFIX.ipv4;
  if (prefix < WIDEST_PROXY_PREFIX.ipv6) return true;
  const range = new BlockList();
  range.addSubnet(address, prefix, 'ipv6');
  const mapped = range.check(IPV4_MAPPED.first, 'ipv6');
  if (mapped && prefix <= IPV4_MAPPED.prefix) return range.check(IPV4_MAPPED.last, 'ipv6');
  // a range of IPv4-mapped addresses is as wide as the IPv4 network it maps
  return mapped && prefix - IPV4_MAPPED.prefix < WIDEST_PROXY_PREFIX.ipv4;
}

const ALL_HOPS = /^(true|on|yes)$/i;
const NO_PROXY = /^(0|false|off|no)$/i;

/** Reads `TRUST_PROXY`: unset or 0 (none), a hop count, or comma-separated addresses and CIDRs. Throws naming what is wrong. */
function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || NO_PROXY.test(text)) return { kind: 'none' };
  if (ALL_HOPS.test(text)) {
    throw new Error(`"${text}" would trust every hop, so a client could pick its own address by writing X-Forwarded-For; name the proxies (addresses or CIDRs, comma-separated, e.g. 172.28.0.10 or 10.0.0.0/8) or give the number of proxies in front of the server (e.g. 1)`);
  }
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  const addresses = text.split(',').map((a) => a.trim());
  for (const entry of addresses) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const validPrefix = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= max);
    if (!family || !validPrefix || rest.length) {
      throw new Error(`"${entry}" is not an IP address or CIDR (expected e.g. 172.28.0.10, 10.0.0.0/8 or fd00::/8; or a hop count such as 1)`);
    }
    if (prefix !== undefined && tooWide(address, Number(prefix), family)) {
      throw new Error(`"${entry}" would trust every hop from much of the internet, so a client could pick its own address by writing X-Forwarded-For; name the proxies (their addresses, or their network: at most as wide as 10.0.0.0/8 or fc00::/7)`);
    }
  }
  return { kind: 'addresses', addresses };
}

export interface AppConfig {
  nodeEnv: string;
  production: boolean;
  port: number;
  host: string;
  baseUrl: string;
  siteUrl: string;
  serviceName: string;
  distDir: string;
  /** download builds from here into distDir (api/loading/download.ts); unset: the pipeline writes distDir */
  buildUrl?: string;
  buildPollMs: number;
  corsOrigins: string[];
  /** which peers may set X-Forwarded-For (api/http/client-address.ts) */
  trustProxy: TrustProxy;
  /** shared rate-limit counters; unset: in-process counters */
  redisUrl?: string;
  shutdownDrainMs: number;
  requestTimeoutMs: number;
  buildSha: string;
  logLevel: string;
  reloadPollMs: number;
  /** whether each build keeps caches: the engine's match sets and facet counts, the edge's response bodies (route.ts) */
  queryCache: boolean;
  rateLimit: RateLimitConfig;
  leads: {
    db: string;
    /** PostgreSQL for enquiries (every replica shares it); unset: the SQLite file `db` */
    databaseUrl?: string;
    mailSpool: string;
    smtpUrl?: string;
    teamEmail: string;
    challengeSecret?: string;
    /** set exactly when challengeSecret is */
    challengeSiteKey?: string;
    challengeVerifyUrl: string;
  };
}

export class ConfigError extends Error {}

function gitSha(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'dev';
  } catch {
    return 'dev';
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty variables count as unset, as in a .env file with `KEY=`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid environment: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (e.CHALLENGE_SECRET !== undefined && e.CHALLENGE_SECRET.trim() === '') {
    throw new ConfigError('CHALLENGE_SECRET is blank: set the Turnstile secret, or leave it unset outside production');
  }
  if (production && !e.CHALLENGE_SECRET) {
    throw new ConfigError(`CHALLENGE_SECRET is required when NODE_ENV=production (NODE_ENV=${e.NODE_ENV})`);
  }
  if (e.CHALLENGE_SECRET && !e.CHALLENGE_SITE_KEY?.trim()) {
    throw new ConfigError('CHALLENGE_SITE_KEY is required with CHALLENGE_SECRET: without the widget no one could send the site\'s enquiry forms');
  }
  if (production && !e.SMTP_URL && !e.LEADS_MAIL_SPOOL_VOLUME) {
    throw new ConfigError(`SMTP_URL is unset, so enquiry mail is written as .eml files to LEADS_MAIL_SPOOL (${e.LEADS_MAIL_SPOOL}), which a container loses when it is replaced: set SMTP_URL, or mount a volume at LEADS_MAIL_SPOOL and declare it with LEADS_MAIL_SPOOL_VOLUME=1 (compose.yaml does both)`);
  }
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (err) {
    throw new ConfigError(`invalid environment: TRUST_PROXY: ${(err as Error).message}`);
  }
  const baseUrl = trimSlash(e.BASE_URL ?? `http://localhost:${e.PORT}`);
  const siteUrl = trimSlash(e.SITE_URL ?? baseUrl);
  const corsOrigins = e.CORS_ORIGINS
    ? e.CORS_ORIGINS.split(',').map((o) => trimSlash(o.trim())).filter(Boolean)
    : [new URL(siteUrl).origin];
  return {
    nodeEnv: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    siteUrl,
    serviceName: e.SERVICE_NAME,
    distDir: e.DIST_DIR,
    buildUrl: e.BUILD_URL,
    buildPollMs: e.BUILD_POLL_MS,
    corsOrigins,
    trustProxy,
    redisUrl: e.REDIS_URL,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    buildSha: e.BUILD_SHA ?? gitSha(),
    logLevel: e.LOG_LEVEL,
    reloadPollMs: e.RELOAD_POLL_MS,
    queryCache: e.QUERY_CACHE,
    rateLimit: {
      readMax: e.RATE_LIMIT_READS,
      readWindowMs: 60_000,
      leadMax: e.RATE_LIMIT_LEADS,
      leadWindowMs: 600_000,
      // clients tracked per bucket: 20 times @fastify/rate-limit's default (the store preallocates, so not more)
      maxClients: 100_000,
    },
    leads: {
      db: e.LEADS_DB,
      databaseUrl: e.DATABASE_URL,
      mailSpool: e.LEADS_MAIL_SPOOL,
      smtpUrl: e.SMTP_URL,
      teamEmail: e.LEADS_TEAM_EMAIL,
      challengeSecret: e.CHALLENGE_SECRET,
      challengeSiteKey: e.CHALLENGE_SECRET ? e.CHALLENGE_SITE_KEY : undefined,
      challengeVerifyUrl: e.CHALLENGE_VERIFY_URL,
    },
  };
}
