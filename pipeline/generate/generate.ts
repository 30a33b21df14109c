/**
 * The seeded sample-data generator: writes the input snapshot described in data/README.md.
 * Same seed and options ⇒ byte-identical files. Rows are streamed to the files in small
 * batches, so `--spaces 100000` runs in bounded memory.
 *
 * Flawed rows injected on purpose (under 1% of price_observations; every other table is
 * clean), one kind after the other so each kind appears about equally often:
 *   - unknown_space      space_id that is not in spaces.csv
 *   - wrong_currency     currency that is not the space's country currency
 *   - negative_amount    amount below zero
 *   - implausible_amount amount 100× the offer's level
 *   - bad_date           observed_at that is not an ISO 8601 date-time
 *   - unknown_option     option_type outside the nine known types
 */
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { FALLBACK_LOCALE, type Locale } from '../../contract/common.ts';
import { INPUT_TABLES, type InputTableName } from '../lib/inputs.ts';
import { Rng } from './rng.ts';
import type { City, Country, CurrencyCode, Written, Zone } from './geography.ts';
import { AMENITIES, CONFIG, FX_AS_OF, sampleSource, FX_UNITS_PER_EUR, OPTION_TYPE_LABELS, type Operator } from './catalogue.ts';
import { planCatalogue, SAMPLE_SPACES, type Plan } from './scale.ts';
import { formatLocal, nextUtcMidnight, STANDARD_OFFSET, windowInstant, WINDOW_MONTHS } from './time.ts';
import {
  FEATURES, IMAGE_ALTS, TAGLINES, description, excerpt, houseNumber, independentName, label, localeCells,
  nameIn, offerTitle, postalCode, slugify, writeStreet, type Profile,
} from './text.ts';

export const DEFAULT_SPACES = SAMPLE_SPACES;
export const DEFAULT_SEED = 42;

export const FLAW_KINDS = [
  'unknown_space', 'wrong_currency', 'negative_amount', 'implausible_amount', 'bad_date', 'unknown_option',
] as const;
export type FlawKind = typeof FLAW_KINDS[number];
/** Chance that a space gets one flawed observation appended (≈ 0.5% of observations). */
const FLAW_CHANCE_PER_SPACE = 0.05;

export type Table = InputTableName;

export interface GenerateOptions { outDir: string; spaces?: number; seed?: number }
export interface GenerateStats {
  rows: Record<Table, number>;
  flawed: Record<FlawKind, number>;
  spacesPerCity: Record<string, number>;
}

class CsvFile {
  private buffer: string[][] = [];
  private readonly stream: WriteStream;
  rows = 0;

  constructor(path: string, columns: readonly string[]) {
    this.stream = createWriteStream(path, { encoding: 'utf8' });
    this.stream.write(stringify([columns as string[]]));
  }

  add(row: string[]): void {
    this.buffer.push(row);
    this.rows++;
  }

