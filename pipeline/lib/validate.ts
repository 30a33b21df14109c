import { z } from 'zod';
import type { GeoPayload } from '../../contract/catalog.ts';
import { checkerFor } from '../../contract/validate.ts';
import { BuildError, type BuildFailureRule } from './errors.ts';
import type { ListingColumns } from '../../contract/build.ts';

/**
 * Validates one output against its contract schema (compiled once with ajv from the zod schema,
 * as the API checks a build); arrays element by element so errors name the index.
 */
export function validateOutput(file: string, schema: z.ZodType, value: unknown): void {
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    const check = checkerFor(schema.element as z.ZodType);
    value.forEach((item, i) => fail(file, `[${i}]`, check(item)));
    return;
  }
  fail(file, '', checkerFor(schema)(value));
}

/** The validator of the elements of an array at `path` in a file written piece by piece; errors name the element (`<path>/<index>`). */
export function elementValidator(file: string, path: string, schema: z.ZodType): (value: unknown, index: number) => void {
  const check = checkerFor(schema);
  return (value, index) => fail(file, `${path}/${index}`, check(value));
}

/** The validator of one line of an NDJSON file (`schema`: the schema of a line); errors name the line (1-based). */
export function lineValidator(file: string, schema: z.ZodType): (value: unknown, index: number) => void {
  const check = checkerFor(schema);
  return (value, index) => fail(file, ` line ${index + 1}: `, check(value));
}

function fail(file: string, where: string, problem: string | undefined): void {
  if (problem) throw new BuildError('invalid_output', `${file}:${where}${problem}`);
}

function assert(condition: boolean, rule: BuildFailureRule, message: string): void {
  if (!condition) throw new BuildError(rule, message);
}

function assertUnique(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const v of values) {
    assert(!seen.has(v), 'duplicate_slug', `${what}: slug "${v}" is used twice`);
    seen.add(v);
  }
  assert(!seen.has('map'), 'reserved_slug', `${what}: the reserved slug "map" is used`);
}

function countBy(values: (string | null)[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) if (v !== null) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** Invariants across files: unique slugs, aligned listing files, geography counts = listings. */
export function checkInvariants(input: {
  columns: ListingColumns;
  /** the slugs of cards.<locale>.ndjson and details.<locale>.ndjson, in line order */
  cardSlugs: string[];
  detailSlugs: string[];
  geo: GeoPayload;
  operatorSlugs: string[];
  /** the cities of market-rates.json, which the API names from geo */
  marketRateCities: string[];
  locale: string;
}): void {
  const { columns, cardSlugs, detailSlugs, geo, locale } = input;
  const slugs = columns.slugs;
  assertUnique(slugs, 'listing-columns.bin');
  assertUnique(geo.countries.map((c) => c.slug), `geo.${locale}.json countries`);
  assertUnique(geo.cities.map((c) => c.slug), `geo.${locale}.json cities`);
  assertUnique(geo.cities.flatMap((c) => c.zones.map((z) => z.slug)), `geo.${locale}.json zones`);
  assertUnique(input.operatorSlugs, 'operators');
  assert(cardSlugs.length === slugs.length && detailSlugs.length === slugs.length, 'misaligned_listings',
    `cards.${locale}.ndjson (${cardSlugs.length}) and details.${locale}.ndjson (${detailSlugs.length}) must match listing-columns.bin (${slugs.length})`);
  for (let i = 0; i < slugs.length; i++) {
    assert(cardSlugs[i] === slugs[i] && detailSlugs[i] === slugs[i], 'misaligned_listings',
      `line ${i + 1}: listing-columns.bin has "${slugs[i]}", cards.${locale}.ndjson "${cardSlugs[i]}", details.${locale}.ndjson "${detailSlugs[i]}"`);
  }
  const values = (column: number[], dict: string[]) => column.map((id) => (id === -1 ? null : dict[id]));
  const byCountry = countBy(values(columns.countryCode, columns.dict.countryCode));
  const byCity = countBy(values(columns.city, columns.dict.city));
  const byZone = countBy(values(columns.zone, columns.dict.zone));
  for (const c of geo.countries) {
    assert(c.propertyCount === (byCountry.get(c.code) ?? 0), 'count_mismatch',
      `geo.${locale}.json country ${c.slug}: propertyCount ${c.propertyCount}, listings ${byCountry.get(c.code) ?? 0}`);
  }
  for (const c of geo.cities) {
    assert(c.propertyCount === (byCity.get(c.slug) ?? 0), 'count_mismatch',
      `geo.${locale}.json city ${c.slug}: propertyCount ${c.propertyCount}, listings ${byCity.get(c.slug) ?? 0}`);
    for (const z of c.zones) {
      assert(z.propertyCount === (byZone.get(z.slug) ?? 0), 'count_mismatch',
        `geo.${locale}.json zone ${z.slug}: propertyCount ${z.propertyCount}, listings ${byZone.get(z.slug) ?? 0}`);
    }
  }
  const cities = new Set(geo.cities.map((c) => c.slug));
  for (const slug of input.marketRateCities) assert(cities.has(slug), 'unnamed_city', `market-rates.json: city ${slug} is not in geo.${locale}.json`);
}
