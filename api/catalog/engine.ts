import { CARD_FILES, compareLabelled, LABELLED_FACETS, type FacetLabels } from '../../contract/build.ts';
import type { ListingColumnsData } from '../../contract/listing-columns.ts';
import type { FacetsPayload, GeoPayload } from '../../contract/catalog.ts';
import { BILLING_PERIODS, CURRENCIES, LOCALES, type Locale, type SlugName } from '../../contract/common.ts';
import type { Filters } from '../../contract/filters.ts';
import type { SortBy } from '../../contract/queries.ts';
import * as bits from './bitset.ts';
import type { FacetsOut } from './facet-payload.ts';
import type { FacetLabeling } from './facet-lists.ts';
import { FacetCounter } from './facets.ts';
import type { FilterRegistry, FilterValues } from './filter-index.ts';
import { FILTERS } from './filters.ts';
import { ListingTable, type PriceColumn } from './listings.ts';
import { Matcher, type MatchSet } from './match.ts';
import { Orders } from './order.ts';
import type { PriceTables } from './price-tables.ts';
import { isNullLine, type CardLines, type DetailLines, type NdjsonLines } from './listing-lines.ts';
import { PlaceNames } from './place-names.ts';
import { ASCII, JsonBytes } from './json-bytes.ts';
import { sitePathOffsets } from '../../contract/line-index.ts';
import { PRICE_BASES } from '../../contract/prices.ts';
import { writeWithSitePaths } from './text.ts';

export type { MatchSet } from './match.ts';
export type { Filters } from '../../contract/filters.ts';

export interface PageResult {
  total: number;
  indices: number[];
}

/** Where a place filter points, with localized names (for citations). */
export interface PlaceRef { country: SlugName; city?: SlugName; zone?: SlugName }

/**
 * The listings of a locale as the build's files give them: cards (their parts shared by every
 * locale and the locale's own, CardLines) and markers in memory (their site paths resolved against siteUrl when rendered), details on disk (read and checked against their
 * record index when served, the page cache holds them; their site paths are resolved then).
 */
export interface LocaleListings { cards: CardLines; markers: NdjsonLines; details: DetailLines; siteUrl: string }

/** The fields a card or marker gets when it is rendered, as bytes: the text around the numbers, by currency and billing period (their codes less one) after the amount. */
const FROM_PRICE = Buffer.from(',"fromPrice":{"amount":');
const PRICE_TAILS = CURRENCIES.map((c) => BILLING_PERIODS.map((p) => Buffer.from(`,"currency":"${c}"},"fromBillingPeriod":"${p}"`)));
const DISTANCE = Buffer.from(',"distanceMeters":');
/** a card's comparablePrice: the text before its amount, and after it by currency and basis (their codes less one, the basis's its index) */
const COMPARABLE = Buffer.from(',"comparablePrice":{"amount":');
const COMPARABLE_TAILS = CURRENCIES.map((c) => PRICE_BASES.map((b) => Buffer.from(`,"currency":"${c}","basis":"${b}"}`)));
const NO_COMPARABLE = Buffer.from(',"comparablePrice":null');

/** How many listings a page renders at a time, their fields gathered first (Gathered). */
const GATHERED = 32;

/**
 * The fields that rendering the cards or markers of up to GATHERED listings reads, gathered
 * before any is written. A page's listings lie anywhere in ~100 MB of lines and columns, so each
 * read waits on memory: read listing by listing, as each is written, the waits add up (~0.5 µs a
 * card); read together, they overlap.
 */
class Gathered {
  /**
   * each line without its closing brace (`start`, `end`) and its first site path; a card's is its
   * shared end (CardLines), after its shared beginning (`head…`) and the locale's text (`text…`)
   */
  readonly start = new Float64Array(GATHERED);
  readonly end = new Float64Array(GATHERED);
  readonly firstSitePath = new Uint32Array(GATHERED);
  readonly headStart = new Float64Array(GATHERED);
  readonly headEnd = new Float64Array(GATHERED);
  readonly headSitePath = new Uint32Array(GATHERED);
  readonly textStart = new Float64Array(GATHERED);
  readonly textEnd = new Float64Array(GATHERED);
  readonly textSitePath = new Uint32Array(GATHERED);
  /** the price (PriceColumn) */
  readonly currency = new Uint8Array(GATHERED);
  readonly period = new Uint8Array(GATHERED);
  readonly amount = new Float64Array(GATHERED);
  readonly marketPosition = new Int32Array(GATHERED);
  readonly comparableAmount = new Float64Array(GATHERED);
  readonly comparableCurrency = new Uint8Array(GATHERED);
  readonly comparableBasis = new Uint8Array(GATHERED);

