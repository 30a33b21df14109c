import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { stringify } from 'csv-stringify/sync';
import {
  BUILD_FILES, BUILD_FORMAT_VERSION, KEYED_BUILD_FILES, KEYED_FILE, LEAD_ROUTING, ListingColumnsSchema, LOCALIZED_BUILD_FILES, ManifestSchema, type ListingColumns, type Manifest, type MarketRatesFile,
} from '../contract/build.ts';
import { LISTING_COLUMNS_FILE } from '../contract/listing-columns.ts';
import { LOCALES, type Locale } from '../contract/common.ts';
import type { GeoPayload } from '../contract/catalog.ts';
import { CONTRACT_HASH } from '../contract/hash.ts';
import { PUBLISH_RULES } from '../contract/rules.ts';
import * as assemble from './lib/assemble.ts';
import { LISTING_SOURCES, writeListingFiles } from './lib/listing-rows.ts';
import { OutputChecker } from './lib/output-check.ts';
import { priceReportDataPackage, releaseDataPackage } from './lib/datapackage.ts';
import { writeSuggestFiles } from './lib/suggest-index.ts';
import { RESEARCH_MARTS, priceIndex, writePriceHistory, writeResearchFiles } from './lib/research.ts';
import { publishRelease } from './lib/release.ts';
import { INDEX_RELEASE_FILES, releaseId, RELEASES_DIR } from '../contract/research.ts';
import { BULK_MARTS, writeBulkFiles } from './lib/bulk.ts';
import { precompress } from './lib/precompress.ts';
import { BuildError } from './lib/errors.ts';
import { INPUT_TABLES, loadInputs, SOURCE_FILE, sortKeys, type InputTableName, type LoadedInputs } from './lib/inputs.ts';
import { connect, dropAllExcept, loadModels, openDatabase, queryRows, runModels, SQL_DIR } from './lib/models.ts';
import { createProgress, formatMs, type Progress } from './lib/progress.ts';
import { describeTextFallbacks, readTextFallbacks, TEXT_FALLBACKS_TABLE } from './lib/text-fallbacks.ts';
import {
  BuildWriter, currentBuildId, newBuildId, pruneBuilds, publishBuild, readCurrentManifest, removeStaleTemporaries,
} from './lib/publish.ts';
import { writeKeyedFile } from './lib/keyed-files.ts';
import { listingColumnsFile } from './lib/listing-columns.ts';
import { checkInvariants, validateOutput } from './lib/validate.ts';
import { checkVolumes, inputVolumes } from './lib/volume.ts';
import { describeChanges, readBuildFigures } from './lib/changes.ts';

export interface BuildOptions {
  dataDir: string;
  distDir: string;
  allowShrink?: boolean;
  /** builds kept after publishing (the current one is never removed) */
  keep?: number;
  /** the build time written into the manifest (and the build id); the data's own time is used everywhere else */
  now?: () => Date;
  progress?: Progress;
  /** share of a table that may be quarantined before the build fails (default REJECT_LIMIT) */
  rejectLimit?: number;
}

export interface BuildResult {
  buildId: string;
  buildDir: string;
  manifest: Manifest;
  rejectCount: number;
}

/** The quarantined rows of every input table (the model collectRejects reads). */
const REJECTS_TABLE = 'int_rejects__collected';
/** The currencies of the observations quarantined for want of an exchange rate, for the run summary. */
const UNRATED_CURRENCIES_TABLE = 'int_currencies__unrated';

/** Quarantined rows above this share of a table fail the build. */
export const REJECT_LIMIT = 0.05;

/**
 * Observations dated after the snapshot's extraction (future_date) above this share of
 * price_observations.csv fail the build. A few are a source's clock or time zone slip, quarantined;
 * more say that source.json's extractedAt or the feed's dates are wrong as a whole, and quarantining
 * them under REJECT_LIMIT would silently drop up to a twentieth of the newest prices.
 */
export const FUTURE_DATE_LIMIT = 0.01;

const TABLE_BY_FILE = Object.fromEntries(
  (Object.keys(INPUT_TABLES) as InputTableName[]).map((name) => [INPUT_TABLES[name].file, name]),
) as Record<string, InputTableName>;

