/**
 * Realistic, distinct request URLs for the market endpoints of a loaded build, for the API
 * benchmark: autocomplete as a person types (prefixes of real names in every locale, some with one
 * typo), market rates with and without filters, rankings, place hubs and operator hubs.
 * Deterministic for a given build; kinds are interleaved so any prefix of the list is a mix.
 */
import type { LoadedBuild } from '../../api/build/load.ts';
import { LOCALES } from '../../contract/common.ts';

export const MARKET_QUERY_KINDS = ['suggest', 'rates', 'rankings', 'places', 'operators'] as const;
export type MarketQueryKind = (typeof MARKET_QUERY_KINDS)[number];

/** mulberry32 */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every URL by kind, each list distinct and in a seeded random order. */
export function marketQueriesByKind(build: LoadedBuild, seed = 42): Record<MarketQueryKind, string[]> {
  const rnd = prng(seed);
  const shuffle = (xs: Iterable<string>) => {
    const a = [...new Set(xs)];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  const q = (path: string, params: Record<string, string | number | undefined>) => {
    const s = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) s.set(k, String(v));
    return `${path}?${s.toString()}`;
  };

  // Autocomplete: what a person types on the way to a name (places and operators weigh more,
  // as people look for them more), plus a misspelt letter from 5 characters on.
  const suggest: string[] = [];
  const byWeight = [...build.suggest].sort((a, b) => b.weight - a.weight || (a.slug < b.slug ? -1 : 1));
  for (const e of byWeight) {
    const locale = LOCALES[Math.floor(rnd() * LOCALES.length)];
    const name = e.label[locale];
    const max = e.kind === 'property' ? 2 : 6;
    for (let len = 2; len <= Math.min(name.length, 2 + max); len++) {
      suggest.push(q('/v1/search/suggest', { locale, q: name.slice(0, len) }));
    }
    if (name.length >= 6 && (e.kind !== 'property' || rnd() < 0.25)) {
      const i = 2 + Math.floor(rnd() * (name.length - 3));
      suggest.push(q('/v1/search/suggest', { locale, q: name.slice(0, i) + name.slice(i + 1), limit: rnd() < 0.3 ? 5 : undefined }));
    }
  }

  const rates: string[] = [];
  const rankings: string[] = [];
  for (const locale of LOCALES) {
    const file = build.marketRates[locale];
    rates.push(q('/v1/market/rates', { locale }));
    const countries = new Set(file.cities.map((c) => c.countrySlug));
    const currencies = new Set(file.cities.map((c) => c.rates.currency));
    for (const country of countries) {
      rates.push(q('/v1/market/rates', { locale, country }));
      const currency = file.cities.find((c) => c.countrySlug === country)!.rates.currency;
      rates.push(q('/v1/market/rates', { locale, country, currency }));
    }
    for (const currency of currencies) rates.push(q('/v1/market/rates', { locale, currency }));
    for (const c of file.cities) {
      rates.push(q('/v1/market/rates', { locale, city: c.rates.city.slug }));
      rates.push(q('/v1/market/rates', { locale, country: c.countrySlug, city: c.rates.city.slug }));
    }
    for (const city of Object.keys(build.rankings[locale])) {
      rankings.push(q('/v1/rankings', { locale, city }));
      rankings.push(q('/v1/rankings', { locale, city, limit: 25 }));
      rankings.push(q('/v1/rankings', { locale, city, limit: 5 }));
    }
  }

  const places: string[] = [];
  const operators: string[] = [];
  for (const locale of LOCALES) {
    for (const key of Object.keys(build.places[locale])) places.push(`/v1/places/${key}?locale=${locale}`);
    for (const slug of Object.keys(build.operators[locale])) operators.push(`/v1/operators/${slug}?locale=${locale}`);
  }

  return {
    suggest: shuffle(suggest),
    rates: shuffle(rates),
    rankings: shuffle(rankings),
    places: shuffle(places),
    operators: shuffle(operators),
  };
}

/**
 * At least `min` distinct URLs (1,000 by default) over suggest, market rates, rankings, place hubs
 * and operator hubs, interleaved in the proportions of the lists. Throws when the build is too
 * small to give that many (the API tests' hand-written fixture has no market data).
 */
export function marketQueryUrls(build: LoadedBuild, min = 1000, seed = 42): string[] {
  const lists = Object.values(marketQueriesByKind(build, seed));
  const total = lists.reduce((a, l) => a + l.length, 0);
  if (total < min) throw new Error(`the build gives ${total} distinct market queries, fewer than ${min}`);
  const out: string[] = [];
  const pos = lists.map(() => 0);
  // interleave by share: each list advances at its own rate, so every prefix is a representative mix
  for (let step = 0; out.length < total; step++) {
    for (let k = 0; k < lists.length; k++) {
      const due = Math.ceil(((step + 1) * lists[k].length) / total);
      while (pos[k] < due && pos[k] < lists[k].length) out.push(lists[k][pos[k]++]);
    }
  }
  return out;
}
