import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import * as bits from '../../api/catalog/bitset.ts';
import { ListingTable } from '../../api/catalog/listings.ts';
import { prng, writeBuildFixture } from '../support/build-fixture.ts';

describe('ListingTable.keepNear', () => {
  let listings: ListingTable;
  before(async () => {
    const f = await writeBuildFixture(undefined, { extra: 3000 });
    listings = new ListingTable(decodeListingColumns(await readFile(join(f.dir, LISTING_COLUMNS_FILE))));
  });

  it('keeps exactly the members whose distance, as cards show it, is at most the radius: on the circle, just inside and just outside it', () => {
    const rnd = prng(11);
    const located = Array.from({ length: listings.n }, (_, i) => i).filter((i) => !Number.isNaN(listings.lat[i]));
    const cases: { lat: number; lng: number; radius: number }[] = [];
    for (let k = 0; k < 300; k++) {
      const a = located[Math.floor(rnd() * located.length)], b = located[Math.floor(rnd() * located.length)];
      const lat = listings.lat[a], lng = listings.lng[a];
      // a listing exactly on the circle, and the radius a hair either side of it
      const d = listings.distance(b, lat, lng)!;
      for (const radius of [d, d * (1 - 1e-12), d * (1 + 1e-12), d * (1 - 1e-9), d * (1 + 1e-9), d * (1 - 1e-6), 1 + rnd() * 20_000]) {
        if (radius > 0 && radius <= 200_000) cases.push({ lat, lng, radius });
      }
    }
    // near the poles and across the antimeridian, wide circles
    for (const [lat, lng] of [[89.99, 0], [-89.9, 120], [0, 179.999], [51.5, -179.99], [40.7, -74]]) cases.push({ lat, lng, radius: 200_000 });
    let kept = 0, straddled = 0;
    for (const { lat, lng, radius } of cases) {
      const density = [1, 0.5, 0.05][Math.floor(rnd() * 3)];
      const members = Array.from({ length: listings.n }, (_, i) => i).filter(() => density === 1 || rnd() < density);
      const b = bits.fromIndices(listings.n, members);
      const expected = members.filter((i) => (listings.distance(i, lat, lng) ?? Infinity) <= radius);
      listings.keepNear(b, lat, lng, radius);
      assert.deepEqual(Array.from(bits.toIndices(b)), expected, `(${lat}, ${lng}) r=${radius}`);
      kept += expected.length;
      if (expected.length > 0 && members.some((i) => { const m = listings.distance(i, lat, lng); return m !== undefined && m > radius && m < radius * (1 + 1e-6); })) straddled++;
    }
    assert.ok(kept > 1000, `listings kept: ${kept}`);
    assert.ok(straddled > 10, `circles with a member just outside: ${straddled}`);
  });

  it('keeps exactly the members in a box (keepInBox), across the antimeridian and on its edges', () => {
    const rnd = prng(12);
    const located = Array.from({ length: listings.n }, (_, i) => i).filter((i) => !Number.isNaN(listings.lat[i]));
    let kept = 0;
    for (let k = 0; k < 300; k++) {
      // a box with listings on its edges: two listings' coordinates as its corners
      const a = located[Math.floor(rnd() * located.length)], c = located[Math.floor(rnd() * located.length)];
      const [south, north] = [listings.lat[a], listings.lat[c]].sort((x, y) => x - y);
      const box = k % 3 === 0 ? { south: -90, north: 90, west: listings.lng[a], east: listings.lng[c] } : { south, north, west: listings.lng[a], east: listings.lng[c] };
      const members = Array.from({ length: listings.n }, (_, i) => i).filter(() => k % 2 === 0 || rnd() < 0.3);
      const b = bits.fromIndices(listings.n, members);
      const across = box.west > box.east;
      const expected = members.filter((i) => {
        const lat = listings.lat[i], lng = listings.lng[i];
        return lat >= box.south && lat <= box.north && (across ? lng >= box.west || lng <= box.east : lng >= box.west && lng <= box.east);
      });
      listings.keepInBox(b, box);
      assert.deepEqual(Array.from(bits.toIndices(b)), expected, JSON.stringify(box));
      kept += expected.length;
    }
    assert.ok(kept > 1000, `listings kept: ${kept}`);
  });
});
