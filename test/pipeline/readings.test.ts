/**
 * The readings pipeline/methodology.md states where a rule could be read two ways: each fixture
 * makes the two readings publish different results, so each test fails if the code took the other.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baseTables, buildFixture, observation, space, type FixtureTables } from '../support/pipeline-fixtures.ts';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Berlin (the fixture's first city) in price-index.json: the `all` figure, or a product's. */
function berlin(index: any, product = 'all') {
  const city = index.cities.find((c: any) => c.city.slug === 'berlin');
  return product === 'all' ? city : city.byType.find((t: any) => t.optionType === product);
}

/** Five Berlin spaces sp-0 … sp-4 (the sample that publishes a figure). */
function fiveSpaces(): FixtureTables {
  const t = baseTables();
  for (let i = 0; i < 5; i++) t.spaces.push(space(`sp-${i}`));
  return t;
}

describe('methodology readings: quality measures', () => {
  it('counts a price as stale from 181 whole days of age on, and flags `a` from a median age above 180', async () => {
    const t = fiveSpaces();
    const asOf = Date.parse('2025-10-01T12:00:00Z');
    // ages 0, 180.5, 180.5, 180.5 and 181 days: in whole days 0, 180, 180, 180, 181
    const ages = [0, 180.5, 180.5, 180.5, 181];
    ages.forEach((age, i) => t.price_observations.push(observation(`sp-${i}`, 'flex_desk', String(300 + i), 'month',
      { observed_at: iso(asOf - age * DAY_MS) })));
    const all = berlin((await buildFixture(t)).json('price-index.json'));
    assert.equal(all.medianAgeDays, 180);
    assert.equal(all.staleShare, 0.2, 'only the price 181 whole days old is stale (180.5 days is 180 whole days, not more than 180)');
    assert.equal(all.flags, 'u', 'a median age of exactly 180 days is not stale: no `a`');
  });

  it('takes the data\'s asOf from every accepted observation, a price on request included', async () => {
    const t = fiveSpaces();
    for (let i = 0; i < 5; i++) t.price_observations.push(observation(`sp-${i}`, 'flex_desk', String(300 + i)));
    // ten days after the prices (observed 2025-10-01T09:00Z), an offer of sp-0 put on request
    t.price_observations.push(observation('sp-0', 'private_office', '', 'month', { observed_at: '2025-10-11T09:00:00Z' }));
    const index = (await buildFixture(t)).json('price-index.json');
    assert.equal(index.asOf, '2025-10-11T09:00:00Z');
    assert.equal(berlin(index).medianAgeDays, 10, 'the prices are ten days old at asOf');
  });

  it('ages a space\'s `all` price by the latest observation among the products that reach its cheapest price', async () => {
    const t = fiveSpaces();
    for (let i = 0; i < 5; i++) {
      // the same monthly price per desk by a fixed desk observed in January and a flex desk observed in September
      t.price_observations.push(
        observation(`sp-${i}`, 'fix_desk', String(300 + i), 'month', { observed_at: '2025-01-01T09:00:00Z' }),
        observation(`sp-${i}`, 'flex_desk', String(300 + i), 'month', { observed_at: '2025-09-01T09:00:00Z' }),
      );
    }
    // asOf: a day pass observed on 2025-10-01
    t.price_observations.push(observation('sp-0', 'day_pass', '20', 'day', { observed_at: '2025-10-01T09:00:00Z' }));
    const index = (await buildFixture(t)).json('price-index.json');
    assert.equal(berlin(index, 'fix_desk').medianAgeDays, 273);
    assert.equal(berlin(index, 'flex_desk').medianAgeDays, 30);
    assert.equal(berlin(index).medianAgeDays, 30, 'the flex desk, observed later, counts; not the fixed desk, first in product order and older');
    assert.equal(berlin(index).flags, 'u', 'so the overall figure is not stale');
  });
});

describe('methodology readings: the history', () => {
  it('puts an observation at 00:00:00 UTC on the first of a month in that month, not in the one before', async () => {
    const t = fiveSpaces();
    for (let i = 0; i < 5; i++) {
      const offer = { offer_id: `of-sp-${i}` };
      // sp-4 writes the same instant with an offset
      const monthStart = i === 4 ? '2025-02-01T01:00:00+01:00' : '2025-02-01T00:00:00Z';
      t.price_observations.push(
        observation(`sp-${i}`, 'flex_desk', String(300 + i), 'month', { ...offer, observed_at: '2025-01-10T00:00:00Z' }),
        observation(`sp-${i}`, 'flex_desk', String(400 + i), 'month', { ...offer, observed_at: monthStart }),
      );
    }
    const history = (await buildFixture(t)).json('price-history.json');
    assert.deepEqual(history.months, ['2025-01', '2025-02']);
    const [january, february] = history.cities.find((c: any) => c.city.slug === 'berlin').points;
    assert.equal(january.median.amount, 302, 'January ends before the prices of February 1, 00:00 UTC');
    assert.equal(january.medianAgeDays, 22, 'aged at the end of January: 22 days after January 10');
    assert.equal(february.median.amount, 402);
  });
});
