/**
 * The page worker's thread (page-workers.ts): what a price page would hold the event loop for,
 * made here: a page's cities of the monthly history read from its keyed file and cut to what the
 * page shows (at 100,000 spaces a country's page of 50 cities is ~1 MB of JSON), the charts drawn
 * (Observable Plot and linkedom are imported by this thread only) and the largest pages rendered.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { DamagedFileError, readRecordAt } from '../loading/records.ts';
import type { OptionType } from '../../contract/common.ts';
import { eta, localeFormat } from './html-templates.ts';
import { cityChart, historyChart, indexChart, indexFigures, type HistoryPoint } from './charts.ts';
import type { Names, PageJob, PageJobResult, PageReply } from './page-workers.ts';
import type { PriceHistoryCity, PriceHistoryPoint } from '../../contract/research.ts';
import type { HistoryOverall } from './page-workers.ts';

/** the page worker's nice value: 10 gives it about a tenth of the CPU a busy event loop gets */
const PAGE_WORKER_NICE = 10;

const namer = (names: Names) => ({ city: (slug: string) => names.cities[slug] ?? slug, product: (t: OptionType) => names.products[t] ?? t });

/** What the pages show of a point: its other figures are left on the worker. */
function shown({ month, sampleSize, published, median, index, matchedSpaces }: PriceHistoryPoint): HistoryPoint {
  return { month, sampleSize, published, ...(median && { median }), ...(index !== undefined && { index }), matchedSpaces };
}

const overallOf = ({ city, currency, points }: PriceHistoryCity): HistoryOverall => ({ city, currency, points: points.map(shown) });

function run(job: PageJob): PageJobResult {
  switch (job.kind) {
    case 'history-overall':
      return job.lines.map((at) => overallOf(JSON.parse(readRecordAt(at).toString('utf8')) as PriceHistoryCity));
    case 'index-chart': {
      const figures = indexFigures(job.cities, job.text.locale, namer(job.names));
      return indexChart(figures, job.text);
    }
    case 'city-chart': {
      const figures = indexFigures([job.city], job.text.locale, namer(job.names));
      return figures.length === 0 ? undefined : cityChart(figures, job.text);
    }
    case 'history-chart':
      return historyChart(job.series, job.text);
    case 'page':
      return eta.render(`./${job.template}`, { ...localeFormat(job.locale), ...job.values });
  }
}

// This thread gives way to the event loop's on a busy host: a page it makes is never more urgent
// than an answer the loop holds. Only on Linux is a nice value the calling thread's own (elsewhere
// it would slow the whole server).
if (process.platform === 'linux') setPriority(PAGE_WORKER_NICE);

parentPort!.on('message', ({ id, job }: { id: number; job: PageJob }) => {
  try {
    parentPort!.postMessage({ id, result: run(job) } satisfies PageReply);
  } catch (err) {
    const damaged = err instanceof DamagedFileError ? { file: err.file, why: err.message } : undefined;
    parentPort!.postMessage({ id, error: (err as Error).message, damaged } satisfies PageReply);
  }
});
