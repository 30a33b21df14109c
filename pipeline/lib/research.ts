/**
 * The research files: the price index (JSON and CSV) and its monthly history (JSON and CSV), from
 * the price_index and price_history marts. JSON and CSV carry the same rows: one per city and
 * product (and month), thin cities included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { PRICE_HISTORY_BY_CITY, RESEARCH_FILES } from '../../contract/build.ts';
import { keyedFileStream } from './keyed-files.ts';
import { fileURLToPath } from 'node:url';
import type { PriceIndexCity, SnapshotSource } from '../../contract/market.ts';
import type { PriceHistoryCity, RejectsSummary } from '../../contract/research.ts';
import type { BuildWriter } from './publish.ts';
import { elementValidator, validateOutput } from './validate.ts';
import { queryColumn } from './models.ts';
import { jsonObject, sqlText } from './sql-text.ts';

export const METHODOLOGY_PATH = '/en/price-index#methodology';

/** The methodology's one source, copied into every build as methodology.md. */
export const METHODOLOGY_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'methodology.md');

/** The marts the research files are made from (read after the other marts). */
const PRICE_INDEX_MART = 'price_index';
const PRICE_HISTORY_MART = 'price_history';
export const RESEARCH_MARTS = [PRICE_INDEX_MART, PRICE_HISTORY_MART];

/**
 * JSON members of a figure of row r (a row of either mart), as JSON text in SQL (sql/macros.sql):
 * sampleSize, published and the figures when published; the flag when not; the quality measures
 * of a published figure.
 */
/** a member (JSON text) present only when the figure of row r is published */
const published = (r: string, key: string, json: string) => `json_member_text('${key}', case when ${r}.is_published then ${json} end)`;
const money = (r: string, key: string, column: string) => published(r, key, `json_money(${r}.${column}, ${r}.currency)`);
const figureMembers = (r: string) => [
  `json_member('sampleSize', ${r}.sample_size)`,
  `json_member('published', ${r}.is_published)`,
  ...(['median', 'average', 'min', 'max'] as const).map((f) => money(r, f, `${f}_price`)),
];
const flagMember = (r: string) => `json_member('flag', case when not ${r}.is_published then 'insufficient_sample' end)`;
const qualityMembers = (r: string) => [
  money(r, 'p25', 'p25_price'),
  money(r, 'p75', 'p75_price'),
  published(r, 'medianAgeDays', `json_number(${r}.median_age_days)`),
  published(r, 'staleShare', `json_number(${r}.stale_share)`),
  published(r, 'largestOperatorShare', `json_number(${r}.largest_operator_share)`),
  published(r, 'flags', `to_json(${r}.quality_flags)::varchar`),
  published(r, 'medianInterval', `'{"low":' || json_money(${r}.median_low, ${r}.currency) || ',"high":' || json_money(${r}.median_high, ${r}.currency) || '}'`),
];
/** The history's chained matched-model index (when the chain reaches the month) and its matched spaces. */
const indexMembers = (r: string) => [
  `json_member_text('index', json_number(${r}.chained_index))`,
  `json_member('matchedSpaces', ${r}.matched_spaces)`,
];
const cityMembers = (r: string) => [
  `json_member('city', {'slug': ${r}.city_slug, 'name': ${r}.city_name})`,
  `json_member('countryCode', ${r}.country_code)`,
  `json_member('currency', ${r}.currency)`,
];
/** a JSON array of the texts of a group (those where `filter` holds), in an order; '[]' when there are none */
const array = (text: string, order: string, filter = 'true') =>
  `'[' || coalesce(string_agg(${text}, ',' order by ${order}) filter (where ${filter}), '') || ']'`;

/** Per city (the mart's order), its entry of price-index.json as JSON text: the `all` figure, then each desk product (unflagged). */
const PRICE_INDEX_CITIES_SQL = `
select ${jsonObject(
  ...cityMembers('a'), ...figureMembers('a'),
  `json_member_text('byType', (select ${array(jsonObject(`json_member('optionType', t.product_type)`, ...figureMembers('t'), ...qualityMembers('t')),
    'option_type_rank(t.product_type)', "t.product_type <> 'all'")} from ${PRICE_INDEX_MART} t where t.city_slug = a.city_slug and t.country_code = a.country_code))`,
  flagMember('a'), ...qualityMembers('a'),
)} as json
from ${PRICE_INDEX_MART} a
where a.product_type = 'all'
order by a.country_code, a.city_slug`;

/** Per city (the mart's order), its entry of price-history.json as JSON text: the `all` series, then each desk product's. */
const PRICE_HISTORY_CITIES_SQL = `
with series as (
  select h.country_code, h.city_slug, h.city_name, h.currency, h.product_type,
    ${array(jsonObject(`json_member('month', h.month)`, ...figureMembers('h'), flagMember('h'), ...qualityMembers('h'), ...indexMembers('h')), 'h.month')} as points,
  from ${PRICE_HISTORY_MART} h
  group by all
)
select ${jsonObject(
  ...cityMembers('s'),
  `json_member_text('points', any_value(s.points) filter (where s.product_type = 'all'))`,
  `json_member_text('byType', ${array(`'{"optionType":' || to_json(s.product_type)::varchar || ',"points":' || s.points || '}'`,
    'option_type_rank(s.product_type)', "s.product_type <> 'all'")})`,
)} as json
from series s
group by s.country_code, s.city_slug, s.city_name, s.currency
order by s.country_code, s.city_slug`;

