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
import { SuggestIndex } from './suggest.ts';
import { checkerFor } from './validate.ts';

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
}

/** Where the request handlers get the build to answer with. */
export interface CatalogSource {
  current(): LoadedBuild;
}

export class BuildLoadError extends Error {}

const URL_KEYS = new Set(['url', 'webUrl', 'methodologyUrl']);

/** Builds store site-relative paths; SITE_URL is known only at start (DESIGN.md §3). */
export function resolveSitePaths<T>(value: T, siteUrl: string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i]);
      return v;
    }
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const x = o[k];
        if (typeof x === 'string') {
          if (URL_KEYS.has(k) && x.startsWith('/') && !x.startsWith('//')) o[k] = siteUrl + x;
        } else if (x && typeof x === 'object') {
          walk(x);
        }
      }
    }
    return v;
  };
  return walk(value) as T;
}

export interface LoadOptions {
  siteUrl: string;
  now?: () => number;
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

  const rawFiles = new Map<string, Buffer>();
  const readVerified = async (name: string): Promise<Buffer> => {
    if (name.includes('/') || name.includes('..')) fail(`unsafe file name ${name}`);
    let buf: Buffer;
    try {
      buf = await readFile(join(dir, name));
    } catch (err) {
      return fail(`${name} unreadable: ${(err as Error).message}`);
    }
    const sha = createHash('sha256').update(buf).digest('hex');
    if (sha !== manifest.files[name]) fail(`${name} checksum mismatch`);
    return buf;
  };
  const json = async (name: string, schema: Parameters<typeof checkerFor>[0]): Promise<any> => {
    const buf = await readVerified(name);
    let value: unknown;
    try {
      value = JSON.parse(buf.toString('utf8'));
    } catch (err) {
      return fail(`${name} is not JSON: ${(err as Error).message}`);
    }
    const problem = checkerFor(schema)(value);
    if (problem) fail(`${name} does not match the contract: ${problem}`);
    return resolveSitePaths(value, opts.siteUrl);
  };
  const perLocale = async <T>(name: keyof typeof LOCALIZED_BUILD_FILES): Promise<PerLocale<T>> => {
    const out = {} as PerLocale<T>;
    for (const l of LOCALES) out[l] = await json(`${name}.${l}.json`, LOCALIZED_BUILD_FILES[name]);
    return out;
  };

  const config = await json('config.json', BUILD_FILES['config.json']) as ConfigPayload;
  const labels = await json('facet-labels.json', BUILD_FILES['facet-labels.json']) as FacetLabels;
  const facts = await json('listing-facts.json', BUILD_FILES['listing-facts.json']) as ListingFact[];
  const suggest = await json('suggest.json', BUILD_FILES['suggest.json']) as SuggestEntry[];
  const priceIndex = await json('price-index.json', BUILD_FILES['price-index.json']);
  const leadRouting = await json('lead-routing.json', BUILD_FILES['lead-routing.json']) as LeadRouting;
  const geo = await perLocale<GeoPayload>('geo');

  const engine = new Engine(facts, labels, geo);
  // Cards and details are the bulk of a build: one locale file at a time, kept only as JSON text.
  for (const l of LOCALES) {
    const cards = await json(`listings.${l}.json`, LOCALIZED_BUILD_FILES.listings);
    engine.addCards(l, cards);
  }
  for (const l of LOCALES) {
    const details = await json(`properties.${l}.json`, LOCALIZED_BUILD_FILES.properties);
    engine.addDetails(l, details);
  }
  engine.seal();

  const marketRates = await perLocale<MarketRatesFile>('market-rates');
  const rankings = await perLocale<Record<string, RankingsPayload>>('rankings');
  const places = await perLocale<Record<string, PlaceHub>>('places');
  const operators = await perLocale<Record<string, unknown>>('operators');
  for (const name of Object.keys(manifest.files)) {
    if (!required.includes(name) && !name.endsWith('.json.gz')) rawFiles.set(name, await readVerified(name));
  }

  return {
    id: manifest.buildId,
    dir,
    manifest,
    loadedAt: (opts.now ?? Date.now)(),
    config, labels, geo, engine, marketRates, rankings, places, operators, suggest, priceIndex, leadRouting, rawFiles,
    suggestIndex: new SuggestIndex(suggest),
  };
}

/** A fixed build (tests, benchmarks). */
export const staticCatalog = (build: LoadedBuild): CatalogSource => ({ current: () => build });
