import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILD_FILES, LOCALIZED_BUILD_FILES, ManifestSchema,
  type FacetLabels, type LeadRouting, type ListingColumns, type Manifest, type MarketRatesFile, type SuggestEntry,
} from '../../contract/build.ts';
import type { ConfigPayload, GeoPayload } from '../../contract/catalog.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { MAX_RANKING_LIMIT, type PlaceHub, type RankingsPayload } from '../../contract/market.ts';
import { Engine } from '../catalog/engine.ts';
import type { FilterRegistry } from '../catalog/filters.ts';
import { runTask, type PackResult, type VerifyResult } from './load-worker.ts';
import { LoadPool } from './pool.ts';
import { SuggestIndex } from '../catalog/suggest.ts';
import { resolveSitePaths } from '../catalog/text.ts';

export type PerLocale<T> = Record<Locale, T>;

/** A published build, loaded, validated, with site paths resolved and indexes built. */
export interface LoadedBuild {
  id: string;
  dir: string;
  manifest: Manifest;
  /** when this process finished loading it (ms since the epoch) */
  loadedAt: number;
  config: ConfigPayload;
  labels: FacetLabels;
  geo: PerLocale<GeoPayload>;
  /** the listing engine: filters, sorts, facets, pre-serialized cards and details */
  engine: Engine;
  /** resolves once the detail files are open (they are, when loadBuild returns) */
  detailsReady: Promise<void>;
  /**
   * resolves once every file is validated against the contract and the listing packs are
   * verified against the listings and details files; rejects naming the first that is not.
   * With deferDetails this background verification starts when `validated` is first read, with
   * the warm-up of the lazily parsed datasets (rankings, suggest, lead routing).
   */
  readonly validated: Promise<void>;
  /** the other datasets, URLs resolved, for the endpoints of later issues */
  marketRates: PerLocale<MarketRatesFile>;
  rankings: PerLocale<Record<string, RankingsPayload>>;
  places: PerLocale<Record<string, PlaceHub>>;
  operators: PerLocale<Record<string, unknown>>;
  readonly suggest: SuggestEntry[];
  /** the autocomplete index over `suggest`, built at load */
  readonly suggestIndex: SuggestIndex;
  priceIndex: unknown;
  readonly leadRouting: LeadRouting;
  /** files served as they are (price-report.csv, price-report.datapackage.json), if present */
  rawFiles: Map<string, Buffer>;
  /** releases the open detail files; call once the build is no longer served */
  close(): Promise<void>;
}

/** Where the request handlers get the build to answer with. */
export interface CatalogSource {
  current(): LoadedBuild;
}

export class BuildLoadError extends Error {}

export { resolveSitePaths };

export interface LoadOptions {
  siteUrl: string;
  now?: () => number;
  /** keep LRU caches of response bodies (default true) */
  queryCache?: boolean;
  /**
   * Return as soon as the engine can answer, and validate the big files (facts, cards, details,
   * the packs against them) in the background (`validated`, started when first read: the server
   * reads it once it is listening). Used for the first build at start-up, where there is no
   * previous build to keep serving; reloads validate everything before the swap.
   */
  deferDetails?: boolean;
  /** the filters the engine indexes (default FILTERS, api/catalog/filters.ts) */
  filters?: FilterRegistry;
}