function gitSha(): string {
  if (process.env.BUILD_SHA) return process.env.BUILD_SHA;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The size on disk of a snapshot's files (DuckDB's memory grows with it: openDatabase). */
function snapshotBytes(dataDir: string): number {
  return readdirSync(dataDir, { withFileTypes: true }).reduce((sum, f) => sum + (f.isFile() ? statSync(path.join(dataDir, f.name)).size : 0), 0);
}

export async function runBuild(options: BuildOptions): Promise<BuildResult> {
  const progress = options.progress ?? createProgress();
  const keep = options.keep ?? 5;
  const distDir = path.resolve(options.distDir);
  const dataDir = path.resolve(options.dataDir);
  const builtAt = (options.now ?? (() => new Date()))();
  const buildId = newBuildId(builtAt);
  const tmpDir = path.join(distDir, 'builds', `${buildId}.tmp`);

  // A killed build's spill is removed like its build.
  const spillDir = path.join(distDir, 'builds', `spill-${process.pid}.tmp`);
  mkdirSync(spillDir, { recursive: true });
  const instance = await openDatabase(spillDir, snapshotBytes(dataDir));
  const conn = await connect(instance);
  // started first: the worker loads the contract while the SQL runs
  const checker = new OutputChecker();
  try {
    removeStaleTemporaries(distDir);

    const inputs = await progress.stage('load snapshot', () => loadInputs(conn, dataDir),
      (r) => Object.entries(r.rowCounts).map(([k, v]) => `${k}=${v}`).join(' '));

    const models = loadModels();
    const readAfter = new Set([REJECTS_TABLE, UNRATED_CURRENCIES_TABLE, TEXT_FALLBACKS_TABLE, ...assemble.MARTS_READ, ...LISTING_SOURCES, ...RESEARCH_MARTS, ...BULK_MARTS]);
    const modelCounts = await progress.stage('run sql models', () => runModels(instance, models, PUBLISH_RULES, SQL_DIR, readAfter),
      (c) => `${Object.keys(c).length} models; listings=${c.listings} offers=${c.int_offers__latest} rejects=${c.int_rejects__collected}`);

    const unrated = await queryRows<UnratedCurrency>(conn, `select * from ${UNRATED_CURRENCIES_TABLE}`);
    const textFallbacks = await readTextFallbacks(conn);
    const rejects = await progress.stage('quarantine', () => collectRejects(conn, inputs, unrated, options.rejectLimit ?? REJECT_LIMIT),
      (r) => `${r.rows.length} rows rejected`);

    const previous = readCurrentManifest(distDir);
    const volumes = await inputVolumes(conn, inputs.rowCounts, rejects.rows);
    checkVolumes(previous?.rowCounts ? { buildId: currentBuildId(distDir)!, rowCounts: previous.rowCounts } : null,
      { ...volumes, listings: modelCounts.listings }, options.allowShrink ?? false);

    // From here four hands write side by side: DuckDB the listing files on a connection of their
    // own (the checker's workers check each file as it lands), while this thread reads the other
    // marts and then makes every other file from them, and DuckDB the research files on a third
    // connection and the bulk files on a fourth. Each goes on to its end even when another fails,
    // so that nothing writes into the build once it is removed.
    const writer = new BuildWriter(tmpDir);
    const listingConn = await connect(instance);
    const reading = progress.stage('read marts', () => assemble.readMarts(conn), (m) => `asOf=${m.asOf}`);
    const listingFiles = progress.stage('write listing files', () => writeListingFiles(listingConn, writer, checker, [...RESEARCH_MARTS, ...BULK_MARTS], reading),
      () => `cards, markers and details for ${LOCALES.join(', ')}; their lines checked meanwhile`).finally(() => listingConn.closeSync());
    listingFiles.catch(() => undefined); // awaited below
    const marts = await reading.catch(async (err) => {
      await listingFiles.catch(() => undefined);
      throw err;
    });
    const dataPackage = priceReportDataPackage(marts.asOf, inputs.source);
    const marketRates = assemble.marketRates(marts);
    const rowCounts: Record<string, number> = {};

    const researchConn = await connect(instance);
    const bulkConn = await connect(instance);
    const [listing, , , { columns, geo }] = await settled([
      listingFiles,
      progress.stage('write research files', async () => {
        const index = await priceIndex(researchConn, marts.asOf, inputs.source);
        validateOutput('price-index.json', BUILD_FILES['price-index.json'], index);
        writer.writeJson('price-index.json', index);
        const research = await writeResearchFiles(researchConn, writer, {
          asOf: marts.asOf, source: inputs.source, rowsByFile: inputRowsByFile(inputs.rowCounts), rejectRows: rejects.rows, dataPackage,
        });
        rowCounts.price_report_rows = research.priceReportRows;
        rowCounts.price_history_rows = await writePriceHistory(researchConn, writer, marts.asOf, inputs.source);
        await precompress(writer, INDEX_RELEASE_FILES);
        return index.cities.length;
      }, (cities) => `price index and history of ${cities} cities, the research files gzip and brotli encoded`).finally(() => researchConn.closeSync()),
      progress.stage('write bulk files', () => writeBulkFiles(bulkConn, writer),
        (rows) => `${rows.listings} listings and ${rows.offers} offers as Parquet and CSV, the CSVs gzip and brotli encoded`).finally(() => bulkConn.closeSync()),
      progress.stage('write shared files', () => writeSharedFiles(writer, progress, marts, inputs, rejects.rows, marketRates, rowCounts),
        ({ columns }) => `${columns.slugs.length} listings`),
    ]);
    await dropAllExcept(conn, []);
    await progress.stage('check listing files', async () => {
      const operatorSlugs = marts.operators.map((o) => String(o.operator_slug));
      const marketRateCities = marketRates.cities.map((c) => c.rates.city.slug);
      for (const locale of LOCALES) {
        const { cardSlugs, detailSlugs } = await listing.get(locale)!;
        checkInvariants({ columns, cardSlugs, detailSlugs, geo: geo[locale], operatorSlugs, marketRateCities, locale });
      }
    }, () => `${LOCALES.length} × ${columns.slugs.length} cards, markers and details checked`);

    rowCounts.countries = marts.countries.length;
    rowCounts.cities = marts.cities.length;
    rowCounts.zones = marts.zones.length;
    rowCounts.operators = marts.operators.length;
    rowCounts.pricing_options = modelCounts.pricing_options;
    Object.assign(rowCounts, volumes);

    const manifest: Manifest = {
      formatVersion: BUILD_FORMAT_VERSION,
      buildId,
      releaseId: releaseId(marts.asOf, (file) => writer.files[file].sha256),
      contractHash: CONTRACT_HASH,
      builtAt: builtAt.toISOString(),
      gitSha: gitSha(),
      inputChecksums: inputs.checksums,
      files: sortKeys(Object.fromEntries(Object.entries(writer.files).map(([name, d]) => [name, d.sha256]))),
      xxh64: sortKeys(Object.fromEntries(Object.entries(writer.files).map(([name, d]) => [name, d.xxh64]))),
      rowCounts: sortKeys(rowCounts),
    };
    validateOutput('manifest.json', ManifestSchema, manifest);
    writer.writeJson('manifest.json', manifest);
    await writer.synced();

    const changes = describeChanges(readBuildFigures(path.join(distDir, 'current')), readBuildFigures(tmpDir)!);
    const { buildDir } = await progress.stage('publish', async () => {
      // the release first: a build that is current always has its release
      const release = publishRelease(distDir, manifest.releaseId, tmpDir, releaseDataPackage(dataPackage));
      return { release, buildDir: publishBuild(distDir, buildId, tmpDir) };
    }, ({ release }) => `${RELEASES_DIR}/${manifest.releaseId}${release.written ? '' : ' (in place already: the same data)'}, current -> builds/${buildId}`);
    const pruned = pruneBuilds(distDir, keep);
    progress.note(
      `done: build ${buildId}, ${rowCounts.listings} listings, ${rejects.rows.length} rejects, ` +
        `${Object.keys(writer.files).length + 1} files${pruned.length ? `, pruned ${pruned.length} old build(s)` : ''} ` +
        `in ${formatMs(performance.now() - progress.startedAt)}`,
    );
    if (unrated.length > 0) {
      progress.note(`${INPUT_TABLES.price_observations.file}: ${unrated.reduce((n, c) => n + c.observations, 0)} rows quarantined as ` +
        `unknown_currency, ${withoutRate(unrated)}`);
    }
    for (const line of describeTextFallbacks(textFallbacks)) progress.note(line);
    for (const line of changes) progress.note(line);
    return { buildId, buildDir, manifest, rejectCount: rejects.rows.length };
  } catch (err) {
    rmSync(tmpDir, { recursive: true, force: true });
    throw err;
  } finally {
    await checker.close();
    conn.closeSync();
    instance.closeSync();
    rmSync(spillDir, { recursive: true, force: true });
  }
}

