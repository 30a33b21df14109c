import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILD_FILES, BUILD_FORMAT_VERSION, CARD_FILES, DETAILS_INDEX, KEYED_BUILD_FILES, KEYED_FILE, keyedFileNames, LEAD_ROUTING, LINE_INDEXED_FILES, LOCALIZED_BUILD_FILES, ManifestSchema,
  NDJSON_BUILD_FILES, PRICE_HISTORY_BY_CITY, SUGGEST_FILES, type FacetLabels, type LeadRoute, type Manifest, type MarketRatesFile,
} from '../../contract/build.ts';
import { LINE_INDEX_FILE } from '../../contract/line-index.ts';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import type { ConfigPayload, GeoPayload } from '../../contract/catalog.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { CONTRACT_HASH } from '../../contract/hash.ts';
import type { OperatorHub, PlaceHub, PriceIndexPayload, RankingsPayload } from '../../contract/market.ts';
import type { PriceHistoryCity } from '../../contract/research.ts';
import { Engine } from '../catalog/engine.ts';
import type { FilterRegistry } from '../catalog/filter-index.ts';
import type { SuggestIndex } from '../catalog/suggest.ts';
import type { PriceTables } from '../catalog/price-tables.ts';
import type { IndexCities } from './city-texts.ts';
import { FileReads } from './file-reads.ts';
import type { JsonFile } from './json-file.ts';
import { KeyedRecords } from './keyed.ts';
import { localizeMarketRates, type LocalizedMarketRates } from './market-rates.ts';
import { LoadWorkers } from './workers.ts';
import { checkLineCount } from './ndjson.ts';
import { detailLines } from './records.ts';
import type { ServedFiles } from './served-files.ts';
import { Releases, type ReleaseLog } from './releases.ts';
import { suggestIndexOf } from './suggest.ts';

export type PerLocale<T> = Record<Locale, T>;

/** A published build, checked and loaded: site paths resolved, indexes built. */
export interface LoadedBuild {
  id: string;
  dir: string;
  manifest: Manifest;
  /** when this process finished loading it (ms since the epoch) */
  loadedAt: number;
  config: ConfigPayload;
  labels: FacetLabels;
  geo: PerLocale<GeoPayload>;
  /** each locale's geo as GET /v1/geo/bootstrap's data (JsonFile) */
  geoJson: PerLocale<Buffer>;
  /** the listing engine: filters, sorts, facets, cards, markers and details */
  engine: Engine;
  /** market-rates.json, its cities named in each locale */
  marketRates: PerLocale<LocalizedMarketRates>;
  /** by city slug */
  rankings: PerLocale<KeyedRecords<RankingsPayload>>;
  /** by `<kind>/<slug>` */
  places: PerLocale<KeyedRecords<PlaceHub>>;
  /** by operator slug */
  operators: PerLocale<KeyedRecords<OperatorHub>>;
  /** the autocomplete (api/loading/suggest.ts) */
  suggestIndex: SuggestIndex;
  /** the price index's date and source, which every citation of it names */
  priceIndexHead: PriceIndexHead;
  /** the price index as GET /api/price-index's data, site paths resolved */
  priceIndexJson: Buffer;
  /** where each city of the index lies in priceIndexJson, with what lists and groups them: the pages parse a city only when they show it */
  priceIndexCities: IndexCities;
  /** by space slug (a keyed file: the routes of the spaces a lead names are read when it arrives) */
  leadRouting: LeadRoutes;
  /** the monthly history's cities by city slug (PRICE_HISTORY_BY_CITY), when the build has a history */
  priceHistory?: KeyedRecords<PriceHistoryCity>;
  /** the files served as they are (price-report.csv, price-history.json, methodology.md, …), left on disk */
  servedFiles: ServedFiles;
  /** the releases beside the build (`<dist>/releases`), as they stood when it was loaded */
  releases: Releases;
  /** releases the open detail, hub and served files; call once the build is no longer served */
  close(): Promise<void>;
}

export class BuildLoadError extends Error {}

const valuesOf = <T>(files: PerLocale<JsonFile<T>>) => Object.fromEntries(LOCALES.map((l) => [l, files[l].value])) as PerLocale<T>;
const jsonOf = <T>(files: PerLocale<JsonFile<T>>) => Object.fromEntries(LOCALES.map((l) => [l, files[l].json])) as PerLocale<Buffer>;

/** The lead routing of a build: which spaces it routes, and the route of one. */
export type LeadRoutes = Pick<KeyedRecords<LeadRoute>, 'has' | 'get'>;

