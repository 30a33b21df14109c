import { LRUCache } from 'lru-cache';
import type { FacetLabels, ListingColumns } from '../../contract/build.ts';
import { BILLING_PERIODS } from '../../contract/common.ts';
import type { FacetsPayload, GeoPayload } from '../../contract/catalog.ts';
import { CURRENCIES, LOCALES, OPTION_TYPES, type Currency, type Locale, type OptionType, type SlugName } from '../../contract/common.ts';
import type { BBox, SortBy } from '../../contract/queries.ts';
import { parseAddress, parseHouseNumber, streetKey, houseNumberMatches, type HouseNumber } from './address.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { haversineMeters, hash32, METERS_PER_DEGREE_LAT, randomKey } from './geo.ts';
import { readLine, type NdjsonFile, type NdjsonLines } from '../build/ndjson.ts';
import { resolveSitePathsInJson } from './text.ts';

/** What the engine needs of a cache: an LRU, or nothing at all when the caches are off. */
export interface QueryCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): unknown;
}
const NO_CACHE: QueryCache<never> = { get: () => undefined, set: () => undefined };

export interface Filters {
  country?: string;
  city?: string;
  zone?: string;
  operator?: string;
  pricingOptionType?: OptionType;
  currency?: Currency;
  amenities?: string[];
  minCapacity?: number;
  minPrice?: number;
  maxPrice?: number;
  lat?: number;
  lng?: number;
  radiusMeters?: number;
  bbox?: BBox;
  address?: string;
}

type Omit = 'country' | 'city' | 'zone' | 'operator' | 'pricingOptionType' | 'amenities' | 'price' | 'minCapacity';
const SINGLE_KEYS = ['country', 'city', 'zone', 'operator'] as const;
type SingleKey = typeof SINGLE_KEYS[number];

export interface MatchSet { bits: Bitset; count: number }

export interface PageResult {
  total: number;
  indices: number[];
}

/** Where a place filter points, with localized names (for citations). */
export interface PlaceRef { country: SlugName; city?: SlugName; zone?: SlugName }

/**
 * The listings of a locale as the build's NDJSON files give them, line i for listing i: cards
 * and markers in memory with site paths resolved, details on disk (read when served, the page
 * cache holds them; their site paths are resolved then).
 */
export interface LocaleListings { cards: NdjsonLines; markers: NdjsonLines; details: NdjsonFile; siteUrl: string }

/** Line i as JSON text without its closing brace, ready for the request-dependent fields. */
const openLine = (l: NdjsonLines, i: number) => l.bytes.toString('utf8', l.starts[i], l.starts[i + 1] - 2);
const isNullLine = (l: NdjsonLines, i: number) => l.starts[i + 1] - l.starts[i] === 5 && l.bytes[l.starts[i]] === 0x6e;

interface Order { order: Int32Array; rank: Int32Array }

/** Column store of one price fact (overall or one option type) with its market position JSON. */
interface PriceColumn { amount: Float64Array; eur: Float64Array; currency: Uint8Array; period: Uint8Array; market: (string | undefined)[] }

const SMALL = 2048;

/**
 * The in-memory listing engine of one build: a bitset per filter value, precomputed sort orders,
 * a latitude-sorted array for radius and bbox queries, and the card, marker and detail JSON of
 * every listing per locale, ready to splice into a response.
 */
export class Engine {
  readonly n: number;
  /** price of each listing, overall ('') and per option type: NaN when none */
  private readonly prices = new Map<string, PriceColumn>();
  private readonly updatedMs: Float64Array;
  private readonly ratingScore: Float64Array;
  private readonly ratingCount: Int32Array;
  readonly slugs: string[];
  readonly slugIndex = new Map<string, number>();
  private readonly all: Bitset;
  private readonly postings = new Map<string, Bitset>();
  private readonly valueIdx: Record<SingleKey, Int32Array>;
  private readonly values: Record<SingleKey, string[]>;
  private readonly capacity: Int32Array;
  private readonly lat: Float64Array;
  private readonly lng: Float64Array;
  private readonly hasCoords: Bitset;
  private readonly latOrder: Int32Array;
  private readonly latSorted: Float64Array;
  private readonly currency: Uint8Array;
  private readonly slugHash: Uint32Array;
  private readonly streets = new Map<string, number[]>();
  private readonly houseNumbers: (HouseNumber | undefined)[];
  private readonly orders = new Map<string, Order>();
  private readonly listings = {} as Record<Locale, LocaleListings>;
  private readonly places: Record<Locale, { country: Map<string, SlugName>; city: Map<string, { name: SlugName; country: string }>; zone: Map<string, { name: SlugName; city: string }> }>;
  private readonly sets: QueryCache<MatchSet>;
  private readonly counts: QueryCache<Int32Array>;
  private readonly streetCache: QueryCache<{ street: Bitset; at: Bitset }>;
  private readonly collators = new Map<Locale, Intl.Collator>();

