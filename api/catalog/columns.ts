/**
 * listing-columns.json (ListingColumnsSchema): listing-facts.json by column, which the engine
 * loads without parsing 100k objects. The pipeline writes it with `listingColumns`; the API
 * re-derives it from the validated facts in the background and compares checksums.
 */
import type { ListingColumns, ListingFact, PriceFact } from '../../contract/build.ts';
import { OPTION_TYPES, type MarketPosition, type OptionType } from '../../contract/common.ts';

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

/** Columns made one fact at a time (the API's background check streams the facts file). */
export class ColumnsBuilder {
  private readonly d = {
    country: new Dict<string>(), countryCode: new Dict<string>(), city: new Dict<string>(), zone: new Dict<string>(),
    operator: new Dict<string>(), street: new Dict<string>(), houseNumber: new Dict<string>(),
    currencies: new Dict<PriceFact['currency']>(), billingPeriods: new Dict<PriceFact['billingPeriod']>(), marketPositions: new Dict<MarketPosition>(),
  };
  private readonly c = {
    slugs: [] as string[], country: [] as number[], countryCode: [] as number[], city: [] as number[], zone: [] as number[],
    operator: [] as number[], street: [] as number[], houseNumber: [] as number[],
    capacity: [] as (number | null)[], lat: [] as (number | null)[], lng: [] as (number | null)[], updatedMs: [] as (number | null)[],
    ratingScore: [] as (number | null)[], ratingCount: [] as (number | null)[],
  };
  private readonly amenities: Record<string, number[]> = {};
  private readonly optionTypes: Partial<Record<OptionType, number[]>> = {};
  private readonly featured: number[] = [];
  private readonly fromPrice = ColumnsBuilder.prices();
  private readonly byType = Object.fromEntries(OPTION_TYPES.map((t) => [t, ColumnsBuilder.prices()])) as Record<OptionType, PriceColumns>;
  private readonly typeSeen = new Set<OptionType>();
  private n = 0;

  private static prices(): PriceColumns {
    return { amount: [], sortAmountEur: [], currency: [], billingPeriod: [], marketPosition: [] };
  }

  private addPrice(c: PriceColumns, p: PriceFact | null | undefined, m: MarketPosition | null | undefined) {
    c.amount.push(p?.amount ?? null);
    c.sortAmountEur.push(p?.sortAmountEur ?? null);
    c.currency.push(this.d.currencies.id(p?.currency));
    c.billingPeriod.push(this.d.billingPeriods.id(p?.billingPeriod));
    c.marketPosition.push(m ? this.d.marketPositions.id(m, JSON.stringify(m)) : -1);
  }

  add(f: ListingFact): void {
    const i = this.n++;
    const { c, d } = this;
    c.slugs.push(f.slug);
    c.country.push(d.country.id(f.countrySlug));
    c.countryCode.push(d.countryCode.id(f.countryCode));
    c.city.push(d.city.id(f.citySlug));
    c.zone.push(d.zone.id(f.zoneSlug));
    c.operator.push(d.operator.id(f.operatorSlug));
    c.street.push(d.street.id(f.street));
    c.houseNumber.push(d.houseNumber.id(f.houseNumber));
    for (const a of f.amenities) (this.amenities[a] ??= []).push(i);
    for (const t of f.optionTypes) (this.optionTypes[t] ??= []).push(i);
    if (f.featured) this.featured.push(i);
    c.capacity.push(f.capacity);
    c.lat.push(f.coordinates?.lat ?? null);
    c.lng.push(f.coordinates?.lng ?? null);
    c.updatedMs.push(f.updatedAt ? Date.parse(f.updatedAt) : null);
    c.ratingScore.push(f.rating?.score ?? null);
    c.ratingCount.push(f.rating?.count ?? null);
    this.addPrice(this.fromPrice, f.fromPrice, f.marketPosition);
    for (const t of OPTION_TYPES) {
      const p = f.fromPriceByType[t], m = f.marketPositionByType[t];
      if (p || m) this.typeSeen.add(t);
      this.addPrice(this.byType[t], p, m);
    }
  }

  finish(): ListingColumns {
    const { c, d } = this;
    return {
      slugs: c.slugs,
      dict: {
        country: d.country.values, countryCode: d.countryCode.values, city: d.city.values, zone: d.zone.values,
        operator: d.operator.values, street: d.street.values, houseNumber: d.houseNumber.values,
        currencies: d.currencies.values, billingPeriods: d.billingPeriods.values, marketPositions: d.marketPositions.values,
      },
      country: c.country, countryCode: c.countryCode, city: c.city, zone: c.zone, operator: c.operator, street: c.street, houseNumber: c.houseNumber,
      amenities: Object.fromEntries(Object.keys(this.amenities).sort().map((a) => [a, this.amenities[a]])),
      optionTypes: Object.fromEntries(OPTION_TYPES.filter((t) => this.optionTypes[t]).map((t) => [t, this.optionTypes[t]!])),
      featured: this.featured,
      capacity: c.capacity, lat: c.lat, lng: c.lng, updatedMs: c.updatedMs, ratingScore: c.ratingScore, ratingCount: c.ratingCount,
      fromPrice: this.fromPrice,
      fromPriceByType: Object.fromEntries(OPTION_TYPES.filter((t) => this.typeSeen.has(t)).map((t) => [t, this.byType[t]])),
    };
  }
}

/** The columns of a facts file (the same facts always give the same text). */
export function listingColumns(facts: ListingFact[]): ListingColumns {
  const b = new ColumnsBuilder();
  for (const f of facts) b.add(f);
  return b.finish();
}

/** The file text, as the pipeline's BuildWriter.writeJson writes it. */
export const columnsFileText = (c: ListingColumns): string => `${JSON.stringify(c)}\n`;
