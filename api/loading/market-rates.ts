/**
 * The market rates a build serves in each locale: market-rates.json, whose cities carry their
 * slug alone, with each city's name from that locale's geo file (the pipeline names both from the
 * same texts and writes the figures once).
 */
import type { MarketRatesFile } from '../../contract/build.ts';
import type { GeoPayload } from '../../contract/catalog.ts';
import type { MarketRatesPayload } from '../../contract/market.ts';

export interface LocalizedMarketRates {
  asOf: string;
  cities: (Omit<MarketRatesFile['cities'][number], 'rates'> & { rates: MarketRatesPayload['cities'][number] })[];
}

/** The file's cities named from geo; throws naming a city geo does not list. */
export function localizeMarketRates(file: MarketRatesFile, geo: GeoPayload, geoFile: string): LocalizedMarketRates {
  const names = new Map(geo.cities.map((c) => [c.slug, c.name]));
  return {
    asOf: file.asOf,
    cities: file.cities.map((c) => {
      const name = names.get(c.rates.city.slug);
      if (name === undefined) throw new Error(`market-rates.json: city ${c.rates.city.slug} is not in ${geoFile}`);
      return { ...c, rates: { ...c.rates, city: { slug: c.rates.city.slug, name } } };
    }),
  };
}
