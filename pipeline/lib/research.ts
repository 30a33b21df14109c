/**
 * The research files: the price index (JSON and CSV) and its monthly history (JSON and CSV), from
 * the price_index and price_history marts. JSON and CSV carry the same rows: one per city and
 * product (and month), thin cities included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { stringify } from 'csv-stringify/sync';
import { RESEARCH_FILES } from '../../contract/build.ts';
import { fileURLToPath } from 'node:url';
import type { Money, OptionType } from '../../contract/common.ts';
import type { PriceIndexCity, SnapshotSource } from '../../contract/market.ts';
import type { PriceHistoryCity, PriceHistoryPoint, RejectsSummary } from '../../contract/research.ts';
import type { Marts, Row } from './assemble.ts';
import type { BuildWriter } from './publish.ts';
import { elementValidator, validateOutput } from './validate.ts';
import { forEachJsonRowChunk, queryColumn } from './models.ts';

export const METHODOLOGY_PATH = '/en/price-index#methodology';

/** The methodology's one source, copied into every build as methodology.md. */
export const METHODOLOGY_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'methodology.md');

const str = (v: unknown): string => v as string;
const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));

/** sampleSize, published, the figures when published, the flag when not */
function figures(row: Row) {
  const currency = str(row.currency) as Money['currency'];
  const money = (v: unknown): Money => ({ amount: num(v), currency });
  const published = row.is_published as boolean;
  return {
    sampleSize: num(row.sample_size),
    published,
    ...(published ? {
      median: money(row.median_price), average: money(row.average_price), min: money(row.min_price), max: money(row.max_price),
    } : {}),
  };
}

const insufficient = (row: Row) => (row.is_published ? {} : { flag: 'insufficient_sample' as const });

/** The quality measures of a published figure (none for an unpublished one). */
function quality(row: Row) {
  if (!row.is_published) return {};
  const currency = str(row.currency) as Money['currency'];
  return {
    p25: { amount: num(row.p25_price), currency },
    p75: { amount: num(row.p75_price), currency },
    medianAgeDays: num(row.median_age_days),
    staleShare: num(row.stale_share),
    largestOperatorShare: num(row.largest_operator_share),
    flags: str(row.quality_flags),
  };
}

/** The rows of a city in a mart's order: `all` first, then the desk products. */
function* cityGroups(rows: Row[]): Generator<Row[]> {
  let group: Row[] = [];
  for (const row of rows) {
    if (group.length && row.city_slug !== group[0].city_slug) {
      yield group;
      group = [];
    }
    group.push(row);
  }
  if (group.length) yield group;
}

const cityFields = (row: Row) => ({
  city: { slug: str(row.city_slug), name: str(row.city_name) },
  countryCode: str(row.country_code),
  currency: str(row.currency) as Money['currency'],
});

export function priceIndex(m: Marts, source: SnapshotSource) {
  const cities: PriceIndexCity[] = [];
  for (const rows of cityGroups(m.priceIndex)) {
    const [all, ...types] = rows;
    const { sampleSize, published, ...rest } = figures(all);
    cities.push({
      ...cityFields(all),
      sampleSize,
      published,
      ...rest,
      byType: types.map((row) => ({ optionType: str(row.product_type) as OptionType, ...figures(row), ...quality(row) })),
      ...insufficient(all),
      ...quality(all),
    });
  }
  return { asOf: m.asOf, methodologyUrl: METHODOLOGY_PATH, cities, source };
}

/** A city's history from its rows (the mart's order: `all` first, then each desk product, months in order). */
function historyCity(rows: Row[]): PriceHistoryCity {
  const point = (row: Row): PriceHistoryPoint => ({ month: str(row.month), ...figures(row), ...insufficient(row), ...quality(row) });
  const byProduct = new Map<string, PriceHistoryPoint[]>();
  for (const row of rows) {
    const points = byProduct.get(str(row.product_type)) ?? [];
    points.push(point(row));
    byProduct.set(str(row.product_type), points);
  }
  const { all, ...types } = Object.fromEntries(byProduct);
  return {
    ...cityFields(rows[0]),
    points: all,
    byType: Object.entries(types).map(([optionType, points]) => ({ optionType: optionType as OptionType, points })),
  };
}

const FIGURE_COLUMNS = ['sample_size', 'published', 'median', 'average', 'min', 'max'] as const;
const QUALITY_COLUMNS = ['p25', 'p75', 'median_age_days', 'stale_share', 'largest_operator_share', 'flags'] as const;

const fixed = (v: unknown) => (v === null || v === undefined ? '' : num(v).toFixed(2));
const plain = (v: unknown) => (v === null || v === undefined ? '' : String(num(v)));

function figureCells(row: Row): string[] {
  return [
    String(num(row.sample_size)), row.is_published ? 'true' : 'false',
    fixed(row.median_price), fixed(row.average_price), fixed(row.min_price), fixed(row.max_price),
  ];
}

function qualityCells(row: Row): string[] {
  return [
    fixed(row.p25_price), fixed(row.p75_price), plain(row.median_age_days), plain(row.stale_share),
    plain(row.largest_operator_share), row.is_published ? str(row.quality_flags) : '',
  ];
}

