import type { LoadedBuild } from '../loading/load.ts';
import type { Locale, SlugName } from '../../contract/common.ts';
import { perBuild } from './per-build.ts';
import { eachInTurns } from './turns.ts';

/**
 * Each city's name in a locale as pages and their citations write it: with its country where
 * another city of the build has the same name there ("Valencia, Spain" and "Valencia, Venezuela"),
 * so that a chart, a table or a heading never names two cities alike.
 */
function distinctCityNames(build: LoadedBuild, locale: Locale): Promise<Map<string, string>> {
  return perBuild(build, `city-names|${locale}`, async () => {
    const { cities, countries } = build.geo[locale];
    const countryName = new Map(countries.map((c) => [c.code, c.name]));
    const uses = new Map<string, number>();
    await eachInTurns(cities, (c) => uses.set(c.name, (uses.get(c.name) ?? 0) + 1));
    const names = new Map<string, string>();
    await eachInTurns(cities, (c) => names.set(c.slug, uses.get(c.name)! > 1 ? `${c.name}, ${countryName.get(c.countryCode) ?? c.countryCode}` : c.name));
    return names;
  });
}

/** A city's distinct name in a locale; a city the geo file does not list keeps the name it came with. */
export type CityNamer = (city: SlugName) => string;

/** The namer of a locale's cities. */
export async function cityNamer(build: LoadedBuild, locale: Locale): Promise<CityNamer> {
  const names = await distinctCityNames(build, locale);
  return (city) => names.get(city.slug) ?? city.name;
}
