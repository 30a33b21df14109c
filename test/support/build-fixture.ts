/**
 * Writes a small but complete published build (build format 5, contract/build.ts) into a
 * directory: the API tests run on it, independent of the pipeline's sample. Every file is
 * checked against the contract before it is written, as the pipeline does. With `extra`, adds
 * that many synthetic listings (the benchmark's 100k build).
 */
import { crc32 } from 'node:zlib';
import { mkdir, mkdtemp, readFile, rename, symlink, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  BUILD_FILES, BUILD_FORMAT_VERSION, CARD_FILES, DETAILS_INDEX, KEYED_BUILD_FILES, KEYED_FILE, LEAD_ROUTING, LINE_INDEXED_FILES, LOCALIZED_BUILD_FILES, NDJSON_BUILD_FILES, SUGGEST_FILES, keyedEntries, labelOrders, ListingColumnsSchema, type LeadRouting, type ListingColumns,
} from '../../contract/build.ts';
import { fileDigests } from '../../contract/file-digests.ts';
import { REQUEST_DEPENDENT_FIELDS } from '../../contract/catalog.ts';
import { byLocale, LOCALES, OPTION_TYPES, type BillingPeriod, type Currency, type Locale, type MarketPosition, type OptionType } from '../../contract/common.ts';
import { CONTRACT_HASH } from '../../contract/hash.ts';
import { encodeSuggestIndex } from '../../contract/suggest-index.ts';
import { encodeListingColumns, LISTING_COLUMNS_FILE, type ListingOrder } from '../../contract/listing-columns.ts';
import { listingOrders } from './listing-columns.ts';
import { encodeLineIndex, LINE_INDEX_FILE, lineIndexOf } from '../../contract/line-index.ts';
import { splitCard } from '../../pipeline/lib/card-parts.ts';
import { buildSuggestIndex, suggestFileLines } from '../../pipeline/lib/suggest-index.ts';
import { foldedNames } from '../../contract/fold.ts';
import { MONTHLY_FACTORS, PERIOD_PRICE_BASIS, PRICE_BASES, priceBasisOrder, type PriceBasis } from '../../contract/prices.ts';
import { checkerFor } from '../../contract/validate.ts';

type L10n = Record<Locale, string>;
const same = (s: string): L10n => byLocale(() => s);

export interface FixtureCountry { slug: string; code: string; currency: Currency; name: L10n }
export interface FixtureCity { slug: string; country: string; name: L10n; center: { lat: number; lng: number }; zones: { slug: string; name: L10n }[] }
export interface FixtureOption { type: OptionType; amount: number | null; period: BillingPeriod; maxCapacity?: number }
export interface FixtureListing {
  slug: string;
  title: string;
  city: string;
  zone: string | null;
  operator: string | null;
  street: string;
  houseNumber: string;
  coordinates: { lat: number; lng: number } | null;
  amenities: string[];
  capacity: number | null;
  capacityDeclared: boolean;
  rating: { score: number; count: number } | null;
  featured: boolean;
  updatedAt: string | null;
  options: FixtureOption[];
  verdict: 'below' | 'around' | 'above' | null;
}

export const COUNTRIES: FixtureCountry[] = [
  { slug: 'germany', code: 'DE', currency: 'EUR', name: { en: 'Germany', de: 'Deutschland', es: 'Alemania' } },
  { slug: 'spain', code: 'ES', currency: 'EUR', name: { en: 'Spain', de: 'Spanien', es: 'España' } },
  { slug: 'venezuela', code: 'VE', currency: 'VES', name: { en: 'Venezuela', de: 'Venezuela', es: 'Venezuela' } },
  { slug: 'united-kingdom', code: 'GB', currency: 'GBP', name: { en: 'United Kingdom', de: 'Vereinigtes Königreich', es: 'Reino Unido' } },
  { slug: 'united-states', code: 'US', currency: 'USD', name: { en: 'United States', de: 'Vereinigte Staaten', es: 'Estados Unidos' } },
];

export const CITIES: FixtureCity[] = [
  { slug: 'berlin', country: 'germany', name: { en: 'Berlin', de: 'Berlin', es: 'Berlín' }, center: { lat: 52.52, lng: 13.405 },
    zones: [{ slug: 'berlin-mitte', name: same('Mitte') }, { slug: 'berlin-kreuzberg', name: same('Kreuzberg') }] },
  { slug: 'munich', country: 'germany', name: { en: 'Munich', de: 'München', es: 'Múnich' }, center: { lat: 48.137, lng: 11.575 }, zones: [] },
  { slug: 'madrid', country: 'spain', name: same('Madrid'), center: { lat: 40.4168, lng: -3.7038 },
    zones: [{ slug: 'madrid-centro', name: same('Centro') }, { slug: 'madrid-salamanca', name: same('Salamanca') }] },
  { slug: 'valencia', country: 'spain', name: same('Valencia'), center: { lat: 39.4699, lng: -0.3763 }, zones: [] },
  { slug: 'valencia-ve', country: 'venezuela', name: same('Valencia'), center: { lat: 10.162, lng: -68.0077 }, zones: [] },
  { slug: 'london', country: 'united-kingdom', name: { en: 'London', de: 'London', es: 'Londres' }, center: { lat: 51.5072, lng: -0.1276 },
    zones: [{ slug: 'london-shoreditch', name: same('Shoreditch') }] },
  { slug: 'new-york', country: 'united-states', name: { en: 'New York', de: 'New York', es: 'Nueva York' }, center: { lat: 40.7128, lng: -74.006 }, zones: [] },
  { slug: 'adak', country: 'united-states', name: same('Adak'), center: { lat: 51.88, lng: -176.658 }, zones: [] },
  { slug: 'attu', country: 'united-states', name: same('Attu'), center: { lat: 52.85, lng: 172.9 }, zones: [] },
];

export const OPERATORS = [
  { slug: 'spacehub', name: 'SpaceHub' },
  { slug: 'deskco', name: 'DeskCo' },
  { slug: 'nomad-works', name: 'Nomad Works' },
];

