import type { DuckDBConnection } from '@duckdb/node-api';
import { labelOrders, type FacetLabels, type LeadRouting, type LocalizedText, type MarketRatesFile } from '../../contract/build.ts';
import type { GeoPayload } from '../../contract/catalog.ts';
import { LOCALES, OPTION_TYPES, type BillingPeriod, type Locale, type Money, type OptionType } from '../../contract/common.ts';
import { foldedNames } from '../../contract/fold.ts';
import { MAX_RANKING_LIMIT, type PlaceHub, type RankingsPayload } from '../../contract/market.ts';
import { LOGO_SIZE_PX } from './listing-rows.ts';
import type { SuggestSource } from './suggest-index.ts';
import { queryJsonRows, queryRows } from './models.ts';
import {
  FACET_KEY_LABELS, operatorDescription, operatorFaqs, placeFaqs, placeIntro, placeShortDescription, type PlaceText,
} from './texts.ts';

export type Row = Record<string, unknown>;
const str = (v: unknown): string => v as string;
const optStr = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : (v as string));
const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));
const sameInAll = (s: string) => Object.fromEntries(LOCALES.map((l) => [l, s])) as LocalizedText;

/** What the texts mart names, and the fields it has. */
type TextOf = { country: 'name'; city: 'name' | 'intro'; zone: 'name'; operator: 'tagline' | 'description'; amenity: 'label'; option_type: 'label' };

/** The texts mart (one row per entity, field and locale, by slug) as a lookup, built once. */
export class Texts {
  private readonly byEntity = new Map<string, Partial<Record<Locale, string | null>>>();

  constructor(rows: Row[]) {
    for (const r of rows) {
      const key = `${str(r.entity_kind)}/${str(r.slug)}/${str(r.field)}`;
      const texts = this.byEntity.get(key) ?? {};
      texts[r.locale as Locale] = r.text as string | null;
      this.byEntity.set(key, texts);
    }
  }

  /** The text in one locale; undefined when there is none. */
  get<K extends keyof TextOf>(kind: K, slug: string, field: TextOf[K], locale: Locale): string | undefined {
    return optStr(this.byEntity.get(`${kind}/${slug}/${field}`)?.[locale]);
  }

  /** The name of a published place in one locale (every one has a name in each). */
  name(kind: 'country' | 'city' | 'zone', slug: unknown, locale: Locale): string {
    return str(this.get(kind, str(slug), 'name', locale));
  }

  /** A name or label in every locale (the mart has one for each after the fallback); undefined for an unknown entity. */
  localized<K extends keyof TextOf>(kind: K, slug: string, field: TextOf[K]): LocalizedText | undefined {
    const texts = this.byEntity.get(`${kind}/${slug}/${field}`);
    return texts && Object.fromEntries(LOCALES.map((l) => [l, str(texts[l])])) as LocalizedText;
  }
}

export interface Marts {
  asOf: string;
  /** the listing_columns mart's JSON (ListingColumnsSchema), which becomes listing-columns.bin */
  listingColumnsText: string;
  /** the listing_orders mart: each order's listing positions as a JSON list, by order name */
  listingOrdersText: Map<string, string>;
  /** the columns of the listings mart the autocomplete and the lead routing read, by slug */
  listings: Row[];
  countries: Row[];
  cities: Row[];
  zones: Row[];
  operators: Row[];
  marketRates: Row[];
  rankings: Row[];
  amenities: Row[];
  texts: Texts;
}

/** The tables readMarts reads. */
export const MARTS_READ = [
  'int_price_observations__checked', 'int_spaces__slugged', 'listing_columns', 'listing_orders', 'listings', 'countries', 'cities', 'zones',
  'operators', 'market_rates', 'rankings', 'stg_amenities', 'texts',
] as const;

