/**
 * listing-columns.json (ListingColumnsSchema): listing-facts.json by column, which the engine
 * loads without parsing 100k objects. The pipeline writes it with `listingColumns`; the API
 * re-derives it from the validated facts in the background and compares checksums.
 */
import type { ListingColumns, ListingFact, PriceFact } from '../contract/build.ts';
import { OPTION_TYPES, type MarketPosition, type OptionType } from '../contract/common.ts';

class Dict<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<string, number>();
  id(v: T | null | undefined, key: string = v as unknown as string): number {
    if (v === null || v === undefined) return -1;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(v);
      this.ids.set(key, id);
    }
    return id;
  }
}

/** The columns of a facts file (the same facts always give the same text). */
export function listingColumns(facts: ListingFact[]): ListingColumns {
  const d = {
    country: new Dict<string>(), countryCode: new Dict<string>(), city: new Dict<string>(), zone: new Dict<string>(),
    operator: new Dict<string>(), street: new Dict<string>(), houseNumber: new Dict<string>(),
    currencies: new Dict<PriceFact['currency']>(), billingPeriods: new Dict<PriceFact['billingPeriod']>(), marketPositions: new Dict<MarketPosition>(),
  };
  const col = <T>(f: (x: ListingFact) => T): T[] => facts.map(f);
  const amenities: Record<string, number[]> = {};
  const optionTypes: Partial<Record<OptionType, number[]>> = {};
  facts.forEach((f, i) => {
    for (const a of f.amenities) (amenities[a] ??= []).push(i);
    for (const t of f.optionTypes) (optionTypes[t] ??= []).push(i);
  });
  const prices = (get: (f: ListingFact) => PriceFact | null | undefined, market: (f: ListingFact) => MarketPosition | null | undefined) => ({
    amount: col((f) => get(f)?.amount ?? null),
    sortAmountEur: col((f) => get(f)?.sortAmountEur ?? null),
    currency: col((f) => d.currencies.id(get(f)?.currency)),
    billingPeriod: col((f) => d.billingPeriods.id(get(f)?.billingPeriod)),
    marketPosition: col((f) => { const m = market(f); return m ? d.marketPositions.id(m, JSON.stringify(m)) : -1; }),
  });
  const slugs = col((f) => f.slug);
  // the dictionaries fill while the columns are made; the result lists them in schema order
  const country = col((f) => d.country.id(f.countrySlug));
  const countryCode = col((f) => d.countryCode.id(f.countryCode));
  const city = col((f) => d.city.id(f.citySlug));
  const zone = col((f) => d.zone.id(f.zoneSlug));
  const operator = col((f) => d.operator.id(f.operatorSlug));
  const street = col((f) => d.street.id(f.street));
  const houseNumber = col((f) => d.houseNumber.id(f.houseNumber));
  const fromPrice = prices((f) => f.fromPrice, (f) => f.marketPosition);
  const fromPriceByType: ListingColumns['fromPriceByType'] = {};
  for (const t of OPTION_TYPES) {
    if (facts.some((f) => f.fromPriceByType[t] || f.marketPositionByType[t])) {
      fromPriceByType[t] = prices((f) => f.fromPriceByType[t], (f) => f.marketPositionByType[t]);
    }
  }
  return {
    slugs,
    dict: {
      country: d.country.values, countryCode: d.countryCode.values, city: d.city.values, zone: d.zone.values,
      operator: d.operator.values, street: d.street.values, houseNumber: d.houseNumber.values,
      currencies: d.currencies.values, billingPeriods: d.billingPeriods.values, marketPositions: d.marketPositions.values,
    },
    country, countryCode, city, zone, operator, street, houseNumber,
    amenities: Object.fromEntries(Object.keys(amenities).sort().map((a) => [a, amenities[a]])),
    optionTypes: Object.fromEntries(OPTION_TYPES.filter((t) => optionTypes[t]).map((t) => [t, optionTypes[t]!])),
    capacity: col((f) => f.capacity),
    lat: col((f) => f.coordinates?.lat ?? null),
    lng: col((f) => f.coordinates?.lng ?? null),
    updatedMs: col((f) => (f.updatedAt ? Date.parse(f.updatedAt) : null)),
    ratingScore: col((f) => f.rating?.score ?? null),
    ratingCount: col((f) => f.rating?.count ?? null),
    fromPrice,
    fromPriceByType,
  };
}

/** The file text, as the pipeline's BuildWriter.writeJson writes it. */
export const columnsFileText = (c: ListingColumns): string => `${JSON.stringify(c)}\n`;