export const AMENITIES: Record<string, L10n> = {
  wifi: { en: 'Wi-Fi', de: 'WLAN', es: 'Wifi' },
  coffee: { en: 'Coffee', de: 'Kaffee', es: 'Café' },
  parking: { en: 'Parking', de: 'Parkplatz', es: 'Aparcamiento' },
  meeting_rooms: { en: 'Meeting rooms', de: 'Besprechungsräume', es: 'Salas de reuniones' },
  '24_7_access': { en: '24/7 access', de: 'Zugang rund um die Uhr', es: 'Acceso 24/7' },
  phone_booths: { en: 'Phone booths', de: 'Telefonkabinen', es: 'Cabinas telefónicas' },
  kitchen: { en: 'Kitchen', de: 'Küche', es: 'Cocina' },
  bike_storage: { en: 'Bike storage', de: 'Fahrradstellplatz', es: 'Aparcabicis' },
};

export const OPTION_LABELS: Record<OptionType, L10n> = {
  private_office: { en: 'Private office', de: 'Privates Büro', es: 'Oficina privada' },
  exclusive_bereich: { en: 'Exclusive area', de: 'Exklusiver Bereich', es: 'Zona exclusiva' },
  fix_desk: { en: 'Fixed desk', de: 'Fester Schreibtisch', es: 'Puesto fijo' },
  flex_desk: { en: 'Flex desk', de: 'Flexibler Schreibtisch', es: 'Puesto flexible' },
  day_pass: { en: 'Day pass', de: 'Tagespass', es: 'Pase de día' },
  meeting_room: { en: 'Meeting room', de: 'Besprechungsraum', es: 'Sala de reuniones' },
  virtual_office: { en: 'Virtual office', de: 'Virtuelles Büro', es: 'Oficina virtual' },
  event_space: { en: 'Event space', de: 'Eventfläche', es: 'Espacio para eventos' },
  membership: { en: 'Membership', de: 'Mitgliedschaft', es: 'Membresía' },
};

export const FX_PER_EUR: Record<Currency, number> = { EUR: 1, GBP: 0.85, USD: 1.08, CHF: 0.95, VES: 39.5, AED: 3.97 };

const AMENITY_SLUGS = Object.keys(AMENITIES);

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function listing(p: Partial<FixtureListing> & Pick<FixtureListing, 'slug' | 'city'>): FixtureListing {
  return {
    title: p.slug.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' '),
    zone: null, operator: null, street: 'Main Street', houseNumber: '1', coordinates: null, amenities: ['wifi'],
    capacity: 20, capacityDeclared: true, rating: null, featured: false, updatedAt: null,
    options: [{ type: 'flex_desk', amount: 200, period: 'month' }], verdict: null,
    ...p,
  };
}