export async function readMarts(conn: DuckDBConnection): Promise<Marts> {
  const [asOfRow] = await queryJsonRows(conn, `
    select coalesce(
      iso_utc(max(observed_at)),
      (select iso_utc(max(updated_at)) from int_spaces__slugged),
      '1970-01-01T00:00:00Z'
    ) as as_of
    from int_price_observations__checked where reject_rule is null`);
  return {
    asOf: str(asOfRow.as_of),
    listingColumnsText: (await queryRows<{ json: string }>(conn, 'select json from listing_columns'))[0].json,
    listingOrdersText: new Map((await queryRows<{ sort: string; listings: string }>(conn, 'select sort, listings from listing_orders')).map((r) => [r.sort, r.listings])),
    // the images, logos and postal codes are only in the listing files (listing-rows.ts)
    // what the autocomplete and the lead routing read (the rest is in the listing files, listing-rows.ts)
    listings: await queryJsonRows(conn, `select slug, title, country_slug, city_slug, zone_slug, lat, lng,
      operator_slug, operator_name, enquiry_email from listings order by slug`),
    countries: await queryJsonRows(conn, 'select * from countries order by country_slug'),
    cities: await queryJsonRows(conn, 'select * from cities order by city_slug'),
    zones: await queryJsonRows(conn, 'select * from zones order by city_slug, zone_slug'),
    operators: await queryJsonRows(conn, 'select * from operators order by operator_slug'),
    marketRates: await queryJsonRows(conn, 'select * from market_rates'),
    // the ranked spaces each city shows (MAX_RANKING_LIMIT at most), in rank order, with the city's count
    rankings: await queryJsonRows(conn, `select * exclude (rank) from (
      select *, count(*) over (partition by city_slug) as city_sample_size,
        row_number() over (partition by city_slug order by score desc, slug) as rank,
      from rankings)
      where rank <= ${MAX_RANKING_LIMIT} order by city_slug, rank`),
    amenities: await queryJsonRows(conn, 'select * from stg_amenities order by amenity_slug'),
    texts: new Texts(await queryJsonRows(conn, 'select * from texts')),
  };
}

function money(amount: number, currency: string): Money {
  return { amount, currency: currency as Money['currency'] };
}

function coordinatesOf(row: Row) {
  if (row.lat === null || row.lng === null) return undefined;
  return { lat: num(row.lat), lng: num(row.lng) };
}

/** Rows by the value of one column, each group in the rows' order. */
function groupBy(rows: Row[], column: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const list = groups.get(str(row[column]));
    if (list) list.push(row);
    else groups.set(str(row[column]), [row]);
  }
  return groups;
}

export function geography(m: Marts, locale: Locale): GeoPayload {
  const zonesByCity = groupBy(m.zones, 'city_slug');
  return {
    countries: m.countries.map((c) => ({
      slug: str(c.country_slug), name: m.texts.name('country', c.country_slug, locale), code: str(c.country_code), propertyCount: num(c.property_count),
    })),
    cities: m.cities.map((c) => ({
      slug: str(c.city_slug),
      name: m.texts.name('city', c.city_slug, locale),
      countryCode: str(c.country_code),
      propertyCount: num(c.property_count),
      center: { lat: num(c.lat), lng: num(c.lng) },
      zones: (zonesByCity.get(str(c.city_slug)) ?? []).map((z) => ({
        slug: str(z.zone_slug), name: m.texts.name('zone', z.zone_slug, locale), propertyCount: num(z.property_count),
      })),
    })),
    currencies: Object.fromEntries(m.countries.map((c) => [str(c.country_code), str(c.currency) as Money['currency']])),
  };
}

export function marketRates(m: Marts): MarketRatesFile {
  const out: MarketRatesFile['cities'] = [];
  let current: MarketRatesFile['cities'][number] | null = null;
  for (const row of m.marketRates) {
    const slug = str(row.city_slug);
    if (!current || current.rates.city.slug !== slug) {
      current = {
        countrySlug: str(row.country_slug),
        propertyCount: num(row.property_count),
        pricePointCount: num(row.price_point_count),
        rates: {
          city: { slug },
          currency: str(row.currency) as Money['currency'],
          byType: [],
          sampleSize: 0,
          countryCode: str(row.country_code),
        },
      };
      out.push(current);
    }
    const product = optStr(row.product_type);
    if (product === undefined) continue;
    const currency = str(row.currency);
    const sampleSize = num(row.sample_size);
    if (product === 'all') current.rates.sampleSize = sampleSize;
    else if (product === 'day_pass' || product === 'meeting_room') {
      // per-use rates have no flag in the contract: shown only when published
      if (row.is_published) {
        current.rates[product === 'day_pass' ? 'dayPass' : 'meetingRoom'] = { median: money(num(row.median_price), currency), sampleSize };
      }
    } else {
      current.rates.byType.push({
        optionType: product as OptionType,
        median: money(num(row.median_price), currency),
        min: money(num(row.min_price), currency),
        max: money(num(row.max_price), currency),
        sampleSize,
        thinSample: row.is_published ? undefined : true,
      });
    }
  }
  return { asOf: m.asOf, cities: out };
}

