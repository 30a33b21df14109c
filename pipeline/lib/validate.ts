import { z } from 'zod';
import type { ListingFact } from '../../contract/build.ts';
import type { GeoPayload } from '../../contract/catalog.ts';
import { checkerFor } from '../../contract/validate.ts';
import { BuildError } from './errors.ts';

/**
 * Validates one output against its contract schema (compiled once with ajv from the zod schema,
 * as the API checks a build); arrays element by element so errors name the index.
 */
export function validateOutput(file: string, schema: z.ZodType, value: unknown): void {
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    const valid = elementValidator(file, schema);
    for (let i = 0; i < value.length; i++) valid(value[i], i);
    return;
  }
  const problem = checkerFor(schema)(value);
  if (problem) throw new BuildError('invalid_output', `${file}: ${problem}`);
}

/**
 * The element validator of an array schema: validates one element as `validateOutput` would
 * (same message, naming the index), so a file can be validated while it is streamed.
 */
export function elementValidator(file: string, schema: z.ZodType): (value: unknown, index: number) => void {
  if (!(schema instanceof z.ZodArray)) throw new Error(`${file}: not an array schema`);
  const check = checkerFor(schema.element as z.ZodType);
  return (value, index) => {
    const problem = check(value);
    if (problem) throw new BuildError('invalid_output', `${file}: [${index}]${problem}`);
  };
}

function assert(condition: boolean, rule: string, message: string): void {
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
  facts: ListingFact[];
  /** the slugs of listings.<locale>.json and properties.<locale>.json, in file order */
  cardSlugs: string[];
  detailSlugs: string[];
  geo: GeoPayload;
  operatorSlugs: string[];
  locale: string;
}): void {
  const { facts, cardSlugs, detailSlugs, geo, locale } = input;
  assertUnique(facts.map((f) => f.slug), 'listing-facts.json');
  assertUnique(geo.countries.map((c) => c.slug), `geo.${locale}.json countries`);
  assertUnique(geo.cities.map((c) => c.slug), `geo.${locale}.json cities`);
  assertUnique(geo.cities.flatMap((c) => c.zones.map((z) => z.slug)), `geo.${locale}.json zones`);
  assertUnique(input.operatorSlugs, 'operators');
  assert(cardSlugs.length === facts.length && detailSlugs.length === facts.length, 'misaligned_listings',
    `listings.${locale}.json (${cardSlugs.length}) and properties.${locale}.json (${detailSlugs.length}) must match listing-facts.json (${facts.length})`);
  for (let i = 0; i < facts.length; i++) {
    assert(cardSlugs[i] === facts[i].slug && detailSlugs[i] === facts[i].slug, 'misaligned_listings',
      `entry ${i}: listing-facts.json has "${facts[i].slug}", listings.${locale}.json "${cardSlugs[i]}", properties.${locale}.json "${detailSlugs[i]}"`);
  }
  const byCountry = countBy(facts.map((f) => f.countryCode));
  const byCity = countBy(facts.map((f) => f.citySlug));
  const byZone = countBy(facts.map((f) => f.zoneSlug));
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
}
