import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ListingCardSchema, MapMarkerSchema, PropertyDetailSchema } from '../../contract/catalog.ts';
import { envelope, PaginatedMetaSchema, MetaSchema } from '../../contract/common.ts';
import { ProblemSchema } from '../../contract/problem.ts';
import { z } from 'zod';
import type { Currency } from '../../contract/common.ts';
import { PRICE_BASES, priceBasisOrder, type PriceBasis } from '../../contract/prices.ts';
import { FX_PER_EUR, type FixtureListing } from '../support/build-fixture.ts';
import { get, sharedBuild, testApp, SITE } from '../support/app.ts';

const ListResponse = envelope(z.array(ListingCardSchema), PaginatedMetaSchema);
const MapResponse = envelope(z.array(MapMarkerSchema), PaginatedMetaSchema);
const DetailResponse = envelope(PropertyDetailSchema, MetaSchema);

/** Independent of the engine: haversine with the same mean Earth radius. */
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const R = 6371008.8;
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

let app: FastifyInstance;
let listings: FixtureListing[];

before(async () => {
  app = await testApp();
  listings = (await sharedBuild()).fixture.listings;
});
after(() => app.close());

async function list(query: string) {
  const r = await get(app, `/v1/properties?${query}`);
  if (r.status === 200) ListResponse.parse(r.body);
  return r;
}

/** Every page of a list, pageSize 50, reusing the seed of the first page. */
async function walk(query: string, pageSize = 7) {
  const first = await list(`${query}&pageSize=${pageSize}`);
  assert.equal(first.status, 200);
  const seed = first.body.meta.seed;
  const slugs: string[] = first.body.data.map((c: { slug: string }) => c.slug);
  for (let p = 2; p <= first.body.meta.pagination.pageCount; p++) {
    const r = await list(`${query}&pageSize=${pageSize}&page=${p}${seed !== undefined && !query.includes('seed=') ? `&seed=${seed}` : ''}`);
    slugs.push(...r.body.data.map((c: { slug: string }) => c.slug));
  }
  return { slugs, total: first.body.meta.pagination.total, first };
}

function expectProblem(r: Awaited<ReturnType<typeof get>>, status: number, paths?: string[]) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.match(String(r.headers['content-type']), /^application\/problem\+json/);
  ProblemSchema.parse(r.body);
  assert.equal(r.body.status, status);
  if (paths) assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), [...paths].sort());
}

