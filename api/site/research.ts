/**
 * The research files as the pages and /api/price-index/cities/{city} read them: the monthly
 * history and the price index, each found cut per city (the history once per build on the page
 * worker, the index by the loader: parsing either whole held the event loop, ~50 ms for the index
 * at 100,000 spaces, ten times that at 1,000,000), a city parsed from its own JSON text when it is shown.
 */
import type { CityTexts } from '../loading/city-texts.ts';
import type { LoadedBuild } from '../loading/load.ts';
import type { Locale } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';
import { onPageWorker, type HistoryOverall, type HistoryParts } from './page-workers.ts';
import { perBuild } from './per-build.ts';

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
  city(slug: string): PriceHistoryCity | undefined;
  /** the overall series of those of `slugs` the file holds, in their order, parsed on the page worker (a page's 50 cities took ~10 ms) */
  overall(slugs: string[]): Promise<HistoryOverall[]>;
}

/** The build's monthly history (price-history.json); undefined when the build has none. */
export function historyOf(build: LoadedBuild): Promise<History | undefined> {
  return perBuild(build, 'history', async () => {
    const file = build.servedFiles.descriptor('price-history.json');
    if (!file) return undefined;
    const { months, monthLabels, texts } = await onPageWorker({ kind: 'history', file }) as HistoryParts;
    const text = cityTextReader(texts);
    const overall = async (slugs: string[]) => {
      const found = slugs.map(text).filter((t) => t !== undefined);
      return found.length === 0 ? [] : await onPageWorker({ kind: 'history-overall', texts: found }) as HistoryOverall[];
    };
    return { months, monthLabels, city: cityReader<PriceHistoryCity>(text), overall };
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
export const hasHistory = (build: LoadedBuild): boolean => build.servedFiles.descriptor('price-history.json') !== undefined;
