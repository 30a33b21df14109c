/**
 * listing-columns.json (ListingColumnsSchema): the listing facts by column, which the API's engine
 * loads without parsing 100k objects.
 */
import type { ListingColumns } from '../../contract/build.ts';
import { OPTION_TYPES, type MarketPosition, type OptionType } from '../../contract/common.ts';
import type { ListingFact, PriceFact } from './facts.ts';

/** Values stored once, in order of first use, referenced by index (-1 for none). */
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

type PriceColumns = ListingColumns['fromPrice'];
const priceColumns = (): PriceColumns => ({ amount: [], sortAmountEur: [], currency: [], billingPeriod: [], marketPosition: [] });

/** The columns of the facts, in their order (the same facts always give the same columns). */
export function listingColumns(facts: ListingFact[]): ListingColumns {
  const d = {
    country: new Dict<string>(), countryCode: new Dict<string>(), city: new Dict<string>(), zone: new Dict<string>(),
    operator: new Dict<string>(), street: new Dict<string>(), houseNumber: new Dict<string>(),
    currencies: new Dict<PriceFact['currency']>(), billingPeriods: new Dict<PriceFact['billingPeriod']>(), marketPositions: new Dict<MarketPosition>(),
  };
  const amenities: Record<string, number[]> = {};
  const optionTypes: Partial<Record<OptionType, number[]>> = {};
  const fromPrice = priceColumns();
  const byType = Object.fromEntries(OPTION_TYPES.map((t) => [t, priceColumns()])) as Record<OptionType, PriceColumns>;
  const typeSeen = new Set<OptionType>();
  const addPrice = (c: PriceColumns, p: PriceFact | null | undefined, m: MarketPosition | null | undefined) => {
    c.amount.push(p?.amount ?? null);
    c.sortAmountEur.push(p?.sortAmountEur ?? null);
    c.currency.push(d.currencies.id(p?.currency));
    c.billingPeriod.push(d.billingPeriods.id(p?.billingPeriod));
    c.marketPosition.push(m ? d.marketPositions.id(m, JSON.stringify(m)) : -1);
  };
  const column = <T>(dict: Dict<T>, value: (f: ListingFact) => T | null) => facts.map((f) => dict.id(value(f)));
  const country = column(d.country, (f) => f.countrySlug);
  const countryCode = column(d.countryCode, (f) => f.countryCode);
  const city = column(d.city, (f) => f.citySlug);
  const zone = column(d.zone, (f) => f.zoneSlug);
  const operator = column(d.operator, (f) => f.operatorSlug);
  const street = column(d.street, (f) => f.street);
  const houseNumber = column(d.houseNumber, (f) => f.houseNumber);
  facts.forEach((f, i) => {
    for (const a of f.amenities) (amenities[a] ??= []).push(i);
    for (const t of f.optionTypes) (optionTypes[t] ??= []).push(i);
    addPrice(fromPrice, f.fromPrice, f.marketPosition);
    for (const t of OPTION_TYPES) {
      const p = f.fromPriceByType[t], m = f.marketPositionByType[t];
      if (p || m) typeSeen.add(t);
      addPrice(byType[t], p, m);
    }
  });
  return {
    slugs: facts.map((f) => f.slug),
    dict: {
      country: d.country.values, countryCode: d.countryCode.values, city: d.city.values, zone: d.zone.values,
      operator: d.operator.values, street: d.street.values, houseNumber: d.houseNumber.values,
      currencies: d.currencies.values, billingPeriods: d.billingPeriods.values, marketPositions: d.marketPositions.values,
    },
    country, countryCode, city, zone, operator, street, houseNumber,
    amenities: Object.fromEntries(Object.keys(amenities).sort().map((a) => [a, amenities[a]])),
    optionTypes: Object.fromEntries(OPTION_TYPES.filter((t) => optionTypes[t]).map((t) => [t, optionTypes[t]!])),
    capacity: facts.map((f) => f.capacity),
    lat: facts.map((f) => f.coordinates?.lat ?? null),
    lng: facts.map((f) => f.coordinates?.lng ?? null),
    updatedMs: facts.map((f) => (f.updatedAt ? Date.parse(f.updatedAt) : null)),
    ratingScore: facts.map((f) => f.rating?.score ?? null),
    ratingCount: facts.map((f) => f.rating?.count ?? null),
    fromPrice,
    fromPriceByType: Object.fromEntries(OPTION_TYPES.filter((t) => typeSeen.has(t)).map((t) => [t, byType[t]])),
  };
}
