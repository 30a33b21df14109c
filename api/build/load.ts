import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BUILD_FILES, BUILD_FORMAT_VERSION, DETAILS_INDEX, KEYED_BUILD_FILES, KEYED_FILE, keyedFileNames, LEAD_ROUTING, LINE_INDEXED_FILES, LOCALIZED_BUILD_FILES, ManifestSchema,
  NDJSON_BUILD_FILES, SUGGEST_FILES, type FacetLabels, type LeadRoute, type Manifest, type MarketRatesFile,
} from '../../contract/build.ts';
import { LINE_INDEX_FILE } from '../../contract/line-index.ts';
import { decodeListingColumns, LISTING_COLUMNS_FILE, type ListingColumnsData } from '../../contract/listing-columns.ts';
import type { ConfigPayload, GeoPayload } from '../../contract/catalog.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { CONTRACT_HASH } from '../../contract/hash.ts';
import type { OperatorHub, PlaceHub, PriceIndexPayload, RankingsPayload } from '../../contract/market.ts';
import { Engine, type LocaleListings } from '../catalog/engine.ts';
import type { FilterRegistry } from '../catalog/filters.ts';
import type { SuggestIndex } from '../catalog/suggest.ts';
import { jsonFileOf, type JsonFile } from './json-file.ts';
import { KeyedRecords } from './keyed.ts';
import { localizeMarketRates, type LocalizedMarketRates } from './market-rates.ts';
import { LoadWorkers, type StructureCheck, type Table } from './workers.ts';
import { checkLineCount } from './ndjson.ts';
import type { NdjsonLines } from '../catalog/listing-lines.ts';
import { checkAllRecords, detailLines, openRecords, type RecordFile } from './records.ts';
import { ServedFiles } from './served-files.ts';
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
  /** the autocomplete (api/build/suggest.ts) */
  suggestIndex: SuggestIndex;
  /** the price index's date and source, which every citation of it names */
  priceIndexHead: PriceIndexHead;
  /** the price index, parsed from priceIndexJson when first asked for (the site's pages): it was parsed at load, so it parses */
  priceIndex: () => PriceIndexPayload;
  /** the price index as GET /api/price-index's data, site paths resolved */
  priceIndexJson: Buffer;
  /** by space slug (a keyed file: the routes of the spaces a lead names are read when it arrives) */
  leadRouting: LeadRoutes;
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
  ...keyedFileNames(LOCALES),
  KEYED_FILE.lines(LEAD_ROUTING.name), KEYED_FILE.index(LEAD_ROUTING.name), KEYED_FILE.keys(LEAD_ROUTING.name),
];

type Keyed = keyof typeof KEYED_BUILD_FILES;

/** The files left on disk (read a line at a time, each checked against its record index). */
const ON_DISK = new Set([
  ...LOCALES.map((l) => `details.${l}.ndjson`), ...Object.keys(KEYED_BUILD_FILES).flatMap((name) => LOCALES.map((l) => KEYED_FILE.lines(name, l))),
  KEYED_FILE.lines(LEAD_ROUTING.name),
]);

/**
 * The JSON files read first: this thread parses them while a worker checks listing-columns.bin and
 * makes the price tables from it (read next), then each locale's listing files, then the others.
 */
const FIRST_NEEDED = ['facet-labels.json', ...LOCALES.map((l) => `geo.${l}.json`), 'config.json', 'market-rates.json'];
const PRICE_INDEX = 'price-index.json';

/** The JSON files whose schema has a site path field: only those are walked to resolve them. */
const WITH_SITE_PATHS = new Set(Object.entries({ ...BUILD_FILES, ...LOCALIZED_BUILD_FILES })
  .filter(([, schema]) => /"(url|webUrl|methodologyUrl)":/.test(JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }))))
  .map(([name]) => name));

