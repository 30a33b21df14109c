import { xxh64 } from '../../contract/xxhash.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from './problems.ts';

export interface CacheHint { maxAge: number; staleWhileRevalidate: number }

/** Cache hints of docs/design.md §3 (the reference's where it gives them). */
export const CACHE = {
  config: { maxAge: 60, staleWhileRevalidate: 60 },
  facets: { maxAge: 600, staleWhileRevalidate: 3600 },
  geo: { maxAge: 3600, staleWhileRevalidate: 86400 },
  listing: { maxAge: 300, staleWhileRevalidate: 3600 },
  market: { maxAge: 600, staleWhileRevalidate: 3600 },
  priceIndex: { maxAge: 3600, staleWhileRevalidate: 86400 },
  media: { maxAge: 86400, staleWhileRevalidate: 604800 },
} as const satisfies Record<string, CacheHint>;

export const cacheControl = (hint: CacheHint | 'no-store') =>
  hint === 'no-store' ? 'no-store' : `public, max-age=${hint.maxAge}, stale-while-revalidate=${hint.staleWhileRevalidate}`;

const tagBytes = Buffer.alloc(8);

/**
 * Strong ETag of a body: the same bytes give the same tag, its 64-bit xxHash (a tag tells
 * versions of one resource apart, no adversary picks them: a fast hash does, at a tenth of a
 * SHA-1's cost on a 30 kB body).
 */
export function etagOf(body: string | Buffer): string {
  tagBytes.writeBigUInt64BE(xxh64(typeof body === 'string' ? Buffer.from(body) : body));
  return `"${tagBytes.toString('base64url')}"`;
}

/**
 * The tag of If-None-Match that matches the body's tag (also in its per-encoding form), if any.
 * If-None-Match compares weakly (RFC 9110 §13.1.2): `W/"abc"` matches `"abc"`.
 */
export function matching(ifNoneMatch: string, etag: string): string | undefined {
  if (ifNoneMatch.trim() === '*') return etag;
  const bare = etag.slice(0, -1);
  for (const raw of ifNoneMatch.split(',')) {
    const t = raw.trim().replace(/^W\//, '');
    if (t === etag || (t.startsWith(`${bare}-`) && /^-(gzip|br)"$/.test(t.slice(bare.length)))) return t;
  }
  return undefined;
}

/**
 * Strong tags belong to one representation: a compressed body gets its encoding appended
 * (`"abc-gzip"`). Registered as the last onSend hook of every route, after compression.
 */
export function installEncodingTags(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const tagEncoding = (_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void) => {
      const enc = reply.getHeader('content-encoding');
      const etag = reply.getHeader('etag');
      if (typeof enc === 'string' && typeof etag === 'string' && etag.endsWith('"') && !etag.endsWith(`-${enc}"`)) {
        reply.header('etag', `${etag.slice(0, -1)}-${enc}"`);
      }
      done(null, payload);
    };
    const existing = route.onSend;
    route.onSend = existing === undefined ? [tagEncoding] : [...(Array.isArray(existing) ? existing : [existing]), tagEncoding] as typeof route.onSend;
  });
}

/**
 * Response headers common to every route: Cache-Control from the route's hint (no-store on
 * errors and on routes without a hint), a strong ETag with 304 on If-None-Match for GET bodies,
 * and never a WWW-Authenticate header.
 */
export function installResponseHeaders(app: FastifyInstance) {
  // callback style, as the rate limiter's hooks: no promise per request
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void) => {
    done(null, finish(request, reply, payload));
  });
}

/** Cache-Control, ETag and 304 of one response; returns the payload to send. */
function finish(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  reply.removeHeader('www-authenticate');
  // a 304 carries the Cache-Control its 200 would have (RFC 9110 §15.4.5)
  const ok = (reply.statusCode >= 200 && reply.statusCode < 300) || reply.statusCode === 304;
  const hint = request.routeOptions.config?.cache;
  reply.header('cache-control', ok && hint ? cacheControl(hint) : 'no-store');
  if (!ok || reply.statusCode === 304 || (request.method !== 'GET' && request.method !== 'HEAD')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  let etag = reply.getHeader('etag') as string | undefined;
  if (!etag) {
    etag = etagOf(payload);
    reply.header('etag', etag);
  }
  const inm = request.headers['if-none-match'];
  const matched = inm ? matching(inm, etag) : undefined;
  if (matched) {
    reply.code(304);
    reply.header('etag', matched);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return '';
  }
  return payload;
}

/**
 * An official client sending X-Client-Build below the current build's minSupportedBuild gets
 * 400 CLIENT_TOO_OLD, except on routes marked `skipClientBuildCheck` (config, health) so an old
 * client can still read the upgrade message. A non-numeric header is ignored.
 */
export function installClientBuildCheck(app: FastifyInstance, minSupportedBuild: () => number) {
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const header = request.headers['x-client-build'];
    if (typeof header !== 'string' || !/^\d{1,15}$/.test(header.trim())) return done();
    if (request.routeOptions.config?.skipClientBuildCheck || request.is404) return done();
    const min = minSupportedBuild();
    if (Number(header) >= min) return done();
    done(new ApiError('CLIENT_TOO_OLD', `Client build ${Number(header)} is below the minimum supported build ${min}; please update.`));
  });
}
