/**
 * A place name where its slug goes (`city=München`, `/v1/places/zone/Mitte`) is a 400 (the
 * parameter takes slugs); the build knows which slug the name belongs to, in any locale, and the
 * error says so. An unknown name keeps the generic hint of contract/common.ts.
 */
import type { FastifyRequest } from 'fastify';
import { SLUG_PATTERN } from '../../contract/common.ts';
import type { LoadedBuild } from '../loading/load.ts';
import { PLACE_KINDS, type PlaceKind } from '../catalog/place-names.ts';
import { ApiError } from './problems.ts';

const isPlaceKind = (v: unknown): v is PlaceKind => PLACE_KINDS.includes(v as PlaceKind);

/** The 400 of a request with the slug of each place it named by its name, where the build knows one. */
export function withPlaceSlugs(error: ApiError, request: FastifyRequest, build: LoadedBuild): ApiError {
  if (error.code !== 'VALIDATION_FAILED' || !error.errors?.length) return error;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  let named = false;
  const errors = error.errors.map((e) => {
    const kind = isPlaceKind(e.path) ? e.path : e.path === 'slug' && isPlaceKind(params.kind) ? params.kind : undefined;
    const value = e.path === 'slug' ? params.slug : query[e.path];
    if (!kind || typeof value !== 'string' || SLUG_PATTERN.test(value)) return e;
    const slugs = build.engine.placeNames.slugsNamed(kind, value);
    if (!slugs.length) return e;
    named = true;
    return { path: e.path, message: `Not a slug: use the slug of the ${kind} "${value.slice(0, 60)}", ${slugs.map((s) => `"${s}"`).join(' or ')}` };
  });
  return named ? new ApiError(error.code, error.message, errors) : error;
}
