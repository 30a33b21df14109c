import type { LoadedBuild } from '../loading/load.ts';
import { FALLBACK_LOCALE } from '../../contract/common.ts';
import { citationPath } from '../http/citation.ts';
import { perBuild } from './per-build.ts';
import { priceIndexOf } from './research.ts';
import { indexCountryPaths, pricesPagePaths } from './views.ts';

/** A list read by position: the site's paths are too many at 1,000,000 spaces to copy into one array. */
export interface PathList {
  length: number;
  at(i: number): string;
}

/**
 * Every page a crawler should find, as its path after `/{locale}` (slugs are the same in every
 * locale): the home, the price pages, the hubs, each city's ranking and prices, the operators,
 * then the spaces, read from the engine's slugs as they are. Made once per build.
 */
export function sitePaths(build: LoadedBuild): Promise<PathList> {
  return perBuild(build, 'site-paths', async () => {
    const locale = FALLBACK_LOCALE;
    const after = (path: string) => path.slice(locale.length + 1);
    const { countries, cities } = build.geo[locale];
    const countryOf = new Map(countries.map((c) => [c.code, c]));
    const priceCities = new Set([...build.marketRates[locale].cities.map((c) => c.rates.city.slug), ...(await priceIndexOf(build)).entries.map((c) => c.slug)]);
    const head = [
      '', '/price-index', ...await indexCountryPaths(build, locale), '/prices', ...pricesPagePaths(build, locale),
      ...countries.map((c) => after(citationPath(locale, { kind: 'coworking', country: c }))),
      ...cities.flatMap((city) => {
        const country = countryOf.get(city.countryCode);
        if (!country) return [];
        return [city, ...city.zones].map((p) => after(citationPath(locale, { kind: 'coworking', country, city, zone: p === city ? undefined : p })));
      }),
      ...[...build.rankings[locale].keys()].map((slug) => after(citationPath(locale, { kind: 'best', city: { slug, name: '' } }))),
      ...[...priceCities].map((slug) => after(citationPath(locale, { kind: 'prices', city: { slug, name: '' } }))),
      ...[...build.operators[locale].keys()].map((slug) => after(citationPath(locale, { kind: 'operator', slug, name: '' }))),
    ];
    const { slugs } = build.engine;
    return {
      length: head.length + slugs.length,
      at: (i: number) => (i < head.length ? head[i] : after(citationPath(locale, { kind: 'space', slug: slugs[i - head.length], title: '' }))),
    };
  });
}
