/**
 * A worker thread for the work a price page makes once per build (page-worker.ts): parsing the
 * monthly history (60 MB of JSON at 100,000 spaces) and drawing charts took seconds of the event
 * loop, during which every other request waited. Started when a page first needs it.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../contract/module-worker.ts';
import type { Locale, OptionType } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import type { HistorySeries } from './charts.ts';

interface ChartText { ariaLabel: string; locale: Locale; currency: string }
/** The charts the worker draws. */
export type ChartJob =
  | { kind: 'index-chart'; cities: PriceIndexCity[]; names: Names; text: ChartText }
  | { kind: 'city-chart'; city: PriceIndexCity; names: Names; text: ChartText }
  | { kind: 'history-chart'; series: HistorySeries[]; text: ChartText };
/** The names a chart writes, as the page's tables write them. */
export interface Names { cities: Record<string, string>; products: Partial<Record<OptionType, string>> }

export type PageJob = { kind: 'history'; bytes: Uint8Array } | ChartJob;

/** The history cut per city: its months, their labels in each locale, and each city's JSON text at offsets[i]..offsets[i + 1] of bytes. */
export interface HistoryParts { months: string[]; monthLabels: Record<Locale, string[]>; slugs: string[]; offsets: Uint32Array; bytes: Uint8Array }
export type PageJobResult = HistoryParts | string | { html: string; greyed: number } | undefined;

type Reply = { id: number; result?: PageJobResult; error?: string };

let worker: Worker | undefined;
let next = 0;
const pending = new Map<number, { resolve: (r: PageJobResult) => void; reject: (e: Error) => void }>();

function started(): Worker {
  if (worker) return worker;
  const w = startModuleWorker(import.meta.url, 'page-worker');
  w.on('message', ({ id, result, error }: Reply) => {
    const p = pending.get(id);
    pending.delete(id);
    if (error === undefined) p?.resolve(result);
    else p?.reject(new Error(`page worker: ${error}`));
  });
  const fail = (err: Error) => {
    if (worker !== w) return; // stopped: its jobs were refused then
    worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the page worker stopped (exit code ${code})`)));
  return (worker = w);
}

/** Runs a job on the page worker; a history's bytes are copied to it, the reply's buffers moved back. */
export function onPageWorker(job: PageJob): Promise<PageJobResult> {
  const w = started();
  const id = next++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, job });
  });
}

/** Stops the worker (an app closing); a later job starts another. */
export async function stopPageWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  for (const p of pending.values()) p.reject(new Error('the page worker was stopped'));
  pending.clear();
  await w?.terminate();
}