/** The hand-written listings: one or more for every rule of the list (address forms, missing fields, currencies, the antimeridian). */
export function coreListings(): FixtureListing[] {
  const L: FixtureListing[] = [
    // Berlin, Torstraße in several spellings: the address rule
    listing({ slug: 'tor-twelve', city: 'berlin', zone: 'berlin-mitte', operator: 'spacehub', street: 'Torstraße', houseNumber: '12',
      coordinates: { lat: 52.5292, lng: 13.4010 }, amenities: ['wifi', 'coffee', 'meeting_rooms'], capacity: 40,
      rating: { score: 4.5, count: 120 }, featured: true, updatedAt: '2026-10-01T10:00:00+02:00',
      options: [{ type: 'flex_desk', amount: 250, period: 'month' }, { type: 'private_office', amount: 1200, period: 'month', maxCapacity: 4 }, { type: 'day_pass', amount: 25, period: 'day' }], verdict: 'around' }),
    listing({ slug: 'tor-twelve-a', city: 'berlin', zone: 'berlin-mitte', operator: 'deskco', street: 'Torstr.', houseNumber: '12a',
      coordinates: { lat: 52.5293, lng: 13.4012 }, amenities: ['wifi', 'coffee'], capacity: 15,
      rating: { score: 4.5, count: 200 }, updatedAt: '2026-09-15T09:00:00Z',
      options: [{ type: 'flex_desk', amount: 180, period: 'month' }, { type: 'fix_desk', amount: 300, period: 'month' }], verdict: 'below' }),
    listing({ slug: 'tor-range', city: 'berlin', zone: 'berlin-mitte', operator: 'spacehub', street: 'Tor Straße', houseNumber: '10-14',
      coordinates: { lat: 52.5291, lng: 13.4005 }, amenities: ['wifi', 'parking'], capacity: 100,
      rating: { score: 3.9, count: 12 }, updatedAt: '2026-08-01T00:00:00+00:00',
      options: [{ type: 'private_office', amount: 2400, period: 'month', maxCapacity: 8 }, { type: 'meeting_room', amount: 40, period: 'hour' }] }),
    listing({ slug: 'tor-twenty', city: 'berlin', zone: 'berlin-mitte', operator: null, street: 'Torstrasse', houseNumber: '20',
      coordinates: { lat: 52.5295, lng: 13.4030 }, amenities: ['wifi'], capacity: null, capacityDeclared: false,
      updatedAt: null, options: [{ type: 'flex_desk', amount: 199, period: 'month' }] }),
    listing({ slug: 'tor-three', city: 'berlin', zone: 'berlin-mitte', operator: 'nomad-works', street: 'TORSTRASSE', houseNumber: '3',
      coordinates: { lat: 52.5290, lng: 13.3990 }, amenities: ['wifi', 'kitchen'], capacity: 8,
      rating: { score: 5, count: 3 }, updatedAt: '2026-10-20T12:00:00+02:00', options: [{ type: 'virtual_office', amount: 49, period: 'month' }] }),
    listing({ slug: 'oranien-loft', city: 'berlin', zone: 'berlin-kreuzberg', operator: 'deskco', street: 'Oranienstraße', houseNumber: '12',
      coordinates: { lat: 52.5016, lng: 13.4187 }, amenities: ['wifi', 'coffee', 'bike_storage', '24_7_access'], capacity: 60,
      rating: { score: 4.2, count: 45 }, updatedAt: '2026-07-07T07:07:07Z',
      options: [{ type: 'fix_desk', amount: 320, period: 'month' }, { type: 'flex_desk', amount: null, period: 'month' }], verdict: 'above' }),
    listing({ slug: 'kreuzberg-nook', city: 'berlin', zone: 'berlin-kreuzberg', street: 'Bergmannstraße', houseNumber: '5',
      coordinates: null, amenities: ['wifi', 'coffee'], capacity: 10, updatedAt: '2026-06-01T00:00:00Z',
      options: [{ type: 'day_pass', amount: 15, period: 'day' }] }),
    listing({ slug: 'berlin-on-request', city: 'berlin', zone: null, operator: 'spacehub', street: 'Friedrichstraße', houseNumber: '100',
      coordinates: { lat: 52.5200, lng: 13.3880 }, amenities: ['wifi', 'meeting_rooms', 'phone_booths'], capacity: 200,
      rating: { score: 4.2, count: 45 }, options: [{ type: 'private_office', amount: null, period: 'month' }] }),
    listing({ slug: 'munich-isar', city: 'munich', operator: 'spacehub', street: 'Leopoldstraße', houseNumber: '7',
      coordinates: { lat: 48.1600, lng: 11.5850 }, amenities: ['wifi', 'coffee', 'parking'], capacity: 30,
      rating: { score: 4.8, count: 200 }, featured: true, updatedAt: '2026-10-05T08:00:00+02:00',
      options: [{ type: 'flex_desk', amount: 290, period: 'month' }, { type: 'fix_desk', amount: 390, period: 'month' }] }),
    listing({ slug: 'munich-schwabing', city: 'munich', street: 'Leopoldstr.', houseNumber: '9',
      coordinates: { lat: 48.1610, lng: 11.5855 }, amenities: ['wifi'], capacity: 12,
      options: [{ type: 'flex_desk', amount: 260, period: 'month' }] }),
    // Madrid: Calle de Alcalá in its forms
    listing({ slug: 'alcala-21', city: 'madrid', zone: 'madrid-centro', operator: 'nomad-works', street: 'Calle de Alcalá', houseNumber: '21',
      coordinates: { lat: 40.4185, lng: -3.6990 }, amenities: ['wifi', 'coffee', 'meeting_rooms'], capacity: 50,
      rating: { score: 4.4, count: 60 }, updatedAt: '2026-09-01T10:00:00+02:00',
      options: [{ type: 'flex_desk', amount: 180, period: 'month' }, { type: 'day_pass', amount: 18, period: 'day' }], verdict: 'around' }),
    listing({ slug: 'alcala-range', city: 'madrid', zone: 'madrid-centro', operator: 'deskco', street: 'C/ Alcalá', houseNumber: '19-23',
      coordinates: { lat: 40.4186, lng: -3.6985 }, amenities: ['wifi'], capacity: 25, updatedAt: '2026-09-02T10:00:00+02:00',
      options: [{ type: 'fix_desk', amount: 240, period: 'month' }] }),
    listing({ slug: 'alcala-40', city: 'madrid', zone: 'madrid-salamanca', street: 'Calle Alcala', houseNumber: '40',
      coordinates: { lat: 40.4210, lng: -3.6800 }, amenities: ['wifi', 'parking'], capacity: 80,
      rating: { score: 3.1, count: 7 }, updatedAt: '2026-03-03T03:03:03Z',
      options: [{ type: 'private_office', amount: 900, period: 'month', maxCapacity: 3 }] }),
    listing({ slug: 'castellana-tower', city: 'madrid', zone: 'madrid-salamanca', operator: 'spacehub', street: 'Paseo de la Castellana', houseNumber: '81',
      coordinates: { lat: 40.4480, lng: -3.6920 }, amenities: ['wifi', 'coffee', 'meeting_rooms', 'phone_booths', '24_7_access'], capacity: 300,
      rating: { score: 4.7, count: 310 }, featured: true, updatedAt: '2026-10-10T10:10:10+02:00',
      options: [{ type: 'private_office', amount: 3000, period: 'month', maxCapacity: 10 }, { type: 'flex_desk', amount: 350, period: 'month' }, { type: 'meeting_room', amount: 60, period: 'hour' }] }),
    listing({ slug: 'gran-via-hub', city: 'madrid', zone: 'madrid-centro', operator: 'nomad-works', street: 'Gran Vía', houseNumber: '1',
      coordinates: { lat: 40.4200, lng: -3.7020 }, amenities: ['wifi', 'coffee'], capacity: 40,
      options: [{ type: 'membership', amount: 120, period: 'month' }, { type: 'flex_desk', amount: 2400, period: 'year' }] }),
    // Valencia, Spain and Valencia, Venezuela
    listing({ slug: 'valencia-ruzafa', city: 'valencia', operator: 'deskco', street: 'Avenida del Puerto', houseNumber: '10',
      coordinates: { lat: 39.4620, lng: -0.3700 }, amenities: ['wifi', 'coffee', 'kitchen'], capacity: 35,
      rating: { score: 4.6, count: 90 }, updatedAt: '2026-10-02T09:00:00+02:00',
      options: [{ type: 'flex_desk', amount: 150, period: 'month' }, { type: 'fix_desk', amount: 210, period: 'month' }] }),
    listing({ slug: 'valencia-port', city: 'valencia', street: 'Av. del Puerto', houseNumber: '12',
      coordinates: { lat: 39.4610, lng: -0.3500 }, amenities: ['wifi', 'parking'], capacity: 20,
      options: [{ type: 'day_pass', amount: 12, period: 'day' }] }),
    listing({ slug: 'valencia-carabobo', city: 'valencia-ve', street: 'Avenida Bolívar', houseNumber: '105',
      coordinates: { lat: 10.1700, lng: -68.0000 }, amenities: ['wifi', 'coffee'], capacity: 18,
      rating: { score: 4.0, count: 10 }, updatedAt: '2026-05-05T05:05:05-04:00',
      options: [{ type: 'flex_desk', amount: 4000, period: 'month' }, { type: 'private_office', amount: 12000, period: 'month', maxCapacity: 2 }] }),
    listing({ slug: 'valencia-centro-ve', city: 'valencia-ve', operator: 'nomad-works', street: 'Avda. Bolívar', houseNumber: '107',
      coordinates: { lat: 10.1710, lng: -68.0010 }, amenities: ['wifi'], capacity: 9,
      options: [{ type: 'flex_desk', amount: 3500, period: 'month' }] }),
    // London, GBP, English abbreviations
    listing({ slug: 'old-street-works', city: 'london', zone: 'london-shoreditch', operator: 'spacehub', street: 'Old Street', houseNumber: '10',
      coordinates: { lat: 51.5256, lng: -0.0875 }, amenities: ['wifi', 'coffee', 'phone_booths'], capacity: 70,
      rating: { score: 4.3, count: 150 }, updatedAt: '2026-10-11T11:00:00+01:00',
      options: [{ type: 'flex_desk', amount: 300, period: 'month' }, { type: 'private_office', amount: 1800, period: 'month', maxCapacity: 4 }], verdict: 'above' }),
    listing({ slug: 'old-st-studio', city: 'london', zone: 'london-shoreditch', street: 'Old St', houseNumber: '12',
      coordinates: { lat: 51.5257, lng: -0.0880 }, amenities: ['wifi'], capacity: 6,
      options: [{ type: 'fix_desk', amount: 350, period: 'month' }] }),
    listing({ slug: 'abbey-road-desks', city: 'london', operator: 'deskco', street: 'Abbey Rd', houseNumber: '3',
      coordinates: { lat: 51.5320, lng: -0.1780 }, amenities: ['wifi', 'kitchen'], capacity: 22,
      rating: { score: 3.5, count: 5 }, options: [{ type: 'flex_desk', amount: 250, period: 'month' }] }),
    // New York, USD
    listing({ slug: 'fifth-avenue-suites', city: 'new-york', operator: 'spacehub', street: '5th Avenue', houseNumber: '100',
      coordinates: { lat: 40.7380, lng: -73.9920 }, amenities: ['wifi', 'coffee', 'meeting_rooms', '24_7_access'], capacity: 120,
      rating: { score: 4.1, count: 75 }, featured: true, updatedAt: '2026-10-15T09:00:00-04:00',
      options: [{ type: 'private_office', amount: 2500, period: 'month', maxCapacity: 4 }, { type: 'flex_desk', amount: 450, period: 'month' }] }),
    listing({ slug: 'fifth-ave-corner', city: 'new-york', street: '5th Ave', houseNumber: '102',
      coordinates: { lat: 40.7382, lng: -73.9918 }, amenities: ['wifi'], capacity: 14,
      options: [{ type: 'day_pass', amount: 35, period: 'day' }] }),
    // Either side of the antimeridian
    listing({ slug: 'adak-outpost', city: 'adak', street: 'Main Road', houseNumber: '1',
      coordinates: { lat: 51.8800, lng: -176.6500 }, amenities: ['wifi'], capacity: 4,
      options: [{ type: 'flex_desk', amount: 100, period: 'month' }] }),
    listing({ slug: 'attu-station', city: 'attu', street: 'Main Road', houseNumber: '2',
      coordinates: { lat: 52.8500, lng: 172.9000 }, amenities: ['wifi', 'coffee'], capacity: 3,
      options: [{ type: 'flex_desk', amount: 90, period: 'month' }] }),
  ];
  return L;
}

