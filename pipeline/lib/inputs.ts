import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ConfigFileSchema } from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';
import { checkHeader, checkNoNul, diagnoseCsv, type CsvTable } from './csv-faults.ts';
import { SnapshotSourceSchema, type SnapshotSource } from '../../contract/market.ts';
import { BuildError } from './errors.ts';
import { sqlText } from './sql-text.ts';
import type { z } from 'zod';

export interface InputTable extends CsvTable {
  /** the columns that identify a row; a repeated key is a structural failure */
  key: readonly string[];
  /**
   * columns every row must fill with a positive finite number: values that every figure of many
   * rows depends on (an exchange rate), so a bad one fails the build rather than quarantining them
   */
  positiveNumbers?: readonly string[];
}

/** The columns of localized texts: `<field>_<locale>` for every field and locale (stg_texts unpivots them). */
const localized = (...fields: string[]) => fields.flatMap((field) => LOCALES.map((locale) => `${field}_${locale}`));

/** The CSV tables of the input snapshot (data/README.md), loaded as raw_<name>. */
export const INPUT_TABLES = {
  countries: { file: 'countries.csv', columns: ['country_code', ...localized('name'), 'currency'], key: ['country_code'] },
  cities: {
    file: 'cities.csv',
    columns: ['city_id', 'country_code', ...localized('name'), 'lat', 'lng', 'population', ...localized('intro')],
    key: ['city_id'],
  },
  zones: { file: 'zones.csv', columns: ['zone_id', 'city_id', ...localized('name'), 'lat', 'lng'], key: ['zone_id'] },
  operators: {
    file: 'operators.csv',
    columns: ['operator_id', 'name', 'logo_path', 'website', 'enquiry_email', ...localized('tagline', 'description')],
    key: ['operator_id'],
  },
  spaces: {
    file: 'spaces.csv',
    columns: ['space_id', 'name', 'operator_id', 'city_id', 'zone_id', 'street', 'house_number', 'postal_code', 'lat', 'lng',
      'amenities', 'capacity', 'capacity_declared', 'rating_score', 'rating_count', 'featured', ...localized('excerpt', 'description'),
      'updated_at'],
    key: ['space_id'],
  },
  space_images: { file: 'space_images.csv', columns: ['space_id', 'position', 'path', 'width', 'height', 'alt'], key: ['space_id', 'position'] },
  price_observations: {
    file: 'price_observations.csv',
    columns: ['observation_id', 'space_id', 'offer_id', 'option_type', 'title', 'amount', 'currency', 'billing_period',
      'min_capacity', 'max_capacity', 'observed_at', 'source_url'],
    key: ['observation_id'],
  },
  amenities: { file: 'amenities.csv', columns: ['slug', ...localized('label')], key: ['slug'] },
  option_types: { file: 'option_types.csv', columns: ['option_type', ...localized('label')], key: ['option_type'] },
  fx_reference: {
    file: 'fx_reference.csv', columns: ['currency', 'units_per_eur', 'as_of_date'], key: ['currency'], positiveNumbers: ['units_per_eur'],
  },
} as const satisfies Record<string, InputTable>;

export type InputTableName = keyof typeof INPUT_TABLES;
export const CONFIG_FILE = 'config.json';
/** What the snapshot is (name, description, whether it is invented sample data, when it was extracted). */
export const SOURCE_FILE = 'source.json';

export interface LoadedInputs {
  checksums: Record<string, string>;
  rowCounts: Record<InputTableName, number>;
  config: z.infer<typeof ConfigFileSchema>;
  source: SnapshotSource;
}

function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The file's checksum and header; its bytes are not held while DuckDB reads it. */
function checkedHeader(table: InputTable, file: string): { checksum: string; header: string[] } {
  const bytes = readFileSync(file);
  const header = checkHeader(table, bytes);
  checkNoNul(table, bytes, header);
  return { checksum: createHash('sha256').update(bytes).digest('hex'), header };
}

/**
 * Loads every table of the snapshot as text (raw_<name>, plus `_row`: 1 = first row after the
 * header) and checks the structure: every file present, every column present, no repeated key.
 */
