import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { generate, FLAW_KINDS } from '../../pipeline/generate/generate.ts';
import { streetForms } from '../../pipeline/generate/text.ts';
import { formatLocal } from '../../pipeline/generate/time.ts';
import { BILLING_PERIODS, CURRENCIES, OPTION_TYPES } from '../../contract/common.ts';
import { ConfigPayloadSchema } from '../../contract/catalog.ts';
import { SnapshotSourceSchema } from '../../contract/market.ts';

const DATA = join(import.meta.dirname, '../../data');
type Row = Record<string, string>;

function readCsv(dir: string, file: string): { header: string[]; rows: Row[] } {
  const text = readFileSync(join(dir, file), 'utf8');
  const records = parse(text, { relax_quotes: false }) as string[][];
  const header = records[0];
  return { header, rows: records.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}

/** Column lists as data/README.md documents them (parenthesised remarks removed). */
function documentedColumns(): Map<string, string[]> {
  const readme = readFileSync(join(DATA, 'README.md'), 'utf8');
  const out = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([a-z_]+\.csv)` \|[^|]*\| (.*) \|$/.exec(line);
    if (!m) continue;
    const cell = m[2].replace(/\([^)]*\)/g, '');
    out.set(m[1], [...cell.matchAll(/`([a-z_]+)`/g)].map((x) => x[1]));
  }
  return out;
}

const tempDirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'desk-atlas-gen-'));
  tempDirs.push(d);
  return d;
}
after(() => { for (const d of tempDirs) rmSync(d, { recursive: true, force: true }); });

function filesOf(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.csv') || f.endsWith('.json')).sort();
}

describe('pipeline/generate', () => {
  it('writes byte-identical files for the same seed and options', async () => {
    const a = tempDir();
    const b = tempDir();
    await generate({ outDir: a, spaces: 150, seed: 7 });
    await generate({ outDir: b, spaces: 150, seed: 7 });
    assert.deepEqual(filesOf(a), filesOf(b));
    for (const f of filesOf(a)) {
      assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs between two runs`);
    }
  });

  it('writes different spaces and prices for a different seed', async () => {
    const a = tempDir();
    const b = tempDir();
    await generate({ outDir: a, spaces: 150, seed: 7 });
    await generate({ outDir: b, spaces: 150, seed: 8 });
    for (const f of ['spaces.csv', 'price_observations.csv']) {
      assert.ok(!readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} is the same for seeds 7 and 8`);
    }
  });

  it('honours --spaces', async () => {
    const a = tempDir();
    const stats = await generate({ outDir: a, spaces: 150, seed: 7 });
    assert.equal(readCsv(a, 'spaces.csv').rows.length, 150);
    assert.equal(stats.rows.spaces, 150);
  });

  it('says in source.json that the snapshot was extracted at midnight UTC after its latest observation', async () => {
    const dir = tempDir();
    await generate({ outDir: dir, spaces: 150, seed: 7 });
    const source = SnapshotSourceSchema.parse(JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')));
    const latest = Math.max(...readCsv(dir, 'price_observations.csv').rows.map((o) => Date.parse(o.observed_at)).filter(Number.isFinite));
    const extracted = Date.parse(source.extractedAt);
    assert.match(source.extractedAt, /T00:00:00Z$/);
    assert.ok(extracted > latest && extracted - latest <= 24 * 3_600_000, `${source.extractedAt}, latest observation ${new Date(latest).toISOString()}`);
  });

  it('the committed data/ equals a fresh generation with the default options', async () => {
    const fresh = tempDir();
    await generate({ outDir: fresh });
    assert.deepEqual(filesOf(DATA), filesOf(fresh), 'data/ holds other files than the generator writes');
    for (const f of filesOf(fresh)) {
      assert.ok(readFileSync(join(DATA, f)).equals(readFileSync(join(fresh, f))),
        `data/${f} differs from the generator's output: run \`npm run generate\` instead of editing data/ by hand`);
    }
  });
});