/** The cells of the research CSVs, as SQL over a row of either mart: money with two decimals, other numbers as JSON writes them. */
const CSV_CELLS = {
  country_code: 'country_code', city_slug: 'city_slug', city_name: 'city_name', currency: 'currency', product_type: 'product_type',
  month: 'month',
  sample_size: 'sample_size::varchar',
  published: "case when is_published then 'true' else 'false' end",
  median: "printf('%.2f', median_price)", average: "printf('%.2f', average_price)",
  min: "printf('%.2f', min_price)", max: "printf('%.2f', max_price)",
  p25: "printf('%.2f', p25_price)", p75: "printf('%.2f', p75_price)",
  median_age_days: 'json_number(median_age_days)', stale_share: 'json_number(stale_share)',
  largest_operator_share: 'json_number(largest_operator_share)',
  // an empty cell, never a quoted empty string
  flags: "case when is_published then nullif(quality_flags, '') end",
  median_low: "printf('%.2f', median_low)", median_high: "printf('%.2f', median_high)",
  index: "printf('%.2f', chained_index)", matched_spaces: 'matched_spaces::varchar',
} as const;

const FIGURE_COLUMNS = ['sample_size', 'published', 'median', 'average', 'min', 'max'] as const;
const QUALITY_COLUMNS = ['p25', 'p75', 'median_age_days', 'stale_share', 'largest_operator_share', 'flags', 'median_low', 'median_high'] as const;

export const PRICE_REPORT_COLUMNS = [
  'country_code', 'city_slug', 'city_name', 'currency', 'product_type', ...FIGURE_COLUMNS, 'as_of', ...QUALITY_COLUMNS,
] as const;

export const PRICE_HISTORY_COLUMNS = [
  'country_code', 'city_slug', 'city_name', 'currency', 'product_type', 'month', ...FIGURE_COLUMNS, ...QUALITY_COLUMNS,
  'index', 'matched_spaces',
] as const;

/** DuckDB's COPY options of every CSV download: RFC 4180, CRLF, the header first. */
export const CSV_COPY_OPTIONS = `(format csv, header true, delimiter ',', quote '"', new_line '\\r\\n')`;

/**
 * Has DuckDB write a research CSV (RFC 4180, CRLF, the header first) from a mart in its order;
 * returns its row count.
 */
async function copyCsv(conn: DuckDBConnection, writer: BuildWriter, file: string, mart: string,
  columns: readonly string[], cells: Record<string, string>): Promise<number> {
  const select = columns.map((c) => `${cells[c]} as ${c}`).join(', ');
  const copied = await conn.run(`copy (select ${select} from ${mart}) to ${sqlText(writer.pathOf(file))} ${CSV_COPY_OPTIONS}`);
  writer.adopt(file);
  return Number(copied.rowsChanged);
}

/** price-index.json: each city's entry made by SQL, the whole checked against its schema. */
export async function priceIndex(conn: DuckDBConnection, asOf: string, source: SnapshotSource) {
  const cities = (await queryColumn(conn, PRICE_INDEX_CITIES_SQL)).map((json) => JSON.parse(json!) as PriceIndexCity);
  return { asOf, methodologyUrl: METHODOLOGY_PATH, cities, source };
}

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

/**
 * Writes price-history.json and price-report-history.csv from the price_history mart. The JSON is
 * streamed a city at a time (at 1,000,000 spaces the history has millions of rows and the JSON
 * more bytes than a JavaScript string holds): the file's head is checked against its schema with
 * no cities, then each city's entry, made by SQL, against the city's schema before it is written.
 * Each city's entry goes to the keyed file PRICE_HISTORY_BY_CITY too. DuckDB writes the CSV.
 * Returns the CSV's row count.
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
  const byCity = keyedFileStream(writer, PRICE_HISTORY_BY_CITY.name);
  json.write(`${before}"cities":[`);
  let cities = 0;
  for await (const chunk of await conn.stream(PRICE_HISTORY_CITIES_SQL)) {
    for (const city of chunk.getColumnValues(0) as string[]) {
      const parsed = JSON.parse(city) as PriceHistoryCity;
      checkCity(parsed, cities);
      json.write((cities++ === 0 ? '' : ',') + city);
      byCity.add(parsed.city.slug, city);
    }
  }
  json.write(`]${after}\n`);
  json.close();
  byCity.close();
  return copyCsv(conn, writer, 'price-report-history.csv', PRICE_HISTORY_MART, PRICE_HISTORY_COLUMNS, CSV_CELLS);
}

/**
 * Writes the research files beside price-index.json (the history: writePriceHistory): the report
 * CSV, its datapackage, the snapshot's source, the methodology and the rejects summary (each JSON
 * file checked against its contract schema first). Returns the report CSV's row count.
 */
export async function writeResearchFiles(conn: DuckDBConnection, writer: BuildWriter, input: {
  asOf: string; source: SnapshotSource; rowsByFile: Record<string, number>; rejectRows: string[][]; dataPackage: unknown;
}): Promise<{ priceReportRows: number }> {
  const priceReportRows = await copyCsv(conn, writer, 'price-report.csv', PRICE_INDEX_MART, PRICE_REPORT_COLUMNS,
    { ...CSV_CELLS, as_of: sqlText(input.asOf) });
  writer.writeJson('price-report.datapackage.json', input.dataPackage);
  validateOutput('source.json', RESEARCH_FILES['source.json'], input.source);
  writer.writeJson('source.json', input.source);
  writer.writeText('methodology.md', readFileSync(METHODOLOGY_FILE, 'utf8'));
  const summary = rejectsSummary(input.rejectRows, input.rowsByFile);
  validateOutput('rejects-summary.json', RESEARCH_FILES['rejects-summary.json'], summary);
  writer.writeJson('rejects-summary.json', summary);
  return { priceReportRows };
}
