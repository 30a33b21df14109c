/**
 * The research files as the pages and /api/price-index/cities/{city} read them: the monthly
 * history a city at a time from its keyed file, and the price index found cut per city by the
 * loader (parsing it whole held the event loop, ~50 ms at 100,000 spaces, ten times that at
 * 1,000,000), a city parsed from its own JSON text when it is shown.
 */
import type { CityTexts } from '../loading/city-texts.ts';
import type { LoadedBuild } from '../loading/load.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';
import { onPageWorker, type HistoryOverall } from './page-workers.ts';
import { perBuild } from './per-build.ts';
import { formatMonth } from './strings.ts';

/** A city's JSON text, undefined for a city the file does not hold. */
function cityTextReader({ slugs, spans, bytes }: CityTexts): (slug: string) => string | undefined {
  const at = new Map(slugs.map((slug, i) => [slug, i]));
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (slug) => {
    const i = at.get(slug);
    return i === undefined ? undefined : buffer.toString('utf8', spans[2 * i], spans[2 * i + 1]);
  };
}

/** A city's value parsed from its text, undefined for a city the file does not hold. */
function cityReader<T>(text: (slug: string) => string | undefined): (slug: string) => T | undefined {
  return (slug) => {
    const t = text(slug);
    return t === undefined ? undefined : JSON.parse(t) as T;
  };
}

/** The monthly history: its months, their labels, and a city's series. */
export interface History {
  months: string[];
  monthLabels: Record<Locale, string[]>;
  city(slug: string): Promise<PriceHistoryCity | undefined>;
  /** the overall series of those of `slugs` the file holds, in their order, read and parsed on the page worker (a page's 50 cities took ~10 ms) */
  overall(slugs: string[]): Promise<HistoryOverall[]>;
}

/**
 * The build's monthly history (PRICE_HISTORY_BY_CITY, a line per city read when it is shown);
 * undefined when the build has none. Its months are those of any city's overall points, which has
 * one per month of the history.
 */
export function historyOf(build: LoadedBuild): Promise<History | undefined> {
  return perBuild(build, 'history', async () => {
    const file = build.priceHistory;
    if (!file) return undefined;
    const [first] = file.keys();
    const months = first === undefined ? [] : (await file.get(first))!.points.map((p) => p.month);
    const monthLabels = Object.fromEntries(LOCALES.map((l) => [l, months.map((m) => formatMonth(l, m))])) as Record<Locale, string[]>;
    const overall = async (slugs: string[]) => {
      const lines = slugs.map((slug) => file.at(slug)).filter((at) => at !== undefined);
      return lines.length === 0 ? [] : await onPageWorker({ kind: 'history-overall', lines }) as HistoryOverall[];
    };
    return { months, monthLabels, city: (slug: string) => file.get(slug), overall };
  });
}

/** A city of the index as lists and groups take it, without its figures. */
export interface IndexEntry { slug: string; countryCode: string; currency: string; published: boolean }

/** The price index: its cities in its order, and a city's entry. */
export interface PriceIndex {
  entries: IndexEntry[];
  city(slug: string): PriceIndexCity | undefined;
}

/** The build's price index (price-index.json, as GET /api/price-index serves it). */
export function priceIndexOf(build: LoadedBuild): PriceIndex {
  return perBuild(build, 'price-index', () => {
    const { slugs, spans, countryCodes, currencies, published } = build.priceIndexCities;
    const entries = slugs.map((slug, i) => ({ slug, countryCode: countryCodes[i], currency: currencies[i], published: published[i] === 1 }));
    return { entries, city: cityReader<PriceIndexCity>(cityTextReader({ slugs, spans, bytes: build.priceIndexJson })) };
  });
}

/** Whether the build has a monthly history, known without reading it. */
export const hasHistory = (build: LoadedBuild): boolean => build.priceHistory !== undefined;