/**
 * Checks a build directory and loads it, the same at start-up and on reload: the manifest (format
 * version, contract hash, every required file listed), the xxh64 of every file it holds in
 * memory (contract/file-digests.ts), the structure of the listing files (listing-columns.bin and one NDJSON line per
 * listing); then the engine and indexes. The details files and the hubs' lines stay on disk:
 * each line is checked against its record index when it is read (api/build/records.ts), which
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

  // Every file held in memory is read and hashed on the worker threads from the start, in the
  // order this thread needs them (workers.ts), and the NDJSON files held in memory are checked
  // there against their line indexes, while this thread parses and indexes what has arrived. A
  // file is used once its checksum matches; files with the same digests (the markers are the same
  // in every locale) are each read and checked, and held once.
  /** each file's read and checksum, by name */
  const checks = new Map<string, Promise<void>>();
  /** the bytes held, by sha256 (the manifest's) */
  const held = new Map<string, Promise<Buffer>>();
  const matches = (name: string, xxh64: string) => { if (xxh64 !== manifest.xxh64[name]) fail(`${name} checksum mismatch`); };
  const unreadable = (name: string) => (err: Error): never => fail(`${name} unreadable: ${err.message}`);
  const track = (name: string, reading: Promise<unknown>) => {
    const done = reading.then(() => undefined);
    done.catch(() => undefined); // awaited by checksums()
    checks.set(name, done);
  };
  const hold = (name: string, bytes: Promise<Buffer>) => {
    bytes.catch(() => undefined); // awaited where the file is used
    if (!held.has(manifest.files[name])) held.set(manifest.files[name], bytes);
  };
  const read = (name: string): Promise<Buffer> => {
    if (!checks.has(name)) {
      const keep = !held.has(manifest.files[name]);
      const reading = workers.read(join(dir, name), keep).catch(unreadable(name)).then(({ xxh64, bytes }) => {
        matches(name, xxh64);
        return bytes!;
      });
      track(name, reading);
      if (keep) hold(name, reading);
    }
    return held.get(manifest.files[name])!;
  };
  /** files read, hashed and checked together on a worker (StructureCheck); the tables the check made */
  const checkedFiles = (names: string[], check: StructureCheck): Promise<Table[]> => {
    const reading = workers.check(names.map((name) => join(dir, name)), check).catch(unreadable(names.join(', '))).then((r) => {
      names.forEach((name, k) => matches(name, r.files[k].xxh64));
      return r;
    });
    names.forEach((name, k) => {
      track(name, reading);
      hold(name, reading.then((r) => r.files[k].bytes));
    });
    const tables = reading.then((r) => r.tables ?? fail(r.error!));
    tables.catch(() => undefined); // awaited where they are used
    return tables;
  };
  /** an NDJSON file held in memory with its line index, read and checked once for every file with the same bytes and index */
  const lineSets = new Map<string, Promise<NdjsonLines>>();
  const lines = (name: 'cards' | 'markers', l: Locale): Promise<NdjsonLines> => {
    const file = `${name}.${l}.ndjson`, indexFile = LINE_INDEX_FILE(file);
    const key = `${manifest.files[file]} ${manifest.files[indexFile]}`;
    let checking = lineSets.get(key);
    if (!checking) {
      checking = checkedFiles([file, indexFile], { kind: 'lines', name: file, nullable: name === 'markers' }).then(async ([starts, sitePaths, firstSitePath]) => (
        { bytes: await read(file), starts: starts as Float64Array, sitePaths: sitePaths as Float64Array, firstSitePath: firstSitePath as Uint32Array }));
      checking.catch(() => undefined); // awaited where the listings are added
      lineSets.set(key, checking);
    }
    return checking;
  };
  const suggestFiles = [SUGGEST_FILES.index, ...LOCALES.map(SUGGEST_FILES.lines)];
  const suggest = async (): Promise<SuggestIndex> => {
    const starts = await checkedFiles(suggestFiles, { kind: 'suggest' }) as Float64Array[];
    const [index, ...perLocale] = await Promise.all(suggestFiles.map(read));
    return suggestIndexOf(index, perLocale, starts);
  };
  /** Rejects with the first file that does not match its checksum (of those read so far). */
  const checksums = () => Promise.all(checks.values());
  for (const name of FIRST_NEEDED) void read(name);
  /** listing-columns.bin, read and checked on a worker, which makes the engine's price tables from it */
  const columnsRead = workers.columns(join(dir, LISTING_COLUMNS_FILE)).catch(unreadable(LISTING_COLUMNS_FILE)).then(({ file, prices, error }) => {
    matches(LISTING_COLUMNS_FILE, file.xxh64);
    return { bytes: file.bytes, prices: prices ?? fail(error!) };
  });
  track(LISTING_COLUMNS_FILE, columnsRead);
  hold(LISTING_COLUMNS_FILE, columnsRead.then((c) => c.bytes));
  for (const l of LOCALES) {
    for (const name of ['cards', 'markers'] as const) void lines(name, l);
    void read(DETAILS_INDEX.name(l));
  }
  const suggesting = suggest();
  suggesting.catch(() => undefined); // awaited below
  /** price-index.json, parsed on a worker (a file that is not JSON refuses the build there) after the listing files; served as its bytes */
  const priceIndexRead = workers.json(join(dir, PRICE_INDEX), WITH_SITE_PATHS.has(PRICE_INDEX) ? opts.siteUrl : undefined, ['asOf', 'source']).catch(unreadable(PRICE_INDEX)).then(({ xxh64, json, error }) => {
    matches(PRICE_INDEX, xxh64);
    return json ? { json: json.bytes, head: json.head as PriceIndexHead } : fail(`${PRICE_INDEX} ${error}`);
  });
  track(PRICE_INDEX, priceIndexRead);
  /** the files served as they are: hashed here, read from disk when asked for (served-files.ts) */
  const served = Object.keys(manifest.files).filter((name) => !REQUIRED_FILES.includes(name));
  for (const name of Object.keys(manifest.files)) if (REQUIRED_FILES.includes(name) && !ON_DISK.has(name)) void read(name);
  const servedFiles = ServedFiles.open(dir, served, manifest.xxh64).catch((err: Error) => fail(err.message));
  servedFiles.catch(() => undefined); // awaited below
  // hashed once open and stamped (served-files.ts)
  for (const name of served) track(name, servedFiles.then(() => workers.read(join(dir, name), false).catch(unreadable(name))).then(({ xxh64 }) => matches(name, xxh64)));
  /** A JSON file by its name (and its name in BUILD_FILES or LOCALIZED_BUILD_FILES), parsed and as served */
  const jsonFile = async <T>(name: string, kind = name): Promise<JsonFile<T>> => {
    const bytes = await read(name);
    try {
      return jsonFileOf<T>(bytes, WITH_SITE_PATHS.has(kind) ? opts.siteUrl : undefined);
    } catch (err) {
      return fail(`${name} ${(err as Error).message}`);
    }
  };
  const json = async <T>(name: string, kind = name): Promise<T> => (await jsonFile<T>(name, kind)).value;
  const perLocale = async <T>(name: keyof typeof LOCALIZED_BUILD_FILES): Promise<PerLocale<JsonFile<T>>> => {
    const files = await Promise.all(LOCALES.map((l) => jsonFile<T>(`${name}.${l}.json`, name)));
    return Object.fromEntries(LOCALES.map((l, k) => [l, files[k]])) as PerLocale<JsonFile<T>>;
  };

  /** the files kept open, each from the moment its opening starts: a failed load closes every one that opened */
  const onDisk: Promise<RecordFile>[] = [];
  const openOnDisk = (name: string, index: Promise<Buffer>): Promise<RecordFile> => {
    const opened = index.then((bytes) => openRecords(join(dir, name), name, bytes).catch((err: Error) => fail(err.message)));
    onDisk.push(opened);
    return opened;
  };
  /** a keyed file's keys and index, checked against the manifest; its lines are checked when read (api/build/keyed.ts) */
  const keyedFile = async <T>(name: string, l?: Locale): Promise<KeyedRecords<T>> => {
    const linesName = KEYED_FILE.lines(name, l);
    const lines = await openOnDisk(linesName, read(KEYED_FILE.index(name, l)));
    if (opts.checkAllDetails) await checkAllRecords(lines).catch((err: Error) => fail(err.message));
    const keysName = KEYED_FILE.keys(name, l);
    let keys: unknown;
    try {
      keys = JSON.parse((await read(keysName)).toString('utf8'));
    } catch (err) {
      return fail(`${keysName} is not JSON: ${(err as Error).message}`);
    }
    try {
      return new KeyedRecords<T>(lines, keys, opts.siteUrl);
    } catch (err) {
      return fail((err as Error).message);
    }
  };
  const keyed = async <T>(name: Keyed): Promise<PerLocale<KeyedRecords<T>>> => {
    const opened = await Promise.all(LOCALES.map((l) => keyedFile<T>(name, l)));
    return Object.fromEntries(LOCALES.map((l, k) => [l, opened[k]])) as PerLocale<KeyedRecords<T>>;
  };
  try {
    // The JSON files are parsed while a worker checks the listing columns and makes the price
    // tables; the engine is built from them while the listing files are still being read.
    const [labels, geoFiles, config, ratesFile] = await Promise.all([
      json<FacetLabels>('facet-labels.json'), perLocale<GeoPayload>('geo'), json<ConfigPayload>('config.json'), json<MarketRatesFile>('market-rates.json'),
    ]);
    const geo = valuesOf(geoFiles);
    const { bytes: columnsBytes, prices } = await columnsRead;
    let columns: ListingColumnsData;
    let engine: Engine;
    try {
      columns = decodeListingColumns(columnsBytes, { checked: true });
      engine = new Engine(columns, labels, geo, { filters: opts.filters, prices });
    } catch (err) {
      return fail((err as Error).message);
    }
    for (const l of LOCALES) {
      const detailsName = `details.${l}.ndjson`;
      const detailFile = await openOnDisk(detailsName, read(DETAILS_INDEX.name(l)));
      if (opts.checkAllDetails) await checkAllRecords(detailFile).catch((err: Error) => fail(err.message));
      const listings: LocaleListings = { cards: await lines('cards', l), markers: await lines('markers', l), details: detailLines(detailFile), siteUrl: opts.siteUrl };
      try {
        for (const [name, file] of [['cards', listings.cards], ['markers', listings.markers], ['details', detailFile]] as const) checkLineCount(`${name}.${l}.ndjson`, file, columns.slugs.length);
        engine.addListings(l, listings);
      } catch (err) {
        return fail((err as Error).message);
      }
    }
    const [rankings, places, operators, priceIndex, suggestIndex, leadRouting] = await Promise.all([
      keyed<RankingsPayload>('rankings'),
      keyed<PlaceHub>('places'),
      keyed<OperatorHub>('operators'),
      priceIndexRead,
      suggesting,
      keyedFile<LeadRoute>(LEAD_ROUTING.name),
    ]);
    let marketRates: PerLocale<LocalizedMarketRates>;
    try {
      marketRates = Object.fromEntries(LOCALES.map((l) => [l, localizeMarketRates(ratesFile, geo[l], `geo.${l}.json`)])) as PerLocale<LocalizedMarketRates>;
    } catch (err) {
      return fail((err as Error).message);
    }
    await checksums();
    const files = await servedFiles;
    const releases = await Releases.open(dir, manifest.releaseId, opts.log);

    return {
      id: manifest.buildId,
      dir,
      manifest,
      loadedAt: (opts.now ?? Date.now)(),
      config, labels, geo, geoJson: jsonOf(geoFiles), engine, marketRates, rankings, places, operators,
      priceIndexHead: priceIndex.head, priceIndex: parsedWhenAsked<PriceIndexPayload>(priceIndex.json), priceIndexJson: priceIndex.json,
      suggestIndex, leadRouting, servedFiles: files, releases,
      close: closer(engine, [rankings, places, operators], leadRouting, files, releases),
    };
  } catch (err) {
    for (const opened of await Promise.allSettled(onDisk)) if (opened.status === 'fulfilled') await opened.value.fh.close().catch(() => undefined);
    await servedFiles.then((files) => files.close(), () => undefined);
    // what was made of a damaged file fails in many ways: its checksum names the cause
    await checksums();
    throw err instanceof BuildLoadError ? err : new BuildLoadError(`build ${dir}: ${(err as Error).message}`);
  } finally {
    await workers.close();
  }
}

export type PriceIndexHead = Pick<PriceIndexPayload, 'asOf' | 'source'>;

/** The value of JSON bytes, parsed once, when first asked for. Made outside loadBuild for the reason closer() is. */
function parsedWhenAsked<T>(json: Buffer): () => T {
  let value: T | undefined;
  return () => (value ??= JSON.parse(json.toString('utf8')) as T);
}

/**
 * What a loaded build closes: its engine's files and its hubs'. Made outside loadBuild, whose
 * closures would keep the loader's scope alive with the build, and every byte read for the load.
 */
function closer(engine: Engine, hubs: PerLocale<KeyedRecords<unknown>>[], leadRouting: KeyedRecords<LeadRoute>, servedFiles: ServedFiles, releases: Releases): () => Promise<void> {
  return async () => {
    await engine.close();
    for (const hub of hubs) for (const l of LOCALES) await hub[l].close().catch(() => undefined);
    await leadRouting.close().catch(() => undefined);
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