describe('pipeline/generate above the sample size', () => {
  let dir: string;
  let t: Record<string, Row[]>;
  before(async () => {
    dir = tempDir();
    await generate({ outDir: dir, spaces: 6000, seed: 42 });
    t = Object.fromEntries(['countries', 'cities', 'zones', 'operators', 'spaces'].map((f) => [f, readCsv(dir, `${f}.csv`).rows]));
  });

  it('keeps the curated geography and adds real cities in more countries, paying in the contract\'s currencies', () => {
    const sample = readCsv(DATA, 'cities.csv').rows;
    const ids = new Set(t.cities.map((c) => c.city_id));
    for (const c of sample) assert.ok(ids.has(c.city_id), `${c.name_en} is missing`);
    assert.equal(ids.size, t.cities.length, 'city ids are unique');
    assert.ok(t.cities.length >= sample.length + 100, `${t.cities.length} cities`);
    assert.ok(t.countries.length >= 30, `${t.countries.length} countries`);
    for (const c of t.countries) {
      assert.ok((CURRENCIES as readonly string[]).includes(c.currency), `${c.country_code}: ${c.currency}`);
      assert.ok(c.name_en !== '' && c.name_de !== '' && c.name_es !== '');
    }
    const countries = new Set(t.countries.map((c) => c.country_code));
    for (const c of t.cities) assert.ok(countries.has(c.country_code), `${c.name_en}: ${c.country_code}`);
  });

  it('gives every city a space and the big cities more', () => {
    const perCity = new Map<string, number>();
    for (const s of t.spaces) perCity.set(s.city_id, (perCity.get(s.city_id) ?? 0) + 1);
    assert.equal(t.spaces.length, 6000);
    for (const c of t.cities) assert.ok((perCity.get(c.city_id) ?? 0) >= 1, `${c.name_en} has no space`);
    const byPopulation = [...t.cities].sort((a, b) => Number(b.population) - Number(a.population));
    const top = byPopulation.slice(0, 20).reduce((a, c) => a + perCity.get(c.city_id)!, 0) / 20;
    const bottom = byPopulation.slice(-20).reduce((a, c) => a + perCity.get(c.city_id)!, 0) / 20;
    assert.ok(top > 10 * bottom, `the 20 biggest cities average ${top} spaces, the 20 smallest ${bottom}`);
  });

  it('gives the added cities neighbourhoods near their centre, unique within a city', () => {
    const cities = new Map(t.cities.map((c) => [c.city_id, c]));
    const seen = new Set<string>();
    for (const z of t.zones) {
      const c = cities.get(z.city_id)!;
      assert.ok(Math.hypot(Number(z.lat) - Number(c.lat), Number(z.lng) - Number(c.lng)) < 0.25, `${z.name_en} is far from ${c.name_en}`);
      const key = `${z.city_id}|${z.name_en}`;
      assert.ok(!seen.has(key), `${c.name_en} has two zones named ${z.name_en}`);
      seen.add(key);
    }
    assert.ok(t.zones.length > readCsv(DATA, 'zones.csv').rows.length);
  });

  it('adds operators with unique names and example-domain addresses, each running a space', () => {
    assert.ok(t.operators.length > 31 + 50, `${t.operators.length} operators`);
    assert.equal(new Set(t.operators.map((o) => o.name)).size, t.operators.length, 'operator names are unique');
    for (const o of t.operators) assert.match(o.enquiry_email, /^[a-z]+@[a-z0-9-]+\.example$/);
    const running = new Set(t.spaces.map((s) => s.operator_id));
    for (const o of t.operators) assert.ok(running.has(o.operator_id), `${o.name} runs no space`);
  });
});