export function rankings(m: Marts, locale: Locale): Record<string, RankingsPayload> {
  const out: Record<string, RankingsPayload> = {};
  for (const c of m.cities) {
    out[str(c.city_slug)] = {
      city: { slug: str(c.city_slug), name: m.texts.name('city', c.city_slug, locale) },
      currency: str(c.currency) as Money['currency'],
      sampleSize: 0,
      hasReviewData: false,
      ranked: [],
      asOf: m.asOf,
    };
  }
  for (const r of m.rankings) {
    const entry = out[str(r.city_slug)];
    entry.sampleSize = num(r.city_sample_size);
    entry.hasReviewData = r.has_review_data as boolean;
    entry.ranked.push({
      slug: str(r.slug),
      title: str(r.title),
      score: num(r.score),
      amenityCount: num(r.amenity_count),
      entryPrice: r.entry_amount === null ? undefined : money(num(r.entry_amount), str(r.entry_currency)),
      entryBillingPeriod: r.entry_amount === null ? undefined : str(r.entry_billing_period) as BillingPeriod,
      rating: r.has_review_data && r.rating_score !== null && r.rating_count !== null
        ? { score: num(r.rating_score), count: num(r.rating_count) } : undefined,
    });
  }
  return out;
}

function priceStats(row: Row) {
  const sampleSize = num(row.sample_size);
  const published = row.is_published as boolean;
  return {
    currency: str(row.currency),
    sampleSize,
    median: published ? num(row.median_price) : undefined,
    min: published ? num(row.min_price) : undefined,
    max: published ? num(row.max_price) : undefined,
  };
}

function placeFigures(row: Row) {
  const s = priceStats(row);
  if (s.median === undefined) return {};
  return {
    priceRange: { min: money(s.min!, s.currency), max: money(s.max!, s.currency) },
    medianMonthlyPerDesk: { price: money(s.median, s.currency), sampleSize: s.sampleSize },
  };
}

const bySizeThenName = (a: { propertyCount: number; name: string }, b: { propertyCount: number; name: string }) =>
  b.propertyCount - a.propertyCount || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function places(m: Marts, locale: Locale): Record<string, PlaceHub> {
  const out: Record<string, PlaceHub> = {};
  const asOfDate = m.asOf.slice(0, 10);
  const name = (kind: 'country' | 'city' | 'zone', slug: unknown) => m.texts.name(kind, slug, locale);
  const hub = (kind: PlaceHub['kind'], slug: string, row: Row, rest: Partial<PlaceHub>, text: PlaceText, editorialIntro?: string): PlaceHub => ({
    kind,
    slug,
    name: text.name,
    faqs: placeFaqs(text, locale),
    propertyCount: num(row.property_count),
    asOf: m.asOf,
    intro: editorialIntro ?? placeIntro(text, locale),
    shortDescription: placeShortDescription(text, locale),
    ...placeFigures(row),
    ...rest,
  });
  const citiesByCountry = groupBy(m.cities, 'country_code');
  const zonesByCity = groupBy(m.zones, 'city_slug');
  for (const c of m.countries) {
    const cities = (citiesByCountry.get(str(c.country_code)) ?? [])
      .map((city) => ({ kind: 'city' as const, slug: str(city.city_slug), name: name('city', city.city_slug), propertyCount: num(city.property_count) }));
    const text: PlaceText = {
      name: name('country', c.country_slug), propertyCount: num(c.property_count), operatorCount: num(c.operator_count), operatedCount: num(c.operated_count), prices: priceStats(c),
      children: [...cities].sort(bySizeThenName), childKind: 'city', asOfDate,
    };
    const slug = str(c.country_slug);
    out[`country/${slug}`] = hub('country', slug, c, { operatorCount: num(c.operator_count), children: cities }, text);
  }
  for (const c of m.cities) {
    const zones = (zonesByCity.get(str(c.city_slug)) ?? [])
      .map((z) => ({ kind: 'zone' as const, slug: str(z.zone_slug), name: name('zone', z.zone_slug), propertyCount: num(z.property_count) }));
    const text: PlaceText = {
      name: name('city', c.city_slug), propertyCount: num(c.property_count), operatorCount: num(c.operator_count), operatedCount: num(c.operated_count), prices: priceStats(c),
      children: [...zones].sort(bySizeThenName), childKind: 'zone', asOfDate,
    };
    const slug = str(c.city_slug);
    out[`city/${slug}`] = hub('city', slug, c, {
      center: { lat: num(c.lat), lng: num(c.lng) },
      parent: { slug: str(c.country_slug), name: name('country', c.country_slug) },
      operatorCount: num(c.operator_count),
      children: zones,
    }, text, m.texts.get('city', slug, 'intro', locale));
  }
  for (const z of m.zones) {
    const text: PlaceText = {
      name: name('zone', z.zone_slug), propertyCount: num(z.property_count), operatorCount: num(z.operator_count), operatedCount: num(z.operated_count), prices: priceStats(z),
      children: [], childKind: null, asOfDate,
    };
    const slug = str(z.zone_slug);
    out[`zone/${slug}`] = hub('zone', slug, z, {
      center: coordinatesOf(z),
      parent: { slug: str(z.city_slug), name: name('city', z.city_slug) },
      operatorCount: num(z.operator_count),
    }, text);
  }
  return out;
}

