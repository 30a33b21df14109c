/**
 * A worker thread for the work of the price pages that would hold the event loop (page-worker.ts):
 * reading a page's cities of the monthly history, drawing charts and rendering the largest pages.
 * Started when a page first needs it.
 */
import { JobWorker } from '../../contract/module-worker.ts';
import type { Locale, OptionType } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import { DamagedFileError, type RecordAt } from '../loading/records.ts';
import type { HistoryPoint, HistorySeries } from './charts.ts';
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

/** `lines`: cities of the history's keyed file, each read and checked on the worker */
export type PageJob = { kind: 'history-overall'; lines: RecordAt[] } | ChartJob | RenderJob;

/** A city's overall series, without its products' and with what is shown of each point (what a page of many cities shows). */
export type HistoryOverall = Pick<PriceHistoryCity, 'city' | 'currency'> & { points: HistoryPoint[] };
export type PageJobResult = HistoryOverall[] | string | { html: string; greyed: number } | undefined;

/** `damaged`: the file a job read is not the one published (DamagedFileError's fields) */
export type PageReply = { id: number; result?: PageJobResult; error?: string; damaged?: { file: string; why: string } };

const pageWorker = new JobWorker<PageJob, PageReply, PageJobResult>(import.meta.url, 'page-worker', ({ result, error, damaged }) => {
  if (damaged) return new DamagedFileError(damaged.file, 'the file', damaged.why);
  return error === undefined ? result : new Error(`page worker: ${error}`);
});

/** Runs a job on the page worker. */
export const onPageWorker = (job: PageJob): Promise<PageJobResult> => pageWorker.run(job);

/** Starts the worker (a server that listens): the first page it renders does not wait for its modules to load. */
export const startPageWorker = (): void => pageWorker.start();

/** Stops the worker (an app closing); a later job starts another. */
export const stopPageWorker = (): Promise<void> => pageWorker.stop();