describe('the committed sample snapshot (data/)', () => {
  let t: Record<string, { header: string[]; rows: Row[] }>;
  const countryOfCity = new Map<string, string>();
  const currencyOfCountry = new Map<string, string>();
  const cityOfSpace = new Map<string, string>();

  before(() => {
    t = {};
    for (const f of readdirSync(DATA).filter((x) => x.endsWith('.csv'))) t[f.replace('.csv', '')] = readCsv(DATA, f);
    for (const c of t.countries.rows) currencyOfCountry.set(c.country_code, c.currency);
    for (const c of t.cities.rows) countryOfCity.set(c.city_id, c.country_code);
    for (const s of t.spaces.rows) cityOfSpace.set(s.space_id, s.city_id);
  });

  const isDateTime = (s: string): boolean =>
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s));

  /** Flaw kinds of one observation, judged independently of the generator. */
  function flawsOf(o: Row, typicalAmount: Map<string, number>): string[] {
    const kinds: string[] = [];
    const city = cityOfSpace.get(o.space_id);
    if (!city) kinds.push('unknown_space');
    else if (o.currency !== currencyOfCountry.get(countryOfCity.get(city)!)) kinds.push('wrong_currency');
    if (o.amount !== '' && Number(o.amount) < 0) kinds.push('negative_amount');
    const typical = typicalAmount.get(`${city}|${o.option_type}|${o.billing_period}`);
    if (o.amount !== '' && typical !== undefined && Number(o.amount) > 20 * typical) kinds.push('implausible_amount');
    if (!isDateTime(o.observed_at)) kinds.push('bad_date');
    if (!(OPTION_TYPES as readonly string[]).includes(o.option_type)) kinds.push('unknown_option');
    return kinds;
  }

  function typicalAmounts(): Map<string, number> {
    const groups = new Map<string, number[]>();
    for (const o of t.price_observations.rows) {
      const city = cityOfSpace.get(o.space_id);
      if (!city || o.amount === '' || Number(o.amount) <= 0) continue;
      const key = `${city}|${o.option_type}|${o.billing_period}`;
      (groups.get(key) ?? groups.set(key, []).get(key)!).push(Number(o.amount));
    }
    return new Map([...groups].map(([k, v]) => [k, v.sort((a, b) => a - b)[Math.floor(v.length / 2)]]));
  }

  it('has exactly the columns data/README.md documents, in that order', () => {
    const documented = documentedColumns();
    assert.equal(documented.size, 10, 'README table not parsed');
    for (const [file, columns] of documented) {
      assert.deepEqual(t[file.replace('.csv', '')].header, columns, file);
    }
  });

  it('covers ≥ 30 real cities in ≥ 8 countries and all six currencies', () => {
    assert.ok(t.cities.rows.length >= 30, `${t.cities.rows.length} cities`);
    assert.ok(t.countries.rows.length >= 8);
    assert.deepEqual([...new Set(t.countries.rows.map((c) => c.currency))].sort(), [...CURRENCIES].sort());
    for (const c of t.cities.rows) {
      assert.match(c.city_id, /^\d+$/, 'GeoNames id');
      assert.ok(currencyOfCountry.has(c.country_code), c.country_code);
      assert.ok(Number(c.population) > 0);
      assert.ok(Math.abs(Number(c.lat)) <= 90 && Math.abs(Number(c.lng)) <= 180);
    }
    const valencias = t.cities.rows.filter((c) => c.name_en === 'Valencia').map((c) => c.country_code).sort();
    assert.deepEqual(valencias, ['ES', 'VE']);
    const munich = t.cities.rows.find((c) => c.city_id === '2867714')!;
    assert.deepEqual([munich.name_en, munich.name_de, munich.name_es], ['Munich', 'München', 'Múnich']);
    assert.ok(t.cities.rows.some((c) => c.intro_en !== '') && t.cities.rows.some((c) => c.intro_en === ''));
  });

  it('gives large cities 3–8 neighbourhoods near their centre', () => {
    const zonesPerCity = new Map<string, Row[]>();
    for (const z of t.zones.rows) (zonesPerCity.get(z.city_id) ?? zonesPerCity.set(z.city_id, []).get(z.city_id)!).push(z);
    const spacesPerCity = new Map<string, number>();
    for (const s of t.spaces.rows) spacesPerCity.set(s.city_id, (spacesPerCity.get(s.city_id) ?? 0) + 1);
    for (const c of t.cities.rows) {
      const zones = zonesPerCity.get(c.city_id) ?? [];
      if ((spacesPerCity.get(c.city_id) ?? 0) >= 40) assert.ok(zones.length >= 3 && zones.length <= 8, `${c.name_en}: ${zones.length} zones`);
      for (const z of zones) {
        const d = Math.hypot(Number(z.lat) - Number(c.lat), Number(z.lng) - Number(c.lng));
        assert.ok(d < 0.25, `${z.name_en} is far from ${c.name_en}`);
      }
    }
  });

  it('has ≥ 25 operators with example-domain addresses, some spanning countries', () => {
    assert.ok(t.operators.rows.length >= 25);
    for (const o of t.operators.rows) assert.match(o.enquiry_email, /^[a-z]+@[a-z0-9-]+\.example$/);
    const countriesOf = new Map<string, Set<string>>();
    for (const s of t.spaces.rows) {
      if (s.operator_id === '') continue;
      (countriesOf.get(s.operator_id) ?? countriesOf.set(s.operator_id, new Set()).get(s.operator_id)!).add(countryOfCity.get(s.city_id)!);
    }
    assert.equal(countriesOf.size, t.operators.rows.length, 'every operator runs at least one space');
    assert.ok([...countriesOf.values()].filter((c) => c.size > 1).length >= 3);
    assert.ok(t.spaces.rows.some((s) => s.operator_id === ''), 'independent spaces');
  });

  it('has ≥ 1,500 spaces with the awkward cases real data has', () => {
    const s = t.spaces.rows;
    assert.ok(s.length >= 1500);
    assert.ok(s.some((x) => x.name === 'Map'), 'a space named "Map"');
    const citiesOfName = new Map<string, Set<string>>();
    for (const x of s) (citiesOfName.get(x.name) ?? citiesOfName.set(x.name, new Set()).get(x.name)!).add(x.city_id);
    assert.ok([...citiesOfName.values()].some((c) => c.size > 1), 'a name used in several cities');
    assert.ok(s.some((x) => x.lat === '' && x.lng === ''), 'without coordinates');
    assert.ok(s.some((x) => x.rating_score === '' && x.rating_count === ''), 'without rating');
    assert.ok(s.some((x) => x.capacity === ''), 'without capacity');
    assert.ok(s.some((x) => x.capacity !== '' && x.capacity_declared === 'false'), 'undeclared capacity');
    assert.ok(s.some((x) => x.updated_at === ''), 'without updated_at');
    assert.ok(s.some((x) => /^\d+-\d+$/.test(x.house_number)), 'house number range');
    assert.ok(s.some((x) => /^\d+[a-z]$/.test(x.house_number)), 'house number suffix');
    for (const form of [/str\.$/, /strasse$/, /^C\/ /, /^Avda\. /, /^Av\. /, / St$/, / Rd$/]) {
      assert.ok(s.some((x) => form.test(x.street)), `a street written as ${form}`);
    }
    const sameAddress = new Map<string, number>();
    for (const x of s) { const k = `${x.city_id}|${x.street}|${x.house_number}`; sameAddress.set(k, (sameAddress.get(k) ?? 0) + 1); }
    assert.ok([...sameAddress.values()].some((n) => n > 1), 'several spaces at one address');
    const featured = s.filter((x) => x.featured === 'true').length / s.length;
    assert.ok(featured > 0.02 && featured < 0.08, `featured share ${featured}`);
  });

  it('references only known cities, zones, operators and amenities', () => {
    const zones = new Map(t.zones.rows.map((z) => [z.zone_id, z.city_id]));
    const operators = new Set(t.operators.rows.map((o) => o.operator_id));
    const amenities = new Set(t.amenities.rows.map((a) => a.slug));
    assert.ok(amenities.size >= 15);
    for (const a of amenities) assert.match(a, /^[a-z0-9_-]+$/);
    for (const x of t.spaces.rows) {
      assert.ok(countryOfCity.has(x.city_id), x.space_id);
      if (x.zone_id !== '') assert.equal(zones.get(x.zone_id), x.city_id, x.space_id);
      if (x.operator_id !== '') assert.ok(operators.has(x.operator_id), x.space_id);
      for (const a of x.amenities.split(';').filter(Boolean)) assert.ok(amenities.has(a), `${x.space_id}: ${a}`);
      if (x.rating_score !== '') assert.ok(Number(x.rating_score) >= 0 && Number(x.rating_score) <= 5);
      if (x.updated_at !== '') assert.ok(isDateTime(x.updated_at), x.updated_at);
    }
    const imagesPerSpace = new Map<string, number>();
    for (const i of t.space_images.rows) {
      assert.equal(i.path, `/media/spaces/${i.space_id}/${i.position}.svg`);
      assert.ok(cityOfSpace.has(i.space_id));
      imagesPerSpace.set(i.space_id, (imagesPerSpace.get(i.space_id) ?? 0) + 1);
    }
    assert.equal(imagesPerSpace.size, t.spaces.rows.length, 'every space has an image');
    assert.ok([...imagesPerSpace.values()].every((n) => n >= 1 && n <= 4));
  });

  it('has ≥ 8,000 observations over ≥ 12 months, every option type and billing period', () => {
    const obs = t.price_observations.rows;
    assert.ok(obs.length >= 8000);
    assert.equal(new Set(obs.map((o) => o.observation_id)).size, obs.length, 'observation ids are unique');
    const offerShape = new Map<string, string>();
    for (const o of obs) {
      const shape = `${o.space_id}|${o.option_type}|${o.billing_period}|${o.currency}`;
      if (!offerShape.has(o.offer_id)) offerShape.set(o.offer_id, shape);
    }
    const stable = obs.filter((o) => offerShape.get(o.offer_id) === `${o.space_id}|${o.option_type}|${o.billing_period}|${o.currency}`);
    assert.ok(stable.length / obs.length > 0.99, 'an offer keeps its space, type, period and currency');
    const months = new Set(obs.filter((o) => isDateTime(o.observed_at)).map((o) => o.observed_at.slice(0, 7)));
    assert.ok(months.size >= 12, `${months.size} months`);
    assert.deepEqual([...new Set(obs.map((o) => o.option_type))].filter((x) => (OPTION_TYPES as readonly string[]).includes(x)).sort(), [...OPTION_TYPES].sort());
    assert.deepEqual([...new Set(obs.map((o) => o.billing_period))].sort(), [...BILLING_PERIODS].sort());
    const perOffer = new Map<string, number>();
    for (const o of obs) perOffer.set(o.offer_id, (perOffer.get(o.offer_id) ?? 0) + 1);
    assert.ok([...perOffer.values()].filter((n) => n > 1).length / perOffer.size > 0.9, 'several observations per offer');
    assert.ok(obs.some((o) => o.amount === ''), 'price on request');
    assert.ok(obs.some((o) => o.option_type === 'private_office' && o.max_capacity !== ''));
    assert.ok(obs.some((o) => o.option_type === 'private_office' && o.max_capacity === ''));
    assert.ok(obs.every((o) => o.option_type !== 'day_pass' || o.billing_period === 'day'));
  });

  it('prices flex desks at plausible levels per city', () => {
    const expected: Record<string, [number, number]> = {
      2950159: [150, 350], 2657896: [350, 700], 292223: [800, 2500],
      2643743: [200, 450], 5128581: [300, 700], 3117735: [120, 300],
    };
    for (const [city, [lo, hi]] of Object.entries(expected)) {
      const amounts = t.price_observations.rows
        .filter((o) => cityOfSpace.get(o.space_id) === city && o.option_type === 'flex_desk' && o.billing_period === 'month' && o.amount !== '')
        .map((o) => Number(o.amount)).sort((a, b) => a - b);
      const median = amounts[Math.floor(amounts.length / 2)];
      assert.ok(median >= lo && median <= hi, `city ${city}: median flex desk ${median} outside ${lo}–${hi}`);
    }
  });

  it('has ≥ 3 cities under the five-space sample and every other city well above it', () => {
    // Latest clean observation of each offer, monthly per desk (docs/design.md §3).
    const latest = new Map<string, Row>();
    const typical = typicalAmounts();
    for (const o of t.price_observations.rows) {
      if (flawsOf(o, typical).length > 0) continue;
      const prev = latest.get(o.offer_id);
      if (!prev || Date.parse(o.observed_at) > Date.parse(prev.observed_at)) latest.set(o.offer_id, o);
    }
    const desk = new Set(['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership']);
    const sample = new Map<string, Set<string>>();
    for (const o of latest.values()) {
      if (!desk.has(o.option_type) || o.amount === '' || !['month', 'year', 'week'].includes(o.billing_period)) continue;
      if ((o.option_type === 'private_office' || o.option_type === 'exclusive_bereich') && o.max_capacity === '') continue;
      const city = cityOfSpace.get(o.space_id)!;
      (sample.get(city) ?? sample.set(city, new Set()).get(city)!).add(o.space_id);
    }
    const sizes = t.cities.rows.map((c) => [c.name_en, sample.get(c.city_id)?.size ?? 0] as const);
    const thin = sizes.filter(([, n]) => n < 5);
    assert.ok(thin.length >= 3, `thin cities: ${JSON.stringify(thin)}`);
    for (const [name, n] of sizes) assert.ok(n < 5 || n >= 10, `${name} has ${n} spaces in its sample`);
  });

  it('contains each kind of flawed observation, under 1% of the rows', () => {
    const typical = typicalAmounts();
    const counts = new Map<string, number>();
    let flawedRows = 0;
    for (const o of t.price_observations.rows) {
      const kinds = flawsOf(o, typical);
      if (kinds.length > 0) flawedRows++;
      for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    for (const k of FLAW_KINDS) assert.ok((counts.get(k) ?? 0) > 0, `no ${k} rows`);
    const share = flawedRows / t.price_observations.rows.length;
    assert.ok(share > 0 && share < 0.01, `flawed share ${share}`);
  });

  it('ships reference tables and a valid config.json', () => {
    assert.equal(t.option_types.rows.length, OPTION_TYPES.length);
    const ex = t.option_types.rows.find((o) => o.option_type === 'exclusive_bereich')!;
    assert.deepEqual([ex.label_en, ex.label_de, ex.label_es], ['Exclusive area', 'Exklusiver Bereich', 'Área exclusiva']);
    assert.deepEqual(t.fx_reference.rows.map((r) => r.currency).sort(), [...CURRENCIES].sort());
    for (const r of t.fx_reference.rows) {
      assert.ok(Number(r.units_per_eur) > 0);
      assert.match(r.as_of_date, /^\d{4}-\d{2}-\d{2}$/);
    }
    const config = ConfigPayloadSchema.parse(JSON.parse(readFileSync(join(DATA, 'config.json'), 'utf8')));
    assert.equal(config.minSupportedBuild, 100);
    assert.equal(config.recommendedBuild, 120);
  });
});

