/**
 * The methodology's rounding rule on exact values: money is a decimal from the input to the rounding, the
 * week factor is applied as written (× 52 ÷ 12), and a true half cent rounds away from zero.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { baseTables, buildFixture, observation, space } from '../support/pipeline-fixtures.ts';

describe('exact money', () => {
  it('rounds a per-desk week price that is exactly a half cent up, in JSON and CSV', async () => {
    const t = baseTables();
    for (let i = 1; i <= 5; i++) {
      t.spaces.push(space(`sp-${i}`));
      // 210 a week for 16 desks: 210 × 52 ÷ 12 ÷ 16 = 56.875 exactly (56.8749… through a rounded 52/12)
      t.price_observations.push(observation(`sp-${i}`, 'private_office', '210', 'week', { max_capacity: '16' }));
    }
    const b = await buildFixture(t);
    const berlin = b.json('price-index.json').cities.find((c: any) => c.city.slug === 'berlin');
    for (const k of ['median', 'average', 'min', 'max', 'p25', 'p75']) assert.equal(berlin[k].amount, 56.88, k);
    const row = (parse(b.text('price-report.csv'), { columns: true }) as Record<string, string>[])
      .find((r) => r.city_slug === 'berlin' && r.product_type === 'all')!;
    assert.equal(row.median, '56.88');
    assert.equal(row.p75, '56.88');
  });

  it('interpolates quartiles and averages exactly before rounding', async () => {
    const t = baseTables();
    // offices of 3 desks: per desk 100, 100, 100, 100.01, 100.02, 100.03
    const amounts = ['300', '300', '300', '300.03', '300.06', '300.09'];
    amounts.forEach((amount, i) => {
      t.spaces.push(space(`sp-${i}`));
      t.price_observations.push(observation(`sp-${i}`, 'private_office', amount, 'month', { max_capacity: '3' }));
    });
    const b = await buildFixture(t);
    const berlin = b.json('price-index.json').cities.find((c: any) => c.city.slug === 'berlin');
    // p75 at rank 1 + 5 × 0.75 = 4.75: 100.01 + 0.75 × 0.01 = 100.0175 → 100.02; the median (100 + 100.01) / 2 = 100.005 → 100.01
    assert.equal(berlin.p75.amount, 100.02);
    assert.equal(berlin.median.amount, 100.01);
    // the average 600.06 / 6 = 100.01
    assert.equal(berlin.average.amount, 100.01);
  });
});
