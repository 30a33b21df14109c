import { FALLBACK_LOCALE } from '../../contract/common.ts';
import { citationPath, type CitationPage } from '../http/citation.ts';
import type { LoadedBuild } from '../loading/load.ts';
import { perBuild } from './per-build.ts';
import { priceIndexOf, type PriceIndex } from './research.ts';
import { eachInTurns } from './turns.ts';
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
    const head = await headPaths(build, priceIndexOf(build), await indexCountryPaths(build, FALLBACK_LOCALE));
    const { slugs } = build.engine;
    const after = (path: string) => path.slice(FALLBACK_LOCALE.length + 1);
    return {
      length: head.length + slugs.length,
      at: (i: number) => (i < head.length ? head[i] : after(citationPath(FALLBACK_LOCALE, { kind: 'space', slug: slugs[i - head.length], title: '' }))),
    };
  });
}

/**
 * The paths before the spaces': the home, the price pages, the hubs, each city's ranking and prices,
 * the operators. Each kind is listed by a small function of its own: on a fresh server (the code
 * compiled on the event loop, `--no-concurrent-recompilation`) one generator of them all took
 * 33–40 ms to compile, three times over.
 */
async function headPaths(build: LoadedBuild, index: PriceIndex, indexPages: string[]): Promise<string[]> {
  const locale = FALLBACK_LOCALE;
  const list = ['', '/price-index', ...indexPages, '/prices', ...pricesPagePaths(build, locale)];
  const add = (page: CitationPage) => { list.push(citationPath(locale, page).slice(locale.length + 1)); };
  const { countries, cities } = build.geo[locale];
  const countryOf = new Map(countries.map((c) => [c.code, c]));
  for (const country of countries) add({ kind: 'coworking', country });
  await eachInTurns(cities, (city) => {
    const country = countryOf.get(city.countryCode);
    if (!country) return;
    add({ kind: 'coworking', country, city });
    for (const zone of city.zones) add({ kind: 'coworking', country, city, zone });
  });
  await eachInTurns(build.rankings[locale].keys(), (slug) => add({ kind: 'best', city: { slug, name: '' } }));
  const priceCities = new Set([...build.marketRates[locale].cities.map((c) => c.rates.city.slug), ...index.entries.map((c) => c.slug)]);
  await eachInTurns(priceCities, (slug) => add({ kind: 'prices', city: { slug, name: '' } }));
  await eachInTurns(build.operators[locale].keys(), (slug) => add({ kind: 'operator', slug, name: '' }));
  return list;
}
