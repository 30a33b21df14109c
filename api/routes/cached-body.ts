import type { LoadedBuild } from '../catalog/build.ts';
import type { CachedBody } from '../catalog/engine.ts';
import { utcDate } from '../http/citation.ts';
import { envelope, type MetaInput } from '../http/envelope.ts';
import { etagOf } from '../http/headers.ts';

/** An envelope to serialize, or its JSON text already made (pre-serialized cards spliced in). */
type Rendered = { data: unknown; meta: MetaInput } | string;
const text = (r: Rendered) => (typeof r === 'string' ? r : envelope(r.data, r.meta));

const DAY_MS = 86_400_000;

function keep(build: LoadedBuild, full: string, now: number, json: string): CachedBody {
  // meta.citation.accessed is today's UTC date: a body is good for the UTC day it was made on
  const validFrom = Math.floor(now / DAY_MS) * DAY_MS;
  const body: CachedBody = { json, etag: etagOf(json), validFrom, validUntil: validFrom + DAY_MS, sameForUrl: true };
  build.engine.bodies.set(full, body);
  return body;
}

/**
 * The serialized envelope of `render()`, an answer that depends only on the build, the request's
 * URL and today's date, kept per build in the engine's body cache under `key` (a normalized form
 * of the query). The route layer (http/route.ts) also files it under the request URL, so the next
 * request for that URL skips parsing and handler alike.
 */
export function cachedBody(build: LoadedBuild, now: number, key: string, render: () => Rendered): CachedBody {
  const full = `${key}|${utcDate(now)}`;
  return build.engine.bodies.get(full) ?? keep(build, full, now, text(render()));
}

/** cachedBody for an answer that is read asynchronously (a space's detail, from its file). */
export async function cachedBodyAsync(build: LoadedBuild, now: number, key: string, render: () => Promise<Rendered>): Promise<CachedBody> {
  const full = `${key}|${utcDate(now)}`;
  return build.engine.bodies.get(full) ?? keep(build, full, now, text(await render()));
}