export interface LoadOptions {
  siteUrl: string;
  now?: () => number;
  /** the filters the engine indexes (default FILTERS, api/catalog/filters.ts) */
  filters?: FilterRegistry;
  /** read every detail and hub line and check it against its record index (once a damaged one was found) */
  checkAllDetails?: boolean;
  /** worker threads started ahead of the load (the server's first: api/server.ts); the load closes them */
  workers?: LoadWorkers;
  /** where release directories left out and damaged release files are reported */
  log?: ReleaseLog;
}

/** Every file a build must list in its manifest. */
const REQUIRED_FILES = [
  ...Object.keys(BUILD_FILES),
  LISTING_COLUMNS_FILE,
  ...LINE_INDEXED_FILES.flatMap((name) => LOCALES.map((l) => LINE_INDEX_FILE(`${name}.${l}.ndjson`))),
  ...Object.keys(LOCALIZED_BUILD_FILES).flatMap((name) => LOCALES.map((l) => `${name}.${l}.json`)),
  ...Object.keys(NDJSON_BUILD_FILES).flatMap((name) => LOCALES.map((l) => `${name}.${l}.ndjson`)),
  ...LOCALES.map(DETAILS_INDEX.name),
  SUGGEST_FILES.index, ...LOCALES.map(SUGGEST_FILES.lines),
  ...[CARD_FILES.parts, ...LOCALES.map(CARD_FILES.texts)].flatMap((name) => [name, LINE_INDEX_FILE(name)]),
  ...keyedFileNames(LOCALES),
  KEYED_FILE.lines(LEAD_ROUTING.name), KEYED_FILE.index(LEAD_ROUTING.name), KEYED_FILE.keys(LEAD_ROUTING.name),
];

type Keyed = keyof typeof KEYED_BUILD_FILES;

/** The files the pipeline checked the card parts against (CARD_FILES): not read. */
const NOT_READ = new Set(LOCALES.flatMap((l) => [`cards.${l}.ndjson`, LINE_INDEX_FILE(`cards.${l}.ndjson`)]));
const HISTORY_LINES = KEYED_FILE.lines(PRICE_HISTORY_BY_CITY.name);
/** The files of PRICE_HISTORY_BY_CITY, which a build with a history has. */
const HISTORY_FILES = [HISTORY_LINES, KEYED_FILE.index(PRICE_HISTORY_BY_CITY.name), KEYED_FILE.keys(PRICE_HISTORY_BY_CITY.name)];

/** The files left on disk (read a line at a time, each checked against its record index). */
const ON_DISK = new Set([
  ...LOCALES.map((l) => `details.${l}.ndjson`), ...Object.keys(KEYED_BUILD_FILES).flatMap((name) => LOCALES.map((l) => KEYED_FILE.lines(name, l))),
  KEYED_FILE.lines(LEAD_ROUTING.name), HISTORY_LINES,
]);

/**
 * The JSON files read first: this thread parses them while a worker checks listing-columns.bin and
 * makes the price tables from it (read next), then each locale's listing files, then the others.
 */
const FIRST_NEEDED = ['facet-labels.json', ...LOCALES.map((l) => `geo.${l}.json`), 'config.json', 'market-rates.json'];
const PRICE_INDEX = 'price-index.json';

/**
 * Checks a build directory and loads it, the same at start-up and on reload: the manifest (format
 * version, contract hash, every required file listed), the xxh64 of every file it holds in
 * memory (contract/file-digests.ts), the structure of the listing files (listing-columns.bin and one NDJSON line per
 * listing); then the engine and indexes. The details files and the hubs' lines stay on disk:
 * each line is checked against its record index when it is read (records.ts), which
 * a whole-file digest at load could not prove for bytes read later; so do the files served as
 * they are, each checked against its digest whenever it is read (served-files.ts). Every file held in memory
 * is parsed here: a build that loads has nothing left to fail later but a line damaged on disk.
 * Elements are not validated against the contract again: the pipeline did before it published,
 * and the manifest with its checksums and contract hash is the proof.
 */
