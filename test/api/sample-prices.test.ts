/**
 * Comparable prices on a build the pipeline makes of the committed sample (data/): the price
 * order, the price filter and the facets' priceRange against an independent computation from
 * the listings' own pricing options (details), rankings' entry period, option type labels, and
 * the suggest order the sample showed wrong.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { LOCALES } from '../../contract/common.ts';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress } from '../support/pipeline-fixtures.ts';
import { get, SITE, testApp } from '../support/app.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'data');
const PER_MONTH: Record<string, number> = { month: 1, week: 52 / 12, year: 1 / 12 };
const BASES = ['monthly', 'day', 'hour', 'once'];
const basisOf = (period: string) => (PER_MONTH[period] ? 'monthly' : period);

interface Option { optionType: string; title: string; typeLabel?: string; billingPeriod: string; price?: { amount: number; currency: string } }
interface Comparable { basis: string; amount: number; eur: number }

describe('comparable prices on the committed sample', () => {
  let app: FastifyInstance;
  let build: LoadedBuild;
  let distDir: string;
  let unitsPerEur: Record<string, number>;
  const options = new Map<string, Option[]>();

  before(async () => {
    distDir = await mkdtemp(join(tmpdir(), 'desk-atlas-prices-'));
    const built = await runBuild({ dataDir: SAMPLE, distDir, progress: quietProgress });
    build = await loadBuild(built.buildDir, { siteUrl: SITE });
    app = await testApp({ catalog: staticCatalog(build) });
    const fx = (await readFile(join(SAMPLE, 'fx_reference.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(','));
    unitsPerEur = Object.fromEntries(fx.map(([currency, units]) => [currency, Number(units)]));
  });
  after(async () => {
    await app?.close();
    await build?.close();
    await rm(distDir, { recursive: true, force: true });
  });

  async function walk(query: string): Promise<{ slug: string; fromPrice?: { amount: number }; fromBillingPeriod?: string }[]> {
    const cards = [];
    for (let page = 1; ; page++) {
      const r = await get(app, `/v1/properties?${query}&pageSize=50&page=${page}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      cards.push(...r.body.data);
      if (page >= r.body.meta.pagination.pageCount) return cards;
    }
  }
  async function optionsOf(slug: string): Promise<Option[]> {
    if (!options.has(slug)) options.set(slug, (await get(app, `/v1/properties/${slug}?locale=en`)).body.data.pricingOptions);
    return options.get(slug)!;
  }
  /** Of the priced options (of one type), those on the first basis in `order`, the cheapest in EUR. */
  async function comparable(slug: string, order: string[], type?: string): Promise<Comparable | undefined> {
    const priced = (await optionsOf(slug)).filter((o) => o.price && (!type || o.optionType === type)).map((o) => {
      const amount = o.price!.amount * (PER_MONTH[o.billingPeriod] ?? 1);
      return { basis: basisOf(o.billingPeriod), amount, eur: amount / unitsPerEur[o.price!.currency] };
    });
    priced.sort((a, b) => order.indexOf(a.basis) - order.indexOf(b.basis) || a.eur - b.eur);
    return priced[0];
  }
  /** The slugs in the order the rule gives: basis in `order`, then EUR amount (at 4 decimals, as stored), then slug. */
  async function expectedOrder(slugs: string[], order: string[], type?: string, desc = false): Promise<string[]> {
    const keyed = await Promise.all(slugs.map(async (slug) => ({ slug, c: await comparable(slug, order, type) })));
    const rank = (c?: Comparable) => (c ? order.indexOf(c.basis) : order.length);
    const eur = (c?: Comparable) => (c ? Math.round(c.eur * 1e4) / 1e4 : 0);
    return keyed.sort((a, b) => rank(a.c) - rank(b.c) || (eur(a.c) - eur(b.c)) * (desc ? -1 : 1) || (a.slug < b.slug ? -1 : 1)).map((k) => k.slug);
  }

  it('sorts Berlin by monthly equivalents first, then day, hour and one-off prices, both ways', async () => {
    const asc = (await walk('locale=en&city=berlin&sortBy=price-asc')).map((c) => c.slug);
    assert.equal(asc.length, 116);
    assert.deepEqual(asc, await expectedOrder(asc, BASES));
    assert.deepEqual((await walk('locale=en&city=berlin&sortBy=price-desc')).map((c) => c.slug), await expectedOrder(asc, BASES, undefined, true));
    // the old order compared raw amounts of any period: a day pass led the list
    const first = await optionsOf(asc[0]);
    assert.ok(first.some((o) => o.price && PER_MONTH[o.billingPeriod]), 'the first listing has a monthly price');
  });

  it('sorts flexible desks by their monthly equivalent: a weekly desk after the cheaper monthly ones', async () => {
    const cards = await walk('locale=en&city=berlin&pricingOptionType=flex_desk&sortBy=price-asc');
    const slugs = cards.map((c) => c.slug);
    assert.deepEqual(slugs, await expectedOrder(slugs, BASES, 'flex_desk'));
    // a weekly price whose raw amount is below a monthly one listed before it: the case raw amounts got wrong
    const weekly = cards.findIndex((c) => c.fromBillingPeriod === 'week');
    assert.ok(weekly > 0, 'the sample has a weekly flexible desk');
    assert.ok(cards.slice(0, weekly).some((c) => c.fromBillingPeriod === 'month' && c.fromPrice!.amount > cards[weekly].fromPrice!.amount));
  });

  it('filters and describes prices on one basis: monthly overall, per day for day passes', async () => {
    const slugs = (await walk('locale=en&city=berlin&sortBy=price-asc')).map((c) => c.slug);
    const monthly = (await Promise.all(slugs.map((s) => comparable(s, BASES)))).filter((c) => c?.basis === 'monthly').map((c) => c!.amount);
    const inRange = monthly.filter((a) => Math.round(a * 100) / 100 >= 200 && Math.round(a * 100) / 100 <= 300).length;
    assert.ok(inRange > 0 && inRange < monthly.length);
    assert.equal((await walk('locale=en&city=berlin&minPrice=200&maxPrice=300')).length, inRange);
    const facets = (await get(app, '/v1/facets?locale=en&city=berlin')).body.data;
    const round2 = (x: number) => Math.round(x * 100) / 100;
    assert.deepEqual(facets.priceRange, {
      min: { amount: round2(Math.min(...monthly)), currency: 'EUR' }, max: { amount: round2(Math.max(...monthly)), currency: 'EUR' }, basis: 'monthly',
    });
    const dayPasses = (await get(app, '/v1/facets?locale=en&city=berlin&pricingOptionType=day_pass')).body.data.priceRange;
    assert.equal(dayPasses.basis, 'day');
    const passes = await walk(`locale=en&city=berlin&pricingOptionType=day_pass&maxPrice=${dayPasses.min.amount}`);
    assert.ok(passes.length >= 1 && passes.every((c) => c.fromBillingPeriod === 'day' && c.fromPrice!.amount === dayPasses.min.amount));
  });

  it('describes the prices of a whole country, a context described once per build, as its listings give them', async () => {
    const round2 = (x: number) => Math.round(x * 100) / 100;
    const slugs = (await walk('locale=en&country=spain&sortBy=price-asc')).map((c) => c.slug);
    const monthly = (await Promise.all(slugs.map((s) => comparable(s, BASES)))).filter((c) => c?.basis === 'monthly').map((c) => c!.amount);
    assert.ok(monthly.length > 50, `${monthly.length} monthly prices in Spain`);
    const expected = { min: { amount: round2(Math.min(...monthly)), currency: 'EUR' }, max: { amount: round2(Math.max(...monthly)), currency: 'EUR' }, basis: 'monthly' };
    assert.deepEqual((await get(app, '/v1/facets?locale=en&country=spain')).body.data.priceRange, expected);
    // the price filter leaves the context of the range as it is
    assert.deepEqual((await get(app, '/v1/facets?locale=en&country=spain&minPrice=1&maxPrice=2')).body.data.priceRange, expected);
  });

  it('gives every ranking entry price its billing period', async () => {
    const ranking = (await get(app, '/v1/rankings?locale=en&city=berlin&limit=25')).body.data;
    const withPrice = ranking.ranked.filter((e: { entryPrice?: unknown }) => e.entryPrice);
    assert.ok(withPrice.length > 0);
    for (const e of withPrice) {
      const detail = (await get(app, `/v1/properties/${e.slug}?locale=en`)).body.data;
      assert.deepEqual([e.entryPrice, e.entryBillingPeriod], [detail.fromPrice, detail.fromBillingPeriod], e.slug);
    }
    assert.ok(withPrice.some((e: { entryBillingPeriod: string }) => e.entryBillingPeriod !== 'month'), 'a day pass says so');
  });

  it("labels each pricing option's type in the locale beside the operator's own title", async () => {
    for (const locale of LOCALES) {
      const facet = (await get(app, `/v1/facets?locale=${locale}`)).body.data.facets.find((f: { key: string }) => f.key === 'pricingOptionType');
      const labels = Object.fromEntries(facet.values.map((v: { value: string; label: string }) => [v.value, v.label]));
      const slugs = (await walk(`locale=${locale}&city=berlin&sortBy=price-asc`)).map((c) => c.slug).slice(0, 20);
      let titled = 0;
      for (const slug of slugs) {
        for (const o of (await get(app, `/v1/properties/${slug}?locale=${locale}`)).body.data.pricingOptions as Option[]) {
          assert.equal(o.typeLabel, labels[o.optionType], `${slug} ${o.optionType} ${locale}`);
          if (o.title !== o.typeLabel) titled++;
        }
      }
      assert.ok(titled > 0, `${locale}: some operators title their options in their own words`);
    }
  });

  it('suggests the Munich spaces (a typo on the 4th letter) before Calle de Fuencarral (a typo on the 1st)', async () => {
    const labels = (await get(app, '/v1/search/suggest?locale=en&q=munc&limit=20')).body.data.map((s: { label: string }) => s.label) as string[];
    const munich = labels.findIndex((l) => / Munich$/.test(l));
    const fuencarral = labels.findIndex((l) => /Fuencarral/.test(l));
    assert.ok(munich >= 0 && fuencarral >= 0, labels.join(' | '));
    assert.ok(munich < fuencarral, labels.join(' | '));
    assert.equal(labels[0], 'Munich', 'the city, an exact prefix (München), first');
  });
});
