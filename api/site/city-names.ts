import type { LoadedBuild } from '../loading/load.ts';
import type { Locale, SlugName } from '../../contract/common.ts';
import { perBuild } from './per-build.ts';

/**
 * Each city's name in a locale as pages and their citations write it: with its country where
 * another city of the build has the same name there ("Valencia, Spain" and "Valencia, Venezuela"),
 * so that a chart, a table or a heading never names two cities alike.
 */
function distinctCityNames(build: LoadedBuild, locale: Locale): Map<string, string> {
  return perBuild(build, `city-names|${locale}`, () => {
    const { cities, countries } = build.geo[locale];
    const countryName = new Map(countries.map((c) => [c.code, c.name]));
    const uses = new Map<string, number>();
    for (const c of cities) uses.set(c.name, (uses.get(c.name) ?? 0) + 1);
    return new Map(cities.map((c) => [c.slug, uses.get(c.name)! > 1 ? `${c.name}, ${countryName.get(c.countryCode) ?? c.countryCode}` : c.name]));
  });
}

/** A city's distinct name in the locale; a city the geo file does not list keeps the name it came with. */
export const cityName = (build: LoadedBuild, locale: Locale, city: SlugName): string =>
  distinctCityNames(build, locale).get(city.slug) ?? city.name;

/** The city with its distinct name. */
export const namedCity = (build: LoadedBuild, locale: Locale, city: SlugName): SlugName => ({ slug: city.slug, name: cityName(build, locale, city) });
