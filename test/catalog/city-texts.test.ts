import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexCitiesOf } from '../../api/loading/city-texts.ts';

const cities = [
  { city: { slug: 'a-coruna', name: 'A Coruña' }, countryCode: 'ES', currency: 'EUR', published: true, note: 'quotes " and brackets ]} inside', points: [1, 2.5, null] },
  { countryCode: 'DE', city: { slug: 'koeln', name: 'K\u00f6ln \\' }, currency: 'EUR', published: false, points: [] },
  { city: { slug: 'new-york', name: 'New York' }, countryCode: 'US', currency: 'USD', published: true, nested: { deep: [[{}], { '}': '{' }] } },
] as const;
/** as the pipeline writes a file of cities: a head, the cities, a tail; spaced as JSON allows */
const file = Buffer.from(`{"asOf":"2026-12-01","months":["2026-11","2026-12"], "cities" : [ ${cities.map((c) => JSON.stringify(c)).join(' ,\n')} ],"source":{"name":"x"}}\n`);

const textOf = (bytes: Uint8Array, spans: Uint32Array, i: number) => Buffer.from(bytes).toString('utf8', spans[2 * i], spans[2 * i + 1]);

describe('a file of cities cut into one text per city without parsing it whole', () => {
  it('finds each city, named by its slug, as the very text the file holds', () => {
    const { slugs, spans } = indexCitiesOf(file, cities);
    assert.deepEqual(slugs, ['a-coruna', 'koeln', 'new-york']);
    cities.forEach((c, i) => assert.equal(textOf(file, spans, i), JSON.stringify(c)));
  });

  it('gives the index its cities with what lists and groups them', () => {
    const index = indexCitiesOf(file, cities);
    assert.deepEqual(index.slugs, ['a-coruna', 'koeln', 'new-york']);
    assert.deepEqual(index.countryCodes, ['ES', 'DE', 'US']);
    assert.deepEqual(index.currencies, ['EUR', 'EUR', 'USD']);
    assert.deepEqual([...index.published], [1, 0, 1]);
    cities.forEach((c, i) => assert.deepEqual(JSON.parse(textOf(file, index.spans, i)), c));
  });

  it('refuses a file without cities and a text that is not JSON', () => {
    assert.throws(() => indexCitiesOf(Buffer.from('{"months":[]}'), []), /has no cities/);
    assert.throws(() => indexCitiesOf(Buffer.from('{"cities":[{"city":{"slug":"x"}}'), cities), /not JSON/);
    assert.throws(() => indexCitiesOf(file, cities.slice(1)), /has 2 cities, 3 found/);
  });
});
