import type { PriceIndexCity } from '../../contract/market.ts';
import { arrayElementSpans, objectMembers } from './json-spans.ts';

/** A JSON file of cities with each city's place in it: city i (slugs[i]) is bytes [spans[2i], spans[2i + 1]). */
export interface CityTexts { slugs: string[]; spans: Uint32Array; bytes: Uint8Array }

/** Where each element of the file's `cities` array lies, as CityTexts' spans. */
function citySpans(bytes: Uint8Array): Uint32Array {
  for (const member of objectMembers(bytes)) if (member.key === 'cities') return arrayElementSpans(bytes, member.start);
  throw new Error('has no cities');
}

/** price-index.json's cities: where each lies in the file as served, and what lists and groups them without parsing them. */
export interface IndexCities { slugs: string[]; spans: Uint32Array; countryCodes: string[]; currencies: string[]; published: Uint8Array }

/** The index's cities in `json` (the file as served), whose parsed `cities` are given. */
export function indexCitiesOf(json: Uint8Array, cities: readonly Pick<PriceIndexCity, 'city' | 'countryCode' | 'currency' | 'published'>[]): IndexCities {
  const spans = citySpans(json);
  if (spans.length / 2 !== cities.length) throw new Error(`has ${cities.length} cities, ${spans.length / 2} found in its text`);
  return {
    slugs: cities.map((c) => c.city.slug), spans,
    countryCodes: cities.map((c) => c.countryCode), currencies: cities.map((c) => c.currency),
    published: Uint8Array.from(cities, (c) => (c.published ? 1 : 0)),
  };
}