/** More listings, deterministic: a spread of every field over the fixture's cities. */
export function syntheticListings(count: number, seed = 7, prefix = 'space'): FixtureListing[] {
  const rnd = prng(seed);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
  const streets = ['Hauptstraße', 'Calle Mayor', 'High Street', 'Avenida Central', 'Market Rd', 'Bahnhofstr.'];
  const types: OptionType[] = ['private_office', 'fix_desk', 'flex_desk', 'day_pass', 'meeting_room', 'virtual_office', 'membership', 'exclusive_bereich', 'event_space'];
  const out: FixtureListing[] = [];
  const width = String(count).length;
  for (let k = 0; k < count; k++) {
    const city = pick(CITIES);
    const zone = city.zones.length && rnd() < 0.7 ? pick(city.zones).slug : null;
    const nOpts = 1 + Math.floor(rnd() * 3);
    const options: FixtureOption[] = [];
    for (let o = 0; o < nOpts; o++) {
      const type = pick(types);
      const period: BillingPeriod = type === 'day_pass' ? 'day' : type === 'meeting_room' ? 'hour' : rnd() < 0.1 ? 'year' : 'month';
      options.push({ type, amount: rnd() < 0.08 ? null : Math.round(20 + rnd() * 3000), period, maxCapacity: type === 'private_office' ? 1 + Math.floor(rnd() * 10) : undefined });
    }
    const amenities = AMENITY_SLUGS.filter(() => rnd() < 0.4);
    const coords = rnd() < 0.93 ? { lat: +(city.center.lat + (rnd() - 0.5) * 0.3).toFixed(5), lng: +(city.center.lng + (rnd() - 0.5) * 0.4).toFixed(5) } : null;
    out.push(listing({
      slug: `${prefix}-${String(k).padStart(width, '0')}`,
      title: `${pick(['Desk', 'Loft', 'Studio', 'Hub', 'Works', 'Office'])} ${pick(['Central', 'Park', 'Garden', 'River', 'Tower', 'Yard'])} ${k}`,
      city: city.slug,
      zone,
      operator: rnd() < 0.7 ? pick(OPERATORS).slug : null,
      street: pick(streets),
      houseNumber: rnd() < 0.1 ? `${1 + Math.floor(rnd() * 50)}-${60 + Math.floor(rnd() * 10)}` : `${1 + Math.floor(rnd() * 120)}${rnd() < 0.1 ? 'b' : ''}`,
      coordinates: coords,
      amenities,
      capacity: rnd() < 0.9 ? 1 + Math.floor(rnd() * 300) : null,
      capacityDeclared: rnd() < 0.8,
      rating: rnd() < 0.7 ? { score: Math.round(rnd() * 50) / 10, count: Math.floor(rnd() * 400) } : null,
      featured: rnd() < 0.05,
      updatedAt: rnd() < 0.85 ? new Date(Date.UTC(2025, 0, 1) + Math.floor(rnd() * 600) * 86400000 + Math.floor(rnd() * 86400) * 1000).toISOString() : null,
      options,
      verdict: rnd() < 0.5 ? pick(['below', 'around', 'above'] as const) : null,
    }));
  }
  return out;
}

