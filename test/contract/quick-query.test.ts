/**
 * The quick reading of the catalogue queries (contract/quick-query.ts) against their schemas:
 * over random queries (plain and odd values, repeated and unknown parameters, broken point
 * rules), whatever the reading accepts the schema accepts, with the same output in the same key
 * order; and the queries apps send are read quickly, not left to the schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { z } from 'zod';
import { CURRENCIES, LOCALES, OPTION_TYPES } from '../../contract/common.ts';
import { FacetsQuerySchema, PropertyListQuerySchema, PropertyMapQuerySchema, SORT_ORDERS } from '../../contract/queries.ts';
import { quickQueryReading } from '../../contract/quick-query.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
const RUNS = 8000;

const numberText = fc.oneof(
  fc.integer({ min: -1000, max: 300_000 }).map(String),
  fc.double().map(String),
  fc.constantFrom('1e3', '+5', '.5', '5.', '-0', '0x10', ' 5', '5 ', '1e400', 'NaN', 'Infinity', '2147483647', '2147483648', '9007199254740993', '01', '1.0', '200000', '200000.5', '90', '-90.0001', ''),
);
const value = fc.oneof(
  fc.constantFrom(...LOCALES, ...OPTION_TYPES, ...CURRENCIES, ...SORT_ORDERS, 'EN', 'xx', ''),
  fc.stringMatching(/^[a-z0-9-]{0,12}$/),
  fc.stringMatching(/^[a-z_]{0,8}(,[a-z_ ]{0,8}){0,3}$/),
  numberText,
  fc.tuple(numberText, numberText, numberText, numberText).map((t) => t.join(',')),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('a'.repeat(200), 'a'.repeat(201), Array.from({ length: 21 }, (_, k) => `a${k}`).join(','), Array.from({ length: 20 }, (_, k) => `a${k}`).join(','), 'wifi,wifi', 'Berlin', '12 Main St'),
);
const int = (min: number, max: number) => fc.integer({ min, max }).map(String);
const decimal = (min: number, max: number) => fc.double({ min, max, noNaN: true }).map(String);
/** Each parameter's values that are mostly, not always, valid for it. */
const PLAUSIBLE: Record<string, fc.Arbitrary<string>> = {
  locale: fc.constantFrom(...LOCALES),
  country: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  city: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  zone: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  operator: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  pricingOptionType: fc.constantFrom(...OPTION_TYPES),
  currency: fc.constantFrom(...CURRENCIES),
  amenities: fc.stringMatching(/^[a-z_]{1,8}(,[a-z_]{1,8}){0,3}$/),
  minCapacity: int(-1, 100),
  minPrice: fc.oneof(int(-10, 5000), decimal(-1, 5000)),
  maxPrice: fc.oneof(int(-10, 5000), decimal(-1, 5000)),
  lat: decimal(-95, 95),
  lng: decimal(-185, 185),
  radiusMeters: fc.oneof(int(-10, 250_000), decimal(-1, 250_000)),
  bbox: fc.tuple(decimal(-200, 200), decimal(-100, 100), decimal(-200, 200), decimal(-100, 100)).map((t) => t.join(',')),
  address: fc.string({ maxLength: 130 }),
  page: int(-1, 600),
  pageSize: int(-1, 6000),
  seed: int(-5, 2 ** 31 + 5),
  sortBy: fc.constantFrom(...SORT_ORDERS),
  unknown: value,
};
const query = fc.record(Object.fromEntries(Object.entries(PLAUSIBLE).map(([name, plausible]) => [
  name,
  // locale is mostly there, each other parameter mostly not; a value mostly plausible, else odd or repeated
  fc.oneof(
    { weight: name === 'locale' ? 1 : 30, arbitrary: fc.constant(undefined) },
    { weight: name === 'locale' ? 16 : 8, arbitrary: plausible },
    { weight: 1, arbitrary: value },
    { weight: 1, arbitrary: fc.array(plausible, { minLength: 2, maxLength: 2 }) },
  ),
]))).map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)));

/** One parameter beside the locale, plausible or odd: each reading on its own. */
const oneParameter = fc.constantFrom(...Object.keys(PLAUSIBLE).filter((name) => name !== 'locale'))
  .chain((name) => fc.oneof(PLAUSIBLE[name], value).map((v) => ({ locale: 'en', [name]: v })));

const SCHEMAS: [string, z.ZodType][] = [['list', PropertyListQuerySchema], ['map', PropertyMapQuerySchema], ['facets', FacetsQuerySchema]];

describe('quick reading of the catalogue queries', () => {
  for (const [name, schema] of SCHEMAS) {
    it(`${name}: accepts only what the schema accepts, with the same output in the same order`, () => {
      const read = quickQueryReading(schema);
      assert.ok(read, 'the schema has a quick reading');
      let accepted = 0;
      fc.assert(fc.property(fc.oneof(query, oneParameter), (q) => {
        const quick = read(q);
        if (quick === undefined) return;
        accepted++;
        const parsed = schema.safeParse(q);
        assert.ok(parsed.success, `the schema refuses ${JSON.stringify(q)}, which the reading accepted`);
        assert.deepStrictEqual(quick, parsed.data);
        assert.deepStrictEqual(Object.keys(quick), Object.keys(parsed.data as object));
      }), { seed: SEED, numRuns: RUNS });
      // the random queries reach both sides: some are accepted (and compared), not all
      assert.ok(accepted > 50, `accepted ${accepted} of ${RUNS}`);
    });
  }

  it('reads the queries apps send without the schema', () => {
    const plain: Record<string, unknown>[] = [
      { locale: 'en' },
      { locale: 'de', city: 'berlin', pricingOptionType: 'private_office' },
      { locale: 'es', zone: 'madrid-chamberi', operator: 'rusrylt-cowork', amenities: 'wifi,coffee,wifi' },
      { locale: 'en', country: 'germany', minPrice: '100', maxPrice: '900.5', currency: 'EUR', minCapacity: '4' },
      { locale: 'en', lat: '52.52', lng: '13.405', radiusMeters: '5000' },
      { locale: 'en', bbox: '13.2,52.4,13.6,52.6', address: 'Friedrichstr. 68' },
    ];
    for (const q of plain) {
      for (const [name, schema] of SCHEMAS) {
        const quick = quickQueryReading(schema)!(q);
        assert.ok(quick, `${name} reads ${JSON.stringify(q)} quickly`);
        assert.deepStrictEqual(quick, schema.parse(q));
      }
    }
    assert.deepStrictEqual(quickQueryReading(PropertyListQuerySchema)!({ locale: 'en', page: '2', sortBy: 'price-asc', seed: '7' }), { locale: 'en', page: 2, seed: 7, sortBy: 'price-asc', pageSize: 20 });
  });

  it('leaves what the schema refuses or words to the schema', () => {
    const read = quickQueryReading(FacetsQuerySchema)!;
    for (const q of [{}, { locale: 'xx' }, { locale: ['en', 'de'] }, { locale: 'en', city: 'Berlin' }, { locale: 'en', lat: '52' }, { locale: 'en', radiusMeters: '10' }, { locale: 'en', amenities: 'wifi, coffee' }, { locale: 'en', minPrice: '-1' }]) {
      assert.equal(read(q), undefined, JSON.stringify(q));
    }
  });
});
