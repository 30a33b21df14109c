/**
 * The pipeline checks every output with validators compiled from the contract's zod schemas
 * (contract/validate.ts: z.toJSONSchema, then ajv), the listing files on worker threads
 * (pipeline/lib/output-check.ts). The zod schemas stay the contract: a table of broken values, each
 * made from a valid one, must be rejected by zod and by the compiled validator alike, and the
 * pipeline's failure names the file, the line and the field.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { z } from 'zod';
import { BUILD_FILES, DETAILS_INDEX, KEYED_BUILD_FILES, KEYED_FILE, LEAD_ROUTING, ListingColumnsSchema, LOCALIZED_BUILD_FILES, NDJSON_BUILD_FILES, ManifestSchema, type ListingColumns } from '../../contract/build.ts';
import type { GeoPayload } from '../../contract/catalog.ts';
import { fileDigests } from '../../contract/file-digests.ts';
import { decodeLineIndex, encodeLineIndex, lineIndexOf } from '../../contract/line-index.ts';
import { LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import { checkerFor } from '../../contract/validate.ts';
import { BuildError } from '../../pipeline/lib/errors.ts';
import { checksOf, OutputChecker, type FileCheckRequest } from '../../pipeline/lib/output-check.ts';
import { checkInvariants, lineValidator, validateOutput } from '../../pipeline/lib/validate.ts';
import { writeBuildFixture, type Fixture } from '../support/build-fixture.ts';
import { readKeyed } from '../support/pipeline-fixtures.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Bad {
  what: string;
  /** the file whose valid content is broken, and its schema (of a line for NDJSON files) */
  file: string;
  schema: z.ZodType;
  /** breaks a copy of a valid value (of the first line for NDJSON files) */
  breakIt(value: Json): void;
  /** the JSON pointer the compiled validator names (of a record's first entry: a function of the valid value) */
  field: string | ((valid: Json) => string);
}

const firstKey = (record: Json) => Object.keys(record)[0];

