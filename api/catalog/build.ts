import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILD_FILES, LOCALIZED_BUILD_FILES, ManifestSchema,
  type FacetLabels, type LeadRouting, type ListingFact, type Manifest, type MarketRatesFile, type SuggestEntry,
} from '../contract/build.ts';
import type { ConfigPayload, GeoPayload } from '../contract/catalog.ts';
import { LOCALES, type Locale } from '../contract/common.ts';
import type { PlaceHub, RankingsPayload } from '../contract/market.ts';
import { Engine } from './engine.ts';
import type { CardsResult, DetailsResult } from './load-worker.ts';
import { LoadPool } from './pool.ts';
import { SuggestIndex } from './suggest.ts';
import { resolveSitePaths } from './text.ts';

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
  /** resolves once the detail files are validated and open (at once unless loaded with deferDetails) */
  detailsReady: Promise<void>;
  /** resolves once every file is validated against the contract; rejects naming the first that is not */
  validated: Promise<void>;
  /** the other datasets, URLs resolved, for the endpoints of later issues */
  marketRates: PerLocale<MarketRatesFile>;
  rankings: PerLocale<Record<string, RankingsPayload>>;
  places: PerLocale<Record<string, PlaceHub>>;
  operators: PerLocale<Record<string, unknown>>;
  suggest: SuggestEntry[];
  /** the autocomplete index over `suggest`, built at load */
  suggestIndex: SuggestIndex;
  priceIndex: unknown;
  leadRouting: LeadRouting;
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
  /**
   * Return as soon as the engine can answer, and finish validating the big files (facts, cards,
   * details) in the background (`validated`; the detail endpoint waits for `detailsReady`).
   * Used for the first build at start-up, where there is no previous build to keep serving;
   * reloads validate everything before the swap.
   */
  deferDetails?: boolean;
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

  try {
    // Queue order = start order: the cards first (the engine needs them), the details last.
    const cards = LOCALES.map((l) => wrap(pool.run<CardsResult>({ kind: 'cards', ...file(`listings.${l}.json`), siteUrl: opts.siteUrl })));
    const config = json<ConfigPayload>('config.json', 'config.json');
    const labels = json<FacetLabels>('facet-labels.json', 'facet-labels.json');
    const geo = perLocale<GeoPayload>('geo');
    const rest = Promise.all([
      perLocale<MarketRatesFile>('market-rates'),
      perLocale<Record<string, RankingsPayload>>('rankings'),
      perLocale<Record<string, PlaceHub>>('places'),
      perLocale<Record<string, unknown>>('operators'),
      json<SuggestEntry[]>('suggest.json', 'suggest.json'),
      json<unknown>('price-index.json', 'price-index.json'),
      json<LeadRouting>('lead-routing.json', 'lead-routing.json'),
    ]);
    // Validation of the big files (parsing each element): after everything the engine needs.
    const factsValid = wrap(pool.run<boolean>({ kind: 'validate', ...file('listing-facts.json'), schema: 'listing-facts.json' }));
    const cardChecks = LOCALES.map((l) => wrap(pool.run<DetailsResult>({ kind: 'elements', ...file(`listings.${l}.json`), schema: 'card' })));
    const details = LOCALES.map((l) => wrap(pool.run<DetailsResult>({ kind: 'elements', ...file(`properties.${l}.json`), schema: 'detail' })));
    for (const p of [...cards, config, labels, geo, rest, factsValid, ...cardChecks, ...details]) p.catch(() => undefined);

    // listing-facts.json on this thread, while the workers read the rest
    const factsBuf = await readFile(join(dir, 'listing-facts.json')).catch((err: Error) => fail(`listing-facts.json unreadable: ${err.message}`));
    if (createHash('sha256').update(factsBuf).digest('hex') !== manifest.files['listing-facts.json']) fail('listing-facts.json checksum mismatch');
    let facts: ListingFact[] = [];
    try {
      facts = JSON.parse(factsBuf.toString('utf8'));
    } catch (err) {
      fail(`listing-facts.json is not JSON: ${(err as Error).message}`);
    }
    if (!Array.isArray(facts)) fail('listing-facts.json is not an array');

    const engine = new Engine(facts, await labels, await geo);
    for (let k = 0; k < LOCALES.length; k++) {
      const c = await cards[k];
      try {
        engine.addCards(LOCALES[k], c);
      } catch (err) {
        fail((err as Error).message);
      }
    }
    const [marketRates, rankings, places, operators, suggest, priceIndex, leadRouting] = await rest;
    const rawFiles = new Map<string, Buffer>();
    for (const name of Object.keys(manifest.files)) {
      if (required.includes(name)) continue;
      const buf = await readFile(join(dir, name)).catch((): never => fail(`${name} unreadable`));
      if (createHash('sha256').update(buf).digest('hex') !== manifest.files[name]) fail(`${name} checksum mismatch`);
      rawFiles.set(name, buf);
    }

    const detailsReady = (async () => {
      const results = await Promise.all(details);
      for (let k = 0; k < LOCALES.length; k++) {
        await engine.addDetails(LOCALES[k], join(dir, `properties.${LOCALES[k]}.json`), results[k], opts.siteUrl);
      }
    })();
    const validated = (async () => {
      try {
        await factsValid;
        const checks = await Promise.all(cardChecks);
        const slugs = engine.slugs.join('\n');
        checks.forEach((c, k) => { if (c.slugs !== slugs) fail(`listings.${LOCALES[k]}.json is not in the order of listing-facts.json`); });
        await detailsReady;
      } finally {
        await pool.close();
      }
    })();
    if (opts.deferDetails) {
      detailsReady.catch(() => undefined);
      validated.catch(() => undefined);
      engine.sealInBackground();
    } else {
      await validated;
      engine.seal();
    }

    return {
      id: manifest.buildId,
      dir,
      manifest,
      loadedAt: (opts.now ?? Date.now)(),
      config: await config, labels: await labels, geo: await geo, engine, detailsReady, validated,
      marketRates, rankings, places, operators, suggest, priceIndex, leadRouting, rawFiles,
      suggestIndex: new SuggestIndex(suggest),
      close: () => engine.close(),
    };
  } catch (err) {
    await pool.close();
    throw err instanceof BuildLoadError ? err : new BuildLoadError(`build ${dir}: ${(err as Error).message}`);
  }
}

/** A fixed build (tests, benchmarks). */
export const staticCatalog = (build: LoadedBuild): CatalogSource => ({ current: () => build });
