import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { totalmem } from 'node:os';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { FALLBACK_LOCALE, LOCALES, OPTION_TYPES } from '../../contract/common.ts';
import { MONTHLY_FACTORS, PERIOD_PRICE_BASIS, PRICE_BASES, priceBasisOrder } from '../../contract/prices.ts';
import {
  NEUTRAL_TERM, PUBLISH_RULES, QUALITY_FLAG_LETTERS, RANKING_WEIGHTS, RATING_PRIOR_REVIEWS, VALUE_CAP, type PublishRules,
} from '../../contract/rules.ts';
import { BuildError } from './errors.ts';
import { sqlText } from './sql-text.ts';

export const SQL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'sql');
export const LAYERS = ['staging', 'intermediate', 'marts'] as const;

export interface Model {
  name: string;
  layer: (typeof LAYERS)[number];
  file: string;
  sql: string;
  dependsOn: string[];
}

/** Every model of pipeline/sql, in an order where each runs after the models it reads. */
export function loadModels(sqlDir = SQL_DIR): Model[] {
  const models: Model[] = [];
  for (const layer of LAYERS) {
    const dir = path.join(sqlDir, layer);
    for (const entry of readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
      const sql = readFileSync(path.join(dir, entry), 'utf8');
      models.push({ name: entry.replace(/\.sql$/, ''), layer, file: `${layer}/${entry}`, sql, dependsOn: [] });
    }
  }
  const names = new Set(models.map((m) => m.name));
  for (const model of models) {
    const refs = new Set<string>();
    const withoutComments = model.sql.replace(/--[^\n]*/g, '');
    // names of the model's own CTEs shadow other models
    const ctes = new Set([...withoutComments.matchAll(/\b([a-z_][a-z0-9_]*)\s+as\s+(?:(?:not\s+)?materialized\s*)?\(/gi)]
      .map((m) => m[1].toLowerCase()));
    for (const match of withoutComments.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/gi)) {
      const ref = match[1].toLowerCase();
      if (names.has(ref) && ref !== model.name && !ctes.has(ref)) refs.add(ref);
    }
    model.dependsOn = [...refs].sort();
  }
  return topoSort(models);
}

