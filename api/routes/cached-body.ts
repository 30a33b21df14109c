import type { LoadedBuild } from '../catalog/build.ts';
import { utcDate } from '../http/citation.ts';
import { envelopeJson, type MetaInput } from '../http/envelope.ts';
import { etagOf } from '../http/headers.ts';

/**
 * The serialized envelope of a precomputed payload, kept per build in the engine's body cache.
 * The key carries today's UTC date because meta.citation.accessed changes with it.
 */
export function cachedBody(build: LoadedBuild, now: number, key: string, render: () => { data: unknown; meta: MetaInput }) {
  const full = `${key}|${utcDate(now)}`;
  let hit = build.engine.bodies.get(full);
  if (!hit) {
    const { data, meta } = render();
    const json = envelopeJson(JSON.stringify(data), meta);
    hit = { json, etag: etagOf(json) };
    build.engine.bodies.set(full, hit);
  }
  return hit;
}