describe('GET /v1/properties', () => {
  it('returns cards in the envelope with pagination, seed and citation', async () => {
    const r = await list('locale=en');
    assert.equal(r.status, 200);
    assert.equal(r.body.meta.contractVersion, '1.0.0');
    assert.deepEqual(r.body.meta.pagination, { page: 1, pageSize: 20, total: listings.length, pageCount: Math.ceil(listings.length / 20) });
    assert.equal(typeof r.body.meta.seed, 'number');
    assert.equal(r.body.meta.citation.url, `${SITE}/en`);
    assert.equal(r.body.data.length, 20);
    for (const card of r.body.data) assert.ok(card.images[0].url.startsWith(`${SITE}/media/`));
  });

  it('requires locale and rejects one outside LOCALES', async () => {
    expectProblem(await get(app, '/v1/properties'), 400, ['locale']);
    expectProblem(await get(app, '/v1/properties?locale=xx'), 400, ['locale']);
    expectProblem(await get(app, '/v1/properties?locale=en&locale=de'), 400, ['locale']);
  });

  it('checks every limit on both sides of its boundary', async () => {
    const ok = async (q: string) => assert.equal((await list(`locale=en&${q}`)).status, 200, q);
    const bad = async (q: string, path: string) => expectProblem(await get(app, `/v1/properties?locale=en&${q}`), 400, [path]);
    await ok('page=1'); await ok('page=500'); await bad('page=0', 'page'); await bad('page=501', 'page'); await bad('page=1.5', 'page'); await bad('page=', 'page'); await bad('page=abc', 'page');
    await ok('pageSize=1'); await ok('pageSize=50'); await bad('pageSize=0', 'pageSize'); await bad('pageSize=51', 'pageSize');
    await ok('seed=0'); await ok('seed=2147483647'); await bad('seed=-1', 'seed'); await bad('seed=2147483648', 'seed');
    await ok(`amenities=${Array.from({ length: 20 }, (_, i) => `a${i}`).join(',')}`);
    await bad(`amenities=${Array.from({ length: 21 }, (_, i) => `a${i}`).join(',')}`, 'amenities');
    await bad('amenities=Wi%20Fi', 'amenities');
    await ok('lat=0&lng=0&radiusMeters=200000'); await bad('lat=0&lng=0&radiusMeters=200000.5', 'radiusMeters');
    await ok('lat=0&lng=0&radiusMeters=0.1'); await bad('lat=0&lng=0&radiusMeters=0', 'radiusMeters');
    await ok('address=abc'); await bad('address=ab', 'address');
    await ok(`address=${'a'.repeat(120)}`); await bad(`address=${'a'.repeat(121)}`, 'address');
    await ok(`city=${'a'.repeat(200)}`); await bad(`city=${'a'.repeat(201)}`, 'city'); await bad('city=', 'city'); await bad('city=Berlin', 'city');
    await ok('lat=90&lng=180'); await ok('lat=-90&lng=-180'); await bad('lat=90.1&lng=0', 'lat'); await bad('lat=0&lng=-180.1', 'lng');
    await ok('minCapacity=1'); await bad('minCapacity=0', 'minCapacity');
    await ok('minPrice=0&maxPrice=0'); await bad('minPrice=-0.01', 'minPrice'); await bad('maxPrice=-1', 'maxPrice');
    await bad('currency=EURO', 'currency'); await bad('pricingOptionType=office', 'pricingOptionType'); await bad('sortBy=name', 'sortBy');
  });

  it('lists each bad parameter in errors[]', async () => {
    expectProblem(await get(app, '/v1/properties?locale=xx&page=0&pageSize=99&sortBy=x'), 400, ['locale', 'page', 'pageSize', 'sortBy']);
  });

  it('needs lat and lng together, and them for radiusMeters and sortBy=distance', async () => {
    expectProblem(await get(app, '/v1/properties?locale=en&lat=52'), 400, ['lng']);
    expectProblem(await get(app, '/v1/properties?locale=en&lng=13'), 400, ['lat']);
    expectProblem(await get(app, '/v1/properties?locale=en&radiusMeters=1000'), 400, ['radiusMeters']);
    expectProblem(await get(app, '/v1/properties?locale=en&sortBy=distance'), 400, ['sortBy']);
  });

  it('filters by exact slugs; an unknown slug gives an empty page', async () => {
    const r = await walk('locale=en&city=valencia');
    assert.deepEqual(r.slugs.sort(), listings.filter((l) => l.city === 'valencia').map((l) => l.slug).sort());
    const ve = await walk('locale=en&city=valencia-ve');
    assert.deepEqual(ve.slugs.sort(), ['valencia-carabobo', 'valencia-centro-ve']);
    const none = await list('locale=en&city=atlantis');
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.data, []);
    assert.equal(none.body.meta.pagination.total, 0);
    assert.equal(none.body.meta.pagination.pageCount, 0);
    const zone = await walk('locale=en&zone=berlin-mitte&operator=spacehub');
    assert.deepEqual(zone.slugs.sort(), ['tor-range', 'tor-twelve']);
    assert.equal(zone.first.body.meta.citation.url, `${SITE}/en/coworking/germany/berlin/berlin-mitte`);
    assert.equal(zone.first.body.meta.citation.title, 'Coworking spaces in Mitte');
  });

  it('applies amenities with AND, and minCapacity', async () => {
    const r = await walk('locale=en&amenities=wifi,coffee,meeting_rooms');
    assert.deepEqual(r.slugs.sort(), listings.filter((l) => ['wifi', 'coffee', 'meeting_rooms'].every((a) => l.amenities.includes(a))).map((l) => l.slug).sort());
    const c = await walk('locale=en&minCapacity=60');
    assert.deepEqual(c.slugs.sort(), listings.filter((l) => (l.capacity ?? 0) >= 60).map((l) => l.slug).sort());
    const unknown = await list('locale=en&amenities=wifi,sauna');
    assert.equal(unknown.body.meta.pagination.total, 0);
  });

  it('compares minPrice/maxPrice with monthly equivalents in the listing currency; currency excludes the others', async () => {
    const r = await walk('locale=en&minPrice=100&maxPrice=300');
    const perMonth: Record<string, number> = { month: 1, year: 1 / 12, week: 52 / 12 };
    const cheapestMonthly = (l: FixtureListing) =>
      Math.min(...l.options.filter((o) => o.amount !== null && perMonth[o.period]).map((o) => o.amount! * perMonth[o.period]));
    assert.deepEqual(r.slugs.sort(), listings.filter((l) => { const c = cheapestMonthly(l); return c >= 100 && c <= 300; }).map((l) => l.slug).sort());
    // a €25 day pass is not a price per month: tor-twelve matches on its €250 desk, kreuzberg-nook (day passes only) not at all
    assert.ok(r.slugs.includes('tor-twelve') && !r.slugs.includes('kreuzberg-nook'));
    // gran-via-hub: a €120 membership, and €2,400 a year = €200 a month
    assert.deepEqual((await walk('locale=en&pricingOptionType=flex_desk&minPrice=150&maxPrice=250&city=madrid')).slugs.sort(), ['alcala-21', 'gran-via-hub']);
    assert.deepEqual((await walk('locale=en&pricingOptionType=day_pass&maxPrice=20')).slugs.sort(), ['alcala-21', 'kreuzberg-nook', 'valencia-port']);
    const eur = await walk('locale=en&currency=EUR&minPrice=100&maxPrice=300');
    assert.ok(eur.slugs.length > 0 && eur.slugs.length < r.slugs.length);
    assert.ok(!eur.slugs.includes('old-street-works'));
    const ves = await walk('locale=en&currency=VES');
    assert.deepEqual(ves.slugs.sort(), ['valencia-carabobo', 'valencia-centro-ve']);
    for (const card of ves.first.body.data) assert.equal(card.fromPrice.currency, 'VES');
  });

  it('makes fromPrice follow pricingOptionType', async () => {
    const all = await list('locale=en&city=berlin&sortBy=price-asc&pageSize=50');
    const twelve = all.body.data.find((c: { slug: string }) => c.slug === 'tor-twelve');
    assert.deepEqual([twelve.fromPrice, twelve.fromBillingPeriod], [{ amount: 25, currency: 'EUR' }, 'day']);
    const po = await walk('locale=en&city=berlin&pricingOptionType=private_office&sortBy=price-asc');
    assert.deepEqual(po.slugs, ['tor-twelve', 'tor-range', 'berlin-on-request']);
    const cards = po.first.body.data;
    assert.deepEqual(cards[0].fromPrice, { amount: 1200, currency: 'EUR' });
    assert.equal(cards[2].fromPrice, undefined, 'price on request has no fromPrice');
    const priced = await walk('locale=en&pricingOptionType=private_office&maxPrice=1500');
    assert.deepEqual(priced.slugs.sort(), ['alcala-40', 'tor-twelve']);
  });

  it('walks a random list page by page without repeats or skips', async () => {
    const r = await walk('locale=en', 7);
    assert.equal(r.slugs.length, listings.length);
    assert.equal(new Set(r.slugs).size, listings.length);
    const again = await walk(`locale=en&seed=${r.first.body.meta.seed}`, 5);
    assert.deepEqual(again.slugs, r.slugs, 'same seed, same order, whatever the page size');
    const other = await walk('locale=en&seed=12345', 7);
    assert.notDeepEqual(other.slugs, r.slugs);
    const filtered = await walk('locale=en&seed=99&country=germany', 3);
    assert.equal(new Set(filtered.slugs).size, listings.filter((l) => ['berlin', 'munich'].includes(l.city)).length);
  });

  it('returns an empty page past the end', async () => {
    const r = await list('locale=en&page=500&seed=1');
    assert.deepEqual(r.body.data, []);
    assert.equal(r.body.meta.pagination.total, listings.length);
    assert.equal(r.body.meta.pagination.page, 500);
  });

  it('sorts by date with undated rows last, ties on slug', async () => {
    const desc = (await walk('locale=en&sortBy=date-desc')).slugs;
    const byDate = (dir: number) => [...listings].sort((a, b) => {
      if (!a.updatedAt || !b.updatedAt) return !a.updatedAt && !b.updatedAt ? (a.slug < b.slug ? -1 : 1) : !a.updatedAt ? 1 : -1;
      return (Date.parse(a.updatedAt) - Date.parse(b.updatedAt)) * dir || (a.slug < b.slug ? -1 : 1);
    }).map((l) => l.slug);
    assert.deepEqual(desc, byDate(-1));
    assert.deepEqual((await walk('locale=en&sortBy=date-asc')).slugs, byDate(1));
  });

  it('sorts by rating: score, then count, unrated last', async () => {
    const r = (await walk('locale=en&sortBy=rating-desc')).slugs;
    const expected = [...listings].sort((a, b) => {
      if (!a.rating || !b.rating) return !a.rating && !b.rating ? (a.slug < b.slug ? -1 : 1) : !a.rating ? 1 : -1;
      return b.rating.score - a.rating.score || b.rating.count - a.rating.count || (a.slug < b.slug ? -1 : 1);
    }).map((l) => l.slug);
    assert.deepEqual(r, expected);
    assert.ok(r.indexOf('berlin-on-request') < r.indexOf('oranien-loft'), '4.2/45 tie broken on slug');
    assert.ok(r.indexOf('tor-twelve-a') < r.indexOf('tor-twelve'), '4.5: 200 reviews before 120');
  });

  it('sorts by price across currencies on the EUR reference amount', async () => {
    const r = await walk('locale=en&sortBy=price-asc&city=london');
    assert.deepEqual(r.slugs, ['abbey-road-desks', 'old-street-works', 'old-st-studio']);
    const mixed = await walk('locale=en&sortBy=price-asc&country=venezuela');
    assert.deepEqual(mixed.slugs, ['valencia-centro-ve', 'valencia-carabobo']);
    const unpriced = (await walk('locale=en&sortBy=price-asc')).slugs;
    assert.equal(unpriced.at(-1), 'berlin-on-request');
  });

  it('sorts by price like with like: monthly equivalents first, then day, hour and one-off prices; price-desc within each', async () => {
    // tor-range: €2,400 a month and €40 an hour; kreuzberg-nook: day passes only; gran-via-hub: €2,400 a year (€200 a month)
    assert.deepEqual((await walk('locale=en&sortBy=price-asc&city=berlin')).slugs,
      ['tor-three', 'tor-twelve-a', 'tor-twenty', 'tor-twelve', 'oranien-loft', 'tor-range', 'kreuzberg-nook', 'berlin-on-request']);
    assert.deepEqual((await walk('locale=en&sortBy=price-desc&city=berlin')).slugs,
      ['tor-range', 'oranien-loft', 'tor-twelve', 'tor-twenty', 'tor-twelve-a', 'tor-three', 'kreuzberg-nook', 'berlin-on-request']);
    assert.deepEqual((await walk('locale=en&sortBy=price-asc&city=madrid&pricingOptionType=flex_desk')).slugs, ['alcala-21', 'gran-via-hub', 'castellana-tower']);
    // a meeting room compares per hour
    assert.deepEqual((await walk('locale=en&sortBy=price-desc&pricingOptionType=meeting_room')).slugs, ['castellana-tower', 'tor-range']);
    // fromPrice stays the operator's own cheapest figure and period
    const madrid = (await list('locale=en&sortBy=price-asc&city=madrid&pageSize=50')).body.data as { slug: string; fromPrice: unknown; fromBillingPeriod: string }[];
    const granVia = madrid.find((c) => c.slug === 'gran-via-hub')!;
    assert.deepEqual([granVia.fromPrice, granVia.fromBillingPeriod], [{ amount: 120, currency: 'EUR' }, 'month']);
    assert.equal(madrid.find((c) => c.slug === 'alcala-21')!.fromBillingPeriod, 'day');
  });

  it('gives each card the comparable price the price order ranks it by, of the option type when one is chosen', async () => {
    const { columns } = (await sharedBuild()).fixture;
    type Card = { slug: string; comparablePrice: { amount: number; currency: Currency; basis: PriceBasis } | null };
    for (const type of [undefined, 'private_office', 'flex_desk', 'day_pass', 'meeting_room'] as const) {
      const c = type ? columns.fromPriceByType[type]! : columns.fromPrice;
      const typed = type ? `&pricingOptionType=${type}` : '';
      const cards: Card[] = [];
      for (let page = 1; ; page++) {
        const r = await list(`locale=en&sortBy=price-asc${typed}&pageSize=50&page=${page}`);
        cards.push(...r.body.data);
        if (page >= r.body.meta.pagination.pageCount) break;
      }
      assert.ok(cards.length > 1, String(type));
      for (const card of cards) {
        const i = columns.slugs.indexOf(card.slug);
        const amount = c.comparableAmount[i];
        assert.deepEqual(card.comparablePrice, amount === null ? null
          : { amount, currency: columns.dict.currencies[c.comparableCurrency[i]], basis: PRICE_BASES[c.comparableBasis[i]] }, `${card.slug} (${type ?? 'all'})`);
      }
      // what the cards show orders them: the basis in the product's order, then the amount in EUR, those without one last
      const bases = priceBasisOrder(type ?? 'all');
      const key = (card: Card) => (card.comparablePrice
        ? [bases.indexOf(card.comparablePrice.basis), card.comparablePrice.amount / FX_PER_EUR[card.comparablePrice.currency]]
        : [bases.length, 0]);
      for (let k = 1; k < cards.length; k++) {
        const [a, b] = [key(cards[k - 1]), key(cards[k])];
        assert.ok(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]), `${cards[k - 1].slug} before ${cards[k].slug} (${type ?? 'all'})`);
      }
    }
    // the operator's cheapest figure is €40 an hour; the order ranks tor-range at its €2,400 a month
    const berlin = (await list('locale=en&sortBy=price-asc&city=berlin&pageSize=50')).body.data as (Card & { fromPrice: unknown; fromBillingPeriod: string })[];
    const range = berlin.find((card) => card.slug === 'tor-range')!;
    assert.deepEqual([range.fromPrice, range.fromBillingPeriod, range.comparablePrice],
      [{ amount: 40, currency: 'EUR' }, 'hour', { amount: 2400, currency: 'EUR', basis: 'monthly' }]);
    assert.equal(berlin.find((card) => card.slug === 'berlin-on-request')!.comparablePrice, null, 'price on request: nothing to compare');
  });

  it('filters by radius and sorts by distance like an independent haversine', async () => {
    const here = { lat: 52.52, lng: 13.405 };
    for (const radius of [500, 1500, 3000, 200000]) {
      const r = await walk(`locale=en&lat=${here.lat}&lng=${here.lng}&radiusMeters=${radius}&sortBy=distance`);
      const expected = listings.filter((l) => l.coordinates && haversine(here, l.coordinates) <= radius)
        .sort((a, b) => haversine(here, a.coordinates!) - haversine(here, b.coordinates!) || (a.slug < b.slug ? -1 : 1)).map((l) => l.slug);
      assert.deepEqual(r.slugs, expected, `radius ${radius}`);
    }
    // a point search returns the listings with coordinates only, each with its distance
    const page = await list(`locale=en&lat=${here.lat}&lng=${here.lng}&sortBy=distance&pageSize=50`);
    const cards = page.body.data as { slug: string; distanceMeters?: number; coordinates?: { lat: number; lng: number } }[];
    assert.equal(page.body.meta.pagination.total, listings.filter((l) => l.coordinates).length);
    for (const c of cards) assert.ok(Math.abs(c.distanceMeters! - haversine(here, c.coordinates!)) < 0.1, c.slug);
    assert.ok(!cards.some((c) => c.slug === 'kreuzberg-nook'), 'no coordinates, no distance: not a match');
    const random = await walk(`locale=en&lat=${here.lat}&lng=${here.lng}&seed=7`);
    assert.deepEqual(random.slugs.sort(), listings.filter((l) => l.coordinates).map((l) => l.slug).sort());
  });

  it('filters by bbox, across the antimeridian too; south > north is a 400', async () => {
    const inBox = (l: FixtureListing, w: number, s: number, e: number, n: number) => {
      if (!l.coordinates) return false;
      const { lat, lng } = l.coordinates;
      const lngIn = w <= e ? lng >= w && lng <= e : lng >= w || lng <= e;
      return lat >= s && lat <= n && lngIn;
    };
    for (const box of [[13.3, 52.4, 13.5, 52.6], [-10, 35, 20, 60], [170, 50, -170, 55], [172, -90, 173, 90], [-180, -90, 180, 90]]) {
      const r = await walk(`locale=en&bbox=${box.join(',')}`);
      assert.deepEqual(r.slugs.sort(), listings.filter((l) => inBox(l, box[0], box[1], box[2], box[3])).map((l) => l.slug).sort(), box.join(','));
    }
    const anti = await walk('locale=en&bbox=170,50,-170,55');
    assert.deepEqual(anti.slugs.sort(), ['adak-outpost', 'attu-station']);
    expectProblem(await get(app, '/v1/properties?locale=en&bbox=0,10,1,5'), 400, ['bbox']);
    expectProblem(await get(app, '/v1/properties?locale=en&bbox=0,1,2'), 400, ['bbox']);
    expectProblem(await get(app, '/v1/properties?locale=en&bbox=0,1,200,2'), 400, ['bbox']);
  });

  it('puts listings at the address first, then the rest of the street, each in sortBy order', async () => {
    const r = await walk('locale=en&address=Torstr. 12&sortBy=date-desc');
    // at the address: 12, 12a, 10-14 (date-desc); then the street: 3, 20 (undated last)
    assert.deepEqual(r.slugs, ['tor-twelve', 'tor-twelve-a', 'tor-range', 'tor-three', 'tor-twenty']);
    const spelled = await walk('locale=en&address=torstrasse 12&sortBy=date-desc');
    assert.deepEqual(spelled.slugs, r.slugs);
    const suffix = await walk('locale=en&address=Torstraße 12a&sortBy=date-asc');
    assert.deepEqual(suffix.slugs, ['tor-range', 'tor-twelve-a', 'tor-twelve', 'tor-three', 'tor-twenty']);
    const range = await walk('locale=en&address=Torstraße 14&sortBy=date-desc');
    assert.deepEqual(range.slugs, ['tor-range', 'tor-three', 'tor-twelve', 'tor-twelve-a', 'tor-twenty']);
    const es = await walk('locale=es&address=C/ Alcalá, 21&sortBy=date-desc');
    assert.deepEqual(es.slugs, ['alcala-range', 'alcala-21', 'alcala-40']);
    const en = await walk('locale=en&address=12 Old Street&sortBy=rating-desc');
    assert.deepEqual(en.slugs, ['old-st-studio', 'old-street-works']);
    const avenue = await walk('locale=en&address=Avda del Puerto 12&sortBy=date-desc');
    assert.deepEqual(avenue.slugs, ['valencia-port', 'valencia-ruzafa']);
    const random = await walk('locale=en&address=Torstr. 12&seed=5');
    assert.deepEqual(random.slugs.slice(0, 3).sort(), ['tor-range', 'tor-twelve', 'tor-twelve-a']);
    const nowhere = await list('locale=en&address=Nowhere Lane 1');
    assert.equal(nowhere.body.meta.pagination.total, 0);
  });
});