const BAD: Bad[] = [
  // cards.<locale>.ndjson
  { what: 'a card without its slug', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { delete c.slug; }, field: '/' },
  { what: 'a card slug with capitals', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.slug = 'Not-A-Slug'; }, field: '/slug' },
  { what: 'a card with a field the contract does not know', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.unknownField = 1; }, field: '/' },
  { what: 'a card with a request-dependent field (fromPrice)', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.fromPrice = { amount: 1, currency: 'EUR' }; }, field: '/' },
  { what: 'a card whose city name is a number', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.city.name = 7; }, field: '/city/name' },
  { what: 'a card with a rating above 5', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.rating = { score: 5.5, count: 3 }; }, field: '/rating/score' },
  { what: 'a card updatedAt that is not a date-time', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.updatedAt = 'yesterday'; }, field: '/updatedAt' },
  { what: 'a card image with an absolute URL (the build stores site paths)', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.images = [{ ...c.images[0], url: 'https://example.com/a.jpg' }]; }, field: '/images/0/url' },
  { what: 'a card with a fractional capacity', file: 'cards.en.ndjson', schema: NDJSON_BUILD_FILES.cards, breakIt: (c) => { c.capacity = 2.5; }, field: '/capacity' },
  // markers.<locale>.ndjson
  { what: 'a marker without coordinates', file: 'markers.en.ndjson', schema: NDJSON_BUILD_FILES.markers, breakIt: (m) => { delete m.coordinates; }, field: '/' },
  { what: 'a marker whose latitude is a string', file: 'markers.en.ndjson', schema: NDJSON_BUILD_FILES.markers, breakIt: (m) => { m.coordinates = { lat: '52.5', lng: 13.4 }; }, field: '/coordinates/lat' },
  // details.<locale>.ndjson
  { what: 'a detail with an unknown option type', file: 'details.de.ndjson', schema: NDJSON_BUILD_FILES.details, breakIt: (d) => { d.pricingOptions = [{ ...d.pricingOptions[0], optionType: 'hot_tub' }]; }, field: '/pricingOptions/0/optionType' },
  { what: 'a detail price in a currency the contract does not list', file: 'details.de.ndjson', schema: NDJSON_BUILD_FILES.details, breakIt: (d) => { d.fromPrice = { amount: 10, currency: 'XYZ' }; }, field: '/fromPrice/currency' },
  { what: 'a detail with a negative price', file: 'details.de.ndjson', schema: NDJSON_BUILD_FILES.details, breakIt: (d) => { d.fromPrice = { amount: -1, currency: 'EUR' }; }, field: '/fromPrice/amount' },
  { what: 'a detail webUrl that is not a site path', file: 'details.de.ndjson', schema: NDJSON_BUILD_FILES.details, breakIt: (d) => { d.webUrl = 'de/space/x'; }, field: '/webUrl' },
  { what: 'a detail market verdict outside below/around/above', file: 'details.de.ndjson', schema: NDJSON_BUILD_FILES.details, breakIt: (d) => { d.marketPosition = { verdict: 'cheap', median: { amount: 1, currency: 'EUR' }, sampleSize: 9 }; }, field: '/marketPosition/verdict' },
  // JSON files
  { what: 'a geo city without its center', file: 'geo.en.json', schema: LOCALIZED_BUILD_FILES.geo, breakIt: (g) => { delete g.cities[0].center; }, field: '/cities/0' },
  { what: 'a place hub keyed outside country|city|zone', file: 'places.en', schema: KEYED_BUILD_FILES.places, breakIt: (p) => { p[`street/${firstKey(p)}`] = p[firstKey(p)]; }, field: '/' },
  { what: 'a lead route with an enquiry address that is not an e-mail', file: 'lead-routing', schema: LEAD_ROUTING.schema, breakIt: (r) => { r[firstKey(r)].enquiryEmail = 'not-an-email'; }, field: (r) => `/${firstKey(r)}/enquiryEmail` },
  // the listing_columns mart, validated before it is encoded into listing-columns.bin
  { what: 'listing columns with a negative index', file: LISTING_COLUMNS_FILE, schema: ListingColumnsSchema, breakIt: (c) => { c.city[0] = -3; }, field: '/city/0' },
  // nullable columns (anyOf [S, null] in the JSON Schema, compiled as the type list [S.type, null]): S's constraints still hold
  { what: 'listing columns with a negative price where a price may be null', file: LISTING_COLUMNS_FILE, schema: ListingColumnsSchema, breakIt: (c) => { c.fromPrice.amount[0] = -1; }, field: '/fromPrice/amount/0' },
  { what: 'listing columns with a fractional capacity where a capacity may be null', file: LISTING_COLUMNS_FILE, schema: ListingColumnsSchema, breakIt: (c) => { c.capacity[0] = 2.5; }, field: '/capacity/0' },
  { what: 'listing columns with a latitude that is a string where a latitude may be null', file: LISTING_COLUMNS_FILE, schema: ListingColumnsSchema, breakIt: (c) => { c.lat[0] = '52.5'; }, field: '/lat/0' },
  { what: 'a manifest with a short sha256', file: 'manifest.json', schema: ManifestSchema, breakIt: (m) => { m.files[firstKey(m.files)] = 'abc'; }, field: '/files/' },
];

let fixture: Fixture;
const valid = (file: string): Json => {
  // a keyed file (`<name>.<locale>`) as the whole map the pipeline validates before writing it
  const keyed = /^(rankings|places|operators)\.([a-z]{2})$/.exec(file);
  if (keyed) {
    const [, name, locale] = keyed as unknown as [string, keyof typeof KEYED_BUILD_FILES, string];
    const keys = JSON.parse(readFileSync(join(fixture.dir, KEYED_FILE.keys(name, locale)), 'utf8')) as string[];
    const lines = readFileSync(join(fixture.dir, KEYED_FILE.lines(name, locale)), 'utf8').split('\n');
    return Object.fromEntries(keys.map((k, i) => [k, JSON.parse(lines[i])]));
  }
  if (file === LISTING_COLUMNS_FILE) return fixture.columns;
  if (file === LEAD_ROUTING.name) return readKeyed(fixture.dir, LEAD_ROUTING.name);
  const text = readFileSync(join(fixture.dir, file), 'utf8');
  return JSON.parse(file.endsWith('.ndjson') ? text.slice(0, text.indexOf('\n')) : text);
};
const fieldOf = (bad: Bad) => (typeof bad.field === 'string' ? bad.field : bad.field(valid(bad.file)));
const broken = (bad: Bad): Json => {
  const value = structuredClone(valid(bad.file));
  bad.breakIt(value);
  return value;
};

before(async () => {
  fixture = await writeBuildFixture();
});
after(async () => {
  await rm(fixture.dir, { recursive: true, force: true });
});