function topoSort(models: Model[]): Model[] {
  const byName = new Map(models.map((m) => [m.name, m]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const ordered: Model[] = [];
  const visit = (model: Model) => {
    if (done.has(model.name)) return;
    if (visiting.has(model.name)) throw new BuildError('model_cycle', `pipeline/sql/${model.file} is part of a dependency cycle`);
    visiting.add(model.name);
    for (const dep of model.dependsOn) visit(byName.get(dep)!);
    visiting.delete(model.name);
    done.add(model.name);
    ordered.push(model);
  };
  for (const model of models) visit(model);
  return ordered;
}

/**
 * How a model is materialized: staging models only rename and cast, and each is read by one
 * checking model, so they are views (no copy of the raw table); the others are tables.
 */
export function materialization(model: Model): 'view' | 'table' {
  return model.layer === 'staging' ? 'view' : 'table';
}

/** The publishing rules of contract/rules.ts as SQL macros: every model takes its decisions from them. */
export function ruleMacros(rules: PublishRules): string {
  const { minSampleSize, marketBands, lowReliabilitySampleSize, stalePriceDays, dominantOperatorShare, medianIntervalLevel, indexBase } = rules;
  if (!Number.isInteger(minSampleSize) || minSampleSize < 1) throw new Error(`minSampleSize must be a positive integer, not ${minSampleSize}`);
  if (!(marketBands.below > 0 && marketBands.below <= marketBands.above)) throw new Error('marketBands: 0 < below <= above');
  if (!Number.isInteger(lowReliabilitySampleSize) || lowReliabilitySampleSize < 1) throw new Error(`lowReliabilitySampleSize must be a positive integer, not ${lowReliabilitySampleSize}`);
  if (!Number.isInteger(stalePriceDays) || stalePriceDays < 0) throw new Error(`stalePriceDays must be a whole number of days, not ${stalePriceDays}`);
  if (!(dominantOperatorShare > 0)) throw new Error(`dominantOperatorShare must be above 0, not ${dominantOperatorShare}`);
  if (!(medianIntervalLevel > 0 && medianIntervalLevel < 1)) throw new Error(`medianIntervalLevel must lie between 0 and 1, not ${medianIntervalLevel}`);
  if (!(indexBase > 0)) throw new Error(`indexBase must be above 0, not ${indexBase}`);
  const letter = QUALITY_FLAG_LETTERS;
  return `
create or replace macro min_sample_size() as ${minSampleSize};
create or replace macro is_published_sample(sample_size) as coalesce(sample_size, 0) >= min_sample_size();
create or replace macro market_verdict(price, median) as case
  when price < ${marketBands.below} * median then 'below'
  when price > ${marketBands.above} * median then 'above'
  else 'around' end;
create or replace macro stale_price_days() as ${stalePriceDays};
create or replace macro median_interval_tail() as ${Number(((1 - medianIntervalLevel) / 2).toPrecision(12))};
create or replace macro index_base() as ${indexBase};
create or replace macro quality_flags(is_published, sample_size, median_age_days, largest_operator_share, is_break) as
  case when is_published then concat(
    case when median_age_days > ${stalePriceDays} then '${letter.stalePrices}' else '' end,
    case when is_break then '${letter.breakInSeries}' else '' end,
    case when largest_operator_share >= ${dominantOperatorShare} then '${letter.dominantOperator}' else '' end,
    case when sample_size < ${lowReliabilitySampleSize} then '${letter.lowReliability}' else '' end
  ) end;`;
}

/** The ranking score's weights and constants of contract/rules.ts as SQL macros (marts/rankings.sql). */
export function rankingMacros(): string {
  const w = RANKING_WEIGHTS;
  return `
create or replace macro ranking_score(rating_term, value_term, amenity_term) as
  100 * (${w.rating} * rating_term + ${w.value} * value_term + ${w.amenities} * amenity_term);
create or replace macro rating_prior_reviews() as ${RATING_PRIOR_REVIEWS};
create or replace macro value_cap() as ${VALUE_CAP};
create or replace macro neutral_term() as ${NEUTRAL_TERM};`;
}


/**
 * How prices compare (contract/prices.ts) as SQL macros: monthly_times(period) and monthly_per(period),
 * the monthly factor as a fraction (null for a period without a monthly equivalent), monthly_factor(period)
 * (their quotient as a double, for checks that publish nothing), price_basis(period), and price_basis_rank(product, basis), the
 * position of a basis in the order a product's listings sort (1: the product's own basis), and
 * price_basis_id(basis), its index in PRICE_BASES (listing-columns.bin's comparableBasis).
 */
export function priceMacros(): string {
  const factor = (part: 'times' | 'per') =>
    Object.entries(MONTHLY_FACTORS).map(([period, f]) => `when ${sqlText(period)} then ${f[part]}`).join(' ');
  const bases = Object.entries(PERIOD_PRICE_BASIS).map(([period, b]) => `when ${sqlText(period)} then ${sqlText(b)}`).join(' ');
  const orders = (['all', ...OPTION_TYPES] as const)
    .map((p) => `when ${sqlText(p)} then [${priceBasisOrder(p).map(sqlText).join(', ')}]`).join('\n    ');
  return `
create or replace macro monthly_times(period) as case period ${factor('times')} end;
create or replace macro monthly_per(period) as case period ${factor('per')} end;
create or replace macro monthly_factor(period) as monthly_times(period)::double / monthly_per(period);
create or replace macro price_basis(period) as case period ${bases} end;
create or replace macro price_basis_rank(product_type, basis) as list_position(case product_type
    ${orders} end, basis);
create or replace macro price_basis_id(basis) as list_position([${PRICE_BASES.map(sqlText).join(', ')}], basis) - 1;`;
}

/** The locales of contract/common.ts as SQL macros: the texts have one row per locale (int_texts__localized). */
export function localeMacros(): string {
  return `
create or replace macro locales() as [${LOCALES.map(sqlText).join(', ')}];
create or replace macro fallback_locale() as ${sqlText(FALLBACK_LOCALE)};`;
}

/**
 * DuckDB's memory in a build grows with its input, not with the machine: DUCKDB_MEMORY_PER_INPUT_BYTE
 * times the snapshot's size on disk, at least DUCKDB_MEMORY_FLOOR_MB, at most half the machine;
 * beyond it DuckDB spills to the build's spill directory. Not one fixed budget: some operators of
 * the models did not spill (the history's range join, a streamed list filter since), and at 1,000,000
 * spaces (3.2 GB of input) 1.5 GB failed in int_offers__monthly, where half of a 24 GB machine built (642 s, peak 16.2 GB).
 * At 100,000 spaces (316 MB) the floor holds: DuckDB spills about 1.5 GB and the build peaks at
 * 2.85 GB instead of 3.22 GB with half the machine.
 */
export const DUCKDB_MEMORY_FLOOR_MB = 1536;
export const DUCKDB_MEMORY_PER_INPUT_BYTE = 4;

/** DuckDB's memory limit, MB (10^6 bytes, as DuckDB reads `MB`), for a snapshot of `inputBytes`. */
export function duckdbMemoryMb(inputBytes: number): number {
  const wanted = Math.max(DUCKDB_MEMORY_FLOOR_MB, Math.ceil((inputBytes * DUCKDB_MEMORY_PER_INPUT_BYTE) / 1e6));
  return Math.min(wanted, Math.floor(totalmem() / 2 / 1e6));
}

/**
 * The build's database, in memory, kept to duckdbMemoryMb(inputBytes) and spilling beyond it to
 * `spillDir` (an in-memory database spills only where a temp directory is named: without one it
 * fails, or takes what the kernel then kills).
 */
export async function openDatabase(spillDir: string, inputBytes: number): Promise<DuckDBInstance> {
  return DuckDBInstance.create(':memory:', { memory_limit: `${duckdbMemoryMb(inputBytes)}MB`, temp_directory: spillDir });
}

/** A connection to the build's database: every connection reads and writes times in UTC (a session setting). */
export async function connect(instance: DuckDBInstance): Promise<DuckDBConnection> {
  const conn = await instance.connect();
  await conn.run("set TimeZone = 'UTC'");
  return conn;
}

/**
 * Models run at once, each on its own connection: a model's phases that keep to one thread (a
 * window's sort, an ordered aggregate) leave the other cores to another model (three on two
 * cores: 25 s → 22 s at 100,000 spaces).
 */
const MODELS_AT_ONCE = 3;

/**
 * Creates the macros (the rules', the ranking's, the prices', the locales', then macros.sql), then one view or
 * table per model, each once the models it reads exist, up to MODELS_AT_ONCE at a time. Returns
 * row counts by model; fails with the first failed model in dependency order, once none runs.
 * `keep`, when given, names the tables read after the models: every other model's table is dropped
 * once the last model that reads it is made, so that the intermediate tables do not all take
 * memory at once.
 */
export async function runModels(instance: DuckDBInstance, models: Model[], rules: PublishRules = PUBLISH_RULES, sqlDir = SQL_DIR,
  keep?: ReadonlySet<string>): Promise<Record<string, number>> {
  const conns = await Promise.all(Array.from({ length: MODELS_AT_ONCE }, () => connect(instance)));
  try {
    await conns[0].run(ruleMacros(rules));
    await conns[0].run(rankingMacros());
    await conns[0].run(priceMacros());
    await conns[0].run(localeMacros());
    await conns[0].run(readFileSync(path.join(sqlDir, 'macros.sql'), 'utf8'));
    const idle = [...conns];
    const waiting: ((conn: DuckDBConnection) => void)[] = [];
    const take = () => new Promise<DuckDBConnection>((resolve) => { const conn = idle.pop(); if (conn) resolve(conn); else waiting.push(resolve); });
    const give = (conn: DuckDBConnection) => { const next = waiting.shift(); if (next) next(conn); else idle.push(conn); };
    const counts: Record<string, number> = {};
    const readers = new Map(models.map((m) => [m.name, 0]));
    for (const model of models) for (const name of model.dependsOn) readers.set(name, readers.get(name)! + 1);
    const byName = new Map(models.map((m) => [m.name, m]));
    const built = new Map<string, Promise<void>>();
    for (const model of models) {
      built.set(model.name, (async () => {
        await Promise.all(model.dependsOn.map((name) => built.get(name)));
        const conn = await take();
        try {
          await conn.run(`create or replace ${materialization(model)} ${model.name} as\n${model.sql}`);
          const reader = await conn.runAndReadAll(`select count(*)::integer as n from ${model.name}`);
          counts[model.name] = reader.getRowObjectsJS()[0].n as number;
          for (const name of model.dependsOn) {
            readers.set(name, readers.get(name)! - 1);
            if (keep && readers.get(name) === 0 && !keep.has(name) && materialization(byName.get(name)!) === 'table') await conn.run(`drop table ${name}`);
          }
        } catch (err) {
          throw err instanceof BuildError ? err : new BuildError('model_failed', `pipeline/sql/${model.file}: ${(err as Error).message}`);
        } finally {
          give(conn);
        }
      })());
    }
    const results = await Promise.allSettled(built.values());
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    return Object.fromEntries(models.map((m) => [m.name, counts[m.name]]));
  } finally {
    for (const conn of conns) conn.closeSync();
  }
}

export async function queryRows<T = Record<string, unknown>>(conn: DuckDBConnection, sql: string): Promise<T[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJS() as T[];
}

/**
 * A query's rows as plain objects, streamed chunk by chunk: DuckDB writes each row as JSON text
 * (`to_json`) and V8 parses it, which is several times faster than converting value by value
 * (getRowObjectsJS) for wide rows with lists and structs. Integers come back as numbers, not
 * bigints; lists, structs and nulls as arrays, objects and null; the query's order is kept.
 */
export async function queryJsonRows<T = Record<string, unknown>>(conn: DuckDBConnection, sql: string): Promise<T[]> {
  const rows: T[] = [];
  await forEachJsonRowChunk<T>(conn, sql, (chunk) => { for (const row of chunk) rows.push(row); });
  return rows;
}

/** A query's rows as queryJsonRows makes them, handed over a chunk at a time (the rows are never held whole). */
export async function forEachJsonRowChunk<T = Record<string, unknown>>(conn: DuckDBConnection, sql: string, take: (rows: T[]) => void): Promise<void> {
  const result = await conn.stream(`select to_json(q)::varchar as j from (\n${sql}\n) q`);
  for await (const chunk of result) take((chunk.getColumnValues(0) as string[]).map((text) => JSON.parse(text) as T));
}

/** One text column of a query, streamed (null stays null). */
export async function queryColumn(conn: DuckDBConnection, sql: string): Promise<(string | null)[]> {
  const result = await conn.stream(sql);
  const values: (string | null)[] = [];
  for await (const chunk of result) {
    for (const v of chunk.getColumnValues(0)) values.push(v as string | null);
  }
  return values;
}

/**
 * Drops every table and view except `keep`, returning the memory of the tables no longer needed.
 * A view in `keep` needs the tables it reads in `keep` too.
 */
export async function dropAllExcept(conn: DuckDBConnection, keep: readonly string[]): Promise<void> {
  const kept = new Set(keep);
  const reader = await conn.runAndReadAll(
    `select view_name as name, 'view' as kind from duckdb_views() where not internal and schema_name = 'main'
     union all select table_name, 'table' from duckdb_tables() where schema_name = 'main'`);
  for (const { name, kind } of reader.getRowObjectsJS() as { name: string; kind: string }[]) {
    if (!kept.has(name)) await conn.run(`drop ${kind} if exists "${name}"`);
  }
}

