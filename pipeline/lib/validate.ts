import { z } from 'zod';
import type { ListingFact } from '../../api/contract/build.ts';
import type { BuildListingCard, BuildPropertyDetail, GeoPayload } from '../../api/contract/catalog.ts';
import { BuildError } from './errors.ts';

function describeIssues(error: z.ZodError, prefix: string): string {
  return error.issues.slice(0, 5).map((i) => `${prefix}${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`).join('; ');
}

/** Validates one output against its contract schema; arrays element by element so errors name the index. */
export function validateOutput(file: string, schema: z.ZodType, value: unknown): void {
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    const element = schema.element as z.ZodType;
    for (let i = 0; i < value.length; i++) {
      const result = element.safeParse(value[i]);
      if (!result.success) throw new BuildError('invalid_output', `${file}: ${describeIssues(result.error, `[${i}]`)}`);
    }
    return;
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new BuildError('invalid_output', `${file}: ${describeIssues(result.error, '')}`);
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
  cards: BuildListingCard[];
  details: BuildPropertyDetail[];
  geo: GeoPayload;
  operatorSlugs: string[];
  locale: string;
}): void {
  const { facts, cards, details, geo, locale } = input;
  assertUnique(facts.map((f) => f.slug), 'listing-facts.json');
  assertUnique(geo.countries.map((c) => c.slug), `geo.${locale}.json countries`);
  assertUnique(geo.cities.map((c) => c.slug), `geo.${locale}.json cities`);
  assertUnique(geo.cities.flatMap((c) => c.zones.map((z) => z.slug)), `geo.${locale}.json zones`);
  assertUnique(input.operatorSlugs, 'operators');
  assert(cards.length === facts.length && details.length === facts.length, 'misaligned_listings',
    `listings.${locale}.json (${cards.length}) and properties.${locale}.json (${details.length}) must match listing-facts.json (${facts.length})`);
  for (let i = 0; i < facts.length; i++) {
    assert(cards[i].slug === facts[i].slug && details[i].slug === facts[i].slug, 'misaligned_listings',
      `entry ${i}: listing-facts.json has "${facts[i].slug}", listings.${locale}.json "${cards[i].slug}", properties.${locale}.json "${details[i].slug}"`);
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