  async flush(force = false): Promise<void> {
    if (this.buffer.length === 0 || (!force && this.buffer.length < 2000)) return;
    const chunk = stringify(this.buffer);
    this.buffer = [];
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush(true);
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

const fixed = (n: number, digits: number): string => n.toFixed(digits);

/** Rounds a price the way operators publish it. */
function niceRound(x: number): number {
  const step = x >= 10000 ? 100 : x >= 1000 ? 10 : x >= 100 ? 5 : x >= 20 ? 1 : 0.5;
  return Math.round(x / step) * step;
}
const fmtAmount = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(2));

type OptionType = 'private_office' | 'exclusive_bereich' | 'fix_desk' | 'flex_desk' | 'day_pass' |
  'meeting_room' | 'virtual_office' | 'event_space' | 'membership';
type Period = 'month' | 'day' | 'hour' | 'week' | 'year' | 'once';

interface Offer {
  id: string;
  type: OptionType;
  period: Period;
  title: string;
  minCap: number | null;
  maxCap: number | null;
  base: number | null;
  onRequestLatest: boolean;
}

/** The offers a space publishes; `level` is the space's monthly flex-desk level. */
function makeOffers(rng: Rng, spaceId: string, profile: Profile, level: number, country: Country): Offer[] {
  const germanic = country.code === 'DE' || country.code === 'AT' || country.code === 'CH';
  const want: OptionType[] = [];
  const add = (t: OptionType, p: number, times = 1): void => { for (let i = 0; i < times; i++) if (rng.chance(p)) want.push(t); };
  if (profile === 'coworking') {
    add('flex_desk', 0.92); add('fix_desk', 0.6); add('day_pass', 0.6); add('meeting_room', 0.5);
    add('private_office', 0.4); add('private_office', 0.25); add('membership', 0.22);
    add('virtual_office', 0.25); add('event_space', 0.15); add('exclusive_bereich', germanic ? 0.12 : 0.04);
  } else if (profile === 'business_centre') {
    add('private_office', 0.95); add('private_office', 0.6); add('private_office', 0.35);
    add('virtual_office', 0.6); add('meeting_room', 0.7); add('exclusive_bereich', germanic ? 0.3 : 0.12);
    add('flex_desk', 0.4); add('day_pass', 0.2); add('event_space', 0.1);
  } else {
    add('fix_desk', 0.8); add('flex_desk', 0.5); add('meeting_room', 0.3); add('day_pass', 0.2); add('membership', 0.1);
  }
  if (want.length === 0) want.push('flex_desk');

  const offers: Offer[] = [];
  const usedOfficeSizes = new Set<number>();
  for (const type of want) {
    let period: Period = 'month';
    let minCap: number | null = null;
    let maxCap: number | null = null;
    let people: number | null = null;
    let base: number;
    const s = level;
    switch (type) {
      case 'flex_desk':
        period = rng.weighted<Period>(['month', 'week', 'year'], [88, 8, 4]);
        base = s * rng.float(0.9, 1.1);
        if (period === 'week') base = (base * 12 / 52) * 1.15;
        if (period === 'year') base = base * 12 * 0.9;
        break;
      case 'fix_desk':
        period = rng.weighted<Period>(['month', 'year', 'week'], [80, 12, 8]);
        base = s * rng.float(1.3, 1.6);
        if (period === 'week') base = (base * 12 / 52) * 1.15;
        if (period === 'year') base = base * 12 * 0.9;
        break;
      case 'private_office': {
        period = rng.weighted<Period>(['month', 'year'], [95, 5]);
        let size = rng.pick([1, 2, 2, 3, 4, 4, 5, 6, 8, 10, 12, 15, 20]);
        while (usedOfficeSizes.has(size)) size += 1;
        usedOfficeSizes.add(size);
        const perDesk = s * rng.float(1.7, 2.4) * (size >= 10 ? 0.85 : 1);
        if (rng.chance(0.12)) {
          base = perDesk * size;
        } else {
          maxCap = size;
          minCap = size <= 2 ? size : rng.chance(0.5) ? size : Math.max(1, size - rng.int(1, 2));
          base = perDesk * size;
        }
        if (period === 'year') base = base * 12 * 0.92;
        break;
      }
      case 'exclusive_bereich': {
        const size = rng.pick([10, 12, 16, 20, 25, 30, 40, 50]);
        const perDesk = s * rng.float(1.5, 2.0);
        if (rng.chance(0.1)) {
          base = perDesk * size;
        } else {
          maxCap = size;
          minCap = rng.chance(0.5) ? size : size - rng.int(2, 6);
          base = perDesk * size;
        }
        break;
      }
      case 'membership':
        period = rng.weighted<Period>(['month', 'year'], [80, 20]);
        base = s * rng.float(0.45, 0.8);
        if (period === 'year') base = base * 12 * 0.9;
        break;
      case 'virtual_office':
        period = rng.weighted<Period>(['month', 'year'], [70, 30]);
        base = s * rng.float(0.25, 0.45);
        if (period === 'year') base = base * 12 * 0.85;
        break;
      case 'day_pass':
        period = 'day';
        base = s * rng.float(0.1, 0.14);
        break;
      case 'meeting_room':
        period = rng.weighted<Period>(['hour', 'day'], [85, 15]);
        people = rng.pick([4, 6, 8, 10, 12, 16]);
        base = s * rng.float(0.08, 0.14) * (1 + people / 10);
        if (period === 'day') base = base * 7;
        break;
      case 'event_space':
        period = rng.weighted<Period>(['day', 'once', 'hour'], [55, 30, 15]);
        base = period === 'day' ? s * rng.float(2.5, 5) : period === 'once' ? s * rng.float(1.5, 4) : s * rng.float(0.4, 0.8);
        break;
    }
    const onRequest = rng.chance(type === 'private_office' || type === 'exclusive_bereich' || type === 'event_space' ? 0.12 : 0.03);
    offers.push({
      id: `${spaceId}-o${offers.length + 1}`,
      type, period, minCap, maxCap,
      title: offerTitle(rng, type, country.lang, minCap, maxCap, people),
      base: onRequest ? null : base,
      onRequestLatest: !onRequest && rng.chance(0.01),
    });
  }
  return offers;
}

const WRONG_CURRENCY: Record<CurrencyCode, CurrencyCode> = {
  EUR: 'USD', GBP: 'EUR', USD: 'EUR', CHF: 'EUR', VES: 'USD', AED: 'USD',
};
const BAD_DATES = ['31/02/2026', '2026-13-05T10:00:00+01:00', 'yesterday', '2026-02-30T09:00:00+01:00', '15.03.2026 10:00', 'n/a'];
const UNKNOWN_OPTIONS = ['hot_desk', 'parking_space', 'phone_booth', 'locker'];

interface Slot { city: number; operator: number }

function planSlots(rng: Rng, { cities, counts, operators }: Plan): Slot[] {
  const cityIndex = new Map(cities.map((c, i) => [c.geonameId, i]));
  const present = cities.map(() => [] as number[]);
  operators.forEach((o, oi) => { for (const id of o.cities) present[cityIndex.get(id)!].push(oi); });
  const slots: Slot[] = [];
  const firstSlot: number[] = [];
  cities.forEach((city, ci) => {
    firstSlot.push(slots.length);
    const weights = present[ci].map((oi) => operators[oi].weight);
    for (let k = 0; k < counts[ci]; k++) {
      const independent = present[ci].length === 0 || rng.chance(city.fixedSpaces ? 0.5 : 0.38);
      const operator = independent ? -1 : rng.weighted(present[ci], weights);
      slots.push({ city: ci, operator });
    }
  });
  // Every operator runs at least one space (when its cities have any): the first independent
  // space of the first of its cities that has one becomes its.
  const running = new Uint8Array(operators.length);
  for (const s of slots) if (s.operator >= 0) running[s.operator] = 1;
  const nextFree = [...firstSlot];
  operators.forEach((o, oi) => {
    if (running[oi]) return;
    for (const id of o.cities) {
      const ci = cityIndex.get(id)!;
      const end = firstSlot[ci] + counts[ci];
      while (nextFree[ci] < end && slots[nextFree[ci]].operator !== -1) nextFree[ci]++;
      if (nextFree[ci] < end) {
        slots[nextFree[ci]].operator = oi;
        running[oi] = 1;
        return;
      }
    }
  });
  return rng.shuffle(slots);
}

/** An operator's description: what it runs, and where (the first ten cities by name, the others counted). */
const OPERATOR_DESCRIPTION: Written<{ runs: (name: string, kind: string, cities: string) => string; kinds: Record<Operator['kind'], string>; more: (n: number) => string }> = {
  en: {
    runs: (name, kind, cities) => `${name} runs ${kind} in ${cities}.`,
    kinds: { business_centre: 'serviced offices', studio: 'small shared studios', coworking: 'coworking spaces' },
    more: (n) => `and ${n} other cities`,
  },
  de: {
    runs: (name, kind, cities) => `${name} betreibt ${kind} in ${cities}.`,
    kinds: { business_centre: 'Serviced Offices', studio: 'kleine Gemeinschaftsstudios', coworking: 'Coworking-Spaces' },
    more: (n) => `und ${n} weiteren Städten`,
  },
  es: {
    runs: (name, kind, cities) => `${name} gestiona ${kind} en ${cities}.`,
    kinds: { business_centre: 'oficinas con servicios', studio: 'pequeños estudios compartidos', coworking: 'espacios de coworking' },
    more: (n) => `y otras ${n} ciudades`,
  },
};

function operatorDescription(loc: Locale, o: Operator, cityNames: string[]): string | undefined {
  const copy = OPERATOR_DESCRIPTION[loc];
  if (!copy) return undefined;
  const shown = 10;
  const cities = cityNames.length <= shown ? cityNames.join(', ') : `${cityNames.slice(0, shown).join(', ')} ${copy.more(cityNames.length - shown)}`;
  return copy.runs(o.name, copy.kinds[o.kind], cities);
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

export async function generate(options: GenerateOptions): Promise<GenerateStats> {
  const total = options.spaces ?? DEFAULT_SPACES;
  const seed = options.seed ?? DEFAULT_SEED;
  const out = options.outDir;
  mkdirSync(out, { recursive: true });
  const rng = new Rng(seed);
  const plan = planCatalogue(total, seed);
  const { cities, operators } = plan;
  const countryOf = new Map(plan.countries.map((c) => [c.code, c]));

  const files = Object.fromEntries(
    (Object.keys(INPUT_TABLES) as Table[]).map((t) => [t, new CsvFile(join(out, INPUT_TABLES[t].file), INPUT_TABLES[t].columns)]),
  ) as Record<Table, CsvFile>;

  // ------------------------------------------------------------ reference tables
  for (const c of plan.countries) files.countries.add([c.code, ...localeCells((l) => c.names[l]), c.currency]);
  const zoneIds: string[][] = [];
  for (const city of cities) {
    files.cities.add([String(city.geonameId), city.country, ...localeCells((l) => city.names[l]),
      fixed(city.lat, 5), fixed(city.lng, 5), String(city.population), ...localeCells((l) => city.intro?.[l])]);
    zoneIds.push(city.zones.map((zone, i) => {
      const id = `${city.geonameId}-${i + 1}`;
      files.zones.add([id, String(city.geonameId), ...localeCells((l) => zone.names[l]), fixed(zone.lat, 4), fixed(zone.lng, 4)]);
      return id;
    }));
  }
  for (const a of AMENITIES) files.amenities.add([a.slug, ...localeCells((l) => a.labels[l])]);
  for (const o of OPTION_TYPE_LABELS) files.option_types.add([o.optionType, ...localeCells((l) => o.labels[l])]);
  for (const [cur, units] of Object.entries(FX_UNITS_PER_EUR)) files.fx_reference.add([cur, units, FX_AS_OF]);
  const operatorIds = operators.map((_, i) => `op-${pad(i + 1, 3)}`);
  const cityById = new Map(cities.map((c) => [c.geonameId, c]));
  operators.forEach((o, i) => {
    const tagline = TAGLINES[i % TAGLINES.length];
    files.operators.add([operatorIds[i], o.name, o.hasLogo ? `/media/operators/${operatorIds[i]}.svg` : '',
      `https://${o.domain}`, `${o.mailbox}@${o.domain}`, ...localeCells((l) => tagline[l]),
      ...localeCells((l) => operatorDescription(l, o, o.cities.map((id) => nameIn(l, cityById.get(id)!.names))))]);
  });
  writeFileSync(join(out, 'config.json'), JSON.stringify(CONFIG, null, 2) + '\n');

  // ------------------------------------------------------------ spaces and prices
  const slots = planSlots(rng.fork(1), plan);
  const idWidth = Math.max(5, String(slots.length).length);
  const namesByCity = cities.map(() => new Set<string>());
  const recentAddresses = cities.map(() => [] as Array<{ street: string; house: string; postal: string; zone: number; lat: number; lng: number }>);
  const mapSlot = slots.findIndex((s) => s.operator === -1 && !cities[s.city].fixedSpaces);
  const flawed = Object.fromEntries(FLAW_KINDS.map((k) => [k, 0])) as Record<FlawKind, number>;
  const spacesPerCity: Record<string, number> = {};
  let flawCounter = 0;
  /** the latest instant drawn for an observation: the snapshot is extracted the day after */
  let latestObservedMs = -Infinity;
  const baseSeed = rng.nextUint32();

  for (let i = 0; i < slots.length; i++) {
    const r = new Rng((baseSeed ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0);
    const slot = slots[i];
    const city: City = cities[slot.city];
    const country = countryOf.get(city.country)!;
    const tz = city.tz ?? country.tz;
    const operator: Operator | null = slot.operator >= 0 ? operators[slot.operator] : null;
    const spaceId = `sp-${pad(i + 1, idWidth)}`;
    const cityKey = `${city.names[FALLBACK_LOCALE]} (${city.country}, ${city.geonameId})`;
    spacesPerCity[cityKey] = (spacesPerCity[cityKey] ?? 0) + 1;

    // where
    let zoneIndex = city.zones.length > 0 && r.chance(0.92) ? r.int(0, city.zones.length - 1) : -1;
    let street: string;
    let house: string;
    let postal: string;
    let lat: number;
    let lng: number;
    const recent = recentAddresses[slot.city];
    if (recent.length > 0 && r.chance(0.04)) {
      const shared = r.pick(recent);
      ({ street, house, postal } = shared);
      zoneIndex = shared.zone;
      lat = shared.lat + r.bell(0.0002);
      lng = shared.lng + r.bell(0.0002);
    } else {
      const zone: Zone | null = zoneIndex >= 0 ? city.zones[zoneIndex] : null;
      const pool = zone ? zone.streets : [...city.streets, ...city.zones.flatMap((zz) => zz.streets)];
      street = r.pick(pool.length > 0 ? pool : city.streets);
      house = houseNumber(r, country.addressStyle);
      postal = postalCode(r, zone?.postal ?? city.postal);
      lat = (zone ?? city).lat + r.bell(zone ? 0.007 : 0.02);
      lng = (zone ?? city).lng + r.bell(zone ? 0.01 : 0.03);
      if (recent.length < 40) recent.push({ street, house, postal, zone: zoneIndex, lat, lng });
    }
    const zone = zoneIndex >= 0 ? city.zones[zoneIndex] : null;
    const writtenStreet = writeStreet(r, street, country.lang);
    const hasCoordinates = r.chance(0.96);

    // who and what
    const profile: Profile = operator ? operator.kind : r.weighted<Profile>(['coworking', 'business_centre', 'studio'], [60, 20, 20]);
    let name: string;
    if (i === mapSlot) {
      name = 'Map';
    } else if (operator) {
      name = `${operator.brand} ${(zone ?? city).names[FALLBACK_LOCALE]}`;
      if (namesByCity[slot.city].has(name)) name = `${operator.brand} ${street}`;
    } else {
      name = independentName(r, country.lang);
    }
    namesByCity[slot.city].add(name);

    const amenities = AMENITIES.filter((a) => r.chance(profile === 'studio' ? a.share * 0.7 : a.share)).map((a) => a);
    const capacityRange = profile === 'coworking' ? [20, 250] : profile === 'business_centre' ? [15, 150] : [6, 30];
    const hasCapacity = r.chance(0.85);
    const capacity = hasCapacity ? r.int(capacityRange[0], capacityRange[1]) : null;
    const declared = hasCapacity && r.chance(0.85);
    const rated = r.chance(0.75);
    const score = rated ? Math.min(5, Math.round((3 + r.next() + r.next() * 0.6 + r.next() * 0.5) * 10) / 10) : null;
    const ratingCount = rated ? r.int(1, r.chance(0.2) ? 800 : 120) : null;
    const featured = r.chance(0.05);

    // prices
    const level = city.flexDesk * (1 + r.bell(0.3)) * (profile === 'business_centre' ? 1.1 : profile === 'studio' ? 0.9 : 1);
    const offers = makeOffers(r, spaceId, profile, level, country);
    const monthlyDrift = country.currency === 'VES' ? r.float(0.025, 0.05) : r.float(-0.004, 0.008);
    const sourceBase = operator ? `https://${operator.domain}/spaces/${spaceId}` : `https://${slugify(name) || 'space'}.example/prices`;
    let observationSeq = 0;
    let latestMs = -1;
    let latestText = '';
    const emit = (o: Offer, type: string, amount: string, currency: string, observedAt: string, sid = spaceId): void => {
      observationSeq++;
      // Numbered within the space, so a change to one space does not renumber the whole file.
      files.price_observations.add([`ob-${pad(i + 1, idWidth)}-${pad(observationSeq, 2)}`, sid, o.id, type, o.title, amount, currency, o.period,
        o.minCap === null ? '' : String(o.minCap), o.maxCap === null ? '' : String(o.maxCap), observedAt, sourceBase]);
    };
    const when = (month: number): { ms: number; text: string } => {
      const ms = windowInstant(month, r.int(1, 28), r.int(7, 19) - STANDARD_OFFSET[tz], r.int(0, 59));
      latestObservedMs = Math.max(latestObservedMs, ms);
      return { ms, text: formatLocal(tz, ms) };
    };
    const amountAt = (o: Offer, month: number, firstMonth: number): number =>
      niceRound(o.base! * (1 + monthlyDrift * (month - firstMonth)));

    for (const o of offers) {
      const k = r.weighted([2, 3, 4, 5], [25, 35, 25, 15]);
      const months = r.sample(WINDOW_MONTHS, k);
      months.forEach((m, idx) => {
        const t = when(m);
        const last = idx === months.length - 1;
        const amount = o.base === null || (last && o.onRequestLatest) ? '' : fmtAmount(amountAt(o, m, months[0]));
        emit(o, o.type, amount, country.currency, t.text);
        if (t.ms > latestMs) { latestMs = t.ms; latestText = t.text; }
      });
    }

    if (r.chance(FLAW_CHANCE_PER_SPACE)) {
      const kind = FLAW_KINDS[flawCounter++ % FLAW_KINDS.length];
      const priced = offers.filter((o) => o.base !== null);
      const o = priced.length > 0 ? r.pick(priced) : offers[0];
      const m = r.int(0, WINDOW_MONTHS - 1);
      const t = when(m);
      const normal = o.base === null ? niceRound(level) : amountAt(o, m, 0);
      flawed[kind]++;
      switch (kind) {
        case 'unknown_space':
          emit(o, o.type, fmtAmount(normal), country.currency, t.text, `sp-${pad(slots.length + flawCounter, idWidth)}`);
          break;
        case 'wrong_currency':
          emit(o, o.type, fmtAmount(normal), WRONG_CURRENCY[country.currency], t.text);
          break;
        case 'negative_amount':
          emit(o, o.type, fmtAmount(-normal), country.currency, t.text);
          break;
        case 'implausible_amount':
          emit(o, o.type, fmtAmount(normal * 100), country.currency, t.text);
          break;
        case 'bad_date':
          emit(o, o.type, fmtAmount(normal), country.currency, r.pick(BAD_DATES));
          break;
        case 'unknown_option':
          emit({ ...o, id: `${spaceId}-o${offers.length + 1}` }, r.pick(UNKNOWN_OPTIONS), fmtAmount(normal), country.currency, t.text);
          break;
      }
    }

    // copy
    const place = (loc: Locale): string => (zone ? `${nameIn(loc, zone.names)}, ${nameIn(loc, city.names)}` : nameIn(loc, city.names));
    const highlights = amenities.filter((a) => a.slug !== 'wifi');
    const h1 = highlights[0] ?? AMENITIES[0];
    const h2 = highlights[1] ?? AMENITIES[1];
    const feature = r.pick(FEATURES);
    const spaceExcerpt = (loc: Locale) => excerpt(loc, profile, place(loc), label(loc, h1.labels), label(loc, h2.labels));
    const spaceDescription = (loc: Locale) => description(loc, {
      name, profile, place: place(loc), street: `${writtenStreet} ${house}`, capacity,
      operator: operator?.name ?? null, amenities: amenities.slice(0, 6).map((a) => label(loc, a.labels)),
      features: nameIn(loc, feature),
    });

    files.spaces.add([
      spaceId, name, operator ? operatorIds[slot.operator] : '', String(city.geonameId),
      zoneIndex >= 0 ? zoneIds[slot.city][zoneIndex] : '', writtenStreet, house, postal,
      hasCoordinates ? fixed(lat, 6) : '', hasCoordinates ? fixed(lng, 6) : '',
      amenities.map((a) => a.slug).join(';'),
      capacity === null ? '' : String(capacity), declared ? 'true' : 'false',
      score === null ? '' : score.toFixed(1), ratingCount === null ? '' : String(ratingCount),
      featured ? 'true' : 'false', ...localeCells(spaceExcerpt), ...localeCells(spaceDescription),
      r.chance(0.9) ? latestText : '',
    ]);

    const imageCount = r.weighted([1, 2, 3, 4], [20, 30, 30, 20]);
    for (let p = 0; p < imageCount; p++) {
      const [w, h] = r.pick([[1600, 1067], [1200, 800], [1600, 900], [1200, 1200], [1024, 768]]);
      files.space_images.add([spaceId, String(p), `/media/spaces/${spaceId}/${p}.svg`, String(w), String(h), `${name}: ${IMAGE_ALTS[p]}`]);
    }

    if ((i & 63) === 63) {
      await files.spaces.flush();
      await files.space_images.flush();
      await files.price_observations.flush();
    }
  }

  for (const f of Object.values(files)) await f.close();
  writeFileSync(join(out, 'source.json'), JSON.stringify(sampleSource(total, seed, nextUtcMidnight(latestObservedMs)), null, 2) + '\n');
  return {
    rows: Object.fromEntries((Object.keys(files) as Table[]).map((t) => [t, files[t].rows])) as Record<Table, number>,
    flawed,
    spacesPerCity,
  };
}
