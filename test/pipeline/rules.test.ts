import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BERLIN, LONDON, MITTE, KREUZBERG, VALENCIA_ES, VALENCIA_VE, FIXTURE_EXTRACTED_AT, baseTables, buildFixture, observation, space,
  type FixtureTables,
} from '../support/pipeline-fixtures.ts';

/** `n` Berlin spaces, each with one monthly flex desk at the given price. */
function withFlexDesks(prices: number[], t: FixtureTables = baseTables()): FixtureTables {
  prices.forEach((price, i) => {
    const id = `sp-f${String(i).padStart(3, '0')}`;
    t.spaces.push(space(id));
    t.price_observations.push(observation(id, 'flex_desk', String(price)));
  });
  return t;
}

const indexCity = (b: { json: (f: string) => any }, slug: string) =>
  b.json('price-index.json').cities.find((c: any) => c.city.slug === slug);
const byType = (city: any, type: string) => city.byType.find((t: any) => t.optionType === type);

describe('pipeline rules', () => {
  it('normalises periods to a month: month ×1, year ÷12, week ×52/12; day, hour and once are left out', async () => {
    const t = baseTables();
    const offers: [string, string][] = [['200', 'month'], ['3000', 'year'], ['60', 'week'], ['400', 'month'], ['500', 'month'],
      ['10', 'day'], ['3', 'hour'], ['50', 'once']];
    offers.forEach(([amount, period], i) => {
      t.spaces.push(space(`sp-${i}`));
      t.price_observations.push(observation(`sp-${i}`, 'flex_desk', amount, period));
    });
    const b = await buildFixture(t);
    const flex = byType(indexCity(b, 'berlin'), 'flex_desk');
    // 200, 250 (3000/12), 260 (60×52/12), 400, 500
    assert.equal(flex.sampleSize, 5);
    assert.deepEqual(flex.median, { amount: 260, currency: 'EUR' });
    assert.deepEqual(flex.min, { amount: 200, currency: 'EUR' });
    assert.deepEqual(flex.max, { amount: 500, currency: 'EUR' });
    assert.deepEqual(flex.average, { amount: 322, currency: 'EUR' });
  });

  it('divides office prices by their desks, keeps desks and memberships per person, leaves out offices without desks and non-desk products', async () => {
    const t = baseTables();
    const offices: [string, string][] = [['1000', '2'], ['1800', '3'], ['2800', '4'], ['4000', '5'], ['5400', '6']];
    offices.forEach(([amount, desks], i) => {
      t.spaces.push(space(`sp-${i}`));
      t.price_observations.push(observation(`sp-${i}`, 'private_office', amount, 'month', { max_capacity: desks, min_capacity: '1' }));
    });
    t.spaces.push(space('sp-nodesks'), space('sp-meeting'), space('sp-excl'), space('sp-member'));
    t.price_observations.push(
      observation('sp-nodesks', 'private_office', '100'),
      observation('sp-meeting', 'meeting_room', '40', 'month'),
      observation('sp-excl', 'exclusive_bereich', '1200', 'month', { max_capacity: '3' }),
      observation('sp-member', 'membership', '150', 'month'),
    );
    const b = await buildFixture(t);
    const berlin = indexCity(b, 'berlin');
    const office = byType(berlin, 'private_office');
    assert.equal(office.sampleSize, 5, 'the office without a desk count is not in the sample');
    assert.deepEqual([office.median.amount, office.min.amount, office.max.amount], [700, 500, 900]);
    const facts = b.listings();
    const excl = facts.find((f: any) => f.slug === 'space-sp-excl');
    assert.equal(excl.marketPositionByType.exclusive_bereich, undefined, 'thin sample: no position');
    // the overall sample: 5 offices + exclusive area (400) + membership (150); not the meeting room, not the office without desks
    assert.equal(berlin.sampleSize, 7);
    assert.equal(berlin.min.amount, 150);
    assert.equal(berlin.median.amount, 600);
    const meeting = facts.find((f: any) => f.slug === 'space-sp-meeting');
    assert.equal(meeting.marketPosition, null, 'a meeting room is not a desk');
    assert.deepEqual(meeting.fromPrice, { amount: 40, currency: 'EUR', billingPeriod: 'month' });
  });

  it('takes the latest observation of each offer', async () => {
    const t = withFlexDesks([100, 200, 300, 400]);
    t.spaces.push(space('sp-latest'));
    t.price_observations.push(
      observation('sp-latest', 'flex_desk', '150', 'month', { offer_id: 'of-x', observed_at: '2025-01-10T00:00:00Z' }),
      observation('sp-latest', 'flex_desk', '350', 'month', { offer_id: 'of-x', observed_at: '2025-11-02T12:00:00+01:00' }),
      observation('sp-latest', 'flex_desk', '250', 'month', { offer_id: 'of-x', observed_at: '2025-06-01T00:00:00Z' }),
    );
    const b = await buildFixture(t);
    const detail = b.lines('details.en.ndjson').find((p: any) => p.slug === 'space-sp-latest');
    assert.equal(detail.pricingOptions.length, 1);
    assert.deepEqual(detail.pricingOptions[0].price, { amount: 350, currency: 'EUR' });
    assert.deepEqual(detail.fromPrice, { amount: 350, currency: 'EUR' });
    assert.equal(indexCity(b, 'berlin').median.amount, 300, 'median of 100, 200, 300, 350, 400');
    assert.equal(b.json('price-index.json').asOf, '2025-11-02T11:00:00Z', 'asOf is the latest observation, not the wall clock');
  });

  it('takes the middle value of an odd sample', async () => {
    const b = await buildFixture(withFlexDesks([500, 100, 300, 200, 400]));
    assert.equal(indexCity(b, 'berlin').median.amount, 300);
  });

  it('takes the mean of the two middle values of an even sample', async () => {
    const b = await buildFixture(withFlexDesks([600, 100, 500, 200, 401, 300]));
    assert.equal(indexCity(b, 'berlin').median.amount, 350.5);
    assert.equal(indexCity(b, 'berlin').average.amount, 350.17, 'rounded to cents only at output');
  });

  it('flags a city of 4 spaces and publishes one of 5', async () => {
    const thin = await buildFixture(withFlexDesks([100, 200, 300, 400]));
    const city = indexCity(thin, 'berlin');
    assert.equal(city.sampleSize, 4);
    assert.equal(city.published, false);
    assert.equal(city.flag, 'insufficient_sample');
    assert.equal(city.median, undefined);
    assert.deepEqual(city.byType.map((t: any) => [t.optionType, t.sampleSize, t.published, t.median]),
      [['private_office', 0, false, undefined], ['exclusive_bereich', 0, false, undefined], ['fix_desk', 0, false, undefined],
        ['flex_desk', 4, false, undefined], ['membership', 0, false, undefined]], 'the same product rows as the CSV');
    assert.equal(thin.keyed('places', 'en')['city/berlin'].medianMonthlyPerDesk, undefined);
    assert.ok(thin.listings().every((f: any) => f.marketPosition === null));
    assert.ok(thin.lines('details.en.ndjson').every((c: any) => c.marketPosition === undefined));
    const rates = thin.json('market-rates.json').cities.find((c: any) => c.rates.city.slug === 'berlin').rates;
    assert.deepEqual(rates.byType[0], {
      optionType: 'flex_desk', median: { amount: 250, currency: 'EUR' }, min: { amount: 100, currency: 'EUR' },
      max: { amount: 400, currency: 'EUR' }, sampleSize: 4, thinSample: true,
    });
    assert.match(thin.text('price-report.csv'), /DE,berlin,Berlin,EUR,all,4,false,,,,,/);
    assert.match(thin.keyed('places', 'en')['city/berlin'].faqs[0].answer, /4 of the 5 needed/);

    const enough = await buildFixture(withFlexDesks([100, 200, 300, 400, 500]));
    const published = indexCity(enough, 'berlin');
    assert.equal(published.sampleSize, 5);
    assert.equal(published.published, true);
    assert.equal(published.flag, undefined);
    assert.deepEqual(published.median, { amount: 300, currency: 'EUR' });
    const cards = enough.lines('details.en.ndjson');
    assert.deepEqual(cards.map((c: any) => c.marketPosition.verdict), ['below', 'below', 'around', 'above', 'above']);
    assert.equal(enough.json('market-rates.json').cities[0].rates.byType[0].thinSample, undefined);
    const faq = enough.keyed('places', 'en')['city/berlin'].faqs[0];
    assert.equal(faq.question, 'How much does a desk cost in Berlin?');
    assert.match(faq.answer, /€300, based on 5 coworking spaces/);
    assert.match(enough.keyed('places', 'de')['city/berlin'].faqs[0].answer, /liegt bei 300\s€ im Monat/u);
  });

  it('places a listing against the city median: below < 0.9×, around up to 1.1×, above beyond', async () => {
    // median 1000: 899 below, 900 around, 1100 around, 1101 above
    const b = await buildFixture(withFlexDesks([899, 900, 1000, 1100, 1101]));
    assert.deepEqual(b.lines('details.en.ndjson').map((c: any) => c.marketPosition.verdict), ['below', 'around', 'around', 'around', 'above']);
  });

  it('counts a space with several office sizes once, at its cheapest price per desk', async () => {
    const t = baseTables();
    t.spaces.push(space('sp-multi'));
    t.price_observations.push(
      observation('sp-multi', 'private_office', '2000', 'month', { max_capacity: '4' }), // 500
      observation('sp-multi', 'private_office', '1200', 'month', { max_capacity: '3' }), // 400
      observation('sp-multi', 'private_office', '6000', 'month', { max_capacity: '10' }), // 600
      observation('sp-multi', 'flex_desk', '350'),
    );
    for (const [i, perDesk] of [700, 800, 900, 1000].entries()) {
      t.spaces.push(space(`sp-${i}`));
      t.price_observations.push(observation(`sp-${i}`, 'private_office', String(perDesk * 2), 'month', { max_capacity: '2' }));
    }
    const b = await buildFixture(t);
    const berlin = indexCity(b, 'berlin');
    const office = byType(berlin, 'private_office');
    assert.equal(office.sampleSize, 5);
    assert.equal(office.min.amount, 400);
    assert.equal(office.median.amount, 800);
    assert.equal(berlin.sampleSize, 5, 'the overall figure counts the space once');
    assert.equal(berlin.min.amount, 350, 'at its cheapest across desk products');
  });

  it('disambiguates city names: the lowest GeoNames id keeps the plain slug, not the most populous; the other gets its country code', async () => {
    const slugsOf = (b: { json: (f: string) => any }) =>
      b.json('geo.en.json').cities.map((c: any) => `${c.slug}:${c.countryCode}`).filter((s: string) => s.startsWith('valencia'));

    // Spain has the lower id (2509954 < 3625549); Venezuela is made far more populous
    const t = baseTables();
    assert.ok(Number(VALENCIA_ES) < Number(VALENCIA_VE));
    t.cities.find((c) => c.city_id === VALENCIA_VE)!.population = '9000000';
    t.cities.find((c) => c.city_id === VALENCIA_ES)!.population = '800000';
    assert.deepEqual(slugsOf(await buildFixture(t)).sort(), ['valencia-ve:VE', 'valencia:ES']);

    // Venezuela now has the lower id and Spain is the more populous: the plain slug follows the id.
    // 999999 is lower than 2509954 as a number but not as text: ids compare as numbers.
    const u = baseTables();
    const ve = u.cities.find((c) => c.city_id === VALENCIA_VE)!;
    ve.city_id = '999999';
    ve.population = '100000';
    u.cities.find((c) => c.city_id === VALENCIA_ES)!.population = '1600000';
    assert.deepEqual(slugsOf(await buildFixture(u)).sort(), ['valencia-es:ES', 'valencia:VE']);
  });

  it('disambiguates repeated space names with the city slug, then a counter; zones carry their city', async () => {
    const t = baseTables();
    t.spaces.push(
      space('sp-1', { name: 'The Hub', zone_id: MITTE }),
      space('sp-2', { name: 'The Hub' }),
      space('sp-3', { name: 'The Hub', city_id: LONDON, currency: '' }),
      space('sp-4', { name: 'The Hub' }),
      space('sp-5', { name: 'Café Zürich Straße' }),
    );
    const b = await buildFixture(t);
    const slugs = b.listings().map((f: any) => `${f.slug}`).sort();
    assert.deepEqual(slugs, ['cafe-zurich-strasse', 'the-hub', 'the-hub-berlin', 'the-hub-berlin-2', 'the-hub-london']);
    const zones = b.json('geo.en.json').cities.find((c: any) => c.slug === 'berlin').zones.map((z: any) => z.slug);
    assert.deepEqual(zones, ['berlin-kreuzberg', 'berlin-mitte']);
    assert.equal(KREUZBERG.length > 0 && BERLIN.length > 0, true);
  });

  it('skips a counter that another space, zone or operator already has as its own slug', async () => {
    const t = baseTables();
    t.spaces.push(
      space('sp-1', { name: 'The Hub' }),
      space('sp-2', { name: 'The Hub' }),
      space('sp-3', { name: 'The Hub' }),
      // its own name spells the counter the third The Hub in Berlin would get
      space('sp-4', { name: 'The Hub Berlin 2', city_id: LONDON, currency: '' }),
    );
    t.zones.push(
      { ...t.zones[0], zone_id: `${BERLIN}-7`, name_en: 'Mitte', name_de: 'Mitte', name_es: 'Mitte' },
      { ...t.zones[0], zone_id: `${BERLIN}-8`, name_en: 'Mitte 2', name_de: 'Mitte 2', name_es: 'Mitte 2' },
    );
    t.operators.push(
      { ...t.operators[0], operator_id: 'op-101', name: 'Acme' },
      { ...t.operators[0], operator_id: 'op-102', name: 'Acme' },
      { ...t.operators[0], operator_id: 'op-103', name: 'Acme 2' },
    );
    const b = await buildFixture(t);
    assert.deepEqual(b.listings().map((f: any) => f.slug).sort(), ['the-hub', 'the-hub-berlin', 'the-hub-berlin-2', 'the-hub-berlin-3']);
    const zones = b.json('geo.en.json').cities.find((c: any) => c.slug === 'berlin').zones.map((z: any) => z.slug).sort();
    assert.deepEqual(zones.filter((z: string) => z.startsWith('berlin-mitte')), ['berlin-mitte', 'berlin-mitte-2', 'berlin-mitte-3']);
    const operators = Object.keys(b.keyed('operators', 'en')).filter((o) => o.startsWith('acme')).sort();
    assert.deepEqual(operators, ['acme', 'acme-2', 'acme-3']);
  });

  it('never gives out the reserved slug map', async () => {
    const t = baseTables();
    t.spaces.push(space('sp-1', { name: 'Map' }), space('sp-2', { name: 'MAP', city_id: LONDON }));
    t.operators.push({ ...t.operators[0], operator_id: 'op-002', name: 'Map' });
    t.cities.push({ ...t.cities[0], city_id: '999', name_en: 'Map', population: '10' });
    const b = await buildFixture(t);
    const slugs = b.listings().map((f: any) => f.slug).sort();
    assert.deepEqual(slugs, ['map-berlin', 'map-london']);
    assert.ok(b.keyed('operators', 'en')['map-2']);
    assert.ok(b.json('geo.en.json').cities.some((c: any) => c.slug === 'map-de'));
    assert.ok(!JSON.stringify(b.lines('suggest.en.ndjson').map((s: any) => s.slug)).includes('"map"'));
  });

  it('derives capacity_status and updatedAt from the space', async () => {
    const t = baseTables();
    t.spaces.push(
      space('sp-1', { capacity: '40', capacity_declared: 'true' }),
      space('sp-2', { capacity: '25', capacity_declared: 'false', updated_at: '' }),
      space('sp-3', { capacity: '' }),
    );
    const b = await buildFixture(t);
    const [c1, c2, c3] = b.lines('cards.en.ndjson');
    assert.equal(c1.capacity_status, 'confirmed');
    assert.equal(c1.updatedAt, '2025-09-01T08:00:00Z');
    assert.equal(c2.capacity_status, 'possible_undeclared');
    assert.equal(c2.capacity, 25);
    assert.equal('updatedAt' in c2, false);
    assert.equal('capacity_status' in c3 || 'capacity' in c3, false);
  });

  it('takes fromPrice as the cheapest published price of any period, and per type', async () => {
    const t = baseTables();
    t.spaces.push(space('sp-1'));
    t.price_observations.push(
      observation('sp-1', 'flex_desk', '250'),
      observation('sp-1', 'meeting_room', '35', 'hour'),
      observation('sp-1', 'private_office', ''),
    );
    const b = await buildFixture(t);
    const [fact] = b.listings();
    assert.deepEqual(fact.fromPrice, { amount: 35, currency: 'EUR', billingPeriod: 'hour' });
    assert.equal(fact.fromPriceByType.flex_desk.amount, 250);
    assert.equal(fact.fromPriceByType.private_office, undefined, 'price on request has no price');
    assert.deepEqual(fact.optionTypes, ['private_office', 'flex_desk', 'meeting_room']);
    const [detail] = b.lines('details.en.ndjson');
    assert.deepEqual(detail.pricingOptions[0], { optionType: 'private_office', title: 'private_office offer', typeLabel: 'Private office', priceOnRequest: true, billingPeriod: 'month' });
  });

  it('converts to EUR with the reference table only for sorting', async () => {
    const t = baseTables();
    t.spaces.push(space('sp-1', { city_id: LONDON }));
    t.price_observations.push(observation('sp-1', 'flex_desk', '340', 'month', { currency: 'GBP' }));
    const b = await buildFixture(t);
    const [fact] = b.listings();
    assert.deepEqual(fact.fromPrice, { amount: 340, currency: 'GBP', billingPeriod: 'month' });
    assert.deepEqual(fact.comparable, { amount: 340, eur: 400, currency: 'GBP', basis: 'monthly' });
  });

  it('compares prices like with like: the cheapest monthly equivalent first, another basis only without one', async () => {
    const t = baseTables();
    t.spaces.push(space('sp-mixed'), space('sp-day'), space('sp-rooms'));
    t.price_observations.push(
      // €64 a week is €277.33 a month: dearer than €165 a month, though its raw amount is lower
      observation('sp-mixed', 'flex_desk', '64', 'week', { offer_id: 'o-week' }),
      observation('sp-mixed', 'flex_desk', '165', 'month', { offer_id: 'o-month' }),
      observation('sp-mixed', 'day_pass', '17', 'day', { offer_id: 'o-day' }),
      observation('sp-mixed', 'private_office', '3000', 'year', { offer_id: 'o-year', max_capacity: '2' }),
      observation('sp-day', 'day_pass', '20', 'day'),
      observation('sp-rooms', 'meeting_room', '90', 'day', { offer_id: 'o-room-day' }),
      observation('sp-rooms', 'meeting_room', '30', 'hour', { offer_id: 'o-room-hour' }),
    );
    const b = await buildFixture(t);
    const fact = (slug: string) => b.listings().find((f: any) => f.slug === slug)!;
    const mixed = fact('space-sp-mixed');
    assert.deepEqual(mixed.fromPrice, { amount: 17, currency: 'EUR', billingPeriod: 'day' }, 'fromPrice stays the cheapest figure of any period');
    assert.deepEqual(mixed.comparable, { amount: 165, eur: 165, currency: 'EUR', basis: 'monthly' });
    assert.deepEqual(mixed.comparableByType.flex_desk, { amount: 165, eur: 165, currency: 'EUR', basis: 'monthly' });
    assert.deepEqual(mixed.comparableByType.private_office, { amount: 250, eur: 250, currency: 'EUR', basis: 'monthly' }, 'year ÷ 12, not per desk');
    assert.deepEqual(mixed.comparableByType.day_pass, { amount: 17, eur: 17, currency: 'EUR', basis: 'day' });
    assert.deepEqual(fact('space-sp-day').comparable, { amount: 20, eur: 20, currency: 'EUR', basis: 'day' });
    // a meeting room compares per hour, though the day price would come first overall
    assert.deepEqual(fact('space-sp-rooms').comparableByType.meeting_room, { amount: 30, eur: 30, currency: 'EUR', basis: 'hour' });
    assert.deepEqual(fact('space-sp-rooms').comparable, { amount: 90, eur: 90, currency: 'EUR', basis: 'day' });
  });
});

