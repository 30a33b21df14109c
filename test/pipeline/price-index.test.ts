import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { independentFlags, independentIndex } from '../support/independent-index.ts';
import { buildFixture, randomTables } from '../support/pipeline-fixtures.ts';

const cents = (x: number) => Math.round(x * 100) / 100;
function near(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - cents(expected)) <= 0.011, `${what}: ${actual} vs ${cents(expected)}`);
}

describe('price index', () => {
  it('agrees with an independent computation over the raw rows, in JSON and CSV', async () => {
    const t = randomTables(400);
    const b = await buildFixture(t);
    assert.equal(b.rejects().length, 0, 'the random fixture is clean');
    const asOf = Math.max(...t.price_observations.map((o) => Date.parse(o.observed_at)));
    const expected = independentIndex(t.spaces, t.price_observations, Infinity, asOf);
    const quality = (x: any, e: any, what: string) => {
      near(x.p25.amount, e.p25, `${what} p25`);
      near(x.p75.amount, e.p75, `${what} p75`);
      assert.equal(x.medianAgeDays, e.medianAgeDays, `${what} age`);
      assert.ok(Math.abs(x.staleShare - e.staleShare) <= 0.00005, `${what} stale share`);
      assert.ok(Math.abs(x.largestOperatorShare - e.largestOperatorShare) <= 0.00005, `${what} operator share`);
      assert.equal(x.flags, independentFlags(e), `${what} flags`);
    };
    const cityIds = new Map(t.cities.map((c) => [c.city_id, c]));
    const slugToId = new Map<string, string>();
    for (const c of b.json('geo.en.json').cities) {
      const id = [...cityIds.values()].find((r) => r.country_code === c.countryCode && r.name_en === c.name)!.city_id;
      slugToId.set(c.slug, id);
    }
    const index = b.json('price-index.json');
    let publishedRows = 0;
    let thinCities = 0;
    for (const city of index.cities) {
      const id = slugToId.get(city.city.slug)!;
      const all = expected.get(`${id}|all`);
      assert.equal(city.sampleSize, all?.n ?? 0, `${city.city.slug} sample`);
      assert.equal(city.published, (all?.n ?? 0) >= 5);
      if (!city.published) {
        thinCities += 1;
        assert.equal(city.flag, 'insufficient_sample');
        assert.equal(city.median, undefined);
        continue;
      }
      for (const k of ['median', 'average', 'min', 'max'] as const) near(city[k].amount, all![k], `${city.city.slug} ${k}`);
      quality(city, all, city.city.slug);
      for (const bt of city.byType) {
        const e = expected.get(`${id}|${bt.optionType}`);
        assert.equal(bt.sampleSize, e?.n ?? 0, `${city.city.slug} ${bt.optionType} sample`);
        assert.equal(bt.published, (e?.n ?? 0) >= 5);
        if (bt.published) {
          publishedRows += 1;
          for (const k of ['median', 'average', 'min', 'max'] as const) near(bt[k].amount, e![k], `${city.city.slug} ${bt.optionType} ${k}`);
          quality(bt, e, `${city.city.slug} ${bt.optionType}`);
        } else {
          assert.equal(bt.median, undefined);
        }
      }
    }
    assert.ok(publishedRows >= 10, `a meaningful check: ${publishedRows} published product rows`);
    assert.equal(thinCities, 1, 'Valencia (VE) stays under the threshold');

    const report = parse(b.text('price-report.csv'), { columns: true }) as Record<string, string>[];
    assert.equal(report.length, index.cities.length * 6);
    for (const row of report) {
      const e = expected.get(`${slugToId.get(row.city_slug)}|${row.product_type}`);
      assert.equal(Number(row.sample_size), e?.n ?? 0);
      assert.equal(row.published, (e?.n ?? 0) >= 5 ? 'true' : 'false');
      if (row.published === 'true') {
        near(Number(row.median), e!.median, `csv ${row.city_slug} ${row.product_type}`);
        near(Number(row.p75), e!.p75, `csv ${row.city_slug} ${row.product_type} p75`);
        assert.equal(row.flags, independentFlags(e!));
      } else {
        assert.deepEqual([row.median, row.average, row.min, row.max, row.p25, row.p75, row.median_age_days, row.flags], ['', '', '', '', '', '', '', '']);
      }
    }
    const pkg = b.json('price-report.datapackage.json');
    assert.deepEqual(pkg.resources[0].schema.fields.map((f: any) => f.name), Object.keys(report[0]));
    assert.equal(pkg.licenses[0].path, 'https://creativecommons.org/licenses/by/4.0/');
  });
});
