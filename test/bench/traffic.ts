/**
 * The benchmark's traffic, drawn fresh for each request from the build's real values. Those are
 * discovered over HTTP, as a client would: places from /v1/geo/bootstrap (every locale), option
 * types, amenities, operators and price ranges from /v1/facets (overall and per country), space
 * slugs and titles from list pages. Nothing here reads the build's files.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { prng } from '../support/build-fixture.ts';

const SORTED = ['date-desc', 'date-asc', 'price-asc', 'rating-desc'] as const;

interface Place { slug: string; count: number }
interface City extends Place { country: string; lat: number; lng: number; zones: string[] }
interface Country extends Place { code: string; currency: string; operators: string[]; price?: { min: number; max: number } }
interface Name { text: string; locale: Locale }

export interface Catalogue {
  countries: Country[];
  cities: City[];
  /** cities with weights by listing count, for drawing the places people browse most */
  cityTotals: number[];
  operators: string[];
  optionTypes: string[];
  amenities: string[];
  currencies: string[];
  /** space slugs, shuffled */
  slugs: string[];
  /** names people type into the search box: places, operators and spaces, in their locale */
  names: Name[];
  listings: number;
}

// ---------------------------------------------------------------- discovery over HTTP

interface Bootstrap {
  countries: Array<{ slug: string; name: string; code: string; propertyCount: number }>;
  cities: Array<{ slug: string; name: string; countryCode: string; propertyCount: number; center: { lat: number; lng: number }; zones: Array<{ slug: string; name: string }> }>;
  currencies: Record<string, string>;
}
interface Facets {
  facets: Array<{ key: string; values: Array<{ value: string; label: string; count: number }> }>;
  priceRange?: { min: { amount: number }; max: { amount: number } };
}
interface ListPage { data: Array<{ slug: string; title: string }>; meta: { pagination: { total: number } } }