export function operatorHubs(m: Marts, locale: Locale) {
  const cityName = new Map(m.cities.map((c) => [str(c.city_slug), m.texts.name('city', c.city_slug, locale)]));
  const out: Record<string, unknown> = {};
  for (const o of m.operators) {
    const name = str(o.operator_name);
    const cities = (o.city_slugs as string[]).map((slug) => ({ slug, name: cityName.get(slug)! }));
    const verdict = optStr(o.position_verdict) as 'below' | 'around' | 'above' | undefined;
    const text = {
      name, propertyCount: num(o.property_count), cityNames: cities.map((c) => c.name),
      verdict: verdict ?? null, sampleSize: num(o.position_sample_size),
    };
    const logoPath = optStr(o.logo_path);
    out[str(o.operator_slug)] = {
      slug: str(o.operator_slug),
      name,
      faqs: operatorFaqs(text, locale),
      propertyCount: num(o.property_count),
      cities,
      asOf: m.asOf,
      logo: logoPath ? { url: logoPath, width: LOGO_SIZE_PX, height: LOGO_SIZE_PX, alt: name } : undefined,
      tagline: m.texts.get('operator', str(o.operator_slug), 'tagline', locale),
      description: m.texts.get('operator', str(o.operator_slug), 'description', locale) ?? operatorDescription(text, locale),
      pricePosition: verdict ? { verdict, sampleSize: num(o.position_sample_size) } : undefined,
    };
  }
  return out;
}

export function facetLabels(m: Marts): FacetLabels {
  const name = (kind: 'country' | 'city' | 'zone', slug: unknown) => m.texts.localized(kind, str(slug), 'name')!;
  const maps = {
    country: Object.fromEntries(m.countries.map((c) => [str(c.country_slug), name('country', c.country_slug)])),
    city: Object.fromEntries(m.cities.map((c) => [str(c.city_slug), name('city', c.city_slug)])),
    zone: Object.fromEntries(m.zones.map((z) => [str(z.zone_slug), name('zone', z.zone_slug)])),
    operator: Object.fromEntries(m.operators.map((o) => [str(o.operator_slug), sameInAll(str(o.operator_name))])),
    pricingOptionType: Object.fromEntries(OPTION_TYPES.map((t) => [t, m.texts.localized('option_type', t, 'label') ?? sameInAll(t)])),
    amenities: Object.fromEntries(m.amenities.map((a) => [str(a.amenity_slug), m.texts.localized('amenity', str(a.amenity_slug), 'label')!])),
  };
  return { keys: FACET_KEY_LABELS as unknown as FacetLabels['keys'], ...maps, order: labelOrders(maps) };
}