export async function loadBuild(dir: string, opts: LoadOptions): Promise<LoadedBuild> {
  const fail = (msg: string): never => { throw new BuildLoadError(`build ${dir}: ${msg}`); };
  const workers = opts.workers ?? new LoadWorkers();
  const manifest = await readManifest(dir).catch(async (err: Error) => {
    await workers.close();
    return fail(err.message);
  });
  const reads = new FileReads(dir, manifest, workers, opts.siteUrl, fail);
  const started = startReads(reads, manifest);
  try {
    const { labels, geoFiles, config, ratesFile } = await firstFiles(reads);
    const geo = valuesOf(geoFiles);
    const engine = await buildEngine(started.columns, labels, geo, opts.filters);
    for (const l of LOCALES) await addListings(engine, reads, l, opts);
    const [{ rankings, places, operators }, priceIndex, suggestIndex, leadRouting, priceHistory] = await Promise.all([
      openHubs(reads, opts), started.priceIndex, started.suggestIndex, keyedFile<LeadRoute>(reads, LEAD_ROUTING.name, undefined, opts),
      HISTORY_LINES in manifest.files ? keyedFile<PriceHistoryCity>(reads, PRICE_HISTORY_BY_CITY.name, undefined, opts) : undefined,
    ]);
    const marketRates = Object.fromEntries(LOCALES.map((l) => [l, localizeMarketRates(ratesFile, geo[l], `geo.${l}.json`)])) as PerLocale<LocalizedMarketRates>;
    await reads.checksums();
    const servedFiles = await started.servedFiles;
    const releases = await Releases.open(dir, manifest.releaseId, opts.log);
    return {
      id: manifest.buildId,
      dir,
      manifest,
      loadedAt: (opts.now ?? Date.now)(),
      config, labels, geo, geoJson: jsonOf(geoFiles), engine, marketRates, rankings, places, operators,
      priceIndexHead: priceIndex.head as PriceIndexHead, priceIndexJson: priceIndex.bytes, priceIndexCities: priceIndex.cities!,
      suggestIndex, leadRouting, priceHistory, servedFiles, releases,
      close: closer(engine, [rankings, places, operators], [leadRouting, priceHistory], servedFiles, releases),
    };
  } catch (err) {
    await reads.closeOpened();
    await started.servedFiles.then((files) => files.close(), () => undefined);
    // what was made of a damaged file fails in many ways: its checksum names the cause
    await reads.checksums();
    throw err instanceof BuildLoadError ? err : new BuildLoadError(`build ${dir}: ${(err as Error).message}`);
  } finally {
    await workers.close();
  }
}

/**
 * Starts every read the load awaits, in the order it needs the files (the workers take them in
 * turn): the first JSON files, listing-columns.bin, each locale's listing files, the autocomplete,
 * the price index, every other file held in memory or indexing one left on disk, and last the
 * files served as they are.
 */
function startReads(reads: FileReads, manifest: Manifest) {
  for (const name of FIRST_NEEDED) void reads.read(name);
  const columns = reads.columns();
  void reads.lines(CARD_FILES.parts, 'part');
  for (const l of LOCALES) {
    void reads.lines(CARD_FILES.texts(l), 'part');
    void reads.lines(`markers.${l}.ndjson`, 'objectOrNull');
    void reads.read(DETAILS_INDEX.name(l));
  }
  const suggestIndex = readSuggestIndex(reads);
  suggestIndex.catch(() => undefined); // awaited by the load
  const priceIndex = reads.jsonOnWorker(PRICE_INDEX, ['asOf', 'methodologyUrl', 'source'], true);
  const loaded = (name: string) => REQUIRED_FILES.includes(name) || HISTORY_FILES.includes(name);
  for (const name of Object.keys(manifest.files)) if (loaded(name) && !ON_DISK.has(name) && !NOT_READ.has(name)) void reads.read(name);
  const servedFiles = reads.servedFiles(Object.keys(manifest.files).filter((name) => !loaded(name)));
  return { columns, suggestIndex, priceIndex, servedFiles };
}

async function readSuggestIndex(reads: FileReads): Promise<SuggestIndex> {
  const files = [SUGGEST_FILES.index, ...LOCALES.map(SUGGEST_FILES.lines)];
  const starts = await reads.checked(files, { kind: 'suggest' }) as Float64Array[];
  const [index, ...perLocale] = await Promise.all(files.map((name) => reads.read(name)));
  return suggestIndexOf(index, perLocale, starts);
}

/** The JSON files the engine is built from and the market rates, parsed while a worker checks the listing columns. */
async function firstFiles(reads: FileReads) {
  const [labels, geoFiles, config, ratesFile] = await Promise.all([
    reads.json<FacetLabels>('facet-labels.json'),
    perLocale((l) => reads.json<GeoPayload>(`geo.${l}.json`, 'geo')),
    reads.json<ConfigPayload>('config.json'),
    reads.json<MarketRatesFile>('market-rates.json'),
  ]);
  return { labels: labels.value, geoFiles, config: config.value, ratesFile: ratesFile.value };
}

/** The engine, built from the listing columns and their price tables while the listing files are still being read. */
async function buildEngine(columnsRead: Promise<{ bytes: Buffer; prices: PriceTables }>, labels: FacetLabels, geo: PerLocale<GeoPayload>, filters?: FilterRegistry): Promise<Engine> {
  const { bytes, prices } = await columnsRead;
  return new Engine(decodeListingColumns(bytes, { checked: true }), labels, geo, { filters, prices });
}

