/**
 * The page worker's thread (page-workers.ts): what a price page makes once per build and would
 * hold the event loop for, made here: the monthly history parsed and cut into one JSON text per
 * city, and the charts drawn (Observable Plot and linkedom are imported by this thread only).
 */
import { parentPort } from 'node:worker_threads';
import { LOCALES, type Locale, type OptionType } from '../../contract/common.ts';
import type { PriceHistoryPayload } from '../../contract/research.ts';
import { cityChart, formatMonth, historyChart, indexChart, indexFigures } from './charts.ts';
import type { Names, PageJob, PageJobResult } from './page-workers.ts';


const namer = (names: Names) => ({ city: (slug: string) => names.cities[slug] ?? slug, product: (t: OptionType) => names.products[t] ?? t });

function run(job: PageJob): { result: PageJobResult; transfer: ArrayBuffer[] } {
  switch (job.kind) {
    case 'history': {
      const history = JSON.parse(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength).toString('utf8')) as PriceHistoryPayload;
      const texts = history.cities.map((c) => Buffer.from(JSON.stringify(c)));
      const offsets = new Uint32Array(texts.length + 1);
      texts.forEach((t, i) => { offsets[i + 1] = offsets[i] + t.length; });
      const bytes = new Uint8Array(Buffer.concat(texts));
      const monthLabels = Object.fromEntries(LOCALES.map((l) => [l, history.months.map((m) => formatMonth(l, m))])) as Record<Locale, string[]>;
      return {
        result: { months: history.months, monthLabels, slugs: history.cities.map((c) => c.city.slug), offsets, bytes },
        transfer: [offsets.buffer, bytes.buffer as ArrayBuffer],
      };
    }
    case 'index-chart': {
      const figures = indexFigures(job.cities, job.text.locale, namer(job.names));
      return { result: indexChart(figures, job.text), transfer: [] };
    }
    case 'city-chart': {
      const figures = indexFigures([job.city], job.text.locale, namer(job.names));
      return { result: figures.length === 0 ? undefined : cityChart(figures, job.text), transfer: [] };
    }
    case 'history-chart':
      return { result: historyChart(job.series, job.text), transfer: [] };
  }
}

parentPort!.on('message', ({ id, job }: { id: number; job: PageJob }) => {
  try {
    const { result, transfer } = run(job);
    parentPort!.postMessage({ id, result }, transfer);
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message });
  }
});
