import { LRUCache } from 'lru-cache';
import type { FacetLabels, ListingColumns } from '../../contract/build.ts';
import { open, type FileHandle } from 'node:fs/promises';
import type { FacetsPayload, GeoPayload } from '../../contract/catalog.ts';
import { BILLING_PERIODS, CURRENCIES, LOCALES, type Locale, type OptionType, type SlugName } from '../../contract/common.ts';
import type { Filters } from '../../contract/filters.ts';
import type { SortBy } from '../../contract/queries.ts';
import * as bits from './bitset.ts';
import { FacetCounter } from './facets.ts';
import { FILTERS, type FilterRegistry, type FilterValues } from './filters.ts';
import { ListingTable } from './listings.ts';
import { Matcher, type MatchSet } from './match.ts';
import { Orders } from './order.ts';
import type { PackResult } from '../build/load-worker.ts';
import { resolveSitePathsInJson } from './text.ts';

export type { MatchSet } from './match.ts';
export type { Filters } from '../../contract/filters.ts';

/** A serialized response body kept by a build (routes/cached-body.ts). */
export interface CachedBody {
  json: string;
  etag: string;
  /** the UTC day the body is current for, in ms since the epoch (meta.citation.accessed is a date) */
  validFrom: number;
  validUntil: number;
  /** the same answer for every request to the same URL until validUntil */
  sameForUrl: true;
}

/** Whether a kept body still answers at `now`: meta.citation.accessed is the UTC date it was made on. */
export const isCurrent = (body: CachedBody, now: number) => now >= body.validFrom && now < body.validUntil;

/** What the engine needs of a cache: an LRU, or nothing at all when the caches are off. */
export interface QueryCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): unknown;
}
const NO_CACHE: QueryCache<never> = { get: () => undefined, set: () => undefined };

export interface PageResult {
  total: number;
  indices: number[];
}

/** Where a place filter points, with localized names (for citations). */
export interface PlaceRef { country: SlugName; city?: SlugName; zone?: SlugName }

/** Many JSON texts in one string: item i is text[ends[i-1] .. ends[i]). */
interface Packed { text: string; ends: Int32Array }
const item = (p: Packed, i: number) => p.text.slice(i === 0 ? 0 : p.ends[i - 1], p.ends[i]);
/** Many JSON texts in one UTF-8 buffer: item i is bytes [ends[i-1] .. ends[i]). */
/** The cards of a locale: bytes [starts[i], cuts[i]) of listings.<locale>.json, site paths resolved when read. */
interface PackedBytes { buf: Buffer; starts: Float64Array; cuts: Float64Array; siteUrl: string }
const itemOf = (p: PackedBytes, i: number) => resolveSitePathsInJson(p.buf.toString('utf8', p.starts[i], p.cuts[i]), p.siteUrl);

/** Detail JSON stays in its file (the page cache holds it); an open handle survives the build directory's removal. */
interface DetailFile { fh: FileHandle; starts: Float64Array; ends: Float64Array; siteUrl: string }

/**
 * The in-memory listing engine of one build: the indexes of a filter registry, the sort orders
 * (computed when it is built), the facet counter, and the card, marker and detail JSON of every
 * listing per locale, ready to splice into a response. It keeps no caches of its own: a request
 * costs what its filters and page cost.
 */
export class Engine {
  readonly n: number;
  readonly slugs: string[];
  readonly slugIndex: Map<string, number>;
  private readonly listings: ListingTable;
  private readonly matcher: Matcher;
  private readonly orders: Orders;
  private readonly facetCounter: FacetCounter;
  private readonly cards = {} as Record<Locale, PackedBytes>;
  private readonly markers = {} as Record<Locale, Packed>;
  private readonly detailFiles = {} as Record<Locale, DetailFile>;
  private readonly places: Record<Locale, { country: Map<string, SlugName>; city: Map<string, { name: SlugName; country: string }>; zone: Map<string, { name: SlugName; city: string }> }>;
  private readonly collators = new Map<Locale, Intl.Collator>();
  /** each labelled facet value's place in the order of the labels, per facet and locale */
  private readonly labelRanks = new Map<string, Map<string, number>>();
  /** Serialized response bodies of this build, by route and normalized query. */
  readonly bodies: QueryCache<CachedBody>;
  /** The same bodies by request URL, so a repeated URL skips parsing and handler (http/route.ts). */
  readonly bodiesByUrl: QueryCache<CachedBody>;