/** A locale's cards, markers and details, each one line per listing (the card parts two), added to the engine. */
async function addListings(engine: Engine, reads: FileReads, l: Locale, opts: LoadOptions): Promise<void> {
  const details = await reads.records(`details.${l}.ndjson`, DETAILS_INDEX.name(l), opts.checkAllDetails);
  const parts = await reads.lines(CARD_FILES.parts, 'part'), texts = await reads.lines(CARD_FILES.texts(l), 'part');
  const markers = await reads.lines(`markers.${l}.ndjson`, 'objectOrNull');
  checkLineCount(CARD_FILES.parts, parts, engine.n, 2);
  for (const [name, lines] of [[CARD_FILES.texts(l), texts], [`markers.${l}.ndjson`, markers], [`details.${l}.ndjson`, details]] as const) checkLineCount(name, lines, engine.n);
  engine.addListings(l, { cards: { parts, texts }, markers, details: detailLines(details), siteUrl: opts.siteUrl });
}

/** The hubs in every locale. */
async function openHubs(reads: FileReads, opts: LoadOptions) {
  const [rankings, places, operators] = await Promise.all([
    keyedPerLocale<RankingsPayload>(reads, 'rankings', opts), keyedPerLocale<PlaceHub>(reads, 'places', opts), keyedPerLocale<OperatorHub>(reads, 'operators', opts),
  ]);
  return { rankings, places, operators };
}

const keyedPerLocale = <T>(reads: FileReads, name: Keyed, opts: LoadOptions) => perLocale((l) => keyedFile<T>(reads, name, l, opts));

/** A keyed file: its lines opened by their record index, and its keys; a line is checked when read (keyed.ts). */
async function keyedFile<T>(reads: FileReads, name: string, l: Locale | undefined, opts: LoadOptions): Promise<KeyedRecords<T>> {
  const lines = await reads.records(KEYED_FILE.lines(name, l), KEYED_FILE.index(name, l), opts.checkAllDetails);
  const keysName = KEYED_FILE.keys(name, l);
  const keysBytes = await reads.read(keysName);
  let keys: unknown;
  try {
    keys = JSON.parse(keysBytes.toString('utf8'));
  } catch (err) {
    return reads.fail(`${keysName} is not JSON: ${(err as Error).message}`);
  }
  return new KeyedRecords<T>(lines, keys, opts.siteUrl);
}

/** One value per locale, made in parallel. */
async function perLocale<T>(make: (l: Locale) => Promise<T>): Promise<PerLocale<T>> {
  const made = await Promise.all(LOCALES.map(make));
  return Object.fromEntries(LOCALES.map((l, k) => [l, made[k]])) as PerLocale<T>;
}

export type PriceIndexHead = Pick<PriceIndexPayload, 'asOf' | 'methodologyUrl' | 'source'>;

/**
 * What a loaded build closes: its engine's files and its hubs'. Made outside loadBuild, whose
 * closures would keep the loader's scope alive with the build, and every byte read for the load.
 */
function closer(engine: Engine, hubs: PerLocale<KeyedRecords<unknown>>[], keyed: (KeyedRecords<unknown> | undefined)[], servedFiles: ServedFiles, releases: Releases): () => Promise<void> {
  return async () => {
    await engine.close();
    for (const hub of hubs) for (const l of LOCALES) await hub[l].close().catch(() => undefined);
    for (const file of keyed) await file?.close().catch(() => undefined);
    await servedFiles.close();
    await releases.close();
  };
}

/** manifest.json, of this build format and this contract, listing every required file and no path. */
async function readManifest(dir: string): Promise<Manifest> {
  let raw: { formatVersion?: unknown; contractHash?: unknown };
  try {
    raw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    throw new Error(`manifest.json unreadable: ${(err as Error).message}`);
  }
  if (raw?.formatVersion !== BUILD_FORMAT_VERSION) throw new Error(`build format ${String(raw?.formatVersion)}, this server loads format ${BUILD_FORMAT_VERSION}: rebuild with the matching pipeline`);
  if (raw.contractHash !== CONTRACT_HASH) throw new Error(`built against another contract (contractHash ${String(raw.contractHash)}, this server's is ${CONTRACT_HASH}): rebuild with the matching pipeline`);
  const m = ManifestSchema.safeParse(raw);
  if (!m.success) throw new Error(`manifest.json invalid: ${m.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  for (const name of REQUIRED_FILES) if (!(name in m.data.files)) throw new Error(`manifest lists no ${name}`);
  for (const name of Object.keys(m.data.files)) if (!(name in m.data.xxh64)) throw new Error(`manifest gives no xxh64 of ${name}`);
  for (const name of Object.keys(m.data.files)) if (name.includes('/') || name.includes('..')) throw new Error(`unsafe file name ${name}`);
  return m.data;
}

