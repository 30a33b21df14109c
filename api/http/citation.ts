import type { Citation, Locale, SlugName } from '../../contract/common.ts';
import type { Engine, Filters } from '../catalog/engine.ts';

const LICENSE = 'CC BY 4.0';
export const LICENSE_URL = 'https://creativecommons.org/licenses/by/4.0/';

/** The public page a response's data belongs to (docs/design.md §3, public page URLs). */
export type CitationPage =
  | { kind: 'home' }
  | { kind: 'coworking'; country: SlugName; city?: SlugName; zone?: SlugName }
  | { kind: 'space'; slug: string; title: string }
  | { kind: 'operator'; slug: string; name: string }
  | { kind: 'best'; city: SlugName }
  | { kind: 'prices'; city?: SlugName }
  | { kind: 'price-index'; country?: SlugName };

const SOURCE: Record<Locale, string> = { en: 'Source', de: 'Quelle', es: 'Fuente' };

/** The data a citation pins: its own date (the latest price observation) and the id of the release it is kept in. */
export interface CitedData { asOf: string; release?: string }

const DATA_AS_OF: Record<Locale, (date: string, release?: string) => string> = {
  en: (date, release) => `data as of ${date}${release ? `, release ${release}` : ''}`,
  de: (date, release) => `Datenstand ${date}${release ? `, Release ${release}` : ''}`,
  es: (date, release) => `datos a ${date}${release ? `, versión ${release}` : ''}`,
};

/** The attribution line, with the data date and release appended after the licence when given. */
export function citationText(locale: Locale, serviceName: string, title: string, url: string, data?: CitedData): string {
  const pinned = data ? `, ${DATA_AS_OF[locale](data.asOf.slice(0, 10), data.release)}` : '';
  return `${SOURCE[locale]}: ${serviceName}, ${title}, ${url}, ${LICENSE}${pinned}`;
}

const TITLES: Record<Locale, {
  home: string; in: (place: string) => string; best: (city: string) => string;
  prices: string; pricesIn: (city: string) => string; priceIndex: string; priceIndexIn: (country: string) => string;
}> = {
  en: {
    home: 'Coworking spaces',
    in: (p) => `Coworking spaces in ${p}`,
    best: (c) => `Best coworking spaces in ${c}`,
    prices: 'Coworking prices',
    pricesIn: (c) => `Coworking prices in ${c}`,
    priceIndex: 'Coworking price index',
    priceIndexIn: (c) => `Coworking price index: ${c}`,
  },
  de: {
    home: 'Coworking-Spaces',
    in: (p) => `Coworking-Spaces in ${p}`,
    best: (c) => `Die besten Coworking-Spaces in ${c}`,
    prices: 'Coworking-Preise',
    pricesIn: (c) => `Coworking-Preise in ${c}`,
    priceIndex: 'Coworking-Preisindex',
    priceIndexIn: (c) => `Coworking-Preisindex: ${c}`,
  },
  es: {
    home: 'Espacios de coworking',
    in: (p) => `Espacios de coworking en ${p}`,
    best: (c) => `Los mejores espacios de coworking en ${c}`,
    prices: 'Precios de coworking',
    pricesIn: (c) => `Precios de coworking en ${c}`,
    priceIndex: 'Índice de precios de coworking',
    priceIndexIn: (c) => `Índice de precios de coworking: ${c}`,
  },
};

/** The site path of a page in a locale (docs/design.md §3); the pages are served there (api/site/pages.ts). */
export function citationPath(locale: Locale, page: CitationPage): string {
  switch (page.kind) {
    case 'home': return `/${locale}`;
    case 'coworking': {
      const parts = [page.country.slug, page.city?.slug, page.city && page.zone?.slug].filter(Boolean);
      return `/${locale}/coworking/${parts.join('/')}`;
    }
    case 'space': return `/${locale}/space/${page.slug}`;
    case 'operator': return `/${locale}/operator/${page.slug}`;
    case 'best': return `/${locale}/best/${page.city.slug}`;
    case 'prices': return page.city ? `/${locale}/prices/${page.city.slug}` : `/${locale}/prices`;
    case 'price-index': return page.country ? `/${locale}/price-index/${page.country.slug}` : `/${locale}/price-index`;
  }
}

/** The localized title of a page: the citation's `title` and the page's heading. */
export function citationTitle(locale: Locale, page: CitationPage): string {
  const t = TITLES[locale];
  switch (page.kind) {
    case 'home': return t.home;
    case 'coworking': return t.in((page.city && page.zone ? page.zone : page.city ?? page.country).name);
    case 'space': return page.title;
    case 'operator': return page.name;
    case 'best': return t.best(page.city.name);
    case 'prices': return page.city ? t.pricesIn(page.city.name) : t.prices;
    case 'price-index': return page.country ? t.priceIndexIn(page.country.name) : t.priceIndex;
  }
}

const DAY_MS = 86_400_000;
/** the last day asked for, and its date: every response of a day cites it */
let lastDay = { day: Number.NaN, date: '' };

/** ISO date (YYYY-MM-DD) of `now`, in UTC. */
function utcDate(now: number): string {
  const day = Math.floor(now / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, date: new Date(now).toISOString().slice(0, 10) };
  return lastDay.date;
}

export function citation(opts: {
  siteUrl: string; serviceName: string; locale: Locale; page: CitationPage; now: number; data?: CitedData;
}): Citation {
  const title = citationTitle(opts.locale, opts.page);
  const url = opts.siteUrl + citationPath(opts.locale, opts.page);
  return {
    source: opts.serviceName,
    title,
    url,
    accessed: utcDate(opts.now),
    license: LICENSE,
    licenseUrl: LICENSE_URL,
    text: citationText(opts.locale, opts.serviceName, title, url, opts.data),
  };
}

/** The public page of a filtered list: its place, else its operator, else the home page. */
export function listPage(engine: Engine, locale: Locale, f: Filters): CitationPage {
  const place = engine.placeOf(locale, f);
  if (place) return { kind: 'coworking', ...place };
  if (f.operator && engine.labels.operator[f.operator]) {
    return { kind: 'operator', slug: f.operator, name: engine.label('operator', f.operator, locale) };
  }
  return { kind: 'home' };
}