/** DETAILS_INDEX of a details or keyed file: (length, CRC-32) of every line. */
function detailsIndex(text: string): Buffer {
  const lines = text.split('\n').slice(0, -1).map((l) => `${l}\n`);
  const buf = Buffer.alloc(lines.length * DETAILS_INDEX.bytesPerRecord);
  lines.forEach((l, i) => {
    buf.writeUInt32LE(Buffer.byteLength(l), i * 8);
    buf.writeUInt32LE(crc32(l), i * 8 + 4);
  });
  return buf;
}

export interface FixtureOptions {
  /** synthetic listings added to the hand-written ones */
  extra?: number;
  buildId?: string;
  minSupportedBuild?: number;
  /** long enough descriptions to weigh like real ones (the benchmark) */
  longText?: boolean;
  /** change the file texts before the manifest is written (e.g. to break one); the checksums match what it leaves */
  mutate?: (files: Map<string, string>) => void;
  /** change the listing columns and orders before they are encoded into listing-columns.bin (e.g. to break them) */
  columns?: (columns: ListingColumns, orders: Record<ListingOrder, number[]>) => void;
  /** change the binary files (given the texts, after `mutate`) before the manifest is written */
  mutateBinary?: (binary: Map<string, Buffer>, files: Map<string, string>) => void;
}

export interface Fixture {
  dir: string;
  listings: FixtureListing[];
  countries: FixtureCountry[];
  cities: FixtureCity[];
  /** the listing columns as the listing_columns mart would give them (before encoding) */
  columns: ListingColumns;
  /** the lead routing written as LEAD_ROUTING */
  routing: LeadRouting;
}

const cityOf = (slug: string) => CITIES.find((c) => c.slug === slug)!;
const countryOf = (city: FixtureCity) => COUNTRIES.find((c) => c.slug === city.country)!;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The cheapest published price of a listing, overall or of one option type. */
interface Price { amount: number; currency: Currency; billingPeriod: BillingPeriod }
/** The price a listing compares on (contract/prices.ts), overall or of one option type. */
interface Comparable { amount: number; eur: number; currency: Currency; basis: PriceBasis }
/** What the listing columns hold of a listing. */
interface Facts {
  fromPrice: Price | null;
  fromPriceByType: Partial<Record<OptionType, Price>>;
  comparable: Comparable | null;
  comparableByType: Partial<Record<OptionType, Comparable>>;
  marketPosition: MarketPosition | null;
  marketPositionByType: Partial<Record<OptionType, MarketPosition>>;
  amenities: string[];
  optionTypes: OptionType[];
}

function priceOf(o: FixtureOption, currency: Currency): Price {
  return { amount: o.amount!, currency, billingPeriod: o.period };
}

/** Of the priced options of a product, those on the first basis of the product's order, the cheapest in EUR. */
function comparableOf(options: FixtureOption[], product: OptionType | 'all', currency: Currency): Comparable | null {
  const order = priceBasisOrder(product);
  const candidates = options.filter((o) => o.amount !== null && (product === 'all' || o.type === product)).map((o) => {
    const factor = (MONTHLY_FACTORS as Partial<Record<BillingPeriod, { times: number; per: number }>>)[o.period];
    const monthly = factor ? (o.amount! * factor.times) / factor.per : o.amount!;
    return { amount: round2(monthly), eur: Math.round((monthly / FX_PER_EUR[currency]) * 1e4) / 1e4, currency, basis: PERIOD_PRICE_BASIS[o.period] };
  });
  candidates.sort((a, b) => order.indexOf(a.basis) - order.indexOf(b.basis) || a.eur - b.eur);
  return candidates[0] ?? null;
}

function factsOf(l: FixtureListing): Facts {
  const currency = countryOf(cityOf(l.city)).currency;
  const priced = l.options.filter((o) => o.amount !== null).sort((a, b) => a.amount! - b.amount!);
  const fromPrice = priced.length ? priceOf(priced[0], currency) : null;
  const fromPriceByType: Facts['fromPriceByType'] = {};
  for (const o of priced) fromPriceByType[o.type] ??= priceOf(o, currency);
  const marketPosition = l.verdict && fromPrice
    ? { verdict: l.verdict, median: { amount: round2(fromPrice.amount * 1.05), currency }, sampleSize: 12 }
    : null;
  const marketPositionByType: Facts['marketPositionByType'] = {};
  if (marketPosition) {
    for (const t of Object.keys(fromPriceByType) as OptionType[]) {
      marketPositionByType[t] = { ...marketPosition, median: { amount: round2(fromPriceByType[t]!.amount * 0.95), currency } };
    }
  }
  const comparableByType: Facts['comparableByType'] = {};
  for (const t of Object.keys(fromPriceByType) as OptionType[]) comparableByType[t] = comparableOf(l.options, t, currency)!;
  return {
    fromPrice, fromPriceByType, marketPosition, marketPositionByType,
    comparable: comparableOf(l.options, 'all', currency), comparableByType,
    amenities: [...l.amenities].sort(),
    optionTypes: [...new Set(l.options.map((o) => o.type))].sort(),
  };
}

