/**
 * The page worker's thread (page-workers.ts): what a price page makes once per build and would
 * hold the event loop for, made here: the monthly history read and each city found in it
 * (cityTextsOf, never parsed whole: at 1,000,000 spaces it holds more than a string can), and the
 * charts drawn (Observable Plot and linkedom are imported by this thread only).
 */
import { parentPort } from 'node:worker_threads';
import { xxh64Hex } from '../../contract/file-digests.ts';
import { cityTextsOf } from '../loading/city-texts.ts';
import { memberValue } from '../loading/json-spans.ts';
import { readWhole } from '../loading/read-whole.ts';
import type { ServedFileRef } from '../loading/served-files.ts';
import { LOCALES, type Locale, type OptionType } from '../../contract/common.ts';
import { eta, localeFormat } from './html-templates.ts';
import { cityChart, formatMonth, historyChart, indexChart, indexFigures } from './charts.ts';
import type { Names, PageJob, PageJobResult, PageReply } from './page-workers.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';
import type { HistoryOverall } from './page-workers.ts';

const namer = (names: Names) => ({ city: (slug: string) => names.cities[slug] ?? slug, product: (t: OptionType) => names.products[t] ?? t });

/** A file that is not the one published: reported as DamagedFileError to the loading thread. */
class Damaged extends Error {
  constructor(readonly file: string, readonly why: string) {
    super(`${file}: ${why}`);
  }
}

/** A served file read whole through its open descriptor, refused unless its bytes are the manifest's. */
function readChecked({ name, fd, xxh64 }: ServedFileRef): Buffer {
  let bytes: Buffer;
  try {
    bytes = readWhole(fd, Buffer.allocUnsafeSlow); // a buffer of its own, moved to the loading thread
  } catch (err) {
    throw new Damaged(name, `unreadable: ${(err as Error).message}`);
  }
  if (xxh64Hex(bytes) !== xxh64) throw new Damaged(name, 'its bytes differ from the manifest');
  return bytes;
}

const overallOf = ({ city, currency, points }: PriceHistoryCity): HistoryOverall => ({ city, currency, points });

function run(job: PageJob): { result: PageJobResult; transfer: ArrayBuffer[] } {
  switch (job.kind) {
    case 'history': {
      const bytes = readChecked(job.file);
      const texts = cityTextsOf(bytes);
      const months = memberValue(bytes, 'months') as string[];
      const monthLabels = Object.fromEntries(LOCALES.map((l) => [l, months.map((m) => formatMonth(l, m))])) as Record<Locale, string[]>;
      return { result: { months, monthLabels, texts }, transfer: [texts.spans.buffer as ArrayBuffer, bytes.buffer as ArrayBuffer] };
    }
    case 'history-overall':
      return { result: job.texts.map((text) => overallOf(JSON.parse(text) as PriceHistoryCity)), transfer: [] };
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
    case 'page':
      return { result: eta.render(`./${job.template}`, { ...localeFormat(job.locale), ...job.values }), transfer: [] };
  }
}

parentPort!.on('message', ({ id, job }: { id: number; job: PageJob }) => {
  try {
    const { result, transfer } = run(job);
    parentPort!.postMessage({ id, result } satisfies PageReply, transfer);
  } catch (err) {
    const damaged = err instanceof Damaged ? { file: err.file, why: err.why } : undefined;
    parentPort!.postMessage({ id, error: (err as Error).message, damaged } satisfies PageReply);
  }
});