export async function loadInputs(conn: DuckDBConnection, dataDir: string): Promise<LoadedInputs> {
  const checksums: Record<string, string> = {};
  const rowCounts = {} as Record<InputTableName, number>;
  const names = Object.keys(INPUT_TABLES) as InputTableName[];
  for (const name of names) {
    const table: InputTable = INPUT_TABLES[name];
    const file = path.join(dataDir, table.file);
    if (!existsSync(file)) throw new BuildError('missing_file', `${table.file} not found in ${dataDir}`);
    // DuckDB reads the file on its threads while this one checks its header and takes its checksum;
    // a bad header is reported before anything DuckDB says of the file
    const loading = conn.run(
      `create or replace table raw_${name}_load as select ${table.columns.map((c) => `"${c}"`).join(', ')} ` +
        `from read_csv(${sqlText(file)}, header = true, all_varchar = true, delim = ',', quote = '"', escape = '"', ` +
        `strict_mode = true, null_padding = false)`,
    );
    loading.catch(() => undefined); // awaited below
    let checked: { checksum: string; header: string[] };
    try {
      checked = checkedHeader(table, file);
    } catch (err) {
      await loading.catch(() => undefined);
      throw err;
    }
    checksums[table.file] = checked.checksum;
    try {
      await loading;
    } catch (err) {
      // DuckDB's own message counts lines, not rows, and speaks of its parser's options
      throw diagnoseCsv(table, readFileSync(file), checked.header) ?? err;
    }
    // rowid follows insertion order, which DuckDB keeps for a CSV scan; a view, not a second copy
    await conn.run(`create or replace view raw_${name} as select (rowid + 1)::integer as _row, * from raw_${name}_load`);
    const count = await conn.runAndReadAll(`select count(*)::integer as n from raw_${name}`);
    rowCounts[name] = count.getRowObjectsJS()[0].n as number;
    const keyExpr = table.key.map((c) => `coalesce(trim("${c}"), '')`).join(` || '|' || `);
    const dup = await conn.runAndReadAll(
      `select ${keyExpr} as k, min(_row)::integer as first_row, max(_row)::integer as last_row, count(*)::integer as n ` +
        `from raw_${name} where ${table.key.map((c) => `nullif(trim("${c}"), '') is not null`).join(' and ')} ` +
        `group by k having count(*) > 1 order by first_row limit 1`,
    );
    const dupRow = dup.getRowObjectsJS()[0];
    if (dupRow) {
      throw new BuildError(
        'duplicate_key',
        `${table.file}: row ${dupRow.last_row} repeats ${table.key.join('+')} "${String(dupRow.k)}" of row ${dupRow.first_row}`,
      );
    }
    for (const column of table.positiveNumbers ?? []) {
      // the cast of the staging models (try_cast: a number with spaces around it is a number)
      const number = `try_cast("${column}" as double)`;
      const bad = await conn.runAndReadAll(
        `select _row::integer as row, "${column}" as value from raw_${name} ` +
          `where not coalesce(${number} > 0 and isfinite(${number}), false) order by _row limit 1`,
      );
      const badRow = bad.getRowObjectsJS()[0];
      if (badRow) {
        const value = String(badRow.value ?? '').trim() === '' ? 'empty' : JSON.stringify(badRow.value);
        throw new BuildError('bad_number', `${table.file}: row ${badRow.row}, column ${column}: ${value}, not a positive number`);
      }
    }
  }
  const configPath = path.join(dataDir, CONFIG_FILE);
  if (!existsSync(configPath)) throw new BuildError('missing_file', `${CONFIG_FILE} not found in ${dataDir}`);
  checksums[CONFIG_FILE] = sha256File(configPath);
  const configText = readFileSync(configPath, 'utf8');
  let configJson: unknown;
  try {
    configJson = JSON.parse(configText);
  } catch (err) {
    const message = (err as Error).message;
    const position = /at position (\d+)/.exec(message);
    const before = configText.slice(0, position ? Number(position[1]) : configText.length).split('\n');
    throw new BuildError('bad_config',
      `${CONFIG_FILE}: not valid JSON at line ${before.length}, column ${before[before.length - 1].length + 1} ` +
        `(${message.replace(/ in JSON at position \d+.*$/, '')})`);
  }
  const parsed = ConfigFileSchema.safeParse(configJson);
  if (!parsed.success) {
    throw new BuildError('bad_config', `${CONFIG_FILE}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  }
  const source = readSource(dataDir);
  checksums[SOURCE_FILE] = source.checksum;
  // for the models (stg_source): no observation can be later than the extraction
  await conn.run(`create or replace table raw_source as select ${sqlText(source.value.extractedAt)} as extracted_at`);
  return { checksums: sortKeys(checksums), rowCounts, config: parsed.data, source: source.value };
}

function readSource(dataDir: string): { value: SnapshotSource; checksum: string } {
  const file = path.join(dataDir, SOURCE_FILE);
  if (!existsSync(file)) throw new BuildError('missing_file', `${SOURCE_FILE} not found in ${dataDir} (what the snapshot is: data/README.md)`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BuildError('bad_source', `${SOURCE_FILE}: not valid JSON (${(err as Error).message})`);
  }
  const parsed = SnapshotSourceSchema.safeParse(json);
  if (!parsed.success) {
    throw new BuildError('bad_source', `${SOURCE_FILE}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  }
  return { value: parsed.data, checksum: sha256File(file) };
}

export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
}
