import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { FacetsPayloadSchema } from '../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { prng } from '../support/build-fixture.ts';
import { get, testApp, fixtureBuild } from '../support/app.ts';
import { staticCatalog } from '../../api/loading/store.ts';

const FacetsResponse = envelope(FacetsPayloadSchema, MetaSchema);
type Facet = { key: string; label: string; values: { value: string; label: string; count: number }[] };

let app: FastifyInstance;
before(async () => {
  // the hand-written listings plus 300 synthetic ones, so counts are large and varied
  const { build } = await fixtureBuild({ extra: 300 });
  app = await testApp({ catalog: staticCatalog(build) });
});
after(() => app.close());

async function facets(query: string) {
  const r = await get(app, `/v1/facets?${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  FacetsResponse.parse(r.body);
  return r.body.data as { facets: Facet[]; priceRange?: { min: { amount: number; currency: string }; max: { amount: number; currency: string } }; capacityRange?: { min: number; max: number } };
}
async function total(query: string): Promise<number> {
  const r = await get(app, `/v1/properties?${query}&pageSize=1`);
  assert.equal(r.status, 200, query);
  return r.body.meta.pagination.total;
}
const facet = (d: { facets: Facet[] }, key: string) => d.facets.find((f) => f.key === key)!;

/** The list query with one facet value applied (replacing the single-valued one, adding an amenity). */
function withValue(params: Record<string, string>, key: string, value: string): string {
  const p = { ...params };
  if (key === 'amenities') p.amenities = p.amenities ? `${p.amenities},${value}` : value;
  else p[key] = value;
  return new URLSearchParams(p).toString();
}

describe('GET /v1/facets', () => {
  it('returns every facet with localized labels, sorted by count then label', async () => {
    const d = await facets('locale=de');
    assert.deepEqual(d.facets.map((f) => f.key), ['country', 'city', 'zone', 'operator', 'pricingOptionType', 'amenities']);
    assert.equal(facet(d, 'city').label, 'Stadt');
    assert.ok(facet(d, 'city').values.some((v) => v.value === 'munich' && v.label === 'München'));
    for (const f of d.facets) {
      for (let i = 1; i < f.values.length; i++) {
        const a = f.values[i - 1], b = f.values[i];
        assert.ok(a.count > b.count || (a.count === b.count && a.label.localeCompare(b.label, 'de', { sensitivity: 'base' }) <= 0), `${f.key}: ${a.value} before ${b.value}`);
      }
    }
  });

  it('agrees with the list: each count equals the list total with that value applied', async () => {
    const rnd = prng(42);
    const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
    const base = await facets('locale=en');
    const choices: Record<string, string[]> = Object.fromEntries(base.facets.map((f) => [f.key, f.values.map((v) => v.value)]));
    const extras: Record<string, string[]> = {
      currency: ['EUR', 'GBP', 'USD'], minCapacity: ['10', '50', '150'], minPrice: ['100', '500'], maxPrice: ['800', '2000'],
      bbox: ['-10,35,20,60', '170,50,-170,55'], address: ['Hauptstraße 12', 'Torstr. 12'],
    };
    let checked = 0;
    for (let round = 0; round < 25; round++) {
      const params: Record<string, string> = { locale: 'en' };
      for (const key of ['country', 'city', 'zone', 'operator', 'pricingOptionType']) if (rnd() < 0.3) params[key] = pick(choices[key]);
      if (rnd() < 0.4) params.amenities = pick(choices.amenities);
      for (const [key, vals] of Object.entries(extras)) if (rnd() < 0.15) params[key] = pick(vals);
      if (rnd() < 0.15) Object.assign(params, { lat: '52.52', lng: '13.405', radiusMeters: '20000' });
      const query = new URLSearchParams(params).toString();
      const d = await facets(query);
      for (const f of d.facets) {
        for (const v of f.values.slice(0, 6)) {
          assert.equal(v.count, await total(withValue(params, f.key, v.value)), `${query} → ${f.key}=${v.value}`);
          checked++;
        }
        if (params[f.key] !== undefined && f.key !== 'amenities') {
          assert.ok(f.values.some((v) => v.value === params[f.key]), `selected ${f.key} present`);
        }
      }
    }
    assert.ok(checked > 300, `checked ${checked}`);
  });

  it('keeps selected values at count 0', async () => {
    const d = await facets('locale=en&city=berlin&operator=no-such-operator&pricingOptionType=event_space');
    assert.deepEqual(facet(d, 'operator').values.find((v) => v.value === 'no-such-operator'), { value: 'no-such-operator', label: 'no-such-operator', count: 0 });
    assert.ok(facet(d, 'pricingOptionType').values.some((v) => v.value === 'event_space'));
    assert.ok(facet(d, 'city').values.every((v) => v.count === 0 || v.value !== 'berlin' || v.count === 0));
    const amen = await facets('locale=en&amenities=wifi,sauna');
    assert.deepEqual(facet(amen, 'amenities').values.find((v) => v.value === 'sauna')?.count, 0);
  });

  it('gives priceRange only when the context has one currency, and capacityRange', async () => {
    const mixed = await facets('locale=en');
    assert.equal(mixed.priceRange, undefined);
    assert.ok(mixed.capacityRange && mixed.capacityRange.min >= 1 && mixed.capacityRange.max >= mixed.capacityRange.min);
    const gbp = await facets('locale=en&currency=GBP');
    assert.equal(gbp.priceRange?.min.currency, 'GBP');
    assert.ok(gbp.priceRange!.min.amount <= gbp.priceRange!.max.amount);
    const london = await facets('locale=en&city=london');
    assert.equal(london.priceRange?.max.currency, 'GBP');
  });

  it('validates its parameters like the list', async () => {
    const r = await get(app, '/v1/facets?locale=en&city=Berlin&currency=XYZ');
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.errors.map((e: { path: string }) => e.path).sort(), ['city', 'currency']);
    assert.equal((await get(app, '/v1/facets')).status, 400);
  });
});
