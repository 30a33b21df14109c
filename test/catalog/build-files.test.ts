/**
 * The build files made for loading without parsing (build format 7): listing-columns.bin with its
 * sort orders, the line indexes of the NDJSON files held in memory, the keyed lead routing. A
 * damaged one refuses the build at load, naming the file and what is wrong.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BuildLoadError, loadBuild } from '../../api/loading/load.ts';
import { ndjsonLines } from '../../api/loading/ndjson.ts';
import { encodeLineIndex, LINE_INDEX_FILE, lineIndexOf, type LineIndex } from '../../contract/line-index.ts';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import * as bits from '../../api/catalog/bitset.ts';
import { ListingTable } from '../../api/catalog/listings.ts';
import { Orders } from '../../api/catalog/order.ts';
import { removeDir, writeBuildFixture, type FixtureOptions } from '../support/build-fixture.ts';
import { SITE } from '../support/app.ts';

const dirs: string[] = [];
after(async () => { for (const d of dirs) await removeDir(d); });

/** Bytes in memory of their own, as a load worker reads a file. */
const ownCopy = (bytes: Buffer) => {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
};
const refused = (pattern: RegExp) => (e: Error) => e instanceof BuildLoadError && pattern.test(e.message);

describe('build files made for loading', () => {
  it('rejects a damaged listing-columns.bin, naming the file and what is wrong', async () => {
    const refusedWith = async (opts: FixtureOptions, message: RegExp) => {
      const f = await writeBuildFixture(undefined, opts);
      dirs.push(f.dir);
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(message));
    };
    await refusedWith({ columns: (c) => { c.fromPrice.amount.pop(); } }, /listing-columns\.bin: fromPrice\.amount has 25 entries for 26 listings/);
    await refusedWith({ columns: (c) => { c.city[4] = c.dict.city.length; } }, /listing-columns\.bin: city\[4\] is \d+, out of range/);
    await refusedWith({ columns: (c) => { c.operator[2] = -2; } }, /listing-columns\.bin: operator\[2\] is -2, out of range/);
    // a slug is looked up in the slug order: it must sort them, each once
    const bySlug = (slugs: string[]) => (a: number, b: number) => (slugs[a] < slugs[b] ? -1 : slugs[a] > slugs[b] ? 1 : a - b);
    await refusedWith({ columns: (c, o) => { c.slugs[5] = c.slugs[9]; o.slug.sort(bySlug(c.slugs)); } }, /listing-columns\.bin: slug [a-z0-9-]+ used twice/);
    await refusedWith({ columns: (_c, o) => { [o.slug[3], o.slug[4]] = [o.slug[4], o.slug[3]]; } }, /listing-columns\.bin: order\.slug does not sort [a-z0-9-]+/);
    // the geographic filters search the latitude order: those with coordinates first, by latitude
    await refusedWith({ columns: (_c, o) => { [o.lat[0], o.lat[1]] = [o.lat[1], o.lat[0]]; } }, /listing-columns\.bin: order\.lat does not sort [a-z0-9-]+ by latitude/);
    await refusedWith({ columns: (c, o) => { c.lng[o.lat[0]] = null; } }, /listing-columns\.bin: order\.lat does not sort [a-z0-9-]+ by latitude/);
    await refusedWith({ columns: (_c, o) => { o['price-desc.day_pass'][7] = o['price-desc.day_pass'][3]; } }, /listing-columns\.bin: order\.price-desc\.day_pass is not an order of the listings \(entry 7/);
    await refusedWith({ columns: (_c, o) => { o['date-asc'].pop(); } }, /listing-columns\.bin: order\.date-asc has 25 entries for 26 listings/);
    await refusedWith({ columns: (c) => { c.amenities[Object.keys(c.amenities)[0]].reverse(); } }, /listing-columns\.bin: amenities\.[a-z0-9_-]+ is not a list of ascending listing indices/);
    await refusedWith({ mutateBinary: (files) => files.set(LISTING_COLUMNS_FILE, files.get(LISTING_COLUMNS_FILE)!.subarray(0, -100)) }, /listing-columns\.bin: section [a-z._-]+ \(\d+ bytes at \d+\) lies outside the file's \d+ bytes/);
    await refusedWith({ mutateBinary: (files) => files.set(LISTING_COLUMNS_FILE, Buffer.from('not columns')) }, /listing-columns\.bin: not a listing columns file/);
    // the dictionaries' entries are the pipeline's to check; that each is a list is the loader's
    await refusedWith({ columns: (c) => { (c.dict as Record<string, unknown>).city = 'Berlin'; } }, /listing-columns\.bin: the header is invalid: dict\.city: /);
  });

  it('refuses a section the build derived for the engine when it is short, absent or wrong, naming the file', async () => {
    /** listing-columns.bin with its header's section `name` changed (the header padded to its length: JSON allows trailing blanks) */
    const withSection = (name: string, change: (sections: Record<string, { length: number } | undefined>) => void): FixtureOptions => ({
      mutateBinary: (files) => {
        const bytes = Buffer.from(files.get(LISTING_COLUMNS_FILE)!);
        const length = bytes.readUInt32LE(4);
        const header = JSON.parse(bytes.toString('utf8', 8, 8 + length)) as { sections: Record<string, { length: number } | undefined> };
        assert.ok(header.sections[name], `the file has a section ${name}`);
        change(header.sections);
        const text = Buffer.from(JSON.stringify(header));
        assert.ok(text.length <= length);
        bytes.fill(0x20, 8, 8 + length);
        text.copy(bytes, 8);
        files.set(LISTING_COLUMNS_FILE, bytes);
      },
    });
    for (const [opts, message] of [
      [withSection('rank.date-desc', (s) => { s['rank.date-desc']!.length -= 1; }), /listing-columns\.bin: rank\.date-desc has 25 entries, expected 26/],
      [withSection('slugSlots', (s) => { s.slugSlots!.length /= 2; }), /listing-columns\.bin: slugSlots has \d+ entries, expected \d+/],
      [withSection('cells.order', (s) => { s['cells.order']!.length -= 1; }), /listing-columns\.bin: cells\.order has \d+ entries, expected \d+/],
      [withSection('hasCoords', (s) => { delete s.hasCoords; }), /listing-columns\.bin: no section hasCoords/],
    ] as const) {
      const f = await writeBuildFixture(undefined, opts);
      dirs.push(f.dir);
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(message));
    }
  });

  it('views the slug table, ranks, cosines and cell grid in the bytes of listing-columns.bin, no copy made at load', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    // as a load worker reads it: a buffer of its own, so every section is aligned
    const bytes = ownCopy(await readFile(join(f.dir, LISTING_COLUMNS_FILE)));
    const listings = new ListingTable(decodeListingColumns(bytes, { checked: true }));
    const orders = new Orders(listings);
    for (const [name, a] of Object.entries({ slugRank: listings.slugRank, lat: listings.lat, latSorted: listings.latSorted, hasCoords: listings.hasCoords, cells: listings.cols.cells.order, ranks: listings.cols.ranks['price-asc'] })) {
      assert.equal(a.buffer, bytes.buffer, `${name} is a view of the file's bytes`);
    }
    // and they answer as the columns do: each slug found, the sorted pages ranked by the build's orders
    for (const [i, slug] of listings.slugs.entries()) assert.equal(listings.indexOf(slug), i);
    const every = { bits: listings.all, count: listings.n, lo: 0, hi: listings.all.length };
    const half = bits.fromIndices(listings.n, Array.from({ length: listings.n }, (_, i) => i).filter((i) => i % 2 === 0));
    const halfSet = { bits: half, count: bits.count(half), lo: 0, hi: half.length };
    const byDate = [...listings.cols.orders['date-desc']];
    assert.deepEqual(Array.from(orders.slice(every, 'date-desc', { seed: 1 }, 0, 5)), byDate.slice(0, 5));
    assert.deepEqual(Array.from(orders.slice(halfSet, 'date-desc', { seed: 1 }, 0, 3)), byDate.filter((i) => i % 2 === 0).slice(0, 3));
  });

  it('rejects a line index that does not fit its NDJSON file', async () => {
    const shifted = (file: string, shift: (index: LineIndex) => void): FixtureOptions => ({
      mutateBinary: (binary, files) => {
        const index = lineIndexOf(binary.get(file) ?? Buffer.from(files.get(file)!));
        shift(index);
        binary.set(LINE_INDEX_FILE(file), encodeLineIndex(index));
      },
    });
    for (const [opts, message] of [
      [shifted('card-parts.ndjson', (x) => { x.starts[3] += 1; }), /card-parts\.ndjson: its line index does not fit it: line 3 does not end with a newline/],
      [shifted('card-parts.ndjson', (x) => { x.sitePaths[1] += 1; }), /card-parts\.ndjson: its line index does not fit it: site path 1 \(at byte \d+\) is not one/],
      [shifted('card-texts.es.ndjson', (x) => { x.starts[5] -= 1; }), /card-texts\.es\.ndjson: its line index does not fit it: line 5 does not end with a newline/],
      [shifted('markers.de.ndjson', (x) => { x.sitePaths[2] += 1; }), /markers\.de\.ndjson: its line index does not fit it: site path 2 \(at byte \d+\) is not one/],
    ] as const) {
      const f = await writeBuildFixture(undefined, opts);
      dirs.push(f.dir);
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(message));
    }
  });

  it('reads a line index in place, each line\'s first site path beside it, and refuses site paths out of order', () => {
    const lines = ['{"url":"/a","images":[{"url":"/b"}]}', 'null', '{"webUrl":"/c"}'].map((l) => `${l}\n`).join('');
    const bytes = Buffer.from(lines);
    // as a load worker reads it: a buffer of its own, so the float64s are aligned
    const index = ownCopy(encodeLineIndex(lineIndexOf(bytes)));
    const decoded = ndjsonLines(bytes, index, 'markers.en.ndjson', 'objectOrNull');
    assert.equal(decoded.starts.buffer, index.buffer, 'the starts are a view of the index file\'s bytes, not a copy');
    assert.equal(decoded.sitePaths.buffer, index.buffer);
    assert.deepEqual([...decoded.firstSitePath], [0, 2, 2, 3]);
    const swapped = lineIndexOf(bytes);
    [swapped.sitePaths[0], swapped.sitePaths[1]] = [swapped.sitePaths[1], swapped.sitePaths[0]];
    assert.throws(() => ndjsonLines(bytes, ownCopy(encodeLineIndex(swapped)), 'markers.en.ndjson', 'objectOrNull'), /markers\.en\.ndjson: its line index does not fit it: site path 1 \(at byte \d+\) is not one/);
  });

  it('rejects a marker that disagrees with its listing\'s coordinates', async () => {
    let slug = '';
    const f = await writeBuildFixture(undefined, {
      mutate: (files) => {
        const lines = files.get('markers.en.ndjson')!.split('\n');
        const k = lines.findIndex((line) => line !== 'null' && line !== '');
        slug = (JSON.parse(lines[k]) as { slug: string }).slug;
        lines[k] = 'null';
        files.set('markers.en.ndjson', lines.join('\n'));
      },
    });
    dirs.push(f.dir);
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(new RegExp(`markers\\.en\\.ndjson: the marker of ${slug} disagrees with its coordinates in listing-columns\\.bin`)));
  });

  it('rejects facet labels whose label order does not list every labelled value once', async () => {
    const reordered = (change: (order: string[]) => void): FixtureOptions => ({
      mutate: (files) => {
        const labels = JSON.parse(files.get('facet-labels.json')!) as { order: Record<string, Record<string, string[]>> };
        change(labels.order.city.de);
        files.set('facet-labels.json', `${JSON.stringify(labels)}\n`);
      },
    });
    for (const [opts, message] of [
      [reordered((o) => { o[1] = o[0]; }), /facet-labels\.json: order\.city\.de: [a-z0-9-]+ is listed twice/],
      [reordered((o) => { o.pop(); }), /facet-labels\.json: order\.city\.de: 1 labelled values are not listed/],
      [reordered((o) => { o.push('atlantis'); }), /facet-labels\.json: order\.city\.de: atlantis has no label/],
    ] as const) {
      const f = await writeBuildFixture(undefined, opts);
      dirs.push(f.dir);
      await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(message));
    }
  });

  it('rejects a keyed file whose keys are not in ascending order (a key is found by a binary search)', async () => {
    const f = await writeBuildFixture(undefined, {
      mutate: (files) => {
        const keys = JSON.parse(files.get('lead-routing.keys.json')!) as string[];
        [keys[0], keys[1]] = [keys[1], keys[0]];
        files.set('lead-routing.keys.json', `${JSON.stringify(keys)}\n`);
      },
    });
    dirs.push(f.dir);
    await assert.rejects(loadBuild(f.dir, { siteUrl: SITE }), refused(/the keys of lead-routing\.ndjson are not in ascending order/));
  });

  it('routes a lead from the keyed lead routing exactly as the map the pipeline validated', async () => {
    const f = await writeBuildFixture();
    dirs.push(f.dir);
    const build = await loadBuild(f.dir, { siteUrl: SITE });
    try {
      assert.ok(f.listings.length > 20);
      for (const [slug, route] of Object.entries(f.routing)) {
        assert.ok(build.leadRouting.has(slug));
        assert.deepEqual(await build.leadRouting.get(slug), route, slug);
      }
      assert.equal(build.leadRouting.has('no-such-space'), false);
      assert.equal(await build.leadRouting.get('no-such-space'), undefined);
    } finally {
      await build.close();
    }
  });
});