describe('GET /v1/properties/map', () => {
  it('returns markers for the whole matching set with coordinates, ordered like the list', async () => {
    const r = await get(app, '/v1/properties/map?locale=en&sortBy=date-desc');
    assert.equal(r.status, 200);
    MapResponse.parse(r.body);
    const withCoords = listings.filter((l) => l.coordinates);
    assert.equal(r.body.data.length, withCoords.length);
    assert.equal(r.body.meta.truncated, false);
    assert.deepEqual(r.body.meta.pagination, { page: 1, pageSize: 5000, total: withCoords.length, pageCount: 1 });
    const listed = (await walk('locale=en&sortBy=date-desc')).slugs.filter((s) => withCoords.some((l) => l.slug === s));
    assert.deepEqual(r.body.data.map((m: { slug: string }) => m.slug), listed);
  });

  it('truncates at pageSize and accepts 1..5000', async () => {
    const r = await get(app, '/v1/properties/map?locale=en&pageSize=2&sortBy=date-asc');
    assert.equal(r.body.data.length, 2);
    assert.equal(r.body.meta.truncated, true);
    assert.equal((await get(app, '/v1/properties/map?locale=en&pageSize=5000')).status, 200);
    expectProblem(await get(app, '/v1/properties/map?locale=en&pageSize=5001'), 400, ['pageSize']);
    expectProblem(await get(app, '/v1/properties/map?locale=en&pageSize=0'), 400, ['pageSize']);
    expectProblem(await get(app, '/v1/properties/map?locale=en&radiusMeters=5'), 400, ['radiusMeters']);
  });
});

describe('GET /v1/properties/{slug}', () => {
  it('returns the detail with absolute URLs and the space page as citation', async () => {
    const r = await get(app, '/v1/properties/tor-twelve?locale=de');
    assert.equal(r.status, 200);
    DetailResponse.parse(r.body);
    assert.equal(r.body.data.webUrl, `${SITE}/de/space/tor-twelve`);
    assert.equal(r.body.meta.citation.url, `${SITE}/de/space/tor-twelve`);
    assert.equal(r.body.meta.citation.text, `Quelle: Desk Atlas, Tor Twelve, ${SITE}/de/space/tor-twelve, CC BY 4.0`);
    assert.equal(r.body.data.pricingOptions[0].title, 'Flexibler Schreibtisch');
  });

  it('answers 404 NOT_FOUND for an unknown slug and 400 for a bad one', async () => {
    expectProblem(await get(app, '/v1/properties/no-such-space?locale=en'), 404);
    expectProblem(await get(app, '/v1/properties/Bad_Slug?locale=en'), 400, ['slug']);
    expectProblem(await get(app, '/v1/properties/tor-twelve'), 400, ['locale']);
  });
});