async function get<T>(base: string, path: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}${path}`);
    const text = await res.text();
    if (res.status === 200) return JSON.parse(text) as T;
    if (attempt === 3) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
    await sleep(100 * attempt);
  }
}

function shuffle<T>(items: T[], rnd: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Runs `task` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

const PAGE = 50;
/** a list reaches pages 1..500 */
const MAX_PAGES = 500;

export async function discover(base: string, maxSlugs: number): Promise<Catalogue> {
  const rnd = prng(7);
  const names: Name[] = [];
  const boot: Partial<Record<Locale, Bootstrap>> = {};
  for (const locale of LOCALES) {
    const b = (await get<{ data: Bootstrap }>(base, `/v1/geo/bootstrap?locale=${locale}`)).data;
    boot[locale] = b;
    for (const c of b.countries) names.push({ text: c.name, locale });
    for (const c of b.cities) {
      names.push({ text: c.name, locale });
      for (const z of c.zones) names.push({ text: z.name, locale });
    }
  }
  const geo = boot.en!;
  const countries: Country[] = geo.countries.map((c) => ({
    slug: c.slug, count: c.propertyCount, code: c.code, currency: geo.currencies[c.code], operators: [],
  }));
  const cities: City[] = geo.cities.filter((c) => c.propertyCount > 0).map((c) => ({
    slug: c.slug, count: c.propertyCount, country: geo.countries.find((k) => k.code === c.countryCode)!.slug,
    lat: c.center.lat, lng: c.center.lng, zones: c.zones.map((z) => z.slug),
  }));

  const facetValues = (f: Facets, key: string) => f.facets.find((x) => x.key === key)?.values ?? [];
  const overall = (await get<{ data: Facets }>(base, '/v1/facets?locale=en')).data;
  const operators = new Map<string, string>();
  await inParallel(countries, 4, async (country) => {
    const f = (await get<{ data: Facets }>(base, `/v1/facets?locale=en&country=${country.slug}`)).data;
    country.operators = facetValues(f, 'operator').filter((v) => v.count > 0).map((v) => v.value);
    for (const v of facetValues(f, 'operator')) operators.set(v.value, v.label);
    if (f.priceRange) country.price = { min: f.priceRange.min.amount, max: f.priceRange.max.amount };
  });
  for (const label of operators.values()) names.push({ text: label, locale: LOCALES[Math.floor(rnd() * LOCALES.length)] });

  // Slugs and titles from list pages, city by city in a random order, until `maxSlugs`.
  const slugs: string[] = [];
  const listings = countries.reduce((a, c) => a + c.count, 0);
  await inParallel(shuffle([...cities], rnd), 4, async (city) => {
    for (let page = 1; page <= MAX_PAGES && slugs.length < maxSlugs; page++) {
      const list = await get<ListPage>(base, `/v1/properties?locale=en&city=${city.slug}&sortBy=date-desc&pageSize=${PAGE}&page=${page}`);
      for (const card of list.data) {
        slugs.push(card.slug);
        names.push({ text: card.title, locale: LOCALES[slugs.length % LOCALES.length] });
      }
      if (list.data.length < PAGE) break;
    }
  });
  let total = 0;
  return {
    countries, cities, cityTotals: cities.map((c) => (total += c.count)),
    operators: [...operators.keys()],
    optionTypes: facetValues(overall, 'pricingOptionType').map((v) => v.value),
    amenities: facetValues(overall, 'amenities').map((v) => v.value),
    currencies: [...new Set(Object.values(geo.currencies))],
    slugs: shuffle(slugs.slice(0, maxSlugs), rnd), names, listings,
  };
}

// ---------------------------------------------------------------- the requests of each row

export const ROWS = ['list', 'list-filtered', 'list-sorted', 'facets', 'detail', 'suggest'] as const;
export type Row = (typeof ROWS)[number];

export interface Traffic {
  next(): string;
  /** distinct paths sent so far, and all paths sent */
  distinct(): number;
  sent(): number;
}

/**
 * Draws paths until one not sent before in this run comes (up to 50 tries: a row with few
 * possible paths, such as `list`, repeats by nature).
 */
function fresh(draw: () => string, track: boolean): Traffic {
  const seen = new Set<string>();
  let sent = 0;
  return {
    next: () => {
      sent++;
      let path = draw();
      if (!track) return path;
      for (let i = 0; i < 50 && seen.has(path); i++) path = draw();
      seen.add(path);
      return path;
    },
    distinct: () => (track ? seen.size : Math.min(sent, LOCALES.length)),
    sent: () => sent,
  };
}

/** A new, seeded stream of requests for one row (each run starts its own). */
export function traffic(row: Row, cat: Catalogue, seed: number): Traffic {
  const rnd = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const chance = (p: number): boolean => rnd() < p;
  const locale = (): Locale => pick(LOCALES);
  // people browse where the listings are: mostly a city drawn by its listings
  const city = (): City => {
    if (chance(0.15)) return pick(cat.cities);
    const r = rnd() * cat.cityTotals[cat.cityTotals.length - 1];
    let lo = 0;
    let hi = cat.cityTotals.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cat.cityTotals[mid] > r) hi = mid; else lo = mid + 1;
    }
    return cat.cities[lo];
  };
  const countryBySlug = new Map(cat.countries.map((c) => [c.slug, c]));

  /**
   * A random mix of filters, as a person narrows a search; `narrowing` scales the chance of each
   * filter beyond the place. `point` is whether lat/lng were set.
   */
  const filters = (narrowing = 1): { query: URLSearchParams; point: boolean } => {
    const q = new URLSearchParams({ locale: locale() });
    const where = city();
    const country = countryBySlug.get(where.country)!;
    const r = rnd();
    let placed: Country | undefined;
    if (r < 0.45) { q.set('city', where.slug); placed = country; }
    else if (r < 0.6 && where.zones.length > 0) { q.set('zone', pick(where.zones)); placed = country; }
    else if (r < 0.75) { q.set('country', country.slug); placed = country; }
    if (chance(0.15 * narrowing)) q.set('operator', pick(placed && placed.operators.length > 0 ? placed.operators : cat.operators));
    if (chance(0.25 * narrowing) && cat.optionTypes.length > 0) q.set('pricingOptionType', pick(cat.optionTypes));
    if (chance(0.25 * narrowing) && cat.amenities.length > 0) {
      const k = 1 + Math.floor(rnd() * 3);
      q.set('amenities', [...new Set(Array.from({ length: k }, () => pick(cat.amenities)))].join(','));
    }
    if (chance(0.1 * narrowing)) q.set('minCapacity', String(2 + Math.floor(rnd() * 60)));
    if (placed?.price && chance(0.12 * narrowing)) {
      const span = placed.price.max - placed.price.min;
      const min = Math.round(placed.price.min + rnd() * span * 0.2);
      q.set('minPrice', String(min));
      q.set('maxPrice', String(Math.round(min + span * (0.05 + rnd() * 0.3))));
    }
    if (chance(0.05 * narrowing)) q.set('currency', pick(cat.currencies));
    const point = chance(0.15);
    if (point) {
      q.set('lat', (where.lat + (rnd() - 0.5) * 0.06).toFixed(5));
      q.set('lng', (where.lng + (rnd() - 0.5) * 0.08).toFixed(5));
      if (chance(0.7)) q.set('radiusMeters', String(500 + Math.floor(rnd() * 20_000)));
    } else if (chance(0.05)) {
      const h = 0.02 + rnd() * 0.15;
      q.set('bbox', [where.lng - h, where.lat - h * 0.7, where.lng + h, where.lat + h * 0.7].map((n) => n.toFixed(4)).join(','));
    }
    return { query: q, point };
  };

  switch (row) {
    case 'list':
      return fresh(() => `/v1/properties?locale=${locale()}`, false);
    case 'list-filtered':
      return fresh(() => {
        const { query } = filters();
        if (chance(0.5)) query.set('sortBy', 'random');
        return `/v1/properties?${query}`;
      }, true);
    case 'list-sorted':
      return fresh(() => {
        // fewer filters than a first page: people page on through broader selections
        const { query, point } = filters(0.5);
        query.set('sortBy', point && chance(0.4) ? 'distance' : pick(SORTED));
        const page = 1 + Math.floor(rnd() * rnd() * 5);
        if (page > 1) query.set('page', String(page));
        return `/v1/properties?${query}`;
      }, true);
    case 'facets':
      return fresh(() => `/v1/facets?${filters().query}`, true);
    case 'detail': {
      // every (slug, locale) once before any comes again
      let k = Math.floor(rnd() * cat.slugs.length);
      return fresh(() => {
        const slug = cat.slugs[k % cat.slugs.length];
        const loc = LOCALES[Math.floor(k / cat.slugs.length) % LOCALES.length];
        k++;
        return `/v1/properties/${slug}?locale=${loc}`;
      }, true);
    }
    case 'suggest':
      return fresh(() => {
        const name = pick(cat.names);
        // what a person has typed so far: mostly 2–8 characters, from 5 on sometimes with a typo
        const length = Math.min(name.text.length, 1 + Math.floor(rnd() * rnd() * 12));
        let q = name.text.slice(0, Math.max(1, length));
        if (q.length >= 5 && chance(0.25)) {
          const i = 1 + Math.floor(rnd() * (q.length - 2));
          q = chance(0.5) ? q.slice(0, i) + q.slice(i + 1) : q.slice(0, i) + q[i + 1] + q[i] + q.slice(i + 2);
        }
        const params = new URLSearchParams({ locale: name.locale, q: q.trim() || q });
        if (chance(0.2)) params.set('limit', String(5 + Math.floor(rnd() * 6)));
        return `/v1/search/suggest?${params}`;
      }, true);
  }
}
