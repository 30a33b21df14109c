/**
 * Tiny input snapshots for pipeline tests: a valid base (Germany, Spain, Venezuela, UK; Berlin,
 * both Valencias, London) that a test extends with the spaces and price observations it needs.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { KEYED_FILE, type ListingColumns } from '../../contract/build.ts';
import { LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import { readListingColumns } from './listing-columns.ts';
import { PRICE_BASES } from '../../contract/prices.ts';
import { INPUT_TABLES, type InputTableName } from '../../pipeline/lib/inputs.ts';

export type FixtureRow = Record<string, string>;
export type FixtureTables = Record<InputTableName, FixtureRow[]> & { config: unknown; source: unknown };

export const BERLIN = '2950159';
export const VALENCIA_ES = '2509954';
export const VALENCIA_VE = '3625549';
export const LONDON = '2643743';
export const MITTE = '2950159-1';
export const KREUZBERG = '2950159-2';
/** source.json's extractedAt of every fixture: after every observation the tests date (an observation after it is future_date) */
export const FIXTURE_EXTRACTED_AT = '2026-11-01T00:00:00Z';

export function baseTables(): FixtureTables {
  return {
    countries: [
      { country_code: 'DE', name_en: 'Germany', name_de: 'Deutschland', name_es: 'Alemania', currency: 'EUR' },
      { country_code: 'ES', name_en: 'Spain', name_de: 'Spanien', name_es: 'España', currency: 'EUR' },
      { country_code: 'VE', name_en: 'Venezuela', name_de: 'Venezuela', name_es: 'Venezuela', currency: 'VES' },
      { country_code: 'GB', name_en: 'United Kingdom', name_de: 'Vereinigtes Königreich', name_es: 'Reino Unido', currency: 'GBP' },
    ],
    cities: [
      city(BERLIN, 'DE', 'Berlin', 52.52, 13.405, 3_600_000),
      city(VALENCIA_ES, 'ES', 'Valencia', 39.4699, -0.3763, 1_600_000),
      city(VALENCIA_VE, 'VE', 'Valencia', 10.162, -68.0077, 1_400_000),
      city(LONDON, 'GB', 'London', 51.5074, -0.1278, 8_900_000, { name_de: 'London', name_es: 'Londres' }),
    ],
    zones: [
      { zone_id: MITTE, city_id: BERLIN, name_en: 'Mitte', name_de: 'Mitte', name_es: 'Mitte', lat: '52.52', lng: '13.40' },
      { zone_id: KREUZBERG, city_id: BERLIN, name_en: 'Kreuzberg', name_de: 'Kreuzberg', name_es: 'Kreuzberg', lat: '', lng: '' },
    ],
    operators: [
      {
        operator_id: 'op-001', name: 'Desk Nest', logo_path: '/media/operators/op-001.svg', website: 'https://desknest.example',
        enquiry_email: 'hello@desknest.example', tagline_en: 'Desks that feel like home', tagline_de: '', tagline_es: '',
        description_en: '', description_de: '', description_es: '',
      },
    ],
    spaces: [],
    space_images: [],
    price_observations: [],
    amenities: [
      { slug: 'wifi', label_en: 'Wi-Fi', label_de: 'WLAN', label_es: 'Wifi' },
      { slug: 'coffee', label_en: 'Coffee', label_de: 'Kaffee', label_es: 'Café' },
      { slug: 'phone_booths', label_en: 'Phone booths', label_de: 'Telefonkabinen', label_es: 'Cabinas' },
    ],
    option_types: [
      ['private_office', 'Private office', 'Privatbüro', 'Oficina privada'],
      ['exclusive_bereich', 'Exclusive area', 'Exklusiver Bereich', 'Zona exclusiva'],
      ['fix_desk', 'Fixed desk', 'Fester Schreibtisch', 'Puesto fijo'],
      ['flex_desk', 'Flex desk', 'Flexibler Schreibtisch', 'Puesto flexible'],
      ['day_pass', 'Day pass', 'Tagespass', 'Pase de día'],
      ['meeting_room', 'Meeting room', 'Besprechungsraum', 'Sala de reuniones'],
      ['virtual_office', 'Virtual office', 'Virtuelles Büro', 'Oficina virtual'],
      ['event_space', 'Event space', 'Eventfläche', 'Espacio para eventos'],
      ['membership', 'Membership', 'Mitgliedschaft', 'Membresía'],
    ].map(([option_type, label_en, label_de, label_es]) => ({ option_type, label_en, label_de, label_es })),
    fx_reference: [
      ['EUR', '1'], ['GBP', '0.85'], ['USD', '1.08'], ['CHF', '0.94'], ['VES', '40'], ['AED', '3.97'],
    ].map(([currency, units_per_eur]) => ({ currency, units_per_eur, as_of_date: '2025-10-01' })),
    config: { minSupportedBuild: 1, flags: { priceIndex: true } },
    source: {
      name: 'Test fixture', description: 'Invented spaces and prices for a pipeline test.', sampleData: true, extractedAt: FIXTURE_EXTRACTED_AT,
    },
  };
}