  /** Gathers the lines of the markers of listings indices[from, from + count) (count at most GATHERED). */
  gatherMarkers(l: NdjsonLines, indices: ArrayLike<number>, from: number, count: number): void {
    for (let k = 0; k < count; k++) {
      const i = indices[from + k];
      this.start[k] = l.starts[i];
      this.end[k] = l.starts[i + 1] - 2;
      this.firstSitePath[k] = l.firstSitePath[i];
    }
  }

  /** Gathers the parts of the cards of listings indices[from, from + count). */
  gatherCards({ parts, texts }: CardLines, indices: ArrayLike<number>, from: number, count: number): void {
    for (let k = 0; k < count; k++) {
      const i = indices[from + k];
      this.headStart[k] = parts.starts[2 * i];
      this.headEnd[k] = parts.starts[2 * i + 1] - 1;
      this.headSitePath[k] = parts.firstSitePath[2 * i];
      this.textStart[k] = texts.starts[i];
      this.textEnd[k] = texts.starts[i + 1] - 1;
      this.textSitePath[k] = texts.firstSitePath[i];
      this.start[k] = parts.starts[2 * i + 1];
      this.end[k] = parts.starts[2 * i + 2] - 2;
      this.firstSitePath[k] = parts.firstSitePath[2 * i + 1];
    }
  }

  /** Gathers the prices of listings indices[from, from + count). */
  gatherPrices(c: PriceColumn, indices: ArrayLike<number>, from: number, count: number): void {
    for (let k = 0; k < count; k++) {
      const i = indices[from + k];
      this.currency[k] = c.currency[i];
      this.period[k] = c.period[i];
      this.amount[k] = c.amount[i];
      this.marketPosition[k] = c.marketPosition[i];
      this.comparableAmount[k] = c.comparableAmount[i];
      this.comparableCurrency[k] = c.comparableCurrency[i];
      this.comparableBasis[k] = c.comparableBasis[i];
    }
  }
}

/**
 * The in-memory listing engine of one build: the indexes of a filter registry, the sort orders
 * (computed when it is built), the facet counter, and the card, marker and detail JSON of every
 * listing per locale, ready to splice into a response. It keeps no caches of its own: a request
 * costs what its filters and page cost.
 */
export class Engine {
  readonly n: number;
  readonly slugs: string[];
  private readonly listings: ListingTable;
  private readonly matcher: Matcher;
  private readonly orders: Orders;
  private readonly facetCounter: FacetCounter;
  private readonly lines = {} as Record<Locale, LocaleListings>;
  /** the fields of the listings a page is rendering (the server renders one page at a time) */
  private readonly gathered = new Gathered();
  /** each locale's siteUrl as the UTF-8 bytes put before site paths */
  private readonly siteUrlBytes = {} as Record<Locale, Buffer>;
  private readonly places: Record<Locale, { country: Map<string, SlugName>; city: Map<string, { name: SlugName; country: string }>; zone: Map<string, { name: SlugName; city: string }> }>;
  /** place slugs by name, for the hint of a 400 that got a name where a slug goes */
  readonly placeNames: PlaceNames;
  /** each labelled facet value's place in the order of the labels, by facet, then locale */
  private readonly labelRanks = new Map<string, Map<Locale, Map<string, number>>>();
  /** each locale's labels of the facets, as the facet counter reads them */
  private readonly labelings = {} as Record<Locale, FacetLabeling>;

