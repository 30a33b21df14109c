/**
 * A worker thread for the work a price page makes once per build (page-worker.ts): cutting the
 * monthly history (80 MB of JSON at 100,000 spaces, 640 MB at 1,000,000) into its cities and
 * drawing charts took seconds of the event loop, during which every other request waited. Started
 * when a page first needs it.
 */
import { JobWorker } from '../../contract/module-worker.ts';
import type { Locale, OptionType } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import type { CityTexts } from '../loading/city-texts.ts';
import type { ServedFileRef } from '../loading/served-files.ts';
import { DamagedFileError } from '../loading/records.ts';
import type { HistorySeries } from './charts.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';

interface ChartText { ariaLabel: string; locale: Locale; currency: string }
/** The charts the worker draws. */
export type ChartJob =
  | { kind: 'index-chart'; cities: PriceIndexCity[]; names: Names; text: ChartText }
  | { kind: 'city-chart'; city: PriceIndexCity; names: Names; text: ChartText }
  | { kind: 'history-chart'; series: HistorySeries[]; text: ChartText };
/** The names a chart writes, as the page's tables write them. */
export interface Names { cities: Record<string, string>; products: Partial<Record<OptionType, string>> }

/** A page rendered from its template's values (all but the locale's formatters, which the worker makes). */
export interface RenderJob { kind: 'page'; template: string; locale: Locale; values: Record<string, unknown> }

/** `texts`: cities of the history, each its JSON text */
export type PageJob = { kind: 'history'; file: ServedFileRef } | { kind: 'history-overall'; texts: string[] } | ChartJob | RenderJob;

/** The history's bytes with each city's place in them (CityTexts), its months and their labels in each locale. */
export interface HistoryParts { months: string[]; monthLabels: Record<Locale, string[]>; texts: CityTexts }
/** A city's overall series, without its products' (what a page of many cities shows). */
export type HistoryOverall = Pick<PriceHistoryCity, 'city' | 'currency' | 'points'>;
export type PageJobResult = HistoryParts | HistoryOverall[] | string | { html: string; greyed: number } | undefined;

/** `damaged`: the file a job read is not the one published (DamagedFileError's fields) */
export type PageReply = { id: number; result?: PageJobResult; error?: string; damaged?: { file: string; why: string } };

const pageWorker = new JobWorker<PageJob, PageReply, PageJobResult>(import.meta.url, 'page-worker', ({ result, error, damaged }) => {
  if (damaged) return new DamagedFileError(damaged.file, 'the file', damaged.why);
  return error === undefined ? result : new Error(`page worker: ${error}`);
});

/** Runs a job on the page worker; bytes given are copied to it, the reply's buffers moved back. */
export const onPageWorker = (job: PageJob): Promise<PageJobResult> => pageWorker.run(job);

/** Stops the worker (an app closing); a later job starts another. */
export const stopPageWorker = (): Promise<void> => pageWorker.stop();