export function city(city_id: string, country_code: string, name: string, lat: number, lng: number, population: number,
  extra: Partial<FixtureRow> = {}): FixtureRow {
  return {
    city_id, country_code, name_en: name, name_de: name, name_es: name, lat: String(lat), lng: String(lng),
    population: String(population), intro_en: '', intro_de: '', intro_es: '', ...extra,
  };
}

export function space(space_id: string, extra: Partial<FixtureRow> = {}): FixtureRow {
  return {
    space_id, name: `Space ${space_id}`, operator_id: '', city_id: BERLIN, zone_id: '', street: 'Torstraße', house_number: '1',
    postal_code: '10119', lat: '52.53', lng: '13.40', amenities: 'wifi;coffee', capacity: '', capacity_declared: 'false',
    rating_score: '', rating_count: '', featured: 'false', excerpt_en: 'A place to work', excerpt_de: '', excerpt_es: '',
    description_en: '', description_de: '', description_es: '', updated_at: '2025-09-01T10:00:00+02:00', ...extra,
  };
}

let observationCounter = 0;
/** One observation; `offer_id` defaults to a fresh offer. */
export function observation(space_id: string, option_type: string, amount: string, billing_period = 'month',
  extra: Partial<FixtureRow> = {}): FixtureRow {
  observationCounter += 1;
  const id = String(observationCounter).padStart(6, '0');
  return {
    observation_id: `ob-${id}`, space_id, offer_id: `of-${id}`, option_type, title: `${option_type} offer`, amount,
    currency: 'EUR', billing_period, min_capacity: '', max_capacity: '', observed_at: '2025-10-01T09:00:00Z',
    source_url: 'https://example.com/prices', ...extra,
  };
}

/** Writes the tables as a snapshot directory (CSV + config.json) and returns its path. */
export function writeSnapshot(tables: FixtureTables, dir = mkdtempSync(path.join(os.tmpdir(), 'desk-atlas-fixture-'))): string {
  mkdirSync(dir, { recursive: true });
  for (const name of Object.keys(INPUT_TABLES) as InputTableName[]) {
    const { file, columns } = INPUT_TABLES[name];
    const rows = tables[name].map((row) => columns.map((c) => row[c] ?? ''));
    writeFileSync(path.join(dir, file), stringify([[...columns], ...rows]));
  }
  writeFileSync(path.join(dir, 'config.json'), `${JSON.stringify(tables.config, null, 2)}\n`);
  writeFileSync(path.join(dir, 'source.json'), `${JSON.stringify(tables.source, null, 2)}\n`);
  return dir;
}