  constructor(
    cols: ListingColumnsData, readonly labels: FacetLabels, geo: Record<Locale, GeoPayload>,
    opts: { filters?: FilterRegistry; prices?: PriceTables } = {},
  ) {
    this.listings = new ListingTable(cols, opts.prices);
    this.n = this.listings.n;
    this.slugs = this.listings.slugs;
    this.matcher = new Matcher(opts.filters ?? FILTERS, { listings: this.listings, geo });
    this.orders = new Orders(this.listings);
    this.facetCounter = new FacetCounter(this.matcher, this.listings.all, this.n);
    for (const facet of LABELLED_FACETS) {
      const byLocale = new Map<Locale, Map<string, number>>();
      const labelled = Object.keys(labels[facet]).length;
      for (const l of LOCALES) {
        const ranks = placesIn(labels[facet], labels.order[facet][l], labelled);
        if (typeof ranks === 'string') throw new Error(`facet-labels.json: order.${facet}.${l}: ${ranks}`);
        byLocale.set(l, ranks);
      }
      this.labelRanks.set(facet, byLocale);
    }
    for (const l of LOCALES) {
      this.labelings[l] = this.facetLabeling(l);
      this.facetCounter.orderByLabels(this.labelings[l]);
    }

    this.placeNames = new PlaceNames(geo);
    this.places = {} as Engine['places'];
    for (const l of LOCALES) {
      const g = geo[l];
      const country = new Map<string, SlugName>();
      const bySlugCode = new Map<string, string>();
      for (const c of g.countries) {
        country.set(c.slug, { slug: c.slug, name: c.name });
        bySlugCode.set(c.code, c.slug);
      }
      const city = new Map<string, { name: SlugName; country: string }>();
      const zone = new Map<string, { name: SlugName; city: string }>();
      for (const c of g.cities) {
        city.set(c.slug, { name: { slug: c.slug, name: c.name }, country: bySlugCode.get(c.countryCode) ?? '' });
        for (const z of c.zones) zone.set(z.slug, { name: { slug: z.slug, name: z.name }, city: c.slug });
      }
      this.places[l] = { country, city, zone };
    }
  }

  /** The listing with this slug, or undefined. */
  indexOf(slug: string): number | undefined {
    return this.listings.indexOf(slug);
  }

  /** A locale's cards, markers and details, one line per listing (checked by api/loading/load.ts). */
  addListings(locale: Locale, l: LocaleListings) {
    const { bytes, starts } = l.cards.parts;
    for (let i = 0; i < this.n; i++) {
      // what rendering relies on: a card is an object (its fields go before its closing brace)
      if (bytes[starts[2 * i]] !== ASCII.openBrace || bytes[starts[2 * i + 2] - 2] !== ASCII.closeBrace) throw new Error(`${CARD_FILES.parts}: lines ${2 * i + 1} and ${2 * i + 2} are not the beginning and end of a card`);
      if (isNullLine(l.markers, i) !== Number.isNaN(this.listings.lat[i])) throw new Error(`markers.${locale}.ndjson: the marker of ${this.slugs[i]} disagrees with its coordinates in listing-columns.bin`);
    }
    this.lines[locale] = l;
    this.siteUrlBytes[locale] = Buffer.from(l.siteUrl);
  }

  /** Writes the detail JSON of listing i, URLs resolved; DamagedRecordError when its line is not the one the pipeline wrote. */
  writeDetail(w: JsonBytes, i: number, locale: Locale): void {
    const bytes = this.lines[locale].details.line(i);
    writeWithSitePaths(w, bytes, 0, bytes.length, sitePathOffsets(bytes), 0, this.siteUrlBytes[locale]);
  }

  /** The detail JSON of listing i as text, URLs resolved (the site's space page). */
  detailJson(i: number, locale: Locale): string {
    const w = new JsonBytes(4096);
    this.writeDetail(w, i, locale);
    return w.finish().toString();
  }

