/**
 * The listing files are written by DuckDB (COPY of the finished lines, unquoted) and read back by
 * the checker's workers (pipeline/lib/listing-rows.ts, output-check.ts): texts with the characters a
 * CSV writer would quote or escape come out as the JSON the contract expects, one line per listing
 * in place order; the details' record index and the manifest describe the bytes on disk.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { CARD_FILES, DETAILS_INDEX } from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';
import { listingLinesSql } from '../../pipeline/lib/listing-rows.ts';
import { baseTables, buildFixture, observation, space, type FixtureBuild } from '../support/pipeline-fixtures.ts';

/** Each a title, excerpt or description a CSV writer would quote, escape or split. */
const TRICKY = {
  title: 'Büro "Am Hof", 2. OG \\ Nord',
  excerpt: 'Desks; quotes "like this", commas, a\ttab and 東京 – “typographic” ones',
  description: 'Two lines:\nthe second, with a carriage return\r\nand U+2028\u2028here',
};

describe('the listing files, written by DuckDB', () => {
  let build: FixtureBuild;
  before(async () => {
    const t = baseTables();
    t.spaces.push(
      space('sp-1', { name: TRICKY.title, excerpt_en: TRICKY.excerpt, description_en: TRICKY.description }),
      space('sp-2', { name: 'Plain', lat: '', lng: '' }),
    );
    t.price_observations.push(observation('sp-1', 'flex_desk', '250'), observation('sp-2', 'flex_desk', '300'));
    build = await buildFixture(t);
  });

  it('writes each text as its JSON, one line per listing, in place order', () => {
    const slugs = build.listings().map((l) => l.slug);
    for (const locale of LOCALES) {
      const cards = build.lines(`cards.${locale}.ndjson`);
      const details = build.lines(`details.${locale}.ndjson`);
      const markers = build.lines(`markers.${locale}.ndjson`);
      assert.deepEqual(cards.map((c) => c.slug), slugs);
      assert.deepEqual(details.map((d) => d.slug), slugs);
      assert.equal(markers.length, slugs.length);
      const card = cards.find((c) => c.title === TRICKY.title);
      assert.ok(card, `cards.${locale}.ndjson has the title as written`);
      assert.equal(markers[cards.indexOf(card)].title, TRICKY.title);
      assert.equal(markers[cards.findIndex((c) => c.title === 'Plain')], null, 'a listing without coordinates has a null marker');
      if (locale === 'en') {
        assert.equal(card.excerpt, TRICKY.excerpt);
        assert.equal(details.find((d) => d.slug === card.slug).description, TRICKY.description);
      }
    }
  });

  it('lists every file with the sha256 of its bytes, and indexes every detail line by its bytes', () => {
    const manifest = build.json('manifest.json');
    const dir = path.join(build.distDir, 'current');
    for (const locale of LOCALES) {
      for (const file of [`cards.${locale}.ndjson`, `markers.${locale}.ndjson`, `details.${locale}.ndjson`]) {
        assert.equal(manifest.files[file], createHash('sha256').update(readFileSync(path.join(dir, file))).digest('hex'), file);
      }
      const bytes = readFileSync(path.join(dir, `details.${locale}.ndjson`));
      const index = readFileSync(path.join(dir, DETAILS_INDEX.name(locale)));
      let offset = 0;
      for (let k = 0; k < index.length; k += DETAILS_INDEX.bytesPerRecord) {
        const length = index.readUInt32LE(k);
        const line = bytes.subarray(offset, offset + length);
        assert.equal(line[length - 1], 0x0a, 'each record ends with its newline');
        assert.equal(index.readUInt32LE(k + 4), crc32(line));
        offset += length;
      }
      assert.equal(offset, bytes.length, `details.${locale}.index covers the whole file`);
    }
  });

  it('writes a file whose query is the same in every locale once (the markers), and the others per locale', () => {
    const sql = (file: 'cards' | 'markers' | 'details') => new Set(LOCALES.map((l) => listingLinesSql(file, l)));
    assert.equal(sql('markers').size, 1, 'the markers\' query names no locale');
    assert.equal(sql('cards').size, LOCALES.length);
    assert.equal(sql('details').size, LOCALES.length);
    const dir = path.join(build.distDir, 'current');
    const bytes = (file: string) => readFileSync(path.join(dir, file));
    for (const locale of LOCALES.slice(1)) {
      assert.deepEqual(bytes(`markers.${locale}.ndjson`), bytes(`markers.${LOCALES[0]}.ndjson`));
      assert.notDeepEqual(bytes(`details.${locale}.ndjson`), bytes(`details.${LOCALES[0]}.ndjson`), 'the details carry the locale\'s paths');
    }
  });

  it('writes the bytes every locale\'s card shares once, and each locale\'s own apart, which join into its cards byte for byte', () => {
    const dir = path.join(build.distDir, 'current');
    const lines = (file: string) => readFileSync(path.join(dir, file)).toString('latin1').split('\n').slice(0, -1);
    const parts = lines(CARD_FILES.parts);
    let shared = 0, own = 0;
    for (const locale of LOCALES) {
      const cards = lines(`cards.${locale}.ndjson`), texts = lines(CARD_FILES.texts(locale));
      assert.equal(parts.length, 2 * cards.length);
      assert.deepEqual(cards.map((_, i) => parts[2 * i] + texts[i] + parts[2 * i + 1]), cards, `the parts join into cards.${locale}.ndjson`);
      own += texts.join('').length;
    }
    shared = parts.join('').length;
    assert.ok(shared > own, `the shared bytes (${shared}) outweigh every locale's own (${own})`);
    const manifest = build.json('manifest.json');
    for (const file of [CARD_FILES.parts, ...LOCALES.map(CARD_FILES.texts)]) assert.ok(manifest.files[file], `the manifest lists ${file}`);
  });
});
