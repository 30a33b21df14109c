/**
 * Tiny input snapshots for pipeline tests: a valid base (Germany, Spain, Venezuela, UK; Berlin,
 * both Valencias, London) that a test extends with the spaces and price observations it needs.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { INPUT_TABLES, type InputTableName } from '../../pipeline/lib/inputs.ts';

export type FixtureRow = Record<string, string>;
export type FixtureTables = Record<InputTableName, FixtureRow[]> & { config: unknown };

export const BERLIN = '2950159';
export const VALENCIA_ES = '2509954';
export const VALENCIA_VE = '3625549';
export const LONDON = '2643743';
export const MITTE = '2950159-1';
export const KREUZBERG = '2950159-2';

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
  return dir;
}

export function tempDir(prefix = 'desk-atlas-dist-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}