/**
 * The files the main thread makes from the marts it read (beside DuckDB's listing and research
 * files): the listing columns, the shared JSON files, the lead routing, the rejects, the
 * autocomplete, and each locale's geography and hubs, each checked against the contract first.
 */
async function writeSharedFiles(writer: BuildWriter, progress: Progress, marts: assemble.Marts, inputs: LoadedInputs,
  rejectRows: string[][], marketRates: MarketRatesFile, rowCounts: Record<string, number>) {
  const columns = JSON.parse(marts.listingColumnsText) as ListingColumns;
  validateOutput(LISTING_COLUMNS_FILE, ListingColumnsSchema, columns);
  writer.writeBytes(LISTING_COLUMNS_FILE, listingColumnsFile(columns, marts.listingOrdersText));
  const shared: Record<Exclude<keyof typeof BUILD_FILES, 'price-index.json'>, unknown> = {
    'config.json': inputs.config,
    'facet-labels.json': assemble.facetLabels(marts),
    'market-rates.json': marketRates,
  };
  for (const [file, value] of Object.entries(shared) as [keyof typeof shared, unknown][]) {
    validateOutput(file, BUILD_FILES[file], value);
    writer.writeJson(file, value);
  }
  const routing = assemble.leadRouting(marts);
  validateOutput(KEYED_FILE.lines(LEAD_ROUTING.name), LEAD_ROUTING.schema, routing);
  writeKeyedFile(writer, LEAD_ROUTING.name, undefined, routing);
  writer.writeText('rejects.csv', stringify([['file', 'row', 'rule', 'raw'], ...rejectRows], { record_delimiter: '\r\n' }));
  rowCounts.listings = columns.slugs.length;
  rowCounts.suggest = writeSuggestFiles(writer, assemble.suggestSources(marts));
  rowCounts.rejects = rejectRows.length;
  const geo = {} as Record<Locale, GeoPayload>;
  for (const locale of LOCALES) {
    await progress.stage(`write locale ${locale}`, async () => {
      geo[locale] = assemble.geography(marts, locale);
      const localized: Record<keyof typeof LOCALIZED_BUILD_FILES, unknown> = { geo: geo[locale] };
      for (const [name, value] of Object.entries(localized) as [keyof typeof LOCALIZED_BUILD_FILES, unknown][]) {
        const file = `${name}.${locale}.json`;
        validateOutput(file, LOCALIZED_BUILD_FILES[name], value);
        writer.writeJson(file, value);
      }
      const keyed: Record<keyof typeof KEYED_BUILD_FILES, Record<string, unknown>> = {
        rankings: assemble.rankings(marts, locale),
        places: assemble.places(marts, locale),
        operators: assemble.operatorHubs(marts, locale),
      };
      for (const [name, values] of Object.entries(keyed) as [keyof typeof KEYED_BUILD_FILES, Record<string, unknown>][]) {
        validateOutput(KEYED_FILE.lines(name, locale), KEYED_BUILD_FILES[name], values);
        writeKeyedFile(writer, name, locale, values);
      }
    }, () => 'geography and hubs validated');
  }
  return { columns, geo };
}

