/**
 * The facet counter against the list, under each kind of context: every listing, the contexts
 * counted once per build (one option type, amenity, country, currency or point without a radius
 * alone) and contexts counted per request. Every value's count equals the list total with that
 * value applied, and every value with listings there is listed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as bits from '../../api/catalog/bitset.ts';
import type { FilterValues } from '../../api/catalog/filter-index.ts';
import { CURRENCIES, LOCALES } from '../../contract/common.ts';
import { fixtureBuildPerFile } from '../support/app.ts';
import { facetsPayload } from '../support/facets.ts';

const fixture = fixtureBuildPerFile({ extra: 300 });

/** f with one facet value applied: an amenity is added (AND), any other value replaces the filter's. */
function applied(f: FilterValues, key: string, value: string): FilterValues {
  if (key === 'amenities') return { ...f, amenities: [...new Set([...(f.amenities ?? []), value])] };
  return { ...f, [key]: value };
}

function checkAgainstList(f: FilterValues): number {
  const engine = fixture.build.engine;
  const choices = facetsPayload(engine, {}, 'en').payload.facets;
  let checked = 0;
  for (const locale of LOCALES) {
    const { payload, truncated } = facetsPayload(engine, f, locale);
    assert.equal(truncated, false, 'the fixture has fewer values than the cap');
    for (const facet of payload.facets) {
      const listed = new Map(facet.values.map((v) => [v.value, v.count]));
      for (const { value } of choices.find((c) => c.key === facet.key)!.values) {
        const expected = engine.match(applied(f, facet.key, value)).count;
        if (expected > 0 || listed.has(value)) assert.equal(listed.get(value), expected, `${JSON.stringify(f)} ${locale}: ${facet.key}=${value}`);
        checked++;
      }
    }
  }
  return checked;
}

describe('facet counts under each kind of context', () => {
  it('every listing', () => {
    assert.ok(checkAgainstList({}) > 0);
  });

  it('one option type, amenity, country, currency or point without a radius alone (counted once per build)', () => {
    const all = facetsPayload(fixture.build.engine, {}, 'en').payload.facets;
    const values = (key: string) => all.find((c) => c.key === key)!.values.map((v) => v.value);
    const contexts: FilterValues[] = [
      ...values('pricingOptionType').map((t) => ({ pricingOptionType: t }) as FilterValues),
      ...values('amenities').map((a) => ({ amenities: [a] })),
      ...values('country').map((country) => ({ country })),
      ...CURRENCIES.map((currency) => ({ currency })),
      // any point without a radius selects every listing with coordinates
      { lat: 52.52, lng: 13.4 },
      { lat: -33.9, lng: 151.2 },
    ];
    assert.ok(contexts.length > 10);
    const located = fixture.build.engine.match({ lat: 0, lng: 0 }).count;
    assert.ok(located > 0 && located < fixture.build.engine.match({}).count, 'the fixture has listings without coordinates');
    for (const f of contexts) checkAgainstList(f);
  });

  it('contexts counted per request, including a tallied one under a filter its facets read', () => {
    const contexts: FilterValues[] = [
      // inside a tally (wifi, coffee): counted as the tally less the listings it leaves out
      { amenities: ['wifi', 'coffee'] },
      // several amenities: the intersection of their tallies, alone and under other filters
      { amenities: ['wifi', 'coffee', 'kitchen'] },
      { amenities: ['wifi', 'kitchen'], city: 'berlin' },
      { amenities: ['coffee', 'wifi'], pricingOptionType: 'flex_desk', minCapacity: 4 },
      // an amenity no listing has: nothing matches it
      { amenities: ['wifi', 'no-such-amenity'] },
      { amenities: ['wifi'], pricingOptionType: 'flex_desk' },
      { city: 'berlin', pricingOptionType: 'private_office' },
      { country: 'germany', pricingOptionType: 'flex_desk' },
      { pricingOptionType: 'private_office', minPrice: 100, maxPrice: 900 },
      // the option type facet's context is the amenity alone, but its counts read the price range
      { amenities: ['wifi'], minPrice: 200, maxPrice: 1500 },
      { amenities: ['wifi'], minCapacity: 10 },
      { currency: 'EUR', amenities: ['wifi'] },
      { currency: 'GBP', pricingOptionType: 'flex_desk', minCapacity: 10 },
      // inside the listings with coordinates
      { lat: 52.52, lng: 13.4, amenities: ['wifi'] },
      { city: 'berlin', lat: 52.52, lng: 13.4 },
      { lat: 52.52, lng: 13.4, radiusMeters: 20_000 },
      { operator: facetsPayload(fixture.build.engine, {}, 'en').payload.facets.find((c) => c.key === 'operator')!.values[0].value },
    ];
    for (const f of contexts) checkAgainstList(f);
  });

  it('capacityRange is the lowest and highest capacity of the listings matching every other filter, wide contexts and narrow', () => {
    const engine = fixture.build.engine;
    const all = facetsPayload(engine, {}, 'en').payload.facets;
    const values = (key: string) => all.find((c) => c.key === key)!.values.map((v) => v.value);
    const contexts: FilterValues[] = [
      {}, { minCapacity: 40 }, { amenities: ['wifi'] }, { pricingOptionType: 'private_office', minCapacity: 5 },
      ...values('country').map((country) => ({ country })), ...values('city').map((city) => ({ city })),
    ];
    let ranged = 0;
    for (const f of contexts) {
      const { minCapacity: _ignored, ...others } = f;
      const capacities = Array.from(bits.toIndices(engine.match(others).bits), (i) => (JSON.parse(engine.cardJson(i, 'en', {})) as { capacity?: number }).capacity)
        .filter((c): c is number => c !== undefined);
      const expected = capacities.length ? { min: Math.min(...capacities), max: Math.max(...capacities) } : undefined;
      assert.deepEqual(facetsPayload(engine, f, 'en').payload.capacityRange, expected, JSON.stringify(f));
      if (expected) ranged++;
    }
    assert.ok(ranged > 10);
  });
});