  /** The card's title (for citations): its `"title"` string read from the card's bytes, not the whole card parsed. */
  title(i: number, locale: Locale): string {
    const { parts, texts } = this.lines[locale].cards;
    const bytes = Buffer.concat([
      parts.bytes.subarray(parts.starts[2 * i], parts.starts[2 * i + 1] - 1), texts.bytes.subarray(texts.starts[i], texts.starts[i + 1] - 1),
      parts.bytes.subarray(parts.starts[2 * i + 1], parts.starts[2 * i + 2] - 1),
    ]);
    const end = bytes.length;
    // a key is the only place `"title"` can be followed by a colon; a card has no nested title
    for (let k = bytes.indexOf('"title"'); k >= 0 && k < end; k = bytes.indexOf('"title"', k + 7)) {
      let v = k + 7;
      while (bytes[v] === 0x20) v++;
      if (bytes[v] !== 0x3a) continue;
      v++;
      while (bytes[v] === 0x20) v++;
      let e = v + 1;
      while (e < end && bytes[e] !== 0x22) e += bytes[e] === 0x5c ? 2 : 1;
      return JSON.parse(bytes.toString('utf8', v, e + 1)) as string;
    }
    throw new Error(`cards.${locale}.ndjson: no title for ${this.slugs[i]}`);
  }

  async close() {
    for (const l of LOCALES) await this.lines[l]?.details.close().catch(() => undefined);
  }

  // ---- places -------------------------------------------------------------------------------

  /** The most specific place a filter set names, for citations; undefined when unknown. */
  placeOf(locale: Locale, f: Pick<Filters, 'country' | 'city' | 'zone'>): PlaceRef | undefined {
    const p = this.places[locale];
    if (f.zone) {
      const z = p.zone.get(f.zone);
      const c = z && p.city.get(z.city);
      const co = c && p.country.get(c.country);
      return z && c && co ? { country: co, city: c.name, zone: z.name } : undefined;
    }
    if (f.city) {
      const c = p.city.get(f.city);
      const co = c && p.country.get(c.country);
      return c && co ? { country: co, city: c.name } : undefined;
    }
    if (f.country) {
      const co = p.country.get(f.country);
      return co ? { country: co } : undefined;
    }
    return undefined;
  }

  label(key: keyof FacetLabels, value: string, locale: Locale): string {
    const table = this.labels[key] as Record<string, Record<Locale, string>>;
    return table[value]?.[locale] ?? value;
  }

  // ---- filtering, ordering, facets ----------------------------------------------------------

  /** Listings matching every filter f sets, a set valid until the next match. */
  match(f: FilterValues): MatchSet {
    return this.matcher.match(f);
  }

  /**
   * One page of a matching set in `sort` order. Groups (the address rule) come one after the
   * other, each in sort order; ties always break by slug.
   */
  page(set: MatchSet, f: FilterValues, sort: SortBy, seed: number, offset: number, limit: number): PageResult {
    const indices: number[] = [];
    let skip = offset;
    for (const g of this.matcher.groups(set, f)) {
      if (indices.length >= limit) break;
      if (skip >= g.count) { skip -= g.count; continue; }
      const slice = this.orders.slice(g, sort, { seed, pricingOptionType: f.pricingOptionType, lat: f.lat, lng: f.lng }, skip, limit - indices.length);
      for (let k = 0; k < slice.length; k++) indices.push(slice[k]);
      skip = 0;
    }
    return { total: set.count, indices };
  }

  /** The listings of a set with coordinates (the map shows only those). */
  withCoords(set: MatchSet): MatchSet {
    const b = Uint32Array.from(set.bits);
    bits.andInto(b, this.listings.hasCoords, set.lo, set.hi);
    return { bits: b, count: bits.count(b, set.lo, set.hi), lo: set.lo, hi: set.hi };
  }

  /** Writes the facets of GET /v1/facets under the filters f sets, labelled in `locale`, to `out`; returns whether a facet was cut. */
  facets(f: FilterValues, locale: Locale, out: FacetsOut): boolean {
    return this.facetCounter.facets(f, this.labelings[locale], out);
  }

  private facetLabeling(locale: Locale): FacetLabeling {
    // made when a value without a label is first collated (an ICU collator costs milliseconds to make)
    let compare: ReturnType<typeof compareLabelled> | undefined;
    return {
      locale,
      key: (facet) => (this.labels.keys as Record<string, Record<Locale, string>>)[facet][locale],
      value: (facet, value) => this.label(facet as keyof FacetLabels, value, locale),
      compare: (a, b) => (compare ??= compareLabelled(locale))(a, b),
      // the order of the labels, computed once; a value without a label (an unknown selected slug) is collated
      rank: (facet, value) => this.labelRanks.get(facet)?.get(locale)?.get(value),
    };
  }

