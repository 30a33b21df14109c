/**
 * The readings pipeline/methodology.md states where a rule could be read two ways: each fixture
 * makes the two readings publish different results, so each test fails if the code took the other.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  baseTables, buildFixture, observation, space, VALENCIA_ES, VALENCIA_VE, type FixtureTables,
} from '../support/pipeline-fixtures.ts';

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

describe('methodology readings: implausible amounts', () => {
  let rejected: Map<string, string>;
  const t = baseTables();
  /**
   * A space (in Berlin unless `spaceExtra` says otherwise) with one offer, observed once a month from
   * January: its rows as [amount, extra columns]; returns their observation ids.
   */
  const offer = (id: string, rows: [string, Partial<Record<string, string>>?][], spaceExtra: Partial<Record<string, string>> = {}) => {
    t.spaces.push(space(id, spaceExtra));
    return rows.map(([amount, extra = {}], k) => {
      const o = observation(id, extra.option_type ?? 'flex_desk', amount, extra.billing_period ?? 'month', {
        offer_id: `${id}-offer`, observation_id: `${id}-${k}`, observed_at: `2025-0${k + 1}-10T09:00:00Z`, ...extra,
      });
      t.price_observations.push(o);
      return o.observation_id;
    });
  };
  // rule 4
  const zero = offer('sp-zero', [['0'], [''], ['300']]);
  const later = offer('sp-later', [['3500'], ['300']]);
  const otherRule = offer('sp-other-rule', [['30', { min_capacity: '5', max_capacity: '2' }], ['400']]);
  const otherCurrency = offer('sp-ves', [['12000', { currency: 'VES' }], ['300', { currency: 'USD' }], ['12500', { currency: 'VES' }]],
    { city_id: VALENCIA_VE });
  const otherPeriod = offer('sp-period', [['300'], ['3600', { billing_period: 'year' }]]);
  // rule 5: in Valencia (ES), one space observed five times at 100 (two of the rows with a bad capacity), another at 2,500
  const peers = offer('sp-peers', [['100'], ['100'], ['100'], ['100', { max_capacity: '0' }], ['100', { max_capacity: '0' }]],
    { city_id: VALENCIA_ES });
  const [high] = offer('sp-high', [['2500']], { city_id: VALENCIA_ES });

  before(async () => {
    const b = await buildFixture(t);
    rejected = new Map(b.rejects().map((r) => [r.raw.split(',')[0], r.rule]));
  });

  it('rule 4: a zero or a price on request is no lowest amount', () => {
    assert.equal(rejected.get(zero[0]), 'implausible_amount', 'the zero (rule 1)');
    assert.equal(rejected.get(zero[1]), undefined, 'the price on request');
    assert.equal(rejected.get(zero[2]), undefined, '300 is not 10 times any amount above zero');
  });

  it('rule 4: a later observation of the offer counts', () => {
    assert.equal(rejected.get(later[0]), 'implausible_amount', 'the first observation, 3,500, against the 300 observed after it');
    assert.equal(rejected.get(later[1]), undefined);
  });

  it('rule 4: an observation quarantined by another rule counts', () => {
    assert.equal(rejected.get(otherRule[0]), 'bad_capacity');
    assert.equal(rejected.get(otherRule[1]), 'implausible_amount', '400 against the 30 of the row with a bad capacity');
  });

  it('rule 4: only amounts in the same currency and billing period are compared', () => {
    assert.equal(rejected.get(otherCurrency[1]), 'currency_mismatch');
    assert.equal(rejected.get(otherCurrency[0]), undefined, '12,000 VES is not compared with 300 USD');
    assert.equal(rejected.get(otherCurrency[2]), undefined);
    assert.equal(rejected.get(otherPeriod[1]), undefined, '3,600 a year is not compared with 300 a month');
  });

  it('rule 5: the peers are observations, not spaces, whatever other rule they break', () => {
    for (const id of peers.slice(3)) assert.equal(rejected.get(id), 'bad_capacity');
    assert.equal(rejected.get(high), 'implausible_amount',
      '2,500 is more than 20 times the median of six observations (five of one space, two of them quarantined)');
  });
});
