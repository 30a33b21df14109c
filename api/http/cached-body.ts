import type { LoadedBuild } from '../build/load.ts';
import { isCurrent, type CachedBody } from '../catalog/engine.ts';
import { envelope, type MetaInput } from './envelope.ts';
import { etagOf } from './headers.ts';

/** An envelope to serialize, or its JSON text already made (pre-serialized cards spliced in). */
type Rendered = { data: unknown; meta: MetaInput } | string;
const text = (r: Rendered) => (typeof r === 'string' ? r : envelope(r.data, r.meta));

const DAY_MS = 86_400_000;

function keep(build: LoadedBuild, key: string, now: number, json: string): CachedBody {
  const validFrom = Math.floor(now / DAY_MS) * DAY_MS;
  const body: CachedBody = { json, etag: etagOf(json), validFrom, validUntil: validFrom + DAY_MS, sameForUrl: true };
  build.engine.bodies.set(key, body);
  return body;
}

function current(build: LoadedBuild, key: string, now: number): CachedBody | undefined {
  const hit = build.engine.bodies.get(key);
  return hit && isCurrent(hit, now) ? hit : undefined;
}

/**
 * The serialized envelope of `render()`, an answer that depends only on the build, the request's
 * URL and today's date, kept per build in the engine's body cache under `key` (a normalized form
 * of the query) for the UTC day. The route layer (http/route.ts) also files it under the request
 * URL, so the next request for that URL skips parsing and handler alike.
 */
export function cachedBody(build: LoadedBuild, now: number, key: string, render: () => Rendered): CachedBody {
  return current(build, key, now) ?? keep(build, key, now, text(render()));
}

/** cachedBody for an answer that is read asynchronously (a space's detail, from its file). */
export async function cachedBodyAsync(build: LoadedBuild, now: number, key: string, render: () => Promise<Rendered>): Promise<CachedBody> {
  return current(build, key, now) ?? keep(build, key, now, text(await render()));
}