export function tempDir(prefix = 'desk-atlas-dist-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A copy of a fixture's published build (`current`, its links followed) in a new temporary directory, to damage; the caller removes it. */
export async function copyOfCurrent(fixture: { distDir: string }, prefix: string): Promise<string> {
  const dir = tempDir(prefix);
  await cp(path.join(fixture.distDir, 'current'), dir, { recursive: true, dereference: true });
  return dir;
}

export interface FixtureBuild {
  dataDir: string;
  distDir: string;
  json<T = any>(file: string): T;
  /** the values of an NDJSON file, one per line */
  lines<T = any>(file: string): T[];
  /** listing-columns.bin decoded into one object per listing (slug, option types, prices, positions), in the build's order (place order) */
  listings(): any[];
  /** a keyed file (KEYED_FILE, the hubs) as the map of its keys to their values */
  keyed(name: string, locale: string): Record<string, any>;
  text(file: string): string;
  rejects(): { file: string; row: number; rule: string; raw: string }[];
}

/** A keyed file of a build directory (KEYED_FILE) as the map of its keys to their values, in line order. */
export function readKeyed(dir: string, name: string, locale?: string): Record<string, any> {
  const keys = JSON.parse(readFileSync(path.join(dir, KEYED_FILE.keys(name, locale)), 'utf8')) as string[];
  const lines = readFileSync(path.join(dir, KEYED_FILE.lines(name, locale)), 'utf8').split('\n').slice(0, -1);
  if (lines.length !== keys.length) throw new Error(`${KEYED_FILE.lines(name, locale)}: ${lines.length} lines for ${keys.length} keys`);
  return Object.fromEntries(keys.map((k, i) => [k, JSON.parse(lines[i])]));
}

/** A pipeline progress reporter that prints nothing. */
export const quietProgress = { startedAt: 0, stage: <T>(_name: string, work: () => Promise<T>) => work(), note: () => {} };

/** Builds a fixture snapshot in-process (quiet) and gives access to the published files. */
export async function buildFixture(tables: FixtureTables, options: { rejectLimit?: number; allowShrink?: boolean } = {}): Promise<FixtureBuild> {
  const { runBuild } = await import('../../pipeline/run.ts');
  const dataDir = writeSnapshot(tables);
  const distDir = tempDir();
  await runBuild({
    dataDir, distDir, rejectLimit: options.rejectLimit ?? 1, allowShrink: options.allowShrink,
    progress: quietProgress,
  });
  const current = path.join(distDir, 'current');
  const text = (file: string) => readFileSync(path.join(current, file), 'utf8');
  return {
    dataDir,
    distDir,
    text,
    json: (file) => JSON.parse(text(file)),
    keyed: (name, locale) => readKeyed(current, name, locale),
    lines: (file) => text(file).split('\n').slice(0, -1).map((line) => JSON.parse(line)),
    listings: () => decodeColumns(readListingColumns(readFileSync(path.join(current, LISTING_COLUMNS_FILE))).columns),
    rejects: () => (parse(text('rejects.csv'), { columns: true }) as Record<string, string>[]).map((r) => ({
      file: r.file, row: Number(r.row), rule: r.rule, raw: r.raw,
    })),
  };
}

/** The price figures of listing-columns.bin, back in the shape of one listing each. */
function decodeColumns(c: ListingColumns) {
  const price = (p: ListingColumns['fromPrice'], i: number) => (p.amount[i] === null ? null : {
    amount: p.amount[i]!, currency: c.dict.currencies[p.currency[i]], billingPeriod: c.dict.billingPeriods[p.billingPeriod[i]],
  });
  const comparable = (p: ListingColumns['fromPrice'], i: number) => (p.comparableAmount[i] === null ? null : {
    amount: p.comparableAmount[i]!, eur: p.comparableEur[i]!, currency: c.dict.currencies[p.comparableCurrency[i]],
    basis: PRICE_BASES[p.comparableBasis[i]],
  });
  const position = (p: ListingColumns['fromPrice'], i: number) => (p.marketPosition[i] === -1 ? null : c.dict.marketPositions[p.marketPosition[i]]);
  const byType = Object.entries(c.fromPriceByType);
  return c.slugs.map((slug, i) => ({
    slug,
    optionTypes: Object.entries(c.optionTypes).filter(([, at]) => at!.includes(i)).map(([t]) => t),
    fromPrice: price(c.fromPrice, i),
    fromPriceByType: Object.fromEntries(byType.filter(([, p]) => p!.amount[i] !== null).map(([t, p]) => [t, price(p!, i)])),
    comparable: comparable(c.fromPrice, i),
    comparableByType: Object.fromEntries(byType.filter(([, p]) => p!.comparableAmount[i] !== null).map(([t, p]) => [t, comparable(p!, i)])),
    marketPosition: position(c.fromPrice, i),
    marketPositionByType: Object.fromEntries(byType.filter(([, p]) => p!.marketPosition[i] !== -1).map(([t, p]) => [t, position(p!, i)])),
  }));
}

/** A deterministic pseudo-random generator (mulberry32) for larger fixtures. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A larger valid snapshot: `spaces` spaces over Berlin, London and both Valencias, each with a few
 * offers observed several times, in every period, some on request, offices with and without desks.
 */
export function randomTables(spaces: number, seed = 7): FixtureTables {
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
  const t = baseTables();
  const cities = [
    { id: BERLIN, currency: 'EUR', scale: 1, zones: [MITTE, KREUZBERG, ''] },
    { id: LONDON, currency: 'GBP', scale: 1.2, zones: [''] },
    { id: VALENCIA_ES, currency: 'EUR', scale: 0.7, zones: [''] },
    { id: VALENCIA_VE, currency: 'VES', scale: 20, zones: [''] },
  ];
  const types = ['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'day_pass', 'meeting_room', 'virtual_office', 'event_space', 'membership'];
  const periods = ['month', 'month', 'month', 'year', 'week', 'day', 'hour', 'once'];
  for (let i = 1; i <= spaces; i++) {
    // Valencia VE stays thin: at most 3 spaces
    const c = i % 17 === 0 && i <= 51 ? cities[3] : pick(cities.slice(0, 3));
    const id = `sp-${String(i).padStart(5, '0')}`;
    t.spaces.push(space(id, {
      name: `Work Loft ${i % 40}`,
      city_id: c.id,
      zone_id: pick(c.zones),
      operator_id: rnd() < 0.3 ? 'op-001' : '',
      rating_score: rnd() < 0.5 ? (3 + rnd() * 2).toFixed(1) : '',
      rating_count: '',
      capacity: rnd() < 0.6 ? String(5 + Math.floor(rnd() * 100)) : '',
      capacity_declared: rnd() < 0.5 ? 'true' : 'false',
      lat: '', lng: '',
    }));
    const last = t.spaces[t.spaces.length - 1];
    if (last.rating_score) last.rating_count = String(1 + Math.floor(rnd() * 50));
    if (rnd() < 0.8) { last.lat = (40 + rnd()).toFixed(5); last.lng = (rnd() * 10).toFixed(5); }
    const offers = 1 + Math.floor(rnd() * 4);
    for (let o = 0; o < offers; o++) {
      const type = pick(types);
      const period = pick(periods);
      const offerId = `${id}-o${o}`;
      const desks = 2 + Math.floor(rnd() * 10);
      const observations = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < observations; k++) {
        const onRequest = rnd() < 0.08;
        const base = (type === 'private_office' || type === 'exclusive_bereich' ? 300 * desks : 250) * c.scale;
        const factor = { month: 1, year: 12, week: 0.25, day: 0.05, hour: 0.01, once: 1 }[period]!;
        t.price_observations.push(observation(id, type, onRequest ? '' : (base * factor * (0.6 + rnd())).toFixed(2), period, {
          offer_id: offerId,
          currency: c.currency,
          max_capacity: type === 'private_office' && rnd() < 0.15 ? '' : String(desks),
          min_capacity: '1',
          observed_at: `2025-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}T08:00:00Z`,
        }));
      }
    }
  }
  return t;
}
