/** The places of the build by their names, for the 400 that names a slug (api/http/slug-hint.ts). */
import type { GeoPayload } from '../../contract/catalog.ts';
import { slugForm, type Locale } from '../../contract/common.ts';

export const PLACE_KINDS = ['country', 'city', 'zone'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** The slugs of each place kind by its names in every locale, case and accents aside (built once per build). */
export class PlaceNames {
  private readonly slugs: Record<PlaceKind, Map<string, string[]>> = { country: new Map(), city: new Map(), zone: new Map() };

  constructor(geo: Record<Locale, GeoPayload>) {
    // most places have the same name in every locale: each name is put in slug form once
    const forms = new Map<string, string>();
    const add = (kind: PlaceKind, name: string, slug: string) => {
      let key = forms.get(name);
      if (key === undefined) forms.set(name, (key = slugForm(name)));
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
