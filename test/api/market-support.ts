/**
 * The market endpoints' fixture: a small snapshot run through the real pipeline (runBuild), loaded
 * into the app, and an independent computation of every figure in plain TypeScript from the
 * snapshot's rows (latest observation per offer, monthly, per desk, one value per space).
 * Munich has exactly 5 spaces with a desk price, Barcelona exactly 4: the thin-sample boundary.
 */
import type { FastifyInstance } from 'fastify';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import {
  baseTables, BERLIN, buildFixture, city, KREUZBERG, LONDON, MITTE, observation, seededRandom, space,
  VALENCIA_ES, type FixtureBuild, type FixtureRow, type FixtureTables,
} from '../support/pipeline-fixtures.ts';
import { SITE, testApp } from '../support/app.ts';

export const MUNICH = '2867714';
export const BARCELONA = '3128760';
export const DESK_TYPES = ['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
const MONTHLY: Record<string, number> = { month: 1, year: 1 / 12, week: 52 / 12 };

export function marketTables(): FixtureTables {
  const rnd = seededRandom(11);
  const t = baseTables();
  t.cities.push(
    city(MUNICH, 'DE', 'Munich', 48.137, 11.575, 1_500_000, { name_de: 'München', name_es: 'Múnich' }),
    city(BARCELONA, 'ES', 'Barcelona', 41.389, 2.159, 1_600_000),
  );
  t.operators.push({
    operator_id: 'op-002', name: 'Hive Works', logo_path: '/media/operators/op-002.svg', website: 'https://hive.example',
    enquiry_email: 'hi@hive.example', tagline_en: '', tagline_de: '', tagline_es: '',
    description_en: '', description_de: '', description_es: '',
  });
  let n = 0;
  const addSpace = (cityId: string, currency: string, extra: Partial<FixtureRow> = {}) => {
    n += 1;
    const id = `sp-${String(n).padStart(4, '0')}`;
    const rated = rnd() < 0.6;
    t.spaces.push(space(id, {
      name: `Desk Garden ${n}`,
      city_id: cityId,
      operator_id: rnd() < 0.3 ? 'op-001' : rnd() < 0.4 ? 'op-002' : '',
      amenities: ['wifi', 'coffee', 'phone_booths'].filter(() => rnd() < 0.6).join(';'),
      rating_score: rated ? (3 + rnd() * 2).toFixed(1) : '',
      rating_count: rated ? String(1 + Math.floor(rnd() * 80)) : '',
      lat: '', lng: '',
      ...extra,
    }));
    return { id, currency };
  };
  const offer = (s: { id: string; currency: string }, type: string, monthly: number, period = 'month', desks = 1, history = 1) => {
    const factor = { month: 1, year: 12, week: 12 / 52, day: 1, hour: 1, once: 1 }[period]!;
    const offerId = `${s.id}-${type}-${period}-${desks}-${Math.floor(rnd() * 1e6)}`;
    for (let k = 0; k < history; k++) {
      // earlier observations differ a little; the latest one counts
      const amount = (monthly * desks * factor * (k === history - 1 ? 1 : 0.9 + rnd() * 0.2)).toFixed(2);
      t.price_observations.push(observation(s.id, type, amount, period, {
        offer_id: offerId, currency: s.currency, max_capacity: String(desks), min_capacity: '1',
        observed_at: `2025-0${1 + k}-1${Math.floor(rnd() * 9)}T08:00:00Z`,
      }));
    }
  };
  const randomSpace = (cityId: string, currency: string, scale: number, zones: string[]) => {
    const s = addSpace(cityId, currency, { zone_id: zones[Math.floor(rnd() * zones.length)] });
    const offers = 1 + Math.floor(rnd() * 4);
    for (let o = 0; o < offers; o++) {
      const r = rnd();
      const period = ['month', 'month', 'year', 'week'][Math.floor(rnd() * 4)];
      const history = 1 + Math.floor(rnd() * 3);
      if (r < 0.25) offer(s, 'private_office', 300 * scale * (0.7 + rnd() * 0.6), period, 2 + Math.floor(rnd() * 6), history);
      else if (r < 0.35) offer(s, 'exclusive_bereich', 280 * scale * (0.7 + rnd() * 0.6), period, 5 + Math.floor(rnd() * 10), history);
      else if (r < 0.5) offer(s, 'fix_desk', 280 * scale * (0.7 + rnd() * 0.6), period, 1, history);
      else if (r < 0.7) offer(s, 'flex_desk', 220 * scale * (0.7 + rnd() * 0.6), period, 1, history);
      else if (r < 0.77) offer(s, 'membership', 150 * scale * (0.7 + rnd() * 0.6), period, 1, history);
      else if (r < 0.87) offer(s, 'day_pass', 20 * scale * (0.7 + rnd() * 0.6), 'day');
      else if (r < 0.95) offer(s, 'meeting_room', 40 * scale * (0.7 + rnd() * 0.6), 'hour');
      else offer(s, 'virtual_office', 50 * scale, 'month');
    }
    if (rnd() < 0.1) {
      // price on request: listed, never counted
      t.price_observations.push(observation(s.id, 'private_office', '', 'month', { currency: currency, max_capacity: '4' }));
    }
  };
  for (let i = 0; i < 45; i++) randomSpace(BERLIN, 'EUR', 1, [MITTE, KREUZBERG, '']);
  for (let i = 0; i < 14; i++) randomSpace(LONDON, 'GBP', 1.2, ['']);
  for (let i = 0; i < 6; i++) randomSpace(VALENCIA_ES, 'EUR', 0.7, ['']);
  // Munich: exactly 5 spaces with a desk price (flex desk at 5), one without any
  for (const price of [240, 260, 280, 300, 330]) offer(addSpace(MUNICH, 'EUR'), 'flex_desk', price);
  offer(addSpace(MUNICH, 'EUR'), 'day_pass', 25, 'day');
  // Barcelona: exactly 4 spaces with a desk price (flex desk at 4)
  for (const price of [190, 210, 230, 250]) offer(addSpace(BARCELONA, 'EUR'), 'flex_desk', price);
  return t;
}

export interface Stats { n: number; median: number; average: number; min: number; max: number }
export function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return { n, median, average: s.reduce((a, b) => a + b, 0) / n, min: s[0], max: s[n - 1] };
}
export const cents = (x: number) => Math.round(x * 100) / 100;

