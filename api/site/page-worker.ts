/**
 * The page worker's thread (page-workers.ts): what a price page makes once per build and would
 * hold the event loop for, made here: the monthly history and the price index parsed and cut into
 * one JSON text per city, and the charts drawn (Observable Plot and linkedom are imported by this
 * thread only).
 */
import { parentPort } from 'node:worker_threads';
import { xxh64Hex } from '../../contract/file-digests.ts';
import { readWhole } from '../loading/read-whole.ts';
import type { ServedFileRef } from '../loading/served-files.ts';
import { LOCALES, type Locale, type OptionType } from '../../contract/common.ts';
import type { PriceIndexPayload } from '../../contract/market.ts';
import type { PriceHistoryPayload } from '../../contract/research.ts';
import { cityChart, formatMonth, historyChart, indexChart, indexFigures } from './charts.ts';
import type { CityTexts, Names, PageJob, PageJobResult, PageReply } from './page-workers.ts';

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
    bytes = readWhole(fd);
  } catch (err) {
    throw new Damaged(name, `unreadable: ${(err as Error).message}`);
  }
  if (xxh64Hex(bytes) !== xxh64) throw new Damaged(name, 'its bytes differ from the manifest');
  return bytes;
}

const parsed = <T>(bytes: Uint8Array): T => JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as T;

function cutPerCity(cities: { city: { slug: string } }[]): CityTexts {
  const texts = cities.map((c) => Buffer.from(JSON.stringify(c)));
  const offsets = new Uint32Array(texts.length + 1);
  texts.forEach((t, i) => { offsets[i + 1] = offsets[i] + t.length; });
  return { slugs: cities.map((c) => c.city.slug), offsets, bytes: new Uint8Array(Buffer.concat(texts)) };
}

const buffersOf = (texts: CityTexts) => [texts.offsets.buffer as ArrayBuffer, texts.bytes.buffer as ArrayBuffer];

function run(job: PageJob): { result: PageJobResult; transfer: ArrayBuffer[] } {
  switch (job.kind) {
    case 'history': {
      const history = parsed<PriceHistoryPayload>(readChecked(job.file));
      const texts = cutPerCity(history.cities);
      const monthLabels = Object.fromEntries(LOCALES.map((l) => [l, history.months.map((m) => formatMonth(l, m))])) as Record<Locale, string[]>;
      return { result: { months: history.months, monthLabels, texts }, transfer: buffersOf(texts) };
    }
    case 'price-index': {
      const { methodologyUrl, cities } = parsed<PriceIndexPayload>(job.bytes);
      const texts = cutPerCity(cities);
      const published = Uint8Array.from(cities, (c) => (c.published ? 1 : 0));
      return {
        result: { methodologyUrl, texts, countryCodes: cities.map((c) => c.countryCode), currencies: cities.map((c) => c.currency), published },
        transfer: [...buffersOf(texts), published.buffer as ArrayBuffer],
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
    parentPort!.postMessage({ id, result } satisfies PageReply, transfer);
  } catch (err) {
    const damaged = err instanceof Damaged ? { file: err.file, why: err.why } : undefined;
    parentPort!.postMessage({ id, error: (err as Error).message, damaged } satisfies PageReply);
  }
});