describe('the compiled validators reject what the zod schemas reject', () => {
  it('both accept the valid values every broken one is made from', () => {
    for (const file of new Set(BAD.map((b) => b.file))) {
      const schema = BAD.find((b) => b.file === file)!.schema;
      assert.equal(schema.safeParse(valid(file)).success, true, `zod rejects the valid ${file}`);
      assert.equal(checkerFor(schema)(valid(file)), undefined, `the compiled validator rejects the valid ${file}`);
    }
  });

  for (const bad of BAD) {
    it(`${bad.what}: rejected by both, the failure names the field`, () => {
      const value = broken(bad);
      assert.equal(bad.schema.safeParse(value).success, false, 'zod accepts it');
      const problem = checkerFor(bad.schema)(value);
      assert.ok(problem, 'the compiled validator accepts it');
      assert.ok(problem.startsWith(fieldOf(bad)), `"${problem}" does not name ${fieldOf(bad)}`);
      if (bad.file.endsWith('.ndjson')) {
        assert.throws(() => lineValidator(bad.file, bad.schema)(value, 102),
          (err: unknown) => err instanceof BuildError && err.message.startsWith(`invalid_output: ${bad.file}: line 103: ${fieldOf(bad)}`));
      } else {
        assert.throws(() => validateOutput(bad.file, bad.schema, value),
          (err: unknown) => err instanceof BuildError && err.rule === 'invalid_output' && err.message.includes(`${bad.file}:`) && err.message.includes(fieldOf(bad)));
      }
    });
  }
});

