import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import * as bits from '../../api/catalog/bitset.ts';
import { haversineTerm, latitudeCosine, metersOfTerm } from '../../contract/geo.ts';
import { ListingTable } from '../../api/catalog/listings.ts';
import { Orders, selectRange } from '../../api/catalog/order.ts';
import { RandomOrder } from '../../api/catalog/random-order.ts';
import { prng, writeBuildFixture } from '../support/build-fixture.ts';

describe('RandomOrder', () => {
  it('is a permutation of 0..n-1 and rankOf inverts at', () => {
    for (const n of [1, 2, 3, 5, 64, 100, 1000, 4097]) {
      for (const seed of [0, 1, 2147483647]) {
        const order = new RandomOrder(n, seed);
        const seen = new Uint8Array(n);
        for (let r = 0; r < n; r++) {
          const i = order.at(r);
          assert.ok(i >= 0 && i < n && !seen[i], `n=${n} seed=${seed} rank ${r}`);
          seen[i] = 1;
          assert.equal(order.rankOf(i), r);
        }
      }
    }
  });

  it('differs between seeds and is the same for the same seed', () => {
    const first = (seed: number) => Array.from({ length: 50 }, (_, r) => new RandomOrder(10_000, seed).at(r));
    assert.deepEqual(first(7), first(7));
    assert.notDeepEqual(first(7), first(8));
  });
});

