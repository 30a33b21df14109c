import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { independentChain, independentFlags, independentIndex, independentSpacePrices } from '../support/independent-index.ts';
import {
  buildFixture, LONDON, observation, randomTables, space, VALENCIA_ES, VALENCIA_VE, type FixtureTables,
} from '../support/pipeline-fixtures.ts';

const cents = (x: number) => Math.round(x * 100) / 100;
function near(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - cents(expected)) <= 0.011, `${what}: ${actual} vs ${cents(expected)}`);
}
const PRODUCTS = ['all', 'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
const FIGURES = ['median', 'average', 'min', 'max'] as const;

/**
 * The random snapshot, with what sets each flag: one operator runs every space of Valencia (ES)
 * (o), London's prices are all observed in the first quarter (a, once they age), and five
 * Valencia (VE) flex desks priced from February, on request in April and May, priced again from
 * June (b: a break).
 */
function flaggedTables(): FixtureTables {
  const t = randomTables(400, 11);
  for (const s of t.spaces) if (s.city_id === VALENCIA_ES) s.operator_id = 'op-001';
  const london = new Set(t.spaces.filter((s) => s.city_id === LONDON).map((s) => s.space_id));
  for (const o of t.price_observations) {
    if (london.has(o.space_id)) o.observed_at = o.observed_at.replace(/^2025-(\d\d)/, (_, m) => `2025-0${1 + (Number(m) % 3)}`);
  }
  for (let i = 1; i <= 5; i++) {
    const id = `sp-ve-${i}`;
    t.spaces.push(space(id, { city_id: VALENCIA_VE, name: `Break Desk ${i}` }));
    const offer = { offer_id: `${id}-flex`, currency: 'VES' };
    t.price_observations.push(
      observation(id, 'flex_desk', String(4000 + 100 * i), 'month', { ...offer, observed_at: '2025-02-10T08:00:00Z' }),
      observation(id, 'flex_desk', '', 'month', { ...offer, observed_at: '2025-04-10T08:00:00Z' }),
      observation(id, 'flex_desk', String(4200 + 100 * i), 'month', { ...offer, observed_at: '2025-06-10T08:00:00Z' }),
    );
  }
  return t;
}

describe('price history', () => {
  it('equals an independent month-end recomputation over the raw rows, in JSON and CSV row for row', async () => {
    const t = flaggedTables();
    const b = await buildFixture(t);
    assert.equal(b.rejects().length, 0, 'the random fixture is clean');
    const history = b.json('price-history.json');
    const index = b.json('price-index.json');
    assert.deepEqual(history.months, ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08',
      '2025-09', '2025-10', '2025-11', '2025-12'], 'from the first to the last observed month');
    assert.equal(history.asOf, index.asOf);

    const idOf = new Map<string, string>();
    for (const c of b.json('geo.en.json').cities) {
      idOf.set(c.slug, t.cities.find((r) => r.country_code === c.countryCode && r.name_en === c.name)!.city_id);
    }
    const csv = parse(b.text('price-report-history.csv'), { columns: true }) as Record<string, string>[];
    assert.equal(csv.length, history.cities.length * PRODUCTS.length * history.months.length, 'one row per city, product and month');
    let row = 0;
    let publishedPoints = 0;
    let changedPoints = 0;
    const asOf = Date.parse(history.asOf);
    const letters = new Map<string, number>();
    // by series: whether any month so far was published, whether the last one was
    const seen = new Map<string, { any: boolean; last: boolean }>();
    // the chained index of every series, from each month end's space prices
    const monthPrices = history.months.map((_: string, m: number) => independentSpacePrices(t.spaces, t.price_observations, Date.UTC(2025, m + 1, 1)));
    const chains = new Map<string, ReturnType<typeof independentChain>>();
    for (const id of idOf.values()) {
      for (const product of PRODUCTS) {
        chains.set(`${id}|${product}`, independentChain(monthPrices.map((byKey: Map<string, any>) => byKey.get(`${id}|${product}`) ?? new Map())));
      }
    }
    let indexedPoints = 0;
    let restartedPoints = 0;
    let movedIndex = 0;
    for (const [m, month] of history.months.entries()) {
      const monthEnd = Date.UTC(2025, m + 1, 1);
      const expected = independentIndex(t.spaces, t.price_observations, monthEnd, Math.min(monthEnd, asOf));
      const previous = m > 0 ? independentIndex(t.spaces, t.price_observations, Date.UTC(2025, m, 1)) : new Map();
      for (const city of history.cities) {
        const id = idOf.get(city.city.slug)!;
        for (const product of PRODUCTS) {
          const series = product === 'all' ? city.points : city.byType.find((x: any) => x.optionType === product).points;
          assert.equal(series.length, history.months.length);
          const point = series[m];
          const what = `${city.city.slug} ${product} ${month}`;
          const e = expected.get(`${id}|${product}`);
          assert.equal(point.month, month);
          assert.equal(point.sampleSize, e?.n ?? 0, `${what} sample`);
          assert.equal(point.published, (e?.n ?? 0) >= 5, `${what} published`);
          const before = seen.get(`${id}|${product}`) ?? { any: false, last: false };
          const chain = chains.get(`${id}|${product}`)![m];
          assert.equal(point.matchedSpaces, chain.matched, `${what} matched spaces`);
          assert.equal(point.index === undefined, chain.index === undefined, `${what} index present: ${point.index} vs ${chain.index}`);
          if (chain.index !== undefined) {
            assert.ok(Math.abs(point.index - chain.index) <= 0.0051, `${what} index: ${point.index} vs ${chain.index}`);
            indexedPoints += 1;
            if (chain.restarts) restartedPoints += 1;
            if (Math.abs(chain.index - 100) > 0.5) movedIndex += 1;
          }
          if (point.published) {
            publishedPoints += 1;
            if (previous.get(`${id}|${product}`)?.median !== e!.median) changedPoints += 1;
            for (const k of [...FIGURES, 'p25', 'p75'] as const) near(point[k].amount, e![k], `${what} ${k}`);
            near(point.medianInterval.low.amount, e!.medianLow, `${what} median low`);
            near(point.medianInterval.high.amount, e!.medianHigh, `${what} median high`);
            assert.equal(point.flag, undefined);
            assert.equal(point.medianAgeDays, e!.medianAgeDays, `${what} age`);
            assert.ok(Math.abs(point.staleShare - e!.staleShare) <= 0.00005, `${what} stale share`);
            assert.ok(Math.abs(point.largestOperatorShare - e!.largestOperatorShare) <= 0.00005, `${what} operator share`);
            assert.equal(point.flags, independentFlags(e!, (!before.last && before.any) || chain.restarts), `${what} flags`);
            for (const letter of point.flags) letters.set(letter, (letters.get(letter) ?? 0) + 1);
          } else {
            assert.equal(point.flag, 'insufficient_sample');
            for (const k of [...FIGURES, 'p25', 'p75', 'medianAgeDays', 'staleShare', 'largestOperatorShare', 'flags', 'medianInterval', 'index']) {
              assert.equal(point[k], undefined, `${what} ${k}`);
            }
          }
          seen.set(`${id}|${product}`, { any: before.any || point.published, last: point.published });
        }
      }
    }
    assert.ok(publishedPoints >= 100, `a meaningful check: ${publishedPoints} published points`);
    assert.ok(changedPoints >= 20, `the series moves: ${changedPoints} points differ from the month before`);
    for (const letter of 'abou') assert.ok((letters.get(letter) ?? 0) > 0, `flag ${letter} is exercised: ${[...letters]}`);
    assert.ok(indexedPoints >= 50 && movedIndex >= 10 && restartedPoints >= 1,
      `the index is exercised: ${indexedPoints} points, ${movedIndex} away from 100, ${restartedPoints} restarts`);

    // the CSV: the same rows in the same order (city, product, month)
    for (const city of history.cities) {
      for (const product of PRODUCTS) {
        const series = product === 'all' ? city.points : city.byType.find((x: any) => x.optionType === product).points;
        for (const point of series) {
          const r = csv[row++];
          const money = (x?: { amount: number }) => (x ? x.amount.toFixed(2) : '');
          const number = (x?: number) => (x === undefined ? '' : String(x));
          assert.deepEqual(r, {
            country_code: city.countryCode, city_slug: city.city.slug, city_name: city.city.name, currency: city.currency,
            product_type: product, month: point.month, sample_size: String(point.sampleSize), published: String(point.published),
            median: money(point.median), average: money(point.average), min: money(point.min), max: money(point.max),
            p25: money(point.p25), p75: money(point.p75), median_age_days: number(point.medianAgeDays),
            stale_share: number(point.staleShare), largest_operator_share: number(point.largestOperatorShare), flags: point.flags ?? '',
            median_low: money(point.medianInterval?.low), median_high: money(point.medianInterval?.high),
            index: point.index === undefined ? '' : point.index.toFixed(2), matched_spaces: String(point.matchedSpaces),
          });
        }
      }
    }

    // the last month is today's index
    for (const [k, city] of index.cities.entries()) {
      // the history's own members (the month, the chained index) aside
      const last = (points: any[]) => { const { month: _m, index: _i, matchedSpaces: _s, ...rest } = points.at(-1); return rest; };
      const { city: _c, countryCode: _cc, currency: _cur, byType, ...figures } = city;
      assert.deepEqual(last(history.cities[k].points), figures, city.city.slug);
      for (const [j, bt] of byType.entries()) {
        const { optionType, ...rest } = bt;
        assert.equal(history.cities[k].byType[j].optionType, optionType);
        // a product row of the index carries no `flag`: its city's does
        const { flag: _flag, ...point } = last(history.cities[k].byType[j].points);
        assert.deepEqual(point, rest, `${city.city.slug} ${optionType}`);
      }
    }
  });

  it('a city name with a comma, quotes and letters beyond ASCII is one quoted cell in both CSVs and plain text in both JSON files', async () => {
    const name = 'London, "Greater" – Łódź';
    const t = randomTables(120, 5);
    t.cities.find((c) => c.city_id === LONDON)!.name_en = name;
    const b = await buildFixture(t);
    const strict = { columns: true, relax_quotes: false, relax_column_count: false, record_delimiter: '\r\n' } as const;
    const report = parse(b.text('price-report.csv'), strict) as Record<string, string>[];
    const history = parse(b.text('price-report-history.csv'), strict) as Record<string, string>[];
    assert.equal(report.filter((r) => r.city_name === name).length, PRODUCTS.length);
    assert.equal(history.filter((r) => r.city_name === name).length, PRODUCTS.length * b.json('price-history.json').months.length);
    assert.ok(b.text('price-report.csv').includes('"London, ""Greater"" – Łódź"'), 'quoted, the quotes doubled');
    for (const file of ['price-index.json', 'price-history.json']) {
      assert.equal(b.json(file).cities.filter((c: any) => c.city.name === name).length, 1, file);
    }
  });
});