const placeCells = (row: Row) => [str(row.country_code), str(row.city_slug), str(row.city_name), str(row.currency), str(row.product_type)];

export const PRICE_REPORT_COLUMNS = [
  'country_code', 'city_slug', 'city_name', 'currency', 'product_type', ...FIGURE_COLUMNS, 'as_of', ...QUALITY_COLUMNS,
] as const;

export function priceReportRows(m: Marts): string[][] {
  return m.priceIndex.map((row) => [...placeCells(row), ...figureCells(row), m.asOf, ...qualityCells(row)]);
}

export const PRICE_HISTORY_COLUMNS = [
  'country_code', 'city_slug', 'city_name', 'currency', 'product_type', 'month', ...FIGURE_COLUMNS, ...QUALITY_COLUMNS,
] as const;

const priceHistoryCells = (row: Row) => [...placeCells(row), str(row.month), ...figureCells(row), ...qualityCells(row)];

/** The quarantine in figures: per input file (every file, none rejected included) the rows read and rejected, by rule. */
export function rejectsSummary(rejectRows: string[][], rowsByFile: Record<string, number>): RejectsSummary {
  const files = Object.keys(rowsByFile).sort().map((file) => ({ file, rows: rowsByFile[file], rejected: 0, rules: {} as Record<string, number> }));
  const byName = new Map(files.map((f) => [f.file, f]));
  for (const [file, , rule] of rejectRows) {
    const entry = byName.get(file)!;
    entry.rejected += 1;
    entry.rules[rule] = (entry.rules[rule] ?? 0) + 1;
  }
  for (const f of files) f.rules = Object.fromEntries(Object.entries(f.rules).sort(([a], [b]) => a.localeCompare(b)));
  return { rejected: rejectRows.length, files };
}

/** The mart the history is streamed from (read after the other marts). */
export const PRICE_HISTORY_MART = 'price_history';

const CSV_OPTIONS = { record_delimiter: '\r\n' } as const;
const csv = (header: readonly string[], rows: string[][]) => stringify([[...header], ...rows], CSV_OPTIONS);

/**
 * Writes price-history.json and price-report-history.csv from the price_history mart, streamed a
 * city at a time (at 1,000,000 spaces the history has millions of rows and the JSON more bytes
 * than a JavaScript string holds): the file's head is checked against its schema with no cities,
 * then each city against the city's schema before it is written. Returns the CSV's row count.
 */
export async function writePriceHistory(conn: DuckDBConnection, writer: BuildWriter, asOf: string, source: SnapshotSource): Promise<number> {
  const file = 'price-history.json';
  const schema = RESEARCH_FILES[file];
  const months = (await queryColumn(conn, `select distinct month from ${PRICE_HISTORY_MART} order by month`)) as string[];
  const head = { asOf, methodologyUrl: METHODOLOGY_PATH, months, cities: [] as PriceHistoryCity[], source };
  validateOutput(file, schema, head);
  const [before, after] = JSON.stringify(head).split('"cities":[]');
  const checkCity = elementValidator(file, '/cities', schema.shape.cities.element);
  const json = writer.openText(file);
  const table = writer.openText('price-report-history.csv');
  json.write(`${before}"cities":[`);
  table.write(stringify([[...PRICE_HISTORY_COLUMNS]], CSV_OPTIONS));
  let cities = 0;
  let rows = 0;
  let city: Row[] = [];
  const writeCity = () => {
    const value = historyCity(city);
    checkCity(value, cities);
    json.write((cities++ === 0 ? '' : ',') + JSON.stringify(value));
  };
  await forEachJsonRowChunk(conn, `select * from ${PRICE_HISTORY_MART}`, (chunk) => {
    for (const row of chunk) {
      if (city.length && row.city_slug !== city[0].city_slug) {
        writeCity();
        city = [];
      }
      city.push(row);
    }
    table.write(stringify(chunk.map(priceHistoryCells), CSV_OPTIONS));
    rows += chunk.length;
  });
  if (city.length) writeCity();
  json.write(`]${after}\n`);
  json.close();
  table.close();
  return rows;
}

/**
 * Writes the research files beside price-index.json (the history: writePriceHistory): the report
 * CSV, its datapackage, the snapshot's source, the methodology and the rejects summary (each JSON
 * file checked against its contract schema first). Returns the report CSV's row count.
 */
export function writeResearchFiles(writer: BuildWriter, marts: Marts, input: {
  source: SnapshotSource; rowsByFile: Record<string, number>; rejectRows: string[][]; dataPackage: unknown;
}): { priceReportRows: number } {
  const reportRows = priceReportRows(marts);
  writer.writeText('price-report.csv', csv(PRICE_REPORT_COLUMNS, reportRows));
  writer.writeJson('price-report.datapackage.json', input.dataPackage);
  validateOutput('source.json', RESEARCH_FILES['source.json'], input.source);
  writer.writeJson('source.json', input.source);
  writer.writeText('methodology.md', readFileSync(METHODOLOGY_FILE, 'utf8'));
  const summary = rejectsSummary(input.rejectRows, input.rowsByFile);
  validateOutput('rejects-summary.json', RESEARCH_FILES['rejects-summary.json'], summary);
  writer.writeJson('rejects-summary.json', summary);
  return { priceReportRows: reportRows.length };
}