describe('pipeline quarantine', () => {
  it('quarantines each kind of broken row with its rule, file and row number', async () => {
    const t = baseTables();
    t.countries.push({ country_code: 'JP', name_en: 'Japan', name_de: 'Japan', name_es: 'Japón', currency: 'JPY' });
    t.cities.push({ ...t.cities[0], city_id: '1850147', country_code: 'JP', name_en: 'Tokyo' });
    t.zones.push({ zone_id: 'z-x', city_id: '42', name_en: 'Nowhere', name_de: '', name_es: '', lat: '', lng: '' });
    t.spaces.push(space('sp-ok'));
    const badSpaces: [string, Partial<Record<string, string>>][] = [
      ['unknown_city', { city_id: '1850147' }],
      ['unknown_zone', { city_id: LONDON, zone_id: MITTE }],
      ['unknown_operator', { operator_id: 'op-404' }],
      ['bad_coordinates', { lat: '95', lng: '13' }],
      ['bad_rating', { rating_score: '6', rating_count: '3' }],
      ['bad_capacity', { capacity: '-4' }],
      ['bad_date', { updated_at: 'last tuesday' }],
      ['unknown_amenity', { amenities: 'wifi;sauna' }],
    ];
    badSpaces.forEach(([rule, extra], i) => t.spaces.push(space(`sp-bad-${i}-${rule}`, extra)));
    const badObservations: [string, Partial<Record<string, string>>, string?, string?][] = [
      ['unknown_space', { space_id: 'sp-404' }],
      ['currency_mismatch', { currency: 'USD' }],
      ['negative_amount', {}, '-20'],
      ['implausible_amount', {}, '0'],
      ['implausible_amount', {}, '99999999'],
      ['bad_date', { observed_at: '2025-13-45' }],
      ['unknown_option_type', { option_type: 'hot_desk' }],
      ['unknown_billing_period', {}, '100', 'fortnight'],
      ['bad_amount', {}, '12,50'],
      ['bad_capacity', { min_capacity: '5', max_capacity: '2' }],
      ['unknown_space', { space_id: 'sp-bad-0-unknown_city' }],
    ];
    for (const [, extra, amount, period] of badObservations) {
      t.price_observations.push(observation(extra.space_id ?? 'sp-ok', extra.option_type ?? 'flex_desk', amount ?? '200', period ?? 'month', extra));
    }
    t.price_observations.push(observation('sp-ok', 'flex_desk', '200'));
    const b = await buildFixture(t);
    const rejects = b.rejects();
    const expected = [
      { file: 'countries.csv', row: 5, rule: 'unknown_currency' },
      { file: 'cities.csv', row: 5, rule: 'unknown_country' },
      { file: 'zones.csv', row: 3, rule: 'unknown_city' },
      ...badSpaces.map(([rule], i) => ({ file: 'spaces.csv', row: i + 2, rule })),
      ...badObservations.map(([rule], i) => ({ file: 'price_observations.csv', row: i + 1, rule })),
    ].sort((a, b) => a.file.localeCompare(b.file) || a.row - b.row);
    assert.deepEqual(rejects.map(({ file, row, rule }) => ({ file, row, rule })), expected);
    const rawOfFirstObservation = rejects.find((r) => r.file === 'price_observations.csv')!.raw;
    assert.match(rawOfFirstObservation, /^ob-\d+,sp-404,/);
    assert.deepEqual(b.listings().map((f: any) => f.slug), ['space-sp-ok']);
    assert.equal(b.json('manifest.json').rowCounts.rejects, expected.length);
  });

  it('quarantines an observation in a currency without an exchange rate as unknown_currency, after currency_mismatch and before implausible_amount', async () => {
    const t = baseTables();
    t.fx_reference = t.fx_reference.filter((r) => r.currency !== 'VES');
    t.spaces.push(space('sp-ve', { city_id: VALENCIA_VE, lat: '10.16', lng: '-68.0' }), space('sp-de'));
    t.price_observations.push(
      observation('sp-ve', 'flex_desk', '8000', 'month', { currency: 'VES' }),
      observation('sp-ve', 'flex_desk', '0', 'month', { currency: 'VES' }),
      observation('sp-ve', 'flex_desk', '', 'month', { currency: 'VES' }),
      observation('sp-ve', 'flex_desk', '', 'month', { currency: '' }),
      observation('sp-ve', 'flex_desk', '200', 'month', { currency: 'EUR' }),
      observation('sp-de', 'flex_desk', '200', 'month'),
    );
    const b = await buildFixture(t);
    assert.deepEqual(b.rejects().map(({ row, rule }) => ({ row, rule })), [
      { row: 1, rule: 'unknown_currency' },
      { row: 2, rule: 'unknown_currency' },
      { row: 3, rule: 'unknown_currency' },
      { row: 5, rule: 'currency_mismatch' },
    ]);
    const ve = b.listings().find((l: any) => l.slug === 'space-sp-ve');
    assert.deepEqual(ve.optionTypes, ['flex_desk'], 'the price on request without a currency is kept');
    assert.equal(ve.fromPrice, null);
  });

  it('quarantines an observation dated after the snapshot\'s extraction as future_date, not one dated at it', async () => {
    const t = withFlexDesks(Array.from({ length: 100 }, (_, i) => 200 + i));
    t.spaces.push(space('sp-at'), space('sp-after'));
    t.price_observations.push(
      observation('sp-at', 'flex_desk', '250', 'month', { observed_at: FIXTURE_EXTRACTED_AT }),
      // one second later, written in another offset
      observation('sp-after', 'flex_desk', '250', 'month', { observed_at: '2026-11-01T01:00:01+01:00' }),
    );
    const b = await buildFixture(t);
    assert.deepEqual(b.rejects().map(({ row, rule }) => ({ row, rule })), [{ row: 102, rule: 'future_date' }]);
    assert.equal(Date.parse(b.json('price-index.json').asOf), Date.parse(FIXTURE_EXTRACTED_AT), 'asOf is the observation at the extraction');
    const fromPrice = (slug: string) => b.listings().find((l: any) => l.slug === slug).fromPrice;
    assert.deepEqual(fromPrice('space-sp-at'), { amount: 250, currency: 'EUR', billingPeriod: 'month' });
    assert.equal(fromPrice('space-sp-after'), null, 'the space is listed without the future price');
  });
});
