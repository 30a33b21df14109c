/**
 * A place name where its slug goes (`city=München`, `/v1/places/zone/Mitte`) is a 400 (the
 * parameter takes slugs); the build knows which slug the name belongs to, in any locale, and the
 * error says so. An unknown name keeps the generic hint of contract/common.ts.
 */
import type { FastifyRequest } from 'fastify';
import { LOCALES, SLUG_PATTERN, slugForm } from '../../contract/common.ts';
import type { LoadedBuild } from '../build/load.ts';
import { ApiError } from '../http/problems.ts';

const PLACE_KINDS = ['country', 'city', 'zone'] as const;
type PlaceKind = (typeof PLACE_KINDS)[number];
const isPlaceKind = (v: unknown): v is PlaceKind => PLACE_KINDS.includes(v as PlaceKind);

/** The slugs of the places of a kind named `name` in any locale, case and accents aside (`München` → munich). */
export function placeSlugsNamed(build: LoadedBuild, kind: PlaceKind, name: string): string[] {
  const wanted = slugForm(name);
  const found = new Set<string>();
  if (!wanted) return [];
  for (const locale of LOCALES) {
    const geo = build.geo[locale];
    const places = kind === 'country' ? geo.countries : kind === 'city' ? geo.cities : geo.cities.flatMap((c) => c.zones);
    for (const place of places) if (slugForm(place.name) === wanted) found.add(place.slug);
  }
  return [...found].sort();
}

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
    const slugs = placeSlugsNamed(build, kind, value);
    if (!slugs.length) return e;
    named = true;
    return { path: e.path, message: `Not a slug: use the slug of the ${kind} "${value.slice(0, 60)}", ${slugs.map((s) => `"${s}"`).join(' or ')}` };
  });
  return named ? new ApiError(error.code, error.message, errors) : error;
}