describe('Orders', () => {
  let listings: ListingTable;
  let orders: Orders;
  before(async () => {
    const f = await writeBuildFixture(undefined, { extra: 5000 });
    listings = new ListingTable(decodeListingColumns(await readFile(join(f.dir, LISTING_COLUMNS_FILE))));
    orders = new Orders(listings);
  });

  /** Random sets from every listing down to a few, so pages are walked (dense) and selected (sparse). */
  function sets() {
    const rnd = prng(3);
    return [1, 0.7, 0.3, 0.1, 0.02, 0.005].map((density) => {
      const members: number[] = [];
      for (let i = 0; i < listings.n; i++) if (density === 1 || rnd() < density) members.push(i);
      const b = bits.fromIndices(listings.n, members);
      // the words outside which the set is empty, as a match gives them
      return { members, set: { bits: b, count: members.length, ...bits.wordsOf(b) } };
    });
  }

  it('pages a random order by rank, whichever way a page is computed', () => {
    for (const seed of [0, 99, 123456789]) {
      const perm = new RandomOrder(listings.n, seed);
      for (const { members, set } of sets()) {
        const expected = [...members].sort((a, b) => perm.rankOf(a) - perm.rankOf(b));
        for (const [offset, limit] of [[0, 20], [20, 20], [40, 50], [Math.max(0, members.length - 30), 50], [Math.floor(members.length / 2), 50]]) {
          const page = Array.from(orders.slice(set, 'random', { seed }, offset, limit));
          assert.deepEqual(page, expected.slice(offset, offset + limit), `seed ${seed}, ${members.length} members, offset ${offset}`);
        }
        const walked: number[] = [];
        for (let offset = 0; offset < members.length; offset += 50) walked.push(...Array.from(orders.slice(set, 'random', { seed }, offset, 50)));
        assert.deepEqual(walked, expected, 'every page in turn: no repeats, no skips');
      }
    }
  });

  it('pages a sorted order like a full sort of the set', () => {
    const { slugs } = listings;
    const { updatedMs } = listings.cols;
    // ties by slug: the listings are in place order, not slug order
    const bySlug = (a: number, b: number) => (slugs[a] < slugs[b] ? -1 : 1);
    const byDate = (a: number, b: number) => {
      const na = Number.isNaN(updatedMs[a]), nb = Number.isNaN(updatedMs[b]);
      if (na || nb) return na === nb ? bySlug(a, b) : na ? 1 : -1;
      return updatedMs[b] - updatedMs[a] || bySlug(a, b);
    };
    for (const { members, set } of sets()) {
      const expected = [...members].sort(byDate);
      for (const [offset, limit] of [[0, 20], [20, 20], [80, 20], [Math.floor(members.length / 2), 50]]) {
        assert.deepEqual(Array.from(orders.slice(set, 'date-desc', { seed: 0 }, offset, limit)), expected.slice(offset, offset + limit));
      }
    }
  });

  it('pages by distance like a full sort by metres, then slug, for wide sets (latitude bands) and narrow ones', () => {
    const { slugs, lat, lng, n } = listings;
    assert.ok(n > 4096, 'the fixture has sets wide enough to be searched in bands');
    const someWithout = Array.from({ length: n }, (_, i) => i).filter((i) => Number.isNaN(lat[i])).length;
    assert.ok(someWithout > 0, 'the fixture has listings without coordinates');
    const located = Array.from({ length: n }, (_, i) => i).find((i) => !Number.isNaN(lat[i]))!;
    // on a listing, beside one, in the ocean, near a pole, across the antimeridian
    const points = [[lat[located], lng[located]], [lat[located] + 0.01, lng[located] - 0.02], [-40, -30], [89.5, 10], [10, 179.99]];
    for (const [pLat, pLng] of points) {
      const metres = (i: number) => (Number.isNaN(lat[i]) ? Infinity : metersOfTerm(haversineTerm(pLat, pLng, latitudeCosine(pLat), lat[i], lng[i], latitudeCosine(lat[i]))));
      for (const { members, set } of sets()) {
        const expected = [...members].sort((a, b) => metres(a) - metres(b) || (slugs[a] < slugs[b] ? -1 : 1));
        for (const [offset, limit] of [[0, 20], [20, 20], [100, 50], [Math.max(0, members.length - 30), 50]]) {
          const page = Array.from(orders.slice(set, 'distance', { seed: 0, lat: pLat, lng: pLng }, offset, limit));
          assert.deepEqual(page, expected.slice(offset, offset + limit), `(${pLat}, ${pLng}), ${members.length} members, offset ${offset}`);
        }
      }
    }
  });

  it('selects the same ranks as a full sort by key, then tie rank, whatever the size of the set', () => {
    let seed = 7;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const n = 5000;
    const tieRank = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) % n);
    for (const size of [1, 10, 63, 64, 65, 200, 1000, 3000]) {
      const idx = Int32Array.from({ length: size }, (_, k) => (k * 7919) % n);
      // few distinct keys (ties), listings without a key (Infinity), negative and fractional keys
      const keys = Float64Array.from({ length: size }, () => (rnd() < 0.1 ? Infinity : Math.floor(rnd() * 40) - 10 + (rnd() < 0.5 ? 0.25 : 0)));
      const sorted = Array.from(idx.keys()).sort((a, b) => (keys[a] === keys[b] ? tieRank[idx[a]] - tieRank[idx[b]] : keys[a] < keys[b] ? -1 : 1)).map((k) => idx[k]);
      for (const [offset, limit] of [[0, 20], [20, 20], [Math.floor(size / 2), 50], [Math.max(0, size - 5), 20], [size, 20]]) {
        assert.deepEqual(selectRange(idx, keys, tieRank, offset, limit), sorted.slice(offset, offset + limit), `size ${size}, offset ${offset}`);
      }
    }
  });

  it('breaks ties by slug: the listings are in place order, not slug order', () => {
    const { slugs, n } = listings;
    const bySlug = Array.from(slugs.keys()).sort((a, b) => (slugs[a] < slugs[b] ? -1 : 1));
    assert.notDeepEqual(bySlug, Array.from(slugs.keys()), 'the fixture is not in slug order');
    const tied = new Float64Array(n);
    assert.deepEqual(bySlug.map((i) => listings.slugRank[i]), Array.from(slugs.keys()));
    for (const [i, slug] of slugs.entries()) assert.equal(listings.indexOf(slug), i);
    assert.equal(listings.indexOf(`${slugs[0]}-x`), undefined);
    assert.equal(listings.indexOf('constructor'), undefined);
    assert.deepEqual(selectRange(Int32Array.from(slugs.keys()), tied, listings.slugRank, 10, 30), bySlug.slice(10, 40));
    const some = Int32Array.from(bySlug.slice(0, 3000).reverse());
    assert.deepEqual(selectRange(some, new Float64Array(some.length), listings.slugRank, 2500, 20), bySlug.slice(2500, 2520));
  });
});
