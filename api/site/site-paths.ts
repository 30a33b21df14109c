import { FALLBACK_LOCALE } from '../../contract/common.ts';
import { citationPath } from '../http/citation.ts';
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
    const head = await listed(headPaths(build, priceIndexOf(build), await indexCountryPaths(build, FALLBACK_LOCALE)));
    const { slugs } = build.engine;
    const after = (path: string) => path.slice(FALLBACK_LOCALE.length + 1);
    return {
      length: head.length + slugs.length,
      at: (i: number) => (i < head.length ? head[i] : after(citationPath(FALLBACK_LOCALE, { kind: 'space', slug: slugs[i - head.length], title: '' }))),
    };
  });
}

async function listed(paths: Iterable<string>): Promise<string[]> {
  const list: string[] = [];
  await eachInTurns(paths, (path) => list.push(path));
  return list;
}

/** The paths before the spaces': the home, the price pages, the hubs, each city's ranking and prices, the operators. */
function* headPaths(build: LoadedBuild, index: PriceIndex, indexPages: string[]): Generator<string> {
  const locale = FALLBACK_LOCALE;
  const after = (path: string) => path.slice(locale.length + 1);
  const { countries, cities } = build.geo[locale];
  const countryOf = new Map(countries.map((c) => [c.code, c]));
  yield* ['', '/price-index'];
  yield* indexPages;
  yield '/prices';
  yield* pricesPagePaths(build, locale);
  for (const country of countries) yield after(citationPath(locale, { kind: 'coworking', country }));
  for (const city of cities) {
    const country = countryOf.get(city.countryCode);
    if (!country) continue;
    for (const p of [city, ...city.zones]) yield after(citationPath(locale, { kind: 'coworking', country, city, zone: p === city ? undefined : p }));
  }
  for (const slug of build.rankings[locale].keys()) yield after(citationPath(locale, { kind: 'best', city: { slug, name: '' } }));
  const priceCities = new Set([...build.marketRates[locale].cities.map((c) => c.rates.city.slug), ...index.entries.map((c) => c.slug)]);
  for (const slug of priceCities) yield after(citationPath(locale, { kind: 'prices', city: { slug, name: '' } }));
  for (const slug of build.operators[locale].keys()) yield after(citationPath(locale, { kind: 'operator', slug, name: '' }));
}
