/**
 * A place name where its slug goes (`city=München`, `/v1/places/zone/Mitte`) is a 400 (the
 * parameter takes slugs); the build knows which slug the name belongs to, in any locale, and the
 * error says so. An unknown name keeps the generic hint of contract/common.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { GeoPayload } from '../../contract/catalog.ts';
import { SLUG_PATTERN, slugForm, type Locale } from '../../contract/common.ts';
import type { LoadedBuild } from '../build/load.ts';
import { ApiError } from '../http/problems.ts';

const PLACE_KINDS = ['country', 'city', 'zone'] as const;
type PlaceKind = (typeof PLACE_KINDS)[number];
const isPlaceKind = (v: unknown): v is PlaceKind => PLACE_KINDS.includes(v as PlaceKind);

/** The slugs of each place kind by its names in every locale, case and accents aside (built once per build). */
export class PlaceNames {
  private readonly slugs: Record<PlaceKind, Map<string, string[]>> = { country: new Map(), city: new Map(), zone: new Map() };

  constructor(geo: Record<Locale, GeoPayload>) {
    const add = (kind: PlaceKind, name: string, slug: string) => {
      const key = slugForm(name);
      if (!key) return;
      const list = this.slugs[kind].get(key);
      if (!list) this.slugs[kind].set(key, [slug]);
      else if (!list.includes(slug)) list.push(slug);
    };
    for (const g of Object.values(geo)) {
      for (const c of g.countries) add('country', c.name, c.slug);
      for (const c of g.cities) {
        add('city', c.name, c.slug);
        for (const z of c.zones) add('zone', z.name, z.slug);
      }
    }
    for (const byName of Object.values(this.slugs)) for (const list of byName.values()) list.sort();
  }

  /** The slugs of the places of a kind named `name` in any locale (`München` → munich). */
  slugsNamed(kind: PlaceKind, name: string): readonly string[] {
    return this.slugs[kind].get(slugForm(name)) ?? [];
  }
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
    const slugs = build.engine.placeNames.slugsNamed(kind, value);
    if (!slugs.length) return e;
    named = true;
    return { path: e.path, message: `Not a slug: use the slug of the ${kind} "${value.slice(0, 60)}", ${slugs.map((s) => `"${s}"`).join(' or ')}` };
  });
  return named ? new ApiError(error.code, error.message, errors) : error;
}