describe('pipeline/generate helpers', () => {
  it('writes a street in the forms real feeds use', () => {
    assert.deepEqual(streetForms('Friedrichstraße', 'de'), ['Friedrichstraße', 'Friedrichstr.', 'Friedrichstrasse']);
    assert.deepEqual(streetForms('Calle de Alcalá', 'es'), ['Calle de Alcalá', 'C/ Alcalá', 'Calle Alcalá']);
    assert.deepEqual(streetForms('Avenida de la Constitución', 'es'), ['Avenida de la Constitución', 'Avda. de la Constitución', 'Av. de la Constitución']);
    assert.deepEqual(streetForms('Avenida da República', 'pt'), ['Avenida da República', 'Av. da República']);
    assert.deepEqual(streetForms('Old Street', 'en'), ['Old Street', 'Old St', 'Old St.']);
    assert.deepEqual(streetForms('City Road', 'en'), ['City Road', 'City Rd', 'City Rd.']);
  });

  it('writes local times with the offset in force, daylight saving time included', () => {
    assert.equal(formatLocal('eu-cet', Date.UTC(2026, 2, 29, 0, 59)), '2026-03-29T01:59:00+01:00');
    assert.equal(formatLocal('eu-cet', Date.UTC(2026, 2, 29, 1, 0)), '2026-03-29T03:00:00+02:00');
    assert.equal(formatLocal('uk', Date.UTC(2026, 9, 25, 0, 30)), '2026-10-25T01:30:00+01:00');
    assert.equal(formatLocal('uk', Date.UTC(2026, 9, 25, 1, 30)), '2026-10-25T01:30:00+00:00');
    assert.equal(formatLocal('us-east', Date.UTC(2026, 2, 8, 6, 59)), '2026-03-08T01:59:00-05:00');
    assert.equal(formatLocal('us-east', Date.UTC(2026, 2, 8, 7, 0)), '2026-03-08T03:00:00-04:00');
    assert.equal(formatLocal('us-pacific', Date.UTC(2025, 10, 2, 9, 0)), '2025-11-02T01:00:00-08:00');
    assert.equal(formatLocal('utc-4', Date.UTC(2026, 0, 1, 12, 0)), '2026-01-01T08:00:00-04:00');
    assert.equal(formatLocal('utc+4', Date.UTC(2026, 6, 1, 12, 0)), '2026-07-01T16:00:00+04:00');
    assert.equal(formatLocal('eu-eet', Date.UTC(2026, 6, 1, 12, 0)), '2026-07-01T15:00:00+03:00');
    assert.equal(formatLocal('eu-eet', Date.UTC(2026, 0, 1, 12, 0)), '2026-01-01T14:00:00+02:00');
    assert.equal(formatLocal('us-mountain', Date.UTC(2026, 0, 15, 12, 0)), '2026-01-15T05:00:00-07:00');
    assert.equal(formatLocal('utc-7', Date.UTC(2026, 6, 15, 12, 0)), '2026-07-15T05:00:00-07:00');
  });
});