/** Awaits every task, then fails with the first one's failure (in the tasks' order), if any. */
async function settled<T extends unknown[]>(tasks: [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const results = await Promise.allSettled(tasks);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}

/** Rows read by input file name. */
function inputRowsByFile(rowCounts: Record<InputTableName, number>): Record<string, number> {
  return Object.fromEntries((Object.keys(INPUT_TABLES) as InputTableName[]).map((name) => [INPUT_TABLES[name].file, rowCounts[name]]));
}

/** A currency of price observations quarantined as unknown_currency, and their rows (UNRATED_CURRENCIES_TABLE). */
interface UnratedCurrency { currency: string; observations: number }

/** "no rate in fx_reference.csv for GBP (12 rows), VES (3 rows)": the file to mend, named where the rows are counted. */
function withoutRate(unrated: UnratedCurrency[]): string {
  return `no rate in ${INPUT_TABLES.fx_reference.file} for ${unrated.map((c) => `${c.currency} (${c.observations} rows)`).join(', ')}`;
}

/**
 * rejects.csv rows (file, row, rule, the raw row as CSV); fails above FUTURE_DATE_LIMIT, then above
 * `limit` per table (naming fx_reference.csv when the rows are quarantined for want of a rate).
 */
async function collectRejects(conn: DuckDBConnection, inputs: LoadedInputs, unrated: UnratedCurrency[], limit: number) {
  const inputCounts = inputs.rowCounts;
  const rejects = await queryRows<{ file_name: string; source_row: number; reject_rule: string }>(
    conn, `select file_name, source_row, reject_rule from ${REJECTS_TABLE} order by file_name, source_row`);
  const byFile = new Map<string, typeof rejects>();
  for (const r of rejects) {
    const list = byFile.get(r.file_name) ?? [];
    list.push(r);
    byFile.set(r.file_name, list);
  }
  const observations = INPUT_TABLES.price_observations.file;
  const future = (byFile.get(observations) ?? []).filter((r) => r.reject_rule === 'future_date');
  if (future.length > FUTURE_DATE_LIMIT * inputCounts.price_observations) {
    throw new BuildError('future_date_threshold',
      `${observations}: ${future.length} of ${inputCounts.price_observations} rows are dated after the snapshot's extraction ` +
        `(${((100 * future.length) / inputCounts.price_observations).toFixed(1)}%, limit ${FUTURE_DATE_LIMIT * 100}%), first at row ` +
        `${future[0].source_row}; ${SOURCE_FILE} says it was extracted at ${inputs.source.extractedAt}: is that, or are the dates, wrong?`);
  }
  for (const [file, list] of byFile) {
    const table = TABLE_BY_FILE[file];
    const total = inputCounts[table];
    if (total > 0 && list.length / total > limit) {
      const rules = new Map<string, number>();
      for (const r of list) rules.set(r.reject_rule, (rules.get(r.reject_rule) ?? 0) + 1);
      const [topRule, topCount] = [...rules].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
      const first = list.find((r) => r.reject_rule === topRule)!;
      throw new BuildError('reject_threshold',
        `${file}: ${list.length} of ${total} rows quarantined (${((100 * list.length) / total).toFixed(1)}%, limit ${limit * 100}%); ` +
          `most often rule ${topRule} (${topCount} rows), first at row ${first.source_row}` +
          (topRule === 'unknown_currency' ? `: ${withoutRate(unrated)}` : ''));
    }
  }
  const rows: string[][] = [];
  for (const [file, list] of byFile) {
    const table = TABLE_BY_FILE[file];
    const columns = INPUT_TABLES[table].columns;
    const raw = await queryRows(conn,
      `select _row, ${columns.map((c) => `"${c}"`).join(', ')} from raw_${table} ` +
        `where _row in (select source_row from ${REJECTS_TABLE} where file_name = '${file}')`);
    const rawByRow = new Map(raw.map((r) => [r._row as number, columns.map((c) => (r[c] ?? '') as string)]));
    for (const r of list) {
      rows.push([file, String(r.source_row), r.reject_rule, stringify([rawByRow.get(r.source_row) ?? []]).replace(/\r?\n$/, '')]);
    }
  }
  return { rows };
}