  constructor(cols: ListingColumns, readonly labels: FacetLabels, geo: Record<Locale, GeoPayload>, opts: { queryCache?: boolean } = {}) {
    const on = opts.queryCache ?? true;
    this.sets = on ? new LRUCache({ max: 4000 }) : NO_CACHE;
    this.counts = on ? new LRUCache({ max: 20000 }) : NO_CACHE;
    this.streetCache = on ? new LRUCache({ max: 1000 }) : NO_CACHE;
    this.n = cols.slugs.length;
    this.slugs = cols.slugs;
    const n = this.n;
    const lengthOk = (name: string, a: ArrayLike<unknown>) => { if (a.length !== n) throw new Error(`listing-columns.json: ${name} has ${a.length} entries for ${n} listings`); };
    for (const [name, a] of Object.entries(cols)) if (Array.isArray(a)) lengthOk(name, a);
    for (const [name, c] of [['fromPrice', cols.fromPrice], ...Object.entries(cols.fromPriceByType)] as [string, ListingColumns['fromPrice']][]) {
      for (const [k, a] of Object.entries(c)) lengthOk(`${name}.${k}`, a);
    }
    for (let i = 0; i < n; i++) {
      if (i > 0 && this.slugs[i - 1] >= this.slugs[i]) throw new Error(`listing-facts.json not sorted by slug at ${this.slugs[i]}`);
      this.slugIndex.set(this.slugs[i], i);
    }
    const dict = cols.dict;
    const checkIdx = (name: string, idx: number[], size: number, nullable: boolean) => {
      for (let i = 0; i < n; i++) if (idx[i] >= size || (idx[i] < 0 && !(nullable && idx[i] === -1))) throw new Error(`listing-columns.json: ${name}[${i}] out of range`);
    };
    this.all = bits.full(n);
    this.capacity = new Int32Array(n);
    this.lat = new Float64Array(n).fill(Number.NaN);
    this.lng = new Float64Array(n).fill(Number.NaN);
    this.currency = new Uint8Array(n);
    this.slugHash = new Uint32Array(n);
    this.houseNumbers = new Array(n);
    const currencyByCountry = geo.en.currencies;
    this.values = { country: dict.country, city: dict.city, zone: dict.zone, operator: dict.operator };
    this.valueIdx = { country: Int32Array.from(cols.country), city: Int32Array.from(cols.city), zone: Int32Array.from(cols.zone), operator: Int32Array.from(cols.operator) };
    for (const key of SINGLE_KEYS) {
      const idx = this.valueIdx[key];
      checkIdx(key, cols[key], this.values[key].length, key === 'zone' || key === 'operator');
      const lists: number[][] = this.values[key].map(() => []);
      for (let i = 0; i < n; i++) if (idx[i] >= 0) lists[idx[i]].push(i);
      this.values[key].forEach((v, id) => { if (lists[id].length) this.postings.set(`${key}:${v}`, bits.fromIndices(n, lists[id])); });
    }
    const ascending = (name: string, l: number[]) => {
      for (let k = 0; k < l.length; k++) if (l[k] >= n || (k > 0 && l[k] <= l[k - 1])) throw new Error(`listing-columns.json: ${name} not ascending listing indices`);
    };
    for (const [a, l] of Object.entries(cols.amenities)) { ascending(a, l); if (l.length) this.postings.set(`amenities:${a}`, bits.fromIndices(n, l)); }
    for (const [t, l] of Object.entries(cols.optionTypes)) { ascending(t, l); if (l.length) this.postings.set(`pricingOptionType:${t}`, bits.fromIndices(n, l)); }
    this.updatedMs = new Float64Array(n);
    this.ratingScore = new Float64Array(n).fill(Number.NaN);
    this.ratingCount = new Int32Array(n);
    const marketJson = dict.marketPositions.map((m) => `,"marketPosition":${JSON.stringify(m)}`);
    const currencyCode = dict.currencies.map((c) => CURRENCIES.indexOf(c) + 1);
    const periodCode = dict.billingPeriods.map((p) => BILLING_PERIODS.indexOf(p) + 1);
    const fill = (key: string, c: ListingColumns['fromPrice']) => {
      checkIdx(`${key}.currency`, c.currency, currencyCode.length, true);
      checkIdx(`${key}.billingPeriod`, c.billingPeriod, periodCode.length, true);
      checkIdx(`${key}.marketPosition`, c.marketPosition, marketJson.length, true);
      const col: PriceColumn = {
        amount: new Float64Array(n).fill(Number.NaN), eur: new Float64Array(n).fill(Number.NaN),
        currency: new Uint8Array(n), period: new Uint8Array(n), market: new Array(n),
      };
      for (let i = 0; i < n; i++) {
        const amount = c.amount[i];
        if (amount !== null) {
          col.amount[i] = amount;
          col.eur[i] = c.sortAmountEur[i] ?? Number.NaN;
          col.currency[i] = c.currency[i] >= 0 ? currencyCode[c.currency[i]] : 0;
          col.period[i] = c.billingPeriod[i] >= 0 ? periodCode[c.billingPeriod[i]] : 0;
        }
        if (c.marketPosition[i] >= 0) col.market[i] = marketJson[c.marketPosition[i]];
      }
      this.prices.set(key, col);
    };
    fill('', cols.fromPrice);
    const none: ListingColumns['fromPrice'] = { amount: [], sortAmountEur: [], currency: [], billingPeriod: [], marketPosition: [] };
    for (const t of OPTION_TYPES) {
      const c = cols.fromPriceByType[t];
      if (c) fill(t, c);
      else this.prices.set(t, { amount: new Float64Array(n).fill(Number.NaN), eur: new Float64Array(n).fill(Number.NaN), currency: new Uint8Array(n), period: new Uint8Array(n), market: new Array(n) });
    }
    void none;
    checkIdx('countryCode', cols.countryCode, dict.countryCode.length, false);
    checkIdx('street', cols.street, dict.street.length, false);
    checkIdx('houseNumber', cols.houseNumber, dict.houseNumber.length, false);
    const overallCurrency = this.prices.get('')!.currency;
    const byCountry = dict.countryCode.map((code) => { const c = currencyByCountry[code] as Currency | undefined; return c ? CURRENCIES.indexOf(c) + 1 : 0; });
    const currencyLists: number[][] = CURRENCIES.map(() => []);
    const streetKeys = dict.street.map((st) => streetKey(st));
    const streetLists = new Map<string, number[]>();
    const numbers = dict.houseNumber.map((h) => parseHouseNumber(h));
    const coords: number[] = [];
    for (let i = 0; i < n; i++) {
      const cur = byCountry[cols.countryCode[i]] || overallCurrency[i];
      this.currency[i] = cur;
      if (cur) currencyLists[cur - 1].push(i);
      this.capacity[i] = cols.capacity[i] ?? 0;
      this.updatedMs[i] = cols.updatedMs[i] ?? Number.NaN;
      const score = cols.ratingScore[i];
      if (score !== null) { this.ratingScore[i] = score; this.ratingCount[i] = cols.ratingCount[i] ?? 0; }
      const lat = cols.lat[i], lng = cols.lng[i];
      if (lat !== null && lng !== null) {
        this.lat[i] = lat;
        this.lng[i] = lng;
        coords.push(i);
      }
      this.slugHash[i] = hash32(this.slugs[i]);
      const sk = streetKeys[cols.street[i]];
      if (sk) {
        let s = streetLists.get(sk);
        if (!s) streetLists.set(sk, (s = []));
        s.push(i);
      }
      this.houseNumbers[i] = numbers[cols.houseNumber[i]];
    }
    for (const [k, l] of streetLists) this.streets.set(k, l);
    CURRENCIES.forEach((c, k) => { if (currencyLists[k].length) this.postings.set(`currency:${c}`, bits.fromIndices(n, currencyLists[k])); });
    this.hasCoords = bits.fromIndices(n, coords);
    coords.sort((a, b) => this.lat[a] - this.lat[b] || a - b);
    this.latOrder = Int32Array.from(coords);
    this.latSorted = Float64Array.from(coords, (i) => this.lat[i]);

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

  /** A locale's cards, markers and details, one line per listing (checked by api/build/load.ts). */
  addListings(locale: Locale, l: LocaleListings) {
    for (let i = 0; i < this.n; i++) {
      if (isNullLine(l.markers, i) !== Number.isNaN(this.lat[i])) throw new Error(`markers.${locale}.ndjson: the marker of ${this.slugs[i]} disagrees with its coordinates in listing-columns.json`);
    }
    this.listings[locale] = l;
  }

  /** The detail JSON of listing i, URLs resolved. */
  async detailJson(i: number, locale: Locale): Promise<string> {
    const l = this.listings[locale];
    return resolveSitePathsInJson(await readLine(l.details, i, `details.${locale}.ndjson`), l.siteUrl);
  }

  /** The card's title (for citations): its `"title"` string read from the card's bytes, not the whole card parsed. */
  title(i: number, locale: Locale): string {
    const { bytes, starts } = this.listings[locale].cards;
    const end = starts[i + 1] - 1;
    // a key is the only place `"title"` can be followed by a colon; a card has no nested title
    for (let k = bytes.indexOf('"title"', starts[i]); k >= 0 && k < end; k = bytes.indexOf('"title"', k + 7)) {
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
    for (const l of LOCALES) await this.listings[l]?.details.fh.close().catch(() => undefined);
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

  // ---- filtering ----------------------------------------------------------------------------

  private col(type: OptionType | undefined): PriceColumn {
    return this.prices.get(type ?? '')!;
  }

  private posting(key: string): Bitset | undefined {
    return this.postings.get(key);
  }

  filterKey(f: Filters, omit: Omit[] = []): string {
    const o = new Set(omit);
    return JSON.stringify([
      o.has('country') ? null : f.country ?? null,
      o.has('city') ? null : f.city ?? null,
      o.has('zone') ? null : f.zone ?? null,
      o.has('operator') ? null : f.operator ?? null,
      o.has('pricingOptionType') ? null : f.pricingOptionType ?? null,
      f.currency ?? null,
      o.has('amenities') ? null : f.amenities ? [...f.amenities].sort() : null,
      o.has('minCapacity') ? null : f.minCapacity ?? null,
      o.has('price') ? null : [f.minPrice ?? null, f.maxPrice ?? null, f.pricingOptionType ?? null],
      f.lat ?? null, f.lng ?? null, f.radiusMeters ?? null, f.bbox ?? null, f.address ?? null,
    ]);
  }

  /** Listings matching every filter except the omitted ones. The result is shared: never mutate it. */
  match(f: Filters, omit: Omit[] = []): MatchSet {
    const key = this.filterKey(f, omit);
    let hit = this.sets.get(key);
    if (!hit) {
      const b = this.compute(f, new Set(omit));
      hit = { bits: b, count: bits.count(b) };
      this.sets.set(key, hit);
    }
    return hit;
  }

  private compute(f: Filters, omit: Set<Omit>): Bitset {
    const b = Uint32Array.from(this.all);
    const andKey = (key: string) => {
      const p = this.posting(key);
      if (p) bits.andInto(b, p);
      else b.fill(0);
    };
    for (const k of SINGLE_KEYS) if (f[k] !== undefined && !omit.has(k)) andKey(`${k}:${f[k]}`);
    if (f.pricingOptionType && !omit.has('pricingOptionType')) andKey(`pricingOptionType:${f.pricingOptionType}`);
    if (f.currency) andKey(`currency:${f.currency}`);
    if (f.amenities && !omit.has('amenities')) for (const a of f.amenities) andKey(`amenities:${a}`);
    if (f.address) bits.andInto(b, this.streetSet(f.address).street);
    // A point search is about where listings are: a listing without coordinates has no distance.
    if (f.lat !== undefined && f.lng !== undefined) {
      bits.andInto(b, f.radiusMeters !== undefined ? this.radiusSet(f.lat, f.lng, f.radiusMeters) : this.hasCoords);
    }
    if (f.bbox) bits.andInto(b, this.bboxSet(f.bbox));
    const minCap = omit.has('minCapacity') ? undefined : f.minCapacity;
    const priced = !omit.has('price') && (f.minPrice !== undefined || f.maxPrice !== undefined);
    if (minCap !== undefined || priced) {
      const lo = f.minPrice ?? -Infinity;
      const hi = f.maxPrice ?? Infinity;
      const amount = this.col(f.pricingOptionType).amount;
      const cap = this.capacity;
      for (let w = 0; w < b.length; w++) {
        let x = b[w];
        while (x) {
          const low = x & -x;
          x ^= low;
          const i = (w << 5) + 31 - Math.clz32(low);
          let keep = minCap === undefined || cap[i] >= minCap;
          if (keep && priced) keep = amount[i] >= lo && amount[i] <= hi; // NaN (no price) fails both
          if (!keep) b[w] &= ~low;
        }
      }
    }
    return b;
  }

  /** Listings on the street of an address, and those at its house number. */
  streetSet(address: string): { street: Bitset; at: Bitset } {
    let hit = this.streetCache.get(address);
    if (!hit) {
      const q = parseAddress(address);
      const onStreet = q ? this.streets.get(q.street) ?? [] : [];
      const at = q?.number
        ? onStreet.filter((i) => { const h = this.houseNumbers[i]; return h !== undefined && houseNumberMatches(h, q.number!); })
        : [];
      hit = { street: bits.fromIndices(this.n, onStreet), at: bits.fromIndices(this.n, at) };
      this.streetCache.set(address, hit);
    }
    return hit;
  }

  private latRange(lo: number, hi: number): [number, number] {
    const a = this.latSorted;
    let l = 0, r = a.length;
    while (l < r) { const m = (l + r) >>> 1; if (a[m] < lo) l = m + 1; else r = m; }
    const start = l;
    r = a.length;
    while (l < r) { const m = (l + r) >>> 1; if (a[m] <= hi) l = m + 1; else r = m; }
    return [start, l];
  }

  private radiusSet(lat: number, lng: number, radius: number): Bitset {
    const out = new Uint32Array(this.all.length);
    const dLat = radius / METERS_PER_DEGREE_LAT + 1e-9;
    const [s, e] = this.latRange(lat - dLat, lat + dLat);
    for (let k = s; k < e; k++) {
      const i = this.latOrder[k];
      if (haversineMeters(lat, lng, this.lat[i], this.lng[i]) <= radius) out[i >>> 5] |= 1 << (i & 31);
    }
    return out;
  }

  private bboxSet(box: BBox): Bitset {
    const out = new Uint32Array(this.all.length);
    const [s, e] = this.latRange(box.south, box.north);
    const wraps = box.west > box.east;
    for (let k = s; k < e; k++) {
      const i = this.latOrder[k];
      const x = this.lng[i];
      if (wraps ? x >= box.west || x <= box.east : x >= box.west && x <= box.east) out[i >>> 5] |= 1 << (i & 31);
    }
    return out;
  }

  distance(i: number, lat: number, lng: number): number | undefined {
    return Number.isNaN(this.lat[i]) ? undefined : haversineMeters(lat, lng, this.lat[i], this.lng[i]);
  }

  // ---- ordering -----------------------------------------------------------------------------

  private order(sort: 'date-desc' | 'date-asc' | 'rating-desc' | 'price-asc', type?: OptionType): Order {
    const key = `${sort}:${type ?? ''}`;
    let o = this.orders.get(key);
    if (o) return o;
    const n = this.n;
    const idx = Array.from({ length: n }, (_, i) => i);
    if (sort === 'date-desc' || sort === 'date-asc') {
      const t = this.updatedMs;
      const dir = sort === 'date-desc' ? -1 : 1;
      idx.sort((a, b) => {
        const ta = t[a], tb = t[b];
        const na = Number.isNaN(ta), nb = Number.isNaN(tb);
        if (na || nb) return na === nb ? a - b : na ? 1 : -1;
        return (ta - tb) * dir || a - b;
      });
    } else if (sort === 'rating-desc') {
      const score = this.ratingScore, cnt = this.ratingCount;
      idx.sort((a, b) => {
        const na = Number.isNaN(score[a]), nb = Number.isNaN(score[b]);
        if (na || nb) return na === nb ? a - b : na ? 1 : -1;
        return score[b] - score[a] || cnt[b] - cnt[a] || a - b;
      });
    } else {
      const p = this.col(type).eur;
      idx.sort((a, b) => {
        const pa = p[a], pb = p[b];
        const na = Number.isNaN(pa), nb = Number.isNaN(pb);
        if (na || nb) return na === nb ? a - b : na ? 1 : -1;
        return pa - pb || a - b;
      });
    }
    const order = Int32Array.from(idx);
    const rank = new Int32Array(n);
    for (let k = 0; k < n; k++) rank[order[k]] = k;
    o = { order, rank };
    this.orders.set(key, o);
    return o;
  }

  /**
   * One page of a matching set in `sort` order. Groups (the address rule) come one after the
   * other, each in sort order; ties always break on slug (= index order).
   */
  page(set: MatchSet, f: Filters, sort: SortBy, seed: number, offset: number, limit: number): PageResult {
    let groups: Bitset[] = [set.bits];
    if (f.address) {
      const at = this.streetSet(f.address).at;
      const first = Uint32Array.from(set.bits);
      bits.andInto(first, at);
      groups = [first, bits.andNot(set.bits, at)];
    }
    const indices: number[] = [];
    let skip = offset;
    for (const g of groups) {
      if (indices.length >= limit) break;
      const size = groups.length === 1 ? set.count : bits.count(g);
      if (skip >= size) { skip -= size; continue; }
      const take = Math.min(limit - indices.length, size - skip);
      for (const i of this.slice(g, size, f, sort, seed, skip, take)) indices.push(i);
      skip = 0;
    }
    return { total: set.count, indices };
  }

  private slice(g: Bitset, size: number, f: Filters, sort: SortBy, seed: number, offset: number, limit: number): Int32Array | number[] {
    if (sort === 'random' || sort === 'distance') {
      const idx = bits.toIndices(g, size);
      const keys = new Float64Array(size);
      if (sort === 'random') {
        for (let k = 0; k < size; k++) keys[k] = randomKey(seed, this.slugHash[idx[k]]);
      } else {
        for (let k = 0; k < size; k++) keys[k] = this.distance(idx[k], f.lat!, f.lng!) ?? Infinity;
      }
      return selectRange(idx, keys, offset, limit);
    }
    const o = this.order(sort, sort === 'price-asc' ? f.pricingOptionType : undefined);
    // Walking the precomputed order costs about (offset + limit) × n / size steps; sorting the
    // set by rank about size × log(size) comparisons. Take the cheaper.
    const walk = ((offset + limit) * this.n) / Math.max(1, size);
    if (size * Math.log2(size + 1) * 4 < walk) {
      const idx = bits.toIndices(g, size);
      idx.sort((a, b) => o.rank[a] - o.rank[b]);
      return idx.subarray(offset, offset + limit);
    }
    const out: number[] = [];
    let seen = 0;
    const order = o.order;
    for (let k = 0; k < order.length && out.length < limit; k++) {
      const i = order[k];
      if (g[i >>> 5] & (1 << (i & 31))) {
        if (seen >= offset) out.push(i);
        seen++;
      }
    }
    return out;
  }

  // ---- facets -------------------------------------------------------------------------------

  collator(locale: Locale): Intl.Collator {
    let c = this.collators.get(locale);
    if (!c) this.collators.set(locale, (c = new Intl.Collator(locale, { sensitivity: 'base' })));
    return c;
  }

  /**
   * Disjunctive facets: each single-valued facet counts under every filter but its own, so its
   * count for a value is the list total with that value selected instead. Amenities combine with
   * AND, so their counts are the list total with that amenity added to the selection.
   */
  facets(f: Filters, locale: Locale): FacetsPayload {
    const out: FacetsPayload['facets'] = [];
    const sortValues = (vals: { value: string; label: string; count: number }[]) => {
      const coll = this.collator(locale);
      return vals.sort((a, b) => b.count - a.count || coll.compare(a.label, b.label) || (a.value < b.value ? -1 : 1));
    };
    // A facet whose filter is not set counts over the full match: those share one pass. Counts
    // are cached by context (the same contexts recur across queries: "every filter but city").
    const counts = {} as Record<SingleKey, Int32Array>;
    const passes: { bits: Bitset; keys: SingleKey[]; cacheKeys: string[] }[] = [];
    const shared: SingleKey[] = [];
    const sharedKeys: string[] = [];
    const fullKey = this.filterKey(f);
    for (const key of SINGLE_KEYS) {
      const ctxKey = `${f[key] === undefined ? fullKey : this.filterKey(f, [key])}|${key}`;
      const hit = this.counts.get(ctxKey);
      if (hit) counts[key] = hit;
      else if (f[key] === undefined) { shared.push(key); sharedKeys.push(ctxKey); }
      else passes.push({ bits: this.match(f, [key]).bits, keys: [key], cacheKeys: [ctxKey] });
    }
    if (shared.length) passes.push({ bits: this.match(f).bits, keys: shared, cacheKeys: sharedKeys });
    for (const pass of passes) {
      const idx = pass.keys.map((k) => this.valueIdx[k]);
      const cnt = pass.keys.map((k) => new Int32Array(this.values[k].length));
      const b = pass.bits;
      for (let k = 0; k < idx.length; k++) {
        const vi = idx[k], c = cnt[k];
        for (let w = 0; w < b.length; w++) {
          let x = b[w];
          while (x) {
            const low = x & -x;
            const v = vi[(w << 5) + 31 - Math.clz32(low)];
            x ^= low;
            if (v >= 0) c[v]++;
          }
        }
      }
      pass.keys.forEach((key, k) => {
        counts[key] = cnt[k];
        this.counts.set(pass.cacheKeys[k], cnt[k]);
      });
    }
    for (const key of SINGLE_KEYS) {
      const vals: { value: string; label: string; count: number }[] = [];
      counts[key].forEach((c, id) => {
        if (c > 0) vals.push({ value: this.values[key][id], label: this.label(key, this.values[key][id], locale), count: c });
      });
      const sel = f[key];
      if (sel !== undefined && !vals.some((v) => v.value === sel)) vals.push({ value: sel, label: this.label(key, sel, locale), count: 0 });
      out.push({ key, label: this.labels.keys[key][locale], values: sortValues(vals) });
    }
    {
      const ctx = this.match(f, ['pricingOptionType', 'price']);
      const priced = f.minPrice !== undefined || f.maxPrice !== undefined;
      const vals: { value: string; label: string; count: number }[] = [];
      for (const t of OPTION_TYPES) {
        const p = this.posting(`pricingOptionType:${t}`);
        let c = 0;
        if (p) {
          if (!priced) c = bits.countAnd(ctx.bits, p);
          else {
            const b = Uint32Array.from(ctx.bits);
            bits.andInto(b, p);
            const lo = f.minPrice ?? -Infinity, hi = f.maxPrice ?? Infinity;
            const amount = this.col(t).amount;
            bits.forEach(b, (i) => { if (amount[i] >= lo && amount[i] <= hi) c++; });
          }
        }
        if (c > 0 || f.pricingOptionType === t) vals.push({ value: t, label: this.label('pricingOptionType', t, locale), count: c });
      }
      out.push({ key: 'pricingOptionType', label: this.labels.keys.pricingOptionType[locale], values: sortValues(vals) });
    }
    {
      const ctx = this.match(f);
      const vals: { value: string; label: string; count: number }[] = [];
      const selected = new Set(f.amenities ?? []);
      const known = new Set<string>();
      for (const [key, p] of this.postings) {
        if (!key.startsWith('amenities:')) continue;
        const a = key.slice('amenities:'.length);
        known.add(a);
        const c = bits.countAnd(ctx.bits, p);
        if (c > 0 || selected.has(a)) vals.push({ value: a, label: this.label('amenities', a, locale), count: c });
      }
      for (const a of selected) if (!known.has(a)) vals.push({ value: a, label: this.label('amenities', a, locale), count: 0 });
      out.push({ key: 'amenities', label: this.labels.keys.amenities[locale], values: sortValues(vals) });
    }
    const payload: FacetsPayload = { facets: out };
    {
      const ctx = this.match(f, ['price']).bits;
      const { amount, currency } = this.col(f.pricingOptionType);
      let cur = 0, mixed = false, min = Infinity, max = -Infinity;
      for (let w = 0; w < ctx.length && !mixed; w++) {
        let x = ctx[w];
        while (x) {
          const low = x & -x;
          const i = (w << 5) + 31 - Math.clz32(low);
          x ^= low;
          const c = currency[i];
          if (c === 0) continue;
          if (cur === 0) cur = c;
          else if (cur !== c) { mixed = true; break; }
          if (amount[i] < min) min = amount[i];
          if (amount[i] > max) max = amount[i];
        }
      }
      if (cur && !mixed) {
        const code = CURRENCIES[cur - 1];
        payload.priceRange = { min: { amount: min, currency: code }, max: { amount: max, currency: code } };
      }
    }
    {
      const ctx = this.match(f, ['minCapacity']).bits;
      const cap = this.capacity;
      let min = Infinity, max = -Infinity;
      for (let w = 0; w < ctx.length; w++) {
        let x = ctx[w];
        while (x) {
          const low = x & -x;
          const c = cap[(w << 5) + 31 - Math.clz32(low)];
          x ^= low;
          if (c >= 1) { if (c < min) min = c; if (c > max) max = c; }
        }
      }
      if (max >= 1) payload.capacityRange = { min, max };
    }
    return payload;
  }

  // ---- rendering ----------------------------------------------------------------------------

  private priceFields(i: number, type: OptionType | undefined): string {
    const c = this.col(type);
    if (c.currency[i] === 0) return '';
    return `,"fromPrice":{"amount":${c.amount[i]},"currency":"${CURRENCIES[c.currency[i] - 1]}"},"fromBillingPeriod":"${BILLING_PERIODS[c.period[i] - 1]}"`;
  }

  cardJson(i: number, locale: Locale, f: Filters): string {
    let s = openLine(this.listings[locale].cards, i) + this.priceFields(i, f.pricingOptionType);
    const mp = this.col(f.pricingOptionType).market[i];
    if (mp) s += mp;
    if (f.lat !== undefined && f.lng !== undefined) {
      const d = this.distance(i, f.lat, f.lng);
      if (d !== undefined) s += `,"distanceMeters":${Math.round(d * 10) / 10}`;
    }
    return `${s}}`;
  }

  markerJson(i: number, locale: Locale, f: Filters): string {
    return `${openLine(this.listings[locale].markers, i)}${this.priceFields(i, f.pricingOptionType)}}`;
  }

  /** Bitset of the listings with coordinates (the map shows only those). */
  withCoords(set: MatchSet): MatchSet {
    const b = Uint32Array.from(set.bits);
    bits.andInto(b, this.hasCoords);
    return { bits: b, count: bits.count(b) };
  }
}

/**
 * Items ranked offset..offset+limit by (key, index), without sorting the whole set: a histogram
 * over the key range finds the buckets that hold the wanted ranks, and only those are sorted.
 */
export function selectRange(idx: Int32Array, keys: Float64Array, offset: number, limit: number): number[] {
  const n = idx.length;
  if (offset >= n || limit <= 0) return [];
  if (n <= SMALL) {
    const pos = Array.from({ length: n }, (_, k) => k).sort((a, b) => (keys[a] === keys[b] ? idx[a] - idx[b] : keys[a] < keys[b] ? -1 : 1));
    return pos.slice(offset, offset + limit).map((k) => idx[k]);
  }
  let min = Infinity, max = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = keys[k];
    if (v === Infinity) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const B = 4096;
  const width = max > min ? (max - min) / (B - 1) : 1;
  const bucket = (v: number) => (v === Infinity ? B : Math.floor((v - min) / width));
  const counts = new Int32Array(B + 1);
  for (let k = 0; k < n; k++) counts[bucket(keys[k])]++;
  const end = Math.min(n, offset + limit);
  let before = 0, lo = 0;
  while (before + counts[lo] <= offset) before += counts[lo++];
  let cum = before, hi = lo;
  while (cum + counts[hi] < end) cum += counts[hi++];
  const picked: number[] = [];
  for (let k = 0; k < n; k++) {
    const b = bucket(keys[k]);
    if (b >= lo && b <= hi) picked.push(k);
  }
  picked.sort((a, b) => (keys[a] === keys[b] ? idx[a] - idx[b] : keys[a] < keys[b] ? -1 : 1));
  return picked.slice(offset - before, offset - before + (end - offset)).map((k) => idx[k]);
}