/** Repeated values stored once, referenced by index (-1 for none). */
class Dict<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<string, number>();
  id(v: T | null | undefined): number {
    if (v === null || v === undefined) return -1;
    const key = JSON.stringify(v);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.push(v) - 1;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** The listing columns of the listings (in place order), as ListingColumnsSchema describes them. */
function columnsOf(listings: FixtureListing[], facts: Facts[]): ListingColumns {
  const d = {
    country: new Dict<string>(), countryCode: new Dict<string>(), city: new Dict<string>(), zone: new Dict<string>(),
    operator: new Dict<string>(), street: new Dict<string>(), houseNumber: new Dict<string>(),
    currencies: new Dict<Currency>(), billingPeriods: new Dict<BillingPeriod>(), marketPositions: new Dict<MarketPosition>(),
  };
  const prices = (p: (Price | null | undefined)[], m: (MarketPosition | null | undefined)[], c: (Comparable | null | undefined)[]): ListingColumns['fromPrice'] => ({
    amount: p.map((x) => x?.amount ?? null),
    currency: p.map((x) => d.currencies.id(x?.currency)),
    billingPeriod: p.map((x) => d.billingPeriods.id(x?.billingPeriod)),
    marketPosition: m.map((x) => d.marketPositions.id(x)),
    comparableAmount: c.map((x) => x?.amount ?? null),
    comparableEur: c.map((x) => x?.eur ?? null),
    comparableCurrency: c.map((x) => d.currencies.id(x?.currency)),
    comparableBasis: c.map((x) => (x ? PRICE_BASES.indexOf(x.basis) : -1)),
  });
  const indicesWith = (has: (i: number) => boolean) => listings.flatMap((_, i) => (has(i) ? [i] : []));
  const amenities = [...new Set(facts.flatMap((f) => f.amenities))].sort();
  const types = OPTION_TYPES.filter((t) => facts.some((f) => f.optionTypes.includes(t)));
  const pricedTypes = OPTION_TYPES.filter((t) => facts.some((f) => f.fromPriceByType[t] || f.marketPositionByType[t]));
  const columns = {
    slugs: listings.map((l) => l.slug),
    country: listings.map((l) => d.country.id(cityOf(l.city).country)),
    countryCode: listings.map((l) => d.countryCode.id(countryOf(cityOf(l.city)).code)),
    city: listings.map((l) => d.city.id(l.city)),
    zone: listings.map((l) => d.zone.id(l.zone)),
    operator: listings.map((l) => d.operator.id(l.operator)),
    street: listings.map((l) => d.street.id(l.street)),
    houseNumber: listings.map((l) => d.houseNumber.id(l.houseNumber)),
    amenities: Object.fromEntries(amenities.map((a) => [a, indicesWith((i) => facts[i].amenities.includes(a))])),
    optionTypes: Object.fromEntries(types.map((t) => [t, indicesWith((i) => facts[i].optionTypes.includes(t))])),
    featured: indicesWith((i) => listings[i].featured),
    capacity: listings.map((l) => l.capacity),
    lat: listings.map((l) => l.coordinates?.lat ?? null),
    lng: listings.map((l) => l.coordinates?.lng ?? null),
    updatedMs: listings.map((l) => (l.updatedAt ? Date.parse(l.updatedAt) : null)),
    ratingScore: listings.map((l) => l.rating?.score ?? null),
    ratingCount: listings.map((l) => l.rating?.count ?? null),
    fromPrice: prices(facts.map((f) => f.fromPrice), facts.map((f) => f.marketPosition), facts.map((f) => f.comparable)),
    fromPriceByType: Object.fromEntries(pricedTypes.map((t) => [t, prices(
      facts.map((f) => f.fromPriceByType[t]), facts.map((f) => f.marketPositionByType[t]), facts.map((f) => f.comparableByType[t]),
    )])),
  };
  return { ...columns, dict: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v.values])) as ListingColumns['dict'] };
}

/** Each value checked against its contract schema, then one JSON text a line. */
function ndjson(name: string, schema: z.ZodType, values: unknown[]): string {
  const check = checkerFor(schema);
  values.forEach((v, i) => {
    const problem = check(v);
    if (problem) throw new Error(`fixture ${name} line ${i + 1}: ${problem}`);
  });
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}

function json(name: string, schema: z.ZodType, value: unknown): string {
  const problem = checkerFor(schema)(value);
  if (problem) throw new Error(`fixture ${name}: ${problem}`);
  return `${JSON.stringify(value)}\n`;
}

/** The order of the build's listings (contract/build.ts): by country, city, zone (none first), then slug. */
function byPlace(a: FixtureListing, b: FixtureListing): number {
  const key = (l: FixtureListing) => [cityOf(l.city).country, l.city, l.zone ?? '', l.slug];
  const [ka, kb] = [key(a), key(b)];
  for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k]) return ka[k] < kb[k] ? -1 : 1;
  return 0;
}

