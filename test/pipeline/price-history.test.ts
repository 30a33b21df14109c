import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { independentIndex } from '../support/independent-index.ts';
import { buildFixture, randomTables } from '../support/pipeline-fixtures.ts';

const cents = (x: number) => Math.round(x * 100) / 100;
function near(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - cents(expected)) <= 0.011, `${what}: ${actual} vs ${cents(expected)}`);
}
const PRODUCTS = ['all', 'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
const FIGURES = ['median', 'average', 'min', 'max'] as const;

describe('price history', () => {
  it('equals an independent month-end recomputation over the raw rows, in JSON and CSV row for row', async () => {
    const t = randomTables(400, 11);
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
    for (const [m, month] of history.months.entries()) {
      const monthEnd = Date.UTC(2025, m + 1, 1);
      const expected = independentIndex(t.spaces, t.price_observations, monthEnd);
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
          if (point.published) {
            publishedPoints += 1;
            if (previous.get(`${id}|${product}`)?.median !== e!.median) changedPoints += 1;
            for (const k of FIGURES) near(point[k].amount, e![k], `${what} ${k}`);
            assert.equal(point.flag, undefined);
          } else {
            assert.equal(point.flag, 'insufficient_sample');
            for (const k of FIGURES) assert.equal(point[k], undefined, `${what} ${k}`);
          }
        }
      }
    }
    assert.ok(publishedPoints >= 100, `a meaningful check: ${publishedPoints} published points`);
    assert.ok(changedPoints >= 20, `the series moves: ${changedPoints} points differ from the month before`);

    // the CSV: the same rows in the same order (city, product, month)
    for (const city of history.cities) {
      for (const product of PRODUCTS) {
        const series = product === 'all' ? city.points : city.byType.find((x: any) => x.optionType === product).points;
        for (const point of series) {
          const r = csv[row++];
          const money = (x?: { amount: number }) => (x ? x.amount.toFixed(2) : '');
          assert.deepEqual(r, {
            country_code: city.countryCode, city_slug: city.city.slug, city_name: city.city.name, currency: city.currency,
            product_type: product, month: point.month, sample_size: String(point.sampleSize), published: String(point.published),
            median: money(point.median), average: money(point.average), min: money(point.min), max: money(point.max),
          });
        }
      }
    }

    // the last month is today's index
    for (const [k, city] of index.cities.entries()) {
      const last = (points: any[]) => { const { month: _m, ...rest } = points.at(-1); return rest; };
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
});
