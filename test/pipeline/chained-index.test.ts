/**
 * The history's chained matched-model index on a snapshot built so that composition and price move apart:
 * the median falls while the same spaces' prices rise, and a month that links too few spaces restarts the chain.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { baseTables, buildFixture, observation, space, type FixtureRow } from '../support/pipeline-fixtures.ts';

const at = (month: number) => `2025-0${month}-10T08:00:00Z`;

function priced(id: string, months: [number, string][]): FixtureRow[] {
  return months.map(([month, amount]) => observation(id, 'flex_desk', amount, 'month', { offer_id: `${id}-flex`, observed_at: at(month) }));
}

describe('chained matched-model index', () => {
  it('follows the same spaces, not the composition, and starts again at 100 after a month it cannot link', async () => {
    const t = baseTables();
    const add = (id: string, months: [number, string][]) => {
      t.spaces.push(space(id));
      t.price_observations.push(...priced(id, months));
    };
    // six spaces from 100 to 110 in February, then on request
    for (let i = 1; i <= 6; i++) add(`a-${i}`, [[1, '100'], [2, '110'], [3, '']]);
    // twenty cheap spaces enter in February and go on request in March
    for (let i = 1; i <= 20; i++) add(`b-${i}`, [[2, '50'], [3, '']]);
    // ten new spaces in March (81 … 90), each 10% dearer in April
    for (let i = 1; i <= 10; i++) add(`c-${i}`, [[3, String(80 + i)], [4, ((80 + i) * 1.1).toFixed(2)]]);
    const b = await buildFixture(t);
    const berlin = b.json('price-history.json').cities.find((c: any) => c.city.slug === 'berlin');
    const points = berlin.byType.find((x: any) => x.optionType === 'flex_desk').points;
    assert.deepEqual(points.map((p: any) => p.month), ['2025-01', '2025-02', '2025-03', '2025-04']);
    assert.deepEqual(points.map((p: any) => p.median.amount), [100, 50, 85.5, 94.05], 'the median falls in February');
    assert.deepEqual(points.map((p: any) => p.matchedSpaces), [0, 6, 0, 10]);
    assert.deepEqual(points.map((p: any) => p.index), [100, 110, 100, 110], 'the same spaces rose 10%, twice');
    assert.deepEqual(points.map((p: any) => p.flags.includes('b')), [false, false, true, false], 'the second segment is a break');
    // n = 10: the 2nd to the 9th price
    assert.deepEqual(points[3].medianInterval, { low: { amount: 90.2, currency: 'EUR' }, high: { amount: 97.9, currency: 'EUR' } });
    assert.deepEqual(points[0].medianInterval, { low: { amount: 100, currency: 'EUR' }, high: { amount: 100, currency: 'EUR' } });

    const csv = (parse(b.text('price-report-history.csv'), { columns: true }) as Record<string, string>[])
      .filter((r) => r.city_slug === 'berlin' && r.product_type === 'flex_desk');
    assert.deepEqual(csv.map((r) => [r.index, r.matched_spaces, r.median_low, r.median_high]), [
      ['100.00', '0', '100.00', '100.00'], ['110.00', '6', '50.00', '50.00'], ['100.00', '0', '82.00', '89.00'], ['110.00', '10', '90.20', '97.90'],
    ]);
  });

  it('compares a space with itself only at the same product: a cheaper product added is no price change', async () => {
    const t = baseTables();
    for (let i = 1; i <= 6; i++) {
      const id = `o-${i}`;
      t.spaces.push(space(id));
      t.price_observations.push(
        // an office of 4 desks at 500 a desk in both months; from February a flex desk at 200 as well
        ...[1, 2].map((month) => observation(id, 'private_office', '2000', 'month', { offer_id: `${id}-office`, max_capacity: '4', observed_at: at(month) })),
        observation(id, 'flex_desk', '200', 'month', { offer_id: `${id}-flex`, observed_at: at(2) }),
      );
    }
    const b = await buildFixture(t);
    const berlin = b.json('price-history.json').cities.find((c: any) => c.city.slug === 'berlin');
    assert.deepEqual(berlin.points.map((p: any) => p.median.amount), [500, 200], 'the median of all desk products falls');
    assert.deepEqual(berlin.points.map((p: any) => [p.matchedSpaces, p.index]), [[0, undefined], [0, undefined]],
      'no space is priced by the same product in both months: no link, no index');
    const offices = berlin.byType.find((x: any) => x.optionType === 'private_office').points;
    assert.deepEqual(offices.map((p: any) => [p.matchedSpaces, p.index]), [[0, 100], [6, 100]]);
  });

  it('flags a median that resumes after any earlier published month, however far back (b)', async () => {
    const t = baseTables();
    // five spaces priced in January, on request in February and March, priced again in April
    for (let i = 1; i <= 5; i++) {
      t.spaces.push(space(`r-${i}`));
      t.price_observations.push(...priced(`r-${i}`, [[1, '100'], [2, ''], [4, '120']]));
    }
    const b = await buildFixture(t);
    const points = b.json('price-history.json').cities.find((c: any) => c.city.slug === 'berlin').points;
    assert.deepEqual(points.map((p: any) => [p.month, p.published, p.flags ?? null]),
      [['2025-01', true, 'u'], ['2025-02', false, null], ['2025-03', false, null], ['2025-04', true, 'bu']]);
    assert.deepEqual(points.map((p: any) => p.index), [undefined, undefined, undefined, undefined], 'no two months to link');
  });

  it('has no index where no link reaches the month', async () => {
    const t = baseTables();
    // four spaces only: every month's median and link stay unpublished
    for (let i = 1; i <= 4; i++) {
      t.spaces.push(space(`s-${i}`));
      t.price_observations.push(...priced(`s-${i}`, [[1, '100'], [2, '120']]));
    }
    const b = await buildFixture(t);
    const points = b.json('price-history.json').cities.find((c: any) => c.city.slug === 'berlin').points;
    assert.deepEqual(points.map((p: any) => [p.index, p.matchedSpaces, p.published]), [[undefined, 0, false], [undefined, 4, false]]);
  });
});