/** Writes a build directory; returns it and the listings it holds (in place order: listing i of the build). */
export async function writeBuildFixture(dir?: string, opts: FixtureOptions = {}): Promise<Fixture> {
  const target = dir ?? await mkdtemp(join(tmpdir(), 'desk-atlas-build-'));
  await mkdir(target, { recursive: true });
  const listings = [...coreListings(), ...syntheticListings(opts.extra ?? 0)].sort(byPlace);
  const files = new Map<string, string>();
  const filler = opts.longText
    ? ' A bright, quiet space with natural light, ergonomic chairs, fast fibre internet and a friendly community of freelancers, start-ups and remote teams. Kitchen, lockers and meeting rooms are included; events every month.'.repeat(2)
    : '';

  const facts = listings.map(factsOf);
  const columns = columnsOf(listings, facts);
  const problem = checkerFor(ListingColumnsSchema)(columns);
  if (problem) throw new Error(`fixture listing columns: ${problem}`);
  const orders = listingOrders(columns);
  opts.columns?.(columns, orders);

  const keyLabels: Record<string, L10n> = {
    country: { en: 'Country', de: 'Land', es: 'País' },
    city: { en: 'City', de: 'Stadt', es: 'Ciudad' },
    zone: { en: 'Area', de: 'Viertel', es: 'Zona' },
    operator: { en: 'Operator', de: 'Anbieter', es: 'Operador' },
    pricingOptionType: { en: 'Product', de: 'Produkt', es: 'Producto' },
    amenities: { en: 'Amenities', de: 'Ausstattung', es: 'Servicios' },
  };
  const labelMaps = {
    country: Object.fromEntries(COUNTRIES.map((c) => [c.slug, c.name])),
    city: Object.fromEntries(CITIES.map((c) => [c.slug, c.name])),
    zone: Object.fromEntries(CITIES.flatMap((c) => c.zones.map((z) => [z.slug, z.name]))),
    operator: Object.fromEntries(OPERATORS.map((o) => [o.slug, same(o.name)])),
    pricingOptionType: OPTION_LABELS,
    amenities: AMENITIES,
  };
  files.set('facet-labels.json', json('facet-labels.json', BUILD_FILES['facet-labels.json'], { keys: keyLabels, ...labelMaps, order: labelOrders(labelMaps) }));

  const logo = (slug: string) => ({ url: `/media/operators/${slug}.svg`, width: 64, height: 64, alt: slug });
  for (const locale of LOCALES) {
    // a card as the API serves it, request-dependent fields included (the details repeat them)
    const cards = listings.map((l, i) => {
      const f = facts[i];
      const city = cityOf(l.city);
      const zone = city.zones.find((z) => z.slug === l.zone);
      const op = OPERATORS.find((o) => o.slug === l.operator);
      const card: Record<string, unknown> = {
        slug: l.slug,
        title: l.title,
        countryCode: countryOf(city).code,
        city: { slug: city.slug, name: city.name[locale] },
      };
      if (zone) card.zone = { slug: zone.slug, name: zone.name[locale] };
      if (op) card.operator = { slug: op.slug, name: op.name, logo: logo(op.slug) };
      if (l.coordinates) card.coordinates = l.coordinates;
      if (f.fromPrice) { card.fromPrice = { amount: f.fromPrice.amount, currency: f.fromPrice.currency }; card.fromBillingPeriod = f.fromPrice.billingPeriod; }
      if (l.rating) card.rating = l.rating;
      card.featured = l.featured;
      if (l.updatedAt) card.updatedAt = l.updatedAt;
      card.excerpt = `${l.title} (${locale}): coworking in ${city.name[locale]}.${filler.slice(0, 150)}`;
      card.images = [{ url: `/media/spaces/${l.slug}/0.svg`, width: 800, height: 600, alt: l.title }];
      card.amenities = f.amenities;
      if (l.capacity) { card.capacity = l.capacity; card.capacity_status = l.capacityDeclared ? 'confirmed' : 'possible_undeclared'; }
      if (f.marketPosition) card.marketPosition = f.marketPosition;
      return card;
    });
    const staticCard = (c: Record<string, unknown>) => Object.fromEntries(Object.entries(c).filter(([k]) => !(REQUEST_DEPENDENT_FIELDS as readonly string[]).includes(k)));
    files.set(`cards.${locale}.ndjson`, ndjson(`cards.${locale}.ndjson`, NDJSON_BUILD_FILES.cards, cards.map(staticCard)));
    files.set(`markers.${locale}.ndjson`, ndjson(`markers.${locale}.ndjson`, NDJSON_BUILD_FILES.markers, cards.map((c) => (c.coordinates
      ? { slug: c.slug, title: c.title, coordinates: c.coordinates, featured: c.featured, image: (c.images as unknown[])[0] }
      : null))));
    const details = listings.map((l, i) => {
      const city = cityOf(l.city);
      const c = cards[i];
      const d: Record<string, unknown> = {
        slug: l.slug,
        title: l.title,
        featured: l.featured,
        description: `${l.title}: ${locale} description.${filler}`,
        address: `${l.street} ${l.houseNumber}, ${city.name[locale]}`,
        images: c.images,
        amenities: facts[i].amenities,
        pricingOptions: l.options.map((o) => ({
          optionType: o.type,
          title: OPTION_LABELS[o.type][locale],
          typeLabel: OPTION_LABELS[o.type][locale],
          priceOnRequest: o.amount === null,
          billingPeriod: o.period,
          ...(o.amount !== null ? { price: { amount: o.amount, currency: countryOf(city).currency } } : {}),
          ...(o.maxCapacity ? { minCapacity: 1, maxCapacity: o.maxCapacity } : {}),
        })),
        webUrl: `/${locale}/space/${l.slug}`,
      };
      for (const k of ['countryCode', 'city', 'zone', 'operator', 'coordinates', 'fromPrice', 'fromBillingPeriod', 'rating', 'updatedAt', 'capacity', 'marketPosition']) {
        if (c[k] !== undefined) d[k] = c[k];
      }
      return d;
    });
    files.set(`details.${locale}.ndjson`, ndjson(`details.${locale}.ndjson`, NDJSON_BUILD_FILES.details, details));
    const count = (pred: (l: FixtureListing) => boolean) => listings.filter(pred).length;
    const localized = (name: keyof typeof LOCALIZED_BUILD_FILES, value: unknown) => files.set(`${name}.${locale}.json`, json(`${name}.${locale}.json`, LOCALIZED_BUILD_FILES[name], value));
    localized('geo', {
      countries: COUNTRIES.map((c) => ({ slug: c.slug, name: c.name[locale], code: c.code, propertyCount: count((l) => cityOf(l.city).country === c.slug) })),
      cities: CITIES.map((c) => ({
        slug: c.slug, name: c.name[locale], countryCode: countryOf(c).code, propertyCount: count((l) => l.city === c.slug), center: c.center,
        zones: c.zones.map((z) => ({ slug: z.slug, name: z.name[locale], propertyCount: count((l) => l.zone === z.slug) })),
      })),
      currencies: Object.fromEntries(COUNTRIES.map((c) => [c.code, c.currency])),
    });
    const keyed = (name: keyof typeof KEYED_BUILD_FILES, values: Record<string, unknown>) => {
      json(KEYED_FILE.lines(name, locale), KEYED_BUILD_FILES[name], values);
      const entries = keyedEntries(values);
      files.set(KEYED_FILE.lines(name, locale), entries.map(([, v]) => `${JSON.stringify(v)}\n`).join(''));
      files.set(KEYED_FILE.keys(name, locale), `${JSON.stringify(entries.map(([k]) => k))}\n`);
    };
    keyed('rankings', {});
    keyed('places', {});
    keyed('operators', {});
  }
  files.set('market-rates.json', json('market-rates.json', BUILD_FILES['market-rates.json'], { asOf: '2026-11-01T00:00:00Z', cities: [] }));
  files.set('config.json', json('config.json', BUILD_FILES['config.json'], { minSupportedBuild: opts.minSupportedBuild ?? 100, recommendedBuild: 120, flags: { newSearch: true } }));
  // the autocomplete over the spaces' titles, made as the pipeline makes it
  const suggest = buildSuggestIndex(listings.map((l) => ({
    kind: 'property' as const, slug: l.slug, label: same(l.title), sublabel: null, center: null,
    propertyCount: null, foldedNames: foldedNames(l.title), weight: 1,
  })));
  const suggestLines = suggest.ranked.map((e) => suggestFileLines(e));
  LOCALES.forEach((l, k) => files.set(SUGGEST_FILES.lines(l), suggestLines.map((ls) => `${ls[k]}\n`).join('')));
  files.set('price-index.json', json('price-index.json', BUILD_FILES['price-index.json'], { asOf: '2026-11-01T00:00:00Z', methodologyUrl: '/methodology', cities: [] }));
  const routing: LeadRouting = Object.fromEntries(listings.map((l) => [l.slug, {
    title: l.title, citySlug: l.city, operatorSlug: l.operator, operatorName: OPERATORS.find((o) => o.slug === l.operator)?.name ?? null,
    enquiryEmail: l.operator ? `${l.operator}@example.com` : null,
  }]));
  json(KEYED_FILE.lines(LEAD_ROUTING.name), LEAD_ROUTING.schema, routing);
  const routes = keyedEntries(routing);
  files.set(KEYED_FILE.lines(LEAD_ROUTING.name), routes.map(([, v]) => `${JSON.stringify(v)}\n`).join(''));
  files.set(KEYED_FILE.keys(LEAD_ROUTING.name), `${JSON.stringify(routes.map(([k]) => k))}\n`);
  files.set('price-report.csv', 'country_code,city_slug\n');
  // the record indexes are made from the details as validated, as the pipeline does: a mutation
  // of a details file is damage they reveal
  const binary = new Map<string, Buffer>(LOCALES.map((l) => [DETAILS_INDEX.name(l), detailsIndex(files.get(`details.${l}.ndjson`)!)]));
  binary.set(SUGGEST_FILES.index, encodeSuggestIndex(suggest.data));
  binary.set(LISTING_COLUMNS_FILE, encodeListingColumns(columns, orders));
  for (const name of Object.keys(KEYED_BUILD_FILES)) {
    for (const l of LOCALES) binary.set(KEYED_FILE.index(name, l), detailsIndex(files.get(KEYED_FILE.lines(name, l))!));
  }
  binary.set(KEYED_FILE.index(LEAD_ROUTING.name), detailsIndex(files.get(KEYED_FILE.lines(LEAD_ROUTING.name))!));
  opts.mutate?.(files);
  // the line indexes and the card parts are made from the files as written, as the pipeline does
  for (const l of LOCALES) for (const name of LINE_INDEXED_FILES) {
    const file = `${name}.${l}.ndjson`;
    binary.set(LINE_INDEX_FILE(file), encodeLineIndex(lineIndexOf(Buffer.from(files.get(file)!))));
  }
  for (const [name, bytes] of cardParts(new Map(LOCALES.map((l) => [l, files.get(`cards.${l}.ndjson`)!])))) {
    binary.set(name, bytes);
    binary.set(LINE_INDEX_FILE(name), encodeLineIndex(lineIndexOf(bytes)));
  }
  opts.mutateBinary?.(binary, files);

  const checksums: Record<string, string> = {};
  const xxh64: Record<string, string> = {};
  for (const [name, text] of [...files, ...binary]) {
    await writeFile(join(target, name), text);
    ({ sha256: checksums[name], xxh64: xxh64[name] } = fileDigests(Buffer.from(text)));
  }
  const manifest = {
    formatVersion: BUILD_FORMAT_VERSION,
    buildId: opts.buildId ?? 'fixture',
    releaseId: '2026-11-01-000000000000',
    builtAt: '2026-11-01T00:00:00Z',
    gitSha: 'fixture',
    contractHash: CONTRACT_HASH,
    inputChecksums: {},
    files: checksums,
    xxh64,
    rowCounts: { listings: listings.length },
  };
  await writeFile(join(target, 'manifest.json'), JSON.stringify(manifest));
  return { dir: target, listings, countries: COUNTRIES, cities: CITIES, columns, routing };
}

