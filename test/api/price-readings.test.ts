/**
 * The readings of the price filter and the price orders that pipeline/methodology.md states, on a
 * build the pipeline makes of a small fixture, served by the real app: each fixture makes the two
 * readings give different pages, so each test fails if the code took the other.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { baseTables, buildFixture, LONDON, observation, space } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';
import { priceBasisOrder, type PriceBasis } from '../../contract/prices.ts';

describe('price filter and order readings', () => {
  let app: FastifyInstance;
  let build: LoadedBuild;
  let unitsPerEur: Record<string, number>;

  before(async () => {
    const t = baseTables();
    const priced = (id: string, type: string, amount: string, period = 'month', extra: Record<string, string> = {}) => {
      t.spaces.push(space(id, { city_id: extra.city_id ?? t.cities[0].city_id }));
      t.price_observations.push(observation(id, type, amount, period, { currency: extra.currency ?? 'EUR' }));
    };
    // memberships: 1,000 a year is 83.333… a month, 83.33 in cents
    priced('r6-year', 'membership', '1000', 'year');
    priced('r6-month', 'membership', '50');
    // 130.05 GBP at 0.85 a euro is 153.00000000000003 EUR, 153.0000 at four decimals: a tie with 153 EUR
    priced('r7-a-gbp', 'flex_desk', '130.05', 'month', { city_id: LONDON, currency: 'GBP' });
    priced('r7-b-eur', 'flex_desk', '153');
    // equal prices
    priced('r8-a', 'flex_desk', '200');
    priced('r8-b', 'flex_desk', '200');
    // the card: "14,100 per month", sorted as 2,250 a month because another office costs 27,000 a year
    priced('r9-offices', 'private_office', '14100', 'month');
    t.price_observations.push(observation('r9-offices', 'private_office', '27000', 'year'));
    // priced per day only: after every monthly price
    priced('r10-days', 'day_pass', '20', 'day');
    unitsPerEur = Object.fromEntries(t.fx_reference.map((r) => [r.currency, Number(r.units_per_eur)]));
    const b = await buildFixture(t);
    build = await loadBuild(path.join(b.distDir, 'current'), { siteUrl: SITE });
    app = await testApp({ catalog: staticCatalog(build) });
  });
  after(async () => {
    await app?.close();
    await build?.close();
  });

  const slugs = async (query: string): Promise<string[]> => {
    const r = await get(app, `/v1/properties?locale=en&pageSize=50&${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.map((c: { slug: string }) => c.slug);
  };
  /** the listings among `of` in the order of the page */
  const order = async (query: string, ...of: string[]) => (await slugs(query)).filter((s) => of.includes(s));

  it('minPrice and maxPrice compare the comparable amount rounded to cents, as priceRange publishes it', async () => {
    const facets = await get(app, '/v1/facets?locale=en&pricingOptionType=membership');
    assert.deepEqual(facets.body.data.priceRange, {
      min: { amount: 50, currency: 'EUR' }, max: { amount: 83.33, currency: 'EUR' }, basis: 'monthly',
    });
    const within = (bounds: string) => slugs(`pricingOptionType=membership&${bounds}`);
    assert.deepEqual((await within('minPrice=50&maxPrice=83.33')).sort(), ['space-r6-month', 'space-r6-year'],
      'the published range selects every listing in it: 83.333… counts as 83.33');
    assert.deepEqual(await within('minPrice=83.333'), [], '83.33 is below 83.333');
  });

  it('orders across currencies on the euro amount rounded to four decimals, so 153 EUR and 130.05 GBP tie', async () => {
    // unrounded, 153 EUR is the cheaper; at four decimals they tie and the slug decides
    assert.deepEqual(await order('sortBy=price-asc', 'space-r7-a-gbp', 'space-r7-b-eur'), ['space-r7-a-gbp', 'space-r7-b-eur']);
  });

  it('gives each card the comparable price its order ranks it by, which fromPrice need not be', async () => {
    type Card = { slug: string; fromPrice?: unknown; fromBillingPeriod?: string; comparablePrice: { amount: number; currency: string; basis: PriceBasis } | null };
    const page = async (query: string): Promise<Card[]> => (await get(app, `/v1/properties?locale=en&pageSize=50&${query}`)).body.data;
    const offices = (await page('sortBy=price-asc')).find((c) => c.slug === 'space-r9-offices')!;
    assert.deepEqual([offices.fromPrice, offices.fromBillingPeriod, offices.comparablePrice],
      [{ amount: 14100, currency: 'EUR' }, 'month', { amount: 2250, currency: 'EUR', basis: 'monthly' }]);
    // each page is in the order of its cards' comparable prices: the basis (monthly first), then euros at four decimals, then slug
    const bases = priceBasisOrder('all');
    const euros = (c: Card) => Math.round((c.comparablePrice!.amount / unitsPerEur[c.comparablePrice!.currency]) * 1e4) / 1e4;
    for (const direction of [1, -1]) {
      const cards = await page(`sortBy=${direction === 1 ? 'price-asc' : 'price-desc'}`);
      assert.ok(cards.every((c) => c.comparablePrice), 'every fixture space is priced');
      const byCards = [...cards].sort((a, b) => bases.indexOf(a.comparablePrice!.basis) - bases.indexOf(b.comparablePrice!.basis)
        || (euros(a) - euros(b)) * direction || (a.slug < b.slug ? -1 : 1));
      assert.deepEqual(cards.map((c) => c.slug), byCards.map((c) => c.slug));
      assert.equal(cards.at(-1)!.slug, 'space-r10-days');
    }
  });

  it('breaks ties of equal prices by slug, ascending in both directions', async () => {
    assert.deepEqual(await order('sortBy=price-asc', 'space-r8-a', 'space-r8-b'), ['space-r8-a', 'space-r8-b']);
    assert.deepEqual(await order('sortBy=price-desc', 'space-r8-a', 'space-r8-b'), ['space-r8-a', 'space-r8-b']);
    assert.deepEqual(await order('sortBy=price-desc', 'space-r7-a-gbp', 'space-r7-b-eur'), ['space-r7-a-gbp', 'space-r7-b-eur']);
  });
});