  constructor(
    cols: ListingColumns, readonly labels: FacetLabels, geo: Record<Locale, GeoPayload>,
    opts: { queryCache?: boolean; filters?: FilterRegistry } = {},
  ) {
    const on = opts.queryCache ?? true;
    // the text, plus its UTF-8 bytes once sent (http/route.ts): about twice this in memory; the
    // by-URL cache holds references to the same bodies (several URLs may share one)
    const bodyCache = () => new LRUCache<string, CachedBody>({ maxSize: 64 * 1024 * 1024, sizeCalculation: (v) => v.json.length + 64 });
    this.bodies = on ? bodyCache() : NO_CACHE;
    this.bodiesByUrl = on ? bodyCache() : NO_CACHE;
    this.listings = new ListingTable(cols);
    this.n = this.listings.n;
    this.slugs = this.listings.slugs;
    this.slugIndex = this.listings.slugIndex;
    this.matcher = new Matcher(opts.filters ?? FILTERS, { listings: this.listings, geo });
    this.orders = new Orders(this.listings);
    this.facetCounter = new FacetCounter(this.matcher, this.listings.all, this.n);
    for (const [facet, table] of Object.entries(labels)) {
      if (facet === 'keys') continue;
      for (const l of LOCALES) {
        const byLabel = this.compareLabels(l);
        const sorted = Object.keys(table).map((value) => ({ value, label: this.label(facet as keyof FacetLabels, value, l) })).sort(byLabel);
        this.labelRanks.set(`${facet}|${l}`, new Map(sorted.map((v, k) => [v.value, k])));
      }
    }

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

  /**
   * A locale's listing pack: cards as JSON without their request-dependent fields and closing
   * brace, markers likewise, and where each detail is in its file (read on demand). Their order
   * against listing-facts.json is checked with the build's background verification.
   */
  async addPack(locale: Locale, r: PackResult, detailsPath: string, siteUrl: string) {
    if (r.cardStarts.length !== this.n) throw new Error(`listing-pack.${locale}.json has ${r.cardStarts.length} cards for ${this.n} listings`);
    for (let i = 0; i < this.n; i++) {
      const hasMarker = r.markerEnds[i] > (i === 0 ? 0 : r.markerEnds[i - 1]);
      if (hasMarker !== !Number.isNaN(this.listings.lat[i])) throw new Error(`listing-pack.${locale}.json: coordinates of ${this.slugs[i]} disagree with listing-facts.json`);
    }
    this.cards[locale] = { buf: Buffer.isBuffer(r.cards) ? r.cards : Buffer.from(r.cards.buffer, r.cards.byteOffset, r.cards.byteLength), starts: r.cardStarts, cuts: r.cardCuts, siteUrl };
    this.markers[locale] = { text: r.markers, ends: r.markerEnds };
    this.detailFiles[locale] = { fh: await open(detailsPath, 'r'), starts: r.detailStarts, ends: r.detailEnds, siteUrl };
  }

  /** The detail JSON of listing i, URLs resolved. */
  async detailJson(i: number, locale: Locale): Promise<string> {
    const d = this.detailFiles[locale];
    const length = d.ends[i] - d.starts[i];
    const buf = Buffer.allocUnsafe(length);
    const { bytesRead } = await d.fh.read(buf, 0, length, d.starts[i]);
    if (bytesRead !== length) throw new Error(`short read in properties.${locale}.json`);
    return resolveSitePathsInJson(buf.toString('utf8'), d.siteUrl);
  }

  /** The card's title (for citations). */
  title(i: number, locale: Locale): string {
    return (JSON.parse(`${itemOf(this.cards[locale], i)}}`) as { title: string }).title;
  }

  async close() {
    for (const l of LOCALES) await this.detailFiles[l]?.fh.close().catch(() => undefined);
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

  /** Listings matching every filter f sets. */
  match(f: FilterValues): MatchSet {
    return this.matcher.match(f);
  }

  /**
   * One page of a matching set in `sort` order. Groups (the address rule) come one after the
   * other, each in sort order; ties always break on slug (= index order).
   */
  page(set: MatchSet, f: FilterValues, sort: SortBy, seed: number, offset: number, limit: number): PageResult {
    const indices: number[] = [];
    let skip = offset;
    for (const g of this.matcher.groups(set, f)) {
      if (indices.length >= limit) break;
      if (skip >= g.count) { skip -= g.count; continue; }
      const slice = this.orders.slice(g.bits, g.count, sort, { seed, pricingOptionType: f.pricingOptionType, lat: f.lat, lng: f.lng }, skip, limit - indices.length);
      for (let k = 0; k < slice.length; k++) indices.push(slice[k]);
      skip = 0;
    }
    return { total: set.count, indices };
  }

  /** The listings of a set with coordinates (the map shows only those). */
  withCoords(set: MatchSet): MatchSet {
    const b = Uint32Array.from(set.bits);
    bits.andInto(b, this.listings.hasCoords);
    return { bits: b, count: bits.count(b) };
  }

  private collator(locale: Locale): Intl.Collator {
    let c = this.collators.get(locale);
    if (!c) this.collators.set(locale, (c = new Intl.Collator(locale, { sensitivity: 'base' })));
    return c;
  }

  private compareLabels(locale: Locale) {
    const coll = this.collator(locale);
    return (a: { value: string; label: string }, b: { value: string; label: string }) => coll.compare(a.label, b.label) || (a.value < b.value ? -1 : 1);
  }

  /** The facets of GET /v1/facets under the filters f sets, labelled in `locale`. */
  facets(f: FilterValues, locale: Locale): FacetsPayload {
    return this.facetCounter.facets(f, {
      key: (facet) => (this.labels.keys as Record<string, Record<Locale, string>>)[facet][locale],
      value: (facet, value) => this.label(facet as keyof FacetLabels, value, locale),
      compare: this.compareLabels(locale),
      // the order of the labels, computed once; a value without a label (an unknown selected slug) is collated
      rank: (facet, value) => this.labelRanks.get(`${facet}|${locale}`)?.get(value),
    });
  }

  // ---- rendering ----------------------------------------------------------------------------

  private priceFields(i: number, type: OptionType | undefined): string {
    const c = this.listings.price(type);
    if (c.currency[i] === 0) return '';
    return `,"fromPrice":{"amount":${c.amount[i]},"currency":"${CURRENCIES[c.currency[i] - 1]}"},"fromBillingPeriod":"${BILLING_PERIODS[c.period[i] - 1]}"`;
  }

  cardJson(i: number, locale: Locale, f: Filters): string {
    let s = itemOf(this.cards[locale], i) + this.priceFields(i, f.pricingOptionType);
    const mp = this.listings.price(f.pricingOptionType).market[i];
    if (mp) s += mp;
    if (f.lat !== undefined && f.lng !== undefined) {
      const d = this.listings.distance(i, f.lat, f.lng);
      if (d !== undefined) s += `,"distanceMeters":${Math.round(d * 10) / 10}`;
    }
    return `${s}}`;
  }

  markerJson(i: number, locale: Locale, f: Filters): string {
    return `${item(this.markers[locale], i)}${this.priceFields(i, f.pricingOptionType)}}`;
  }
}