describe('OutputChecker (the listing files, read back and checked on worker threads)', () => {
  const line = (file: string) => JSON.stringify(valid(file));
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'output-check-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the three files of one locale (a line per listing) and the requests that check them. */
  const files = (lines: { cards: string[]; markers: string[]; details: string[] }) => {
    const request = (file: 'cards' | 'markers' | 'details') => {
      const name = `${file}.en.ndjson`;
      writeFileSync(join(dir, name), lines[file].map((l) => `${l}\n`).join(''));
      return { name, path: join(dir, name), schema: file, keepSlugs: file !== 'markers', recordIndex: file === 'details', lineIndex: file !== 'details' };
    };
    return { cards: request('cards'), markers: request('markers'), details: request('details') };
  };
  /** Each file checked on its own, the answers combined as the pipeline combines a locale's (checksOf). */
  const checkAll = <K extends string>(checker: OutputChecker, requests: Record<K, FileCheckRequest>) =>
    checksOf(Object.fromEntries(Object.entries<FileCheckRequest>(requests).map(([k, r]) => [k, checker.check(r)])) as Record<K, ReturnType<OutputChecker['check']>>);
  const valid5 = () => ({ cards: Array(5).fill(line('cards.en.ndjson')), markers: Array(5).fill(line('markers.en.ndjson')), details: Array(5).fill(line('details.de.ndjson')) });

  it('returns the slugs in line order, the digests of the bytes and the record index of every line', async () => {
    const checker = new OutputChecker();
    try {
      const card = valid('cards.en.ndjson');
      const detail = valid('details.de.ndjson');
      const slugs = ['a-1', 'b-2', 'c-3', 'd-4'];
      // a multi-byte character: the index counts bytes, not characters
      const details = slugs.map((slug) => JSON.stringify({ ...detail, slug, title: `Büro ${slug}` }));
      const requests = files({ cards: slugs.map((slug) => JSON.stringify({ ...card, slug })), markers: slugs.map(() => 'null'), details });
      const checks = await checkAll(checker, requests);
      assert.deepEqual(checks.cards.slugs, slugs);
      assert.deepEqual(checks.details.slugs, slugs);
      assert.equal(checks.markers.slugs, undefined);
      for (const file of ['cards', 'markers', 'details'] as const) {
        assert.deepEqual(checks[file].digests, fileDigests(readFileSync(requests[file].path)));
        assert.equal(checks[file].lines, 4);
      }
      const index = Buffer.from(checks.details.index!);
      assert.equal(index.length, 4 * DETAILS_INDEX.bytesPerRecord);
      details.forEach((text, i) => {
        const bytes = Buffer.from(`${text}\n`);
        assert.equal(index.readUInt32LE(i * 8), bytes.length);
        assert.equal(index.readUInt32LE(i * 8 + 4), crc32(bytes));
      });
    } finally {
      await checker.close();
    }
  });

  for (const bad of [BAD.find((b) => b.file.startsWith('markers'))!, BAD.find((b) => b.file.startsWith('details'))!]) {
    it(`${bad.what}: the build fails naming the file, the line and the field`, async () => {
      const checker = new OutputChecker();
      try {
        const lines = valid5();
        const kind = bad.file.split('.')[0] as keyof typeof lines;
        lines[kind][2] = JSON.stringify(broken(bad));
        await assert.rejects(checkAll(checker, files(lines)), (err: unknown) => {
          assert.ok(err instanceof BuildError, String(err));
          assert.equal(err.rule, 'invalid_output');
          assert.ok(err.message.startsWith(`invalid_output: ${kind}.en.ndjson: line 3: ${fieldOf(bad)}`), err.message);
          return true;
        });
      } finally {
        await checker.close();
      }
    });
  }

  it('makes the line index the API checks from the bytes it read, across its reads of the file', async () => {
    const checker = new OutputChecker();
    try {
      const card = valid('cards.en.ndjson');
      // over 8 MiB (the worker's read): lines and site paths fall across the reads' boundaries
      const slugs = Array.from({ length: 12_000 }, (_, i) => `space-${i}`);
      const cards = slugs.map((slug, i) => JSON.stringify({ ...card, slug, title: `Büro ${'x'.repeat(i % 997)}` }));
      const requests = files({ cards, markers: slugs.map(() => 'null'), details: slugs.map(() => line('details.de.ndjson')) });
      const bytes = readFileSync(requests.cards.path);
      assert.ok(bytes.length > 8 << 20, `${bytes.length} bytes`);
      const checks = await checkAll(checker, requests);
      const index = Buffer.from(checks.cards.lineIndex!);
      assert.deepEqual(index, encodeLineIndex(lineIndexOf(bytes)));
      const decoded = decodeLineIndex(index, bytes);
      assert.equal(decoded.starts.length, slugs.length + 1);
      assert.ok(decoded.sitePaths.length >= slugs.length, 'the valid card has a site path'); // sitePaths found in every read
      assert.deepEqual(Buffer.from(checks.markers.lineIndex!), encodeLineIndex(lineIndexOf(readFileSync(requests.markers.path))));
      assert.equal(checks.details.lineIndex, undefined);
    } finally {
      await checker.close();
    }
  });

  it('reports the first bad listing: the lowest line across the files, then cards, markers, details', async () => {
    const checker = new OutputChecker();
    try {
      const badCard = JSON.stringify(broken(BAD[1]));
      const badMarker = JSON.stringify(broken(BAD.find((b) => b.file.startsWith('markers'))!));
      const badDetail = JSON.stringify(broken(BAD.find((b) => b.file.startsWith('details'))!));
      const lines = valid5();
      lines.cards[3] = badCard;
      lines.details[1] = badDetail;
      await assert.rejects(checkAll(checker, files(lines)), /^BuildError: invalid_output: details\.en\.ndjson: line 2: /);
      lines.cards[1] = badCard;
      lines.markers[1] = badMarker;
      await assert.rejects(checkAll(checker, files(lines)), /^BuildError: invalid_output: cards\.en\.ndjson: line 2: /);
      // the checker goes on after a failed file
      assert.equal((await checkAll(checker, files(valid5()))).cards.lines, 5);
    } finally {
      await checker.close();
    }
  });

  it('a line that is not JSON fails the build, naming the file and the line', async () => {
    const checker = new OutputChecker();
    try {
      const lines = valid5();
      lines.cards[1] = '{"slug":';
      await assert.rejects(checkAll(checker, files(lines)), /invalid_output: cards\.en\.ndjson: line 2: not JSON/);
    } finally {
      await checker.close();
    }
  });
});

describe('the invariants across files', () => {
  it('fail the build on a city of market-rates.json that a geo file does not list, as the API names the cities from geo (unnamed_city)', () => {
    const columns = { slugs: [], dict: { countryCode: [], city: [], zone: [] }, countryCode: [], city: [], zone: [] } as unknown as ListingColumns;
    const geo: GeoPayload = { countries: [], cities: [{ slug: 'berlin', name: 'Berlin', countryCode: 'DE', propertyCount: 0, center: { lat: 52.52, lng: 13.4 }, zones: [] }], currencies: {} };
    const check = (marketRateCities: string[]) => checkInvariants({ columns, cardSlugs: [], detailSlugs: [], geo, operatorSlugs: [], marketRateCities, locale: 'de' });
    check(['berlin']);
    assert.throws(() => check(['berlin', 'atlantis']), (e: Error) => e instanceof BuildError && e.rule === 'unnamed_city' && /market-rates\.json: city atlantis is not in geo\.de\.json/.test(e.message));
  });
});
