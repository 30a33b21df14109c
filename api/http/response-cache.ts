import { LRUCache } from 'lru-cache';
import type { Served } from '../loading/store.ts';
import { fnv1a } from '../../contract/fnv1a.ts';
import { etagOf } from './headers.ts';

/** What a 200 sends besides the common headers. */
export interface RouteResponse {
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

/** A 200 response, valid through the UTC day it was made on (meta.citation.accessed is a date). */
export interface KeptResponse extends RouteResponse {
  body: Buffer;
  etag: string;
  day: number;
}

const DAY_MS = 86_400_000;
const utcDay = (now: number) => Math.floor(now / DAY_MS);

/** How many keys asked for once are remembered (a fingerprint each, direct-mapped). */
const SEEN_SLOTS = 1 << 16;

/** A key's fingerprint in the table of keys seen once (never 0, an empty slot). */
const fingerprint = (key: string) => fnv1a(key) | 1;

/**
 * The 200 responses of one build, by route and canonical request. It is kept against the build
 * it answers for as served (responsesOf), so a swap starts with an empty one. A response is kept the
 * second time its key is asked for: most requests are asked once (fresh filter mixes, pages,
 * slugs), and keeping those would only copy bodies and churn memory for nothing.
 */
export class ResponseCache {
  // A response is about its bytes in memory: the text is not kept.
  private readonly responses = new LRUCache<string, KeptResponse>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (r) => r.body.length + 64 });
  private readonly seen = new Int32Array(SEEN_SLOTS);

  get size(): number {
    return this.responses.size;
  }

  get(key: string, now: number): KeptResponse | undefined {
    const hit = this.responses.get(key);
    return hit && hit.day === utcDay(now) ? hit : undefined;
  }

  /** Whether a response made for `key` is worth keeping: the key was asked for before (as far as the table remembers). */
  admits(key: string): boolean {
    const f = fingerprint(key);
    const slot = f & (SEEN_SLOTS - 1);
    if (this.seen[slot] === f) return true;
    this.seen[slot] = f;
    return false;
  }

  keep(key: string, now: number, response: RouteResponse): KeptResponse {
    // a copy: a body written by JsonBytes shares a larger allocation, which the size limit would not count
    const body = Buffer.from(response.body);
    const kept = { ...response, body, etag: etagOf(body), day: utcDay(now) };
    this.responses.set(key, kept);
    return kept;
  }
}

/** JSON with object keys sorted and undefined members left out; arrays of strings sorted. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    const items = value.every((v) => typeof v === 'string') ? [...value].sort() : value;
    return `[${items.map(canonicalJson).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The key of a parsed request (path parameters and query, as the route's schemas output them):
 * requests that parse alike share it, whatever their parameter order, spelling of defaults or
 * unknown parameters. Arrays in a query are sets (amenities), so their order does not count.
 */
export const requestKey = ({ params, query }: { params: unknown; query: unknown }): string => canonicalJson([params, query]);

const responseCaches = new WeakMap<Served, ResponseCache>();

/** The response cache of what is being served: made on its first request, dropped with it when another build is swapped in. */
export function responsesOf(served: Served): ResponseCache {
  let responses = responseCaches.get(served);
  if (!responses) responseCaches.set(served, (responses = new ResponseCache()));
  return responses;
}
