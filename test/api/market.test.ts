import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { envelope, MetaSchema, type Locale } from '../../contract/common.ts';
import { MarketRatesPayloadSchema, RankingsPayloadSchema } from '../../contract/market.ts';
import type { LocalizedMarketRates } from '../../api/loading/market-rates.ts';
import { get, SITE } from '../support/app.ts';
import { BARCELONA, cents, DESK_TYPES, marketFixture, MUNICH, type MarketFixture } from './market-support.ts';

const RatesResponse = envelope(MarketRatesPayloadSchema, MetaSchema);
const RankingsResponse = envelope(RankingsPayloadSchema, MetaSchema);

let f: MarketFixture;
before(async () => { f = await marketFixture(); });
after(() => f.app.close());

function near(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - cents(expected)) <= 0.011, `${what}: ${actual} vs ${cents(expected)}`);
}

type LocalizedCity = LocalizedMarketRates['cities'][number];

describe('GET /v1/market/rates', () => {
  it('agrees with an independent computation from the snapshot rows, city by city', async () => {
    const r = await get(f.app, '/v1/market/rates?locale=en');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    RatesResponse.parse(r.body);
    assert.equal(r.headers['cache-control'], 'public, max-age=600, stale-while-revalidate=3600');
    const { cities } = r.body.data;
    assert.ok(cities.length >= 5);
    let checked = 0;
    for (const c of cities) {
      const id = f.cityId.get(c.city.slug)!;
      assert.equal(c.sampleSize, f.expected.cityFigures(id, 'all')?.n ?? 0, `${c.city.slug} sample`);
      const types = DESK_TYPES.filter((t) => f.expected.cityFigures(id, t));
      assert.deepEqual(c.byType.map((b: { optionType: string }) => b.optionType), types, `${c.city.slug} products`);
      for (const b of c.byType) {
        const e = f.expected.cityFigures(id, b.optionType)!;
        assert.equal(b.sampleSize, e.n, `${c.city.slug} ${b.optionType} sample`);
        near(b.median.amount, e.median, `${c.city.slug} ${b.optionType} median`);
        near(b.min.amount, e.min, `${c.city.slug} ${b.optionType} min`);
        near(b.max.amount, e.max, `${c.city.slug} ${b.optionType} max`);
        assert.equal(b.thinSample, e.n < 5 ? true : undefined, `${c.city.slug} ${b.optionType} thinSample`);
        checked += 1;
      }
      for (const [key, product] of [['dayPass', 'day_pass'], ['meetingRoom', 'meeting_room']] as const) {
        const e = f.expected.cityFigures(id, product);
        if (e && e.n >= 5) {
          assert.equal(c[key].sampleSize, e.n, `${c.city.slug} ${key} sample`);
          near(c[key].median.amount, e.median, `${c.city.slug} ${key} median`);
        } else {
          assert.equal(c[key], undefined, `${c.city.slug} ${key} under 5 spaces`);
        }
      }
    }
    assert.ok(checked >= 10, `a meaningful check: ${checked} products`);
    assert.ok(cities.some((c: { dayPass?: unknown }) => c.dayPass), 'some city has a day-pass median');
  });

  it('answers with the payload the selected cities serialized give, totals summed over them', async () => {
    for (const [query, keep] of [
      ['locale=de', () => true],
      ['locale=es&currency=EUR', (c: LocalizedCity) => c.rates.currency === 'EUR'],
      ['locale=en&country=germany', (c: LocalizedCity) => c.countrySlug === 'germany'],
      ['locale=en&city=munich', (c: LocalizedCity) => c.rates.city.slug === 'munich'],
      ['locale=en&city=nowhere', () => false],
    ] as const) {
      const r = await get(f.app, `/v1/market/rates?${query}`);
      const file = f.build.marketRates[new URLSearchParams(query).get('locale') as Locale];
      const rows = file.cities.filter(keep);
      const data = {
        cities: rows.map((c) => c.rates), totalProperties: rows.reduce((n, c) => n + c.propertyCount, 0),
        totalPricePoints: rows.reduce((n, c) => n + c.pricePointCount, 0), asOf: file.asOf,
      };
      assert.equal(r.raw.body, `{"data":${JSON.stringify(data)},"meta":${JSON.stringify(r.body.meta)}}`, query);
    }
  });

  it('flags a product at 4 spaces as thin and not one at 5', async () => {
    const munich = (await get(f.app, '/v1/market/rates?locale=de&city=munich')).body.data.cities[0];
    const barcelona = (await get(f.app, '/v1/market/rates?locale=de&city=barcelona')).body.data.cities[0];
    assert.equal(munich.city.name, 'München');
    const flexM = munich.byType.find((b: { optionType: string }) => b.optionType === 'flex_desk');
    const flexB = barcelona.byType.find((b: { optionType: string }) => b.optionType === 'flex_desk');
    assert.deepEqual([flexM.sampleSize, flexM.thinSample, flexM.median.amount], [5, undefined, 280]);
    assert.deepEqual([flexB.sampleSize, flexB.thinSample, flexB.median.amount], [4, true, 220]);
    assert.equal(munich.sampleSize, 5);
    assert.equal(barcelona.sampleSize, 4);
  });

  it('filters by country, city and currency and sums the totals over the selected cities', async () => {
    const sum = (ids: string[]) => ({
      totalProperties: ids.reduce((a, id) => a + f.expected.propertyCount((s) => s.city_id === id), 0),
      totalPricePoints: ids.reduce((a, id) => a + f.expected.pricePoints(id), 0),
    });
    const all = (await get(f.app, '/v1/market/rates?locale=en')).body.data;
    assert.deepEqual({ totalProperties: all.totalProperties, totalPricePoints: all.totalPricePoints }, sum([...f.cityId.values()]));
    assert.equal(all.totalProperties, f.tables.spaces.length);

    const germany = (await get(f.app, '/v1/market/rates?locale=en&country=germany')).body.data;
    assert.deepEqual(germany.cities.map((c: { city: { slug: string } }) => c.city.slug).sort(), ['berlin', 'munich']);
    const germanIds = [...f.cityId].filter(([slug]) => slug === 'berlin' || slug === 'munich').map(([, id]) => id);
    assert.deepEqual({ totalProperties: germany.totalProperties, totalPricePoints: germany.totalPricePoints }, sum(germanIds));

    const gbp = (await get(f.app, '/v1/market/rates?locale=en&currency=GBP')).body.data;
    assert.deepEqual(gbp.cities.map((c: { city: { slug: string } }) => c.city.slug), ['london']);
    const spainEur = (await get(f.app, '/v1/market/rates?locale=es&country=spain&currency=EUR&city=barcelona')).body;
    assert.deepEqual(spainEur.data.cities.map((c: { city: { slug: string } }) => c.city.slug), ['barcelona']);
    assert.equal(spainEur.data.totalProperties, f.expected.propertyCount((s) => s.city_id === BARCELONA));

    const none = (await get(f.app, '/v1/market/rates?locale=en&country=germany&currency=GBP')).body.data;
    assert.deepEqual([none.cities.length, none.totalProperties, none.totalPricePoints], [0, 0, 0]);
    const unknown = await get(f.app, '/v1/market/rates?locale=en&city=atlantis');
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.data.cities.length, 0);
  });

  it('cites the prices page of the city, else the prices page, in the request locale', async () => {
    const city = (await get(f.app, '/v1/market/rates?locale=de&city=munich')).body.meta.citation;
    assert.equal(city.url, `${SITE}/de/prices/munich`);
    assert.equal(city.title, 'Coworking-Preise in München');
    assert.match(city.text, /^Quelle: Desk Atlas, Coworking-Preise in München, /);
    const all = (await get(f.app, '/v1/market/rates?locale=es')).body.meta.citation;
    assert.equal(all.url, `${SITE}/es/prices`);
  });

  it('rejects a missing locale or a bad filter with 400 VALIDATION_FAILED', async () => {
    for (const [url, path] of [
      ['/v1/market/rates', 'locale'], ['/v1/market/rates?locale=fr', 'locale'],
      ['/v1/market/rates?locale=en&currency=JPY', 'currency'], ['/v1/market/rates?locale=en&city=Berlin', 'city'],
    ]) {
      const r = await get(f.app, url);
      assert.equal(r.status, 400, url);
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.ok(r.body.errors.some((e: { path: string }) => e.path === path), url);
    }
  });
});