/** Points `<dist>/current` at a build directory the way the pipeline does: a new link renamed over the old. */
export async function publish(distDir: string, buildDir: string): Promise<void> {
  await mkdir(distDir, { recursive: true });
  const tmp = join(distDir, `.current-${process.pid}-${Date.now()}`);
  await symlink(buildDir, tmp);
  await rename(tmp, join(distDir, 'current'));
}

export async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

export const removeDir = (dir: string) => rm(dir, { recursive: true, force: true });

/** The card parts (CARD_FILES) of each locale's cards as the pipeline splits them (pipeline/lib/card-parts.ts); cards of one locale beyond another's are left out. */
function cardParts(cards: Map<string, string>): Map<string, Buffer> {
  const lines = [...cards.values()].map((text) => text.split('\n').slice(0, -1).map((line) => Buffer.from(line)));
  const n = Math.min(...lines.map((l) => l.length));
  const parts: Buffer[] = [], texts: Buffer[][] = lines.map(() => []);
  for (let i = 0; i < n; i++) splitCard(lines.map((l) => l[i]), parts, texts);
  return new Map([[CARD_FILES.parts, Buffer.concat(parts)], ...[...cards.keys()].map((l, k) => [CARD_FILES.texts(l), Buffer.concat(texts[k])] as [string, Buffer])]);
}