/** Reads a build directory: manifest, checksums, contract validation of every file, then indexes. */
export async function loadBuild(dir: string, opts: LoadOptions): Promise<LoadedBuild> {
  const fail = (msg: string): never => { throw new BuildLoadError(`build ${dir}: ${msg}`); };
  let manifestRaw: unknown;
  try {
    manifestRaw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch (err) {
    return fail(`manifest.json unreadable: ${(err as Error).message}`);
  }
  const m = ManifestSchema.safeParse(manifestRaw);
  if (!m.success) return fail(`manifest.json invalid: ${m.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const manifest = m.data;

  const required = [
    ...Object.keys(BUILD_FILES),
    ...Object.keys(LOCALIZED_BUILD_FILES).flatMap((name) => LOCALES.map((l) => `${name}.${l}.json`)),
  ];
  for (const name of required) if (!(name in manifest.files)) fail(`manifest lists no ${name}`);
  for (const name of Object.keys(manifest.files)) if (name.includes('/') || name.includes('..')) fail(`unsafe file name ${name}`);

  const pool = new LoadPool();
  const file = (name: string) => ({ path: join(dir, name), name, sha: manifest.files[name] });
  const wrap = <T>(p: Promise<T>) => p.catch((err: Error): never => fail(err.message));
  const json = <T>(name: string, schema: string) => wrap(pool.run<T>({ kind: 'json', ...file(name), schema, siteUrl: opts.siteUrl }));
  const perLocale = async <T>(name: keyof typeof LOCALIZED_BUILD_FILES): Promise<PerLocale<T>> => {
    const values = await Promise.all(LOCALES.map((l) => json<T>(`${name}.${l}.json`, `localized:${name}`)));
    return Object.fromEntries(LOCALES.map((l, k) => [l, values[k]])) as PerLocale<T>;
  };

  let opened: Engine | undefined;
  try {
    // Queue order = start order: what the engine needs first (the small files, then the packs).
    const labels = json<FacetLabels>('facet-labels.json', 'facet-labels.json');
    const geo = perLocale<GeoPayload>('geo');
    const packs = LOCALES.map((l) => wrap(pool.run<PackResult>({ kind: 'pack', locale: l, dir, files: manifest.files, siteUrl: opts.siteUrl })));
    const config = json<ConfigPayload>('config.json', 'config.json');
    const rest = Promise.all([
      perLocale<MarketRatesFile>('market-rates'),
      perLocale<Record<string, PlaceHub>>('places'),
      perLocale<Record<string, unknown>>('operators'),
      json<unknown>('price-index.json', 'price-index.json'),
    ]);
    for (const p of [...packs, config, labels, geo, rest]) p.catch(() => undefined);

    // The bigger JSON files are read now, and checksummed and parsed on this thread when first
    // used: at once for a reload, right after listening for the first build (`validated` starts
    // the warm-up), or by a request that comes earlier. Parsing here is cheaper than parsing in a
    // worker and copying the objects over. Their contract check runs with the background
    // verification (every file has had the pipeline's check before publish).
    const onThisThread: { name: string; schema: string }[] = [];
    const readLater = async <T>(name: string, schema: string, keep: (value: T) => T = (v) => v): Promise<() => T> => {
      let buf: Buffer | undefined = await readFile(join(dir, name)).catch((err: Error) => fail(`${name} unreadable: ${err.message}`));
      onThisThread.push({ name, schema });
      let value: T | undefined;
      return () => {
        if (value === undefined) {
          // checksummed here, not at load: off the start-up path (a reload parses before the swap)
          if (createHash('sha256').update(buf!).digest('hex') !== manifest.files[name]) fail(`${name} checksum mismatch`);
          value = keep(resolveSitePaths(JSON.parse(buf!.toString('utf8')) as T, opts.siteUrl));
          buf = undefined;
        }
        return value;
      };
    };

    // listing-columns.json first (checked against the facts in the background)
    const columnsBuf = await readFile(join(dir, 'listing-columns.json')).catch((err: Error) => fail(`listing-columns.json unreadable: ${err.message}`));
    if (createHash('sha256').update(columnsBuf).digest('hex') !== manifest.files['listing-columns.json']) fail('listing-columns.json checksum mismatch');
    let columns: ListingColumns | undefined;
    try {
      columns = JSON.parse(columnsBuf.toString('utf8'));
    } catch (err) {
      fail(`listing-columns.json is not JSON: ${(err as Error).message}`);
    }
    if (!columns || typeof columns !== 'object' || !Array.isArray(columns.slugs)) fail('listing-columns.json is not an object of columns');

    let engine: Engine;
    try {
      engine = opened = new Engine(columns!, await labels, await geo, { queryCache: opts.queryCache ?? true, filters: opts.filters });
    } catch (err) {
      return fail((err as Error).message);
    }
    columns = undefined;
    const rankings = {} as PerLocale<Record<string, RankingsPayload>>;
    for (const l of LOCALES) {
      // every eligible space is ranked in the file; a response holds the first MAX_RANKING_LIMIT
      const get = await readLater<Record<string, RankingsPayload>>(`rankings.${l}.json`, 'localized:rankings', (byCity) => {
        for (const r of Object.values(byCity)) r.ranked = r.ranked.slice(0, MAX_RANKING_LIMIT);
        return byCity;
      });
      Object.defineProperty(rankings, l, { get, enumerable: true });
    }
    const suggest = await readLater<SuggestEntry[]>('suggest.json', 'suggest.json');
    let suggestIndex: SuggestIndex | undefined;
    const suggestIndexOf = () => suggestIndex ??= new SuggestIndex(suggest());
    const leadRouting = await readLater<LeadRouting>('lead-routing.json', 'lead-routing.json');
    // This thread's own work is done: it takes the packs no worker has started yet.
    await pool.runQueuedHere((t) => t.kind === 'pack', runTask);
    for (let k = 0; k < LOCALES.length; k++) {
      const l = LOCALES[k];
      const pack = await packs[k];
      try {
        await engine.addPack(l, pack, join(dir, `properties.${l}.json`), opts.siteUrl);
      } catch (err) {
        fail((err as Error).message);
      }
    }
    const [marketRates, places, operators, priceIndex] = await rest;
    await pool.close();
    const rawFiles = new Map<string, Buffer>();
    for (const name of Object.keys(manifest.files)) {
      if (required.includes(name)) continue;
      const buf = await readFile(join(dir, name)).catch((): never => fail(`${name} unreadable`));
      if (createHash('sha256').update(buf).digest('hex') !== manifest.files[name]) fail(`${name} checksum mismatch`);
      rawFiles.set(name, buf);
    }

    // The background verification: one worker, one file at a time (little memory besides the engine's).
    let verification: Promise<void> | undefined;
    const verify = () => verification ??= (async () => {
      // Its tasks stream the big files (a few MB live besides the columns and packs they
      // re-derive), so a small heap keeps the collector from letting garbage pile up.
      const vpool = new LoadPool(1, { maxOldGenerationSizeMb: 128 });
      try {
        const parsedHere = onThisThread.map((f) => wrap(vpool.run<boolean>({ kind: 'validate', ...file(f.name), schema: f.schema })));
        for (const p of parsedHere) p.catch(() => undefined);
        const factsValid = wrap(vpool.run<boolean>({ kind: 'verify-facts', dir, files: manifest.files }));
        const locales = LOCALES.map((l) => wrap(vpool.run<VerifyResult>({ kind: 'verify-locale', locale: l, dir, files: manifest.files })));
        for (const p of [factsValid, ...locales]) p.catch(() => undefined);
        for (const p of parsedHere) await p;
        await factsValid;
        const slugs = engine.slugs.join('\n');
        for (let k = 0; k < LOCALES.length; k++) {
          const r = await locales[k];
          if (r.cardSlugs !== slugs) fail(`listings.${LOCALES[k]}.json is not in the order of listing-facts.json`);
          if (r.detailSlugs !== slugs) fail(`properties.${LOCALES[k]}.json is not in the order of listing-facts.json`);
        }
      } finally {
        await vpool.close();
      }
    })();
    // One lazily parsed dataset per event-loop turn, so requests are served in between.
    const warmUp = () => new Promise<void>((done) => {
      const steps = [...LOCALES.map((l) => () => rankings[l]), leadRouting, suggestIndexOf];
      const step = () => {
        const next = steps.shift();
        if (!next) return done();
        try { next(); } catch { /* the verification names the broken file */ }
        setImmediate(step);
      };
      setImmediate(step);
    });
    // After listening: the datasets first (requests may be waiting for them), then the verification.
    let background: Promise<void> | undefined;
    const startBackground = () => background ??= warmUp().then(verify);
    if (!opts.deferDetails) {
      await verify();
      for (const l of LOCALES) void rankings[l];
      leadRouting();
      suggestIndexOf();
    }

    return {
      id: manifest.buildId,
      dir,
      manifest,
      loadedAt: (opts.now ?? Date.now)(),
      config: await config, labels: await labels, geo: await geo, engine, detailsReady: Promise.resolve(),
      get validated() { return startBackground(); },
      marketRates, rankings, places, operators, priceIndex, rawFiles,
      get suggest() { return suggest(); },
      get leadRouting() { return leadRouting(); },
      get suggestIndex() { return suggestIndexOf(); },
      close: () => engine.close(),
    };
  } catch (err) {
    await pool.close();
    await opened?.close();
    throw err instanceof BuildLoadError ? err : new BuildLoadError(`build ${dir}: ${(err as Error).message}`);
  }
}

/** A fixed build (tests, benchmarks). */
export const staticCatalog = (build: LoadedBuild): CatalogSource => ({ current: () => build });