/** The entries of the autocomplete: every country, city, zone, operator and space (pipeline/lib/suggest-index.ts). */
export function suggestSources(m: Marts): SuggestSource[] {
  const entries: SuggestSource[] = [];
  const names = (kind: 'country' | 'city' | 'zone', rows: Row[], slugColumn: string) =>
    new Map(rows.map((r) => [str(r[slugColumn]), m.texts.localized(kind, str(r[slugColumn]), 'name')!]));
  const countryNames = names('country', m.countries, 'country_slug');
  const cityNames = names('city', m.cities, 'city_slug');
  const zoneNames = names('zone', m.zones, 'zone_slug');
  const countryNamesByCode = new Map(m.countries.map((c) => [str(c.country_code), countryNames.get(str(c.country_slug))!]));
  const countryOfCity = new Map(m.cities.map((c) => [str(c.city_slug), str(c.country_slug)]));
  const inEveryLocale = (text: (l: Locale) => string) => Object.fromEntries(LOCALES.map((l) => [l, text(l)])) as LocalizedText;
  for (const c of m.countries) {
    const label = countryNames.get(str(c.country_slug))!;
    entries.push({
      kind: 'country', slug: str(c.country_slug), label, sublabel: null, center: null,
      propertyCount: num(c.property_count), foldedNames: foldedNames(...Object.values(label)),
      weight: num(c.property_count),
    });
  }
  for (const c of m.cities) {
    const label = cityNames.get(str(c.city_slug))!;
    entries.push({
      kind: 'city', slug: str(c.city_slug), label, sublabel: countryNamesByCode.get(str(c.country_code)) ?? null,
      center: { lat: num(c.lat), lng: num(c.lng) }, propertyCount: num(c.property_count),
      foldedNames: foldedNames(...Object.values(label)), weight: num(c.property_count),
    });
  }
  for (const z of m.zones) {
    const label = zoneNames.get(str(z.zone_slug))!;
    const city = cityNames.get(str(z.city_slug))!;
    const country = countryNames.get(countryOfCity.get(str(z.city_slug))!)!;
    entries.push({
      kind: 'zone', slug: str(z.zone_slug), label,
      sublabel: inEveryLocale((l) => `${city[l]}, ${country[l]}`),
      center: coordinatesOf(z) ?? null, propertyCount: num(z.property_count),
      foldedNames: foldedNames(...Object.values(label)), weight: num(z.property_count),
    });
  }
  for (const o of m.operators) {
    const name = str(o.operator_name);
    entries.push({
      kind: 'operator', slug: str(o.operator_slug), label: sameInAll(name), sublabel: null, center: null,
      propertyCount: num(o.property_count), foldedNames: foldedNames(name), weight: num(o.property_count),
    });
  }
  // a space's sublabel is its place's: made once per place, shared by the place's spaces
  const placeSublabels = new Map<string, LocalizedText>();
  const placeSublabel = (s: Row) => {
    const key = s.zone_slug === null ? `city/${str(s.city_slug)}/${str(s.country_slug)}` : `zone/${str(s.zone_slug)}/${str(s.city_slug)}`;
    let sublabel = placeSublabels.get(key);
    if (!sublabel) {
      const city = cityNames.get(str(s.city_slug))!;
      const zone = s.zone_slug === null ? undefined : zoneNames.get(str(s.zone_slug))!;
      const country = countryNames.get(str(s.country_slug))!;
      sublabel = inEveryLocale((l) => (zone === undefined ? `${city[l]}, ${country[l]}` : `${zone[l]}, ${city[l]}`));
      placeSublabels.set(key, sublabel);
    }
    return sublabel;
  };
  for (const s of m.listings) {
    const title = str(s.title);
    entries.push({
      kind: 'property', slug: str(s.slug), label: sameInAll(title), sublabel: placeSublabel(s),
      center: coordinatesOf(s) ?? null, propertyCount: null, foldedNames: foldedNames(title), weight: 1,
    });
  }
  return entries;
}

export function leadRouting(m: Marts): LeadRouting {
  return Object.fromEntries(m.listings.map((s) => [str(s.slug), {
    title: str(s.title),
    citySlug: str(s.city_slug),
    operatorSlug: optStr(s.operator_slug) ?? null,
    operatorName: optStr(s.operator_name) ?? null,
    enquiryEmail: optStr(s.enquiry_email) ?? null,
  }]));
}
