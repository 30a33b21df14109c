/**
 * The facets payload written as bytes (the route's body) against JSON.stringify of the same
 * payload as objects: under every kind of context, in every locale, with selected values at 0,
 * and with labels JSON must escape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BytesOut, labelledValueSets, listedJson, type FacetsOut } from '../../api/catalog/facet-payload.ts';
import type { FilterValues } from '../../api/catalog/filter-index.ts';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { LOCALES } from '../../contract/common.ts';
import { fixtureBuildPerFile } from '../support/app.ts';
import { facetsPayload, PayloadOut } from '../support/facets.ts';

const fixture = fixtureBuildPerFile({ extra: 300 });

function sameAsObjects(f: FilterValues): void {
  for (const locale of LOCALES) {
    const { payload, truncated } = facetsPayload(fixture.build.engine, f, locale);
    const w = new JsonBytes(64);
    assert.equal(fixture.build.engine.facets(f, locale, new BytesOut(w)), truncated);
    assert.equal(w.finish().toString(), JSON.stringify(payload), `${JSON.stringify(f)} ${locale}`);
  }
}

describe('the facets payload as bytes', () => {
  it('is the JSON of the payload under every kind of context', () => {
    const all = facetsPayload(fixture.build.engine, {}, 'en').payload.facets;
    const values = (key: string) => all.find((c) => c.key === key)!.values.map((v) => v.value);
    const contexts: FilterValues[] = [
      {},
      // counted once per build
      ...values('pricingOptionType').map((t) => ({ pricingOptionType: t }) as FilterValues),
      ...values('amenities').slice(0, 3).map((a) => ({ amenities: [a] })),
      ...values('country').map((country) => ({ country })),
      // per request: a tally less the listings it leaves out, places, a price range, a point
      { amenities: ['wifi', 'coffee'] },
      { city: 'berlin', pricingOptionType: 'private_office' },
      { zone: values('zone')[0], amenities: ['wifi'] },
      { country: 'germany', pricingOptionType: 'flex_desk', minPrice: 100, maxPrice: 900 },
      { amenities: ['wifi'], minCapacity: 10 },
      { operator: values('operator')[0], currency: 'EUR' },
      { lat: 52.52, lng: 13.4, radiusMeters: 20_000 },
    ];
    for (const f of contexts) sameAsObjects(f);
  });

  it('keeps selected values at 0, known or not, and says nothing twice', () => {
    sameAsObjects({ city: 'no-such-city' });
    sameAsObjects({ country: 'germany', amenities: ['wifi', 'no-such-amenity'], operator: 'no-such-operator' });
    sameAsObjects({ amenities: ['wifi', 'wifi'], minPrice: 1e9 });
    const { payload } = facetsPayload(fixture.build.engine, { city: 'no-such-city', amenities: ['no-such-amenity'] }, 'de');
    const city = payload.facets.find((c) => c.key === 'city')!.values;
    assert.deepEqual(city.filter((v) => v.value === 'no-such-city'), [{ value: 'no-such-city', label: 'no-such-city', count: 0 }]);
  });

  it('escapes labels and values as JSON.stringify does', () => {
    const values = ['plain', 'quote"d', 'back\\slash', 'straße'];
    const labels = ['Köln – 5 €', 'say "hi"\n', 'tab\there \u2028 \u0001', '😀 \ud800 lone'];
    // another set shares the memory: each writes from its own fragments
    const [other, labelled] = labelledValueSets([{ values: ['o'], labels: ['Other'] }, { values, labels }]);
    const write = (out: FacetsOut) => {
      out.facet('city', 'Stadt "A"');
      out.listed(labelled, [3, 0, 2, 1], Int32Array.from([7, 0, 12_345, 1_000_000_000]));
      out.listed(other, [0], Int32Array.from([4]));
      out.value('x"y', 'Zürich\\', 0);
      out.facet('amenities', 'Ausstattung');
      out.end({ capacityRange: { min: 1, max: 80 } });
    };
    const objects = new PayloadOut();
    write(objects);
    const w = new JsonBytes(8);
    write(new BytesOut(w));
    const body = w.finish().toString();
    assert.equal(body, JSON.stringify(objects.payload));
    assert.deepEqual(JSON.parse(body).facets[0].values[0], { value: 'straße', label: '😀 \ud800 lone', count: 1_000_000_000 });
  });

  it("writes a tally's values from their JSON made once exactly as one by one", () => {
    const [labelled] = labelledValueSets([{ values: ['a', 'b"', 'c'], labels: ['Á', 'B\n', 'C'] }]);
    const ids = [2, 0, 1], t = Int32Array.from([5, 0, 40]);
    const write = (json?: Uint8Array) => {
      const w = new JsonBytes(8);
      const out = new BytesOut(w);
      out.facet('city', 'City');
      out.value('x', 'X', 3);
      out.listed(labelled, ids, t, json);
      out.listed(labelled, [], t, json && listedJson(labelled, [], t));
      out.value('y', 'Y', 0);
      out.end({});
      return w.finish().toString();
    };
    assert.equal(write(listedJson(labelled, ids, t)), write());
    assert.deepEqual(JSON.parse(write()).facets[0].values.map((v: { value: string }) => v.value), ['x', 'c', 'a', 'b"', 'y']);
  });

  it('writes counts of every size in decimal', () => {
    const w = new JsonBytes(4);
    for (const n of [0, 7, 9, 10, 99, 100, 12_345, 1_000_000, 2_147_483_647]) w.uint(n).byte(0x2c);
    assert.equal(w.finish().toString(), '0,7,9,10,99,100,12345,1000000,2147483647,');
  });
});