describe('GET /v1/rankings', () => {
  it('ranks every space of the city by the documented score, recomputed independently', async () => {
    const r = await get(f.app, '/v1/rankings?locale=en&city=berlin&limit=25');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    RankingsResponse.parse(r.body);
    const d = r.body.data;
    const spaces = f.tables.spaces.filter((s) => s.city_id === f.cityId.get('berlin'));
    assert.equal(d.sampleSize, spaces.length);
    assert.equal(d.ranked.length, 25);
    // score = 100 × (0.5 R + 0.3 V + 0.2 A), docs/api.md "Ranking score"
    const rated = spaces.filter((s) => s.rating_count !== '' && Number(s.rating_count) > 0);
    const reviews = rated.reduce((a, s) => a + Number(s.rating_count), 0);
    const mean = rated.reduce((a, s) => a + Number(s.rating_score) * Number(s.rating_count), 0) / reviews;
    const all = f.expected.cityFigures(f.cityId.get('berlin')!, 'all')!;
    const amenities = (s: typeof spaces[number]) => (s.amenities ? s.amenities.split(';').length : 0);
    const maxAmenities = Math.max(...spaces.map(amenities));
    const score = (s: typeof spaces[number]) => {
      const n = s.rating_count ? Number(s.rating_count) : 0;
      const R = (10 * mean + (n ? Number(s.rating_score) * n : 0)) / (10 + n) / 5;
      const p = f.expected.perSpace.get(s.space_id)?.get('all');
      const V = p && all.n >= 5 ? Math.min(all.median / p, 2) / 2 : 0.5;
      const A = maxAmenities ? amenities(s) / maxAmenities : 0;
      return 100 * (0.5 * R + 0.3 * V + 0.2 * A);
    };
    const expected = spaces.map((s) => ({ name: s.name, score: cents(score(s)) }))
      .sort((a, b) => b.score - a.score);
    assert.equal(d.hasReviewData, true);
    for (let i = 0; i < d.ranked.length; i++) {
      near(d.ranked[i].score, expected[i].score, `rank ${i + 1}`);
      if (i > 0) assert.ok(d.ranked[i - 1].score >= d.ranked[i].score, 'ordered by score');
    }
    const byTitle = new Map(spaces.map((s) => [s.name, s]));
    for (const e of d.ranked) {
      const s = byTitle.get(e.title)!;
      near(e.score, score(s), e.title);
      assert.equal(e.amenityCount, amenities(s));
      if (s.rating_count) assert.deepEqual(e.rating, { score: Number(s.rating_score), count: Number(s.rating_count) });
      else assert.equal(e.rating, undefined);
    }
  });

  it('applies limit (default 10, at most 25) and cites the best-of page', async () => {
    const def = await get(f.app, '/v1/rankings?locale=es&city=berlin');
    assert.equal(def.body.data.ranked.length, 10);
    assert.equal(def.body.meta.citation.url, `${SITE}/es/best/berlin`);
    assert.equal(def.body.meta.citation.title, 'Los mejores espacios de coworking en Berlin');
    const three = await get(f.app, '/v1/rankings?locale=en&city=berlin&limit=3');
    assert.deepEqual(three.body.data.ranked, def.body.data.ranked.slice(0, 3));
    for (const q of ['limit=0', 'limit=26', 'limit=abc']) {
      const r = await get(f.app, `/v1/rankings?locale=en&city=berlin&${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.body.errors[0].path, 'limit');
    }
  });

  it('keeps the score relative to the city: a thin city is ranked without a value term', async () => {
    const r = await get(f.app, '/v1/rankings?locale=en&city=barcelona');
    assert.equal(r.status, 200);
    assert.equal(r.body.data.sampleSize, f.expected.propertyCount((s) => s.city_id === BARCELONA));
    const munich = await get(f.app, '/v1/rankings?locale=de&city=munich');
    assert.equal(munich.body.data.city.name, 'München');
    assert.equal(munich.body.data.sampleSize, f.expected.propertyCount((s) => s.city_id === MUNICH));
  });

  it('answers 404 NOT_FOUND for an unknown city and 400 without city or locale', async () => {
    const unknown = await get(f.app, '/v1/rankings?locale=en&city=atlantis');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'NOT_FOUND');
    assert.equal(unknown.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal((await get(f.app, '/v1/rankings?locale=en')).status, 400);
    assert.equal((await get(f.app, '/v1/rankings?city=berlin')).status, 400);
    // an own-property lookup: prototype names are unknown cities too
    assert.equal((await get(f.app, '/v1/rankings?locale=en&city=constructor')).status, 404);
  });
});