  // ---- rendering ----------------------------------------------------------------------------

  /**
   * Writes the cards of listings `indices`, comma-separated, each with the fields that depend on
   * the filters (the price of an option type and the comparable price it sorts by, the distance).
   */
  writeCards(w: JsonBytes, indices: ArrayLike<number>, locale: Locale, f: Filters): void {
    this.writeLines(w, indices, locale, f, this.lines[locale].cards);
  }

  /** Writes the markers of listings `indices`, comma-separated, each with the price of the option type of f. */
  writeMarkers(w: JsonBytes, indices: ArrayLike<number>, locale: Locale, f: Filters): void {
    this.writeLines(w, indices, locale, f, undefined);
  }

  /** Writes the cards of listings `indices` (`cards`), or their markers (no `cards`). */
  private writeLines(w: JsonBytes, indices: ArrayLike<number>, locale: Locale, f: Filters, cards: CardLines | undefined): void {
    const c = this.listings.price(f.pricingOptionType);
    const g = this.gathered;
    const siteUrl = this.siteUrlBytes[locale];
    const point = f.lat !== undefined && f.lng !== undefined;
    // the lines each listing's JSON ends with (before its closing brace)
    const ends = cards?.parts ?? this.lines[locale].markers;
    for (let from = 0; from < indices.length; from += GATHERED) {
      const count = Math.min(GATHERED, indices.length - from);
      if (cards) g.gatherCards(cards, indices, from, count);
      else g.gatherMarkers(ends, indices, from, count);
      g.gatherPrices(c, indices, from, count);
      for (let k = 0; k < count; k++) {
        if (from + k > 0) w.byte(ASCII.comma);
        if (cards) {
          writeWithSitePaths(w, cards.parts.bytes, g.headStart[k], g.headEnd[k], cards.parts.sitePaths, g.headSitePath[k], siteUrl);
          writeWithSitePaths(w, cards.texts.bytes, g.textStart[k], g.textEnd[k], cards.texts.sitePaths, g.textSitePath[k], siteUrl);
        }
        writeWithSitePaths(w, ends.bytes, g.start[k], g.end[k], ends.sitePaths, g.firstSitePath[k], siteUrl);
        // fromPrice and fromBillingPeriod (the option type's, or overall), if it has a price
        if (g.currency[k] !== 0) w.bytes(FROM_PRICE).number(g.amount[k]).bytes(PRICE_TAILS[g.currency[k] - 1][g.period[k] - 1]);
        if (cards) {
          if (g.marketPosition[k] >= 0) w.bytes(this.listings.marketJson[g.marketPosition[k]]);
          if (g.comparableCurrency[k] === 0) w.bytes(NO_COMPARABLE);
          else w.bytes(COMPARABLE).number(g.comparableAmount[k]).bytes(COMPARABLE_TAILS[g.comparableCurrency[k] - 1][g.comparableBasis[k]]);
          const d = point ? this.listings.distance(indices[from + k], f.lat!, f.lng!) : undefined;
          if (d !== undefined) w.bytes(DISTANCE).number(Math.round(d * 10) / 10);
        }
        w.byte(ASCII.closeBrace);
      }
    }
  }

  cardJson(i: number, locale: Locale, f: Filters): string {
    const w = new JsonBytes(4096);
    this.writeCards(w, [i], locale, f);
    return w.finish().toString();
  }
}

/** Each value's place in `order`, or why `order` does not list every one of the `count` values of `labelled` once. */
function placesIn(labelled: Record<string, unknown>, order: readonly string[], count: number): Map<string, number> | string {
  const places = new Map<string, number>();
  for (let k = 0; k < order.length; k++) {
    if (!Object.hasOwn(labelled, order[k])) return `${order[k]} has no label`;
    if (places.has(order[k])) return `${order[k]} is listed twice`;
    places.set(order[k], k);
  }
  return places.size === count ? places : `${count - places.size} labelled values are not listed`;
}