/** Everything the market endpoints publish, recomputed from the rows. */
export function independent(t: FixtureTables) {
  const latest = new Map<string, FixtureRow>();
  for (const o of t.price_observations) {
    const key = `${o.space_id}|${o.offer_id}`;
    const prev = latest.get(key);
    if (!prev || Date.parse(o.observed_at) > Date.parse(prev.observed_at)
      || (Date.parse(o.observed_at) === Date.parse(prev.observed_at) && o.observation_id > prev.observation_id)) latest.set(key, o);
  }
  const spaceById = new Map(t.spaces.map((s) => [s.space_id, s]));
  const countryOfCity = new Map(t.cities.map((c) => [c.city_id, c.country_code]));
  /** space -> product -> cheapest value (monthly per desk; per day / per hour for day_pass / meeting_room) */
  const perSpace = new Map<string, Map<string, number>>();
  const pricePoints = new Map<string, number>();
  const put = (spaceId: string, product: string, v: number) => {
    const m = perSpace.get(spaceId) ?? new Map<string, number>();
    perSpace.set(spaceId, m);
    m.set(product, Math.min(m.get(product) ?? Infinity, v));
  };
  for (const o of latest.values()) {
    if (o.amount === '') continue;
    const cityId = spaceById.get(o.space_id)!.city_id;
    pricePoints.set(cityId, (pricePoints.get(cityId) ?? 0) + 1);
    const amount = Number(o.amount);
    if (o.option_type === 'day_pass' && o.billing_period === 'day') put(o.space_id, 'day_pass', amount);
    if (o.option_type === 'meeting_room' && o.billing_period === 'hour') put(o.space_id, 'meeting_room', amount);
    if (!DESK_TYPES.includes(o.option_type) || !(o.billing_period in MONTHLY)) continue;
    let monthly = amount * MONTHLY[o.billing_period];
    if (o.option_type === 'private_office' || o.option_type === 'exclusive_bereich') {
      if (o.max_capacity === '') continue;
      monthly /= Number(o.max_capacity);
    }
    put(o.space_id, o.option_type, monthly);
    put(o.space_id, 'all', monthly);
  }
  /** figures of a product over the spaces passing `where` */
  const figures = (where: (s: FixtureRow) => boolean, product: string): Stats | undefined => {
    const xs: number[] = [];
    for (const s of t.spaces) {
      const v = where(s) ? perSpace.get(s.space_id)?.get(product) : undefined;
      if (v !== undefined) xs.push(v);
    }
    return xs.length ? stats(xs) : undefined;
  };
  return {
    perSpace,
    figures,
    cityFigures: (cityId: string, product: string) => figures((s) => s.city_id === cityId, product),
    countryOf: (cityId: string) => countryOfCity.get(cityId)!,
    propertyCount: (where: (s: FixtureRow) => boolean) => t.spaces.filter(where).length,
    pricePoints: (cityId: string) => pricePoints.get(cityId) ?? 0,
  };
}

export interface MarketFixture {
  tables: FixtureTables;
  fixture: FixtureBuild;
  build: LoadedBuild;
  app: FastifyInstance;
  expected: ReturnType<typeof independent>;
  /** city slug -> city_id, from the published geography */
  cityId: Map<string, string>;
}

export async function marketFixture(): Promise<MarketFixture> {
  const tables = marketTables();
  const fixture = await buildFixture(tables);
  const rejects = fixture.rejects();
  if (rejects.length) throw new Error(`the market fixture is not clean: ${JSON.stringify(rejects.slice(0, 3))}`);
  const build = await loadBuild(`${fixture.distDir}/current`, { siteUrl: SITE });
  const app = await testApp({ catalog: staticCatalog(build) });
  const cityId = new Map<string, string>();
  for (const c of fixture.json('geo.en.json').cities as { slug: string; name: string; countryCode: string }[]) {
    cityId.set(c.slug, tables.cities.find((r) => r.country_code === c.countryCode && r.name_en === c.name)!.city_id);
  }
  return { tables, fixture, build, app, expected: independent(tables), cityId };
}
