/**
 * The grid of the point and box searches: the runs it finds for a point and a reach, or a box, hold
 * every listing within that reach in latitude and in longitude, or in the box (across the
 * antimeridian, up to the poles), each once, and for a city-sized reach only a small part of the
 * listings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellGrid } from '../../api/catalog/cell-grid.ts';
import { cellsOf } from '../../contract/cell-grid.ts';
import { longitudeGap } from '../../contract/geo.ts';
import { prng } from '../support/build-fixture.ts';

describe("CellGrid", () => {
  const rnd = prng(5);
  const n = 20_000;
  // clustered like cities, and spread over every latitude and longitude, the edges included
  const centres = Array.from({ length: 40 }, () => [rnd() * 180 - 90, rnd() * 360 - 180]);
  const edges = [[90, 0], [-90, 45], [0, 180], [0, -180], [89.9, 179.9], [-89.9, -179.9], [12.5, 180], [12.5, -179.999], [12.5, 0.1], [12.55, 0.2]];
  const lat = new Float64Array(n), lng = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i < edges.length) [lat[i], lng[i]] = edges[i];
    else if (i % 3 === 0) { lat[i] = rnd() * 180 - 90; lng[i] = rnd() * 360 - 180; }
    else {
      const [a, b] = centres[i % centres.length];
      lat[i] = Math.max(-90, Math.min(90, a + (rnd() - 0.5) * 0.6));
      lng[i] = ((b + (rnd() - 0.5) * 0.8 + 540) % 360) - 180;
    }
  }
  // every listing has coordinates but the last few
  const located = Array.from({ length: n - 5 }, (_, i) => i);
  const grid = new CellGrid(cellsOf(located, lat, lng));

  const visited = (p: { lat: number; lng: number; dLat: number; dLng: number }) => {
    const out: number[] = [];
    for (let r = 0, runs = grid.around(p.lat, p.lng, p.dLat, p.dLng); r < runs; r++) {
      for (let k = grid.starts[r]; k < grid.ends[r]; k++) out.push(grid.order[k]);
    }
    return out;
  };

  it('holds every listing within the reach, each once', () => {
    const points = [
      ...Array.from({ length: 300 }, () => ({ lat: rnd() * 180 - 90, lng: rnd() * 360 - 180, dLat: rnd() * 2, dLng: rnd() * 3 })),
      ...Array.from({ length: 100 }, () => ({ lat: rnd() * 180 - 90, lng: rnd() * 360 - 180, dLat: rnd() * 0.3, dLng: 120 + rnd() * 70 })),
      { lat: 0, lng: 179.99, dLat: 1, dLng: 0.5 }, { lat: 0, lng: -179.99, dLat: 1, dLng: 0.5 },
      { lat: 89.95, lng: 10, dLat: 0.2, dLng: 180 }, { lat: -89.95, lng: 10, dLat: 0.2, dLng: 180 },
      { lat: 12.5, lng: -179.9, dLat: 0.1, dLng: 179.95 }, { lat: 12.5, lng: 179.9, dLat: 0.1, dLng: 179.8 },
    ];
    let inReach = 0;
    for (const p of points) {
      const seen = visited(p);
      assert.equal(new Set(seen).size, seen.length, `a listing twice for ${JSON.stringify(p)}`);
      const found = new Set(seen);
      for (const i of located) {
        if (Math.abs(lat[i] - p.lat) <= p.dLat && longitudeGap(lng[i], p.lng) <= p.dLng) {
          inReach++;
          assert.ok(found.has(i), `listing ${i} (${lat[i]}, ${lng[i]}) missing for ${JSON.stringify(p)}`);
        }
      }
      for (const i of seen) assert.ok(i < n - 5, 'only listings with coordinates');
    }
    assert.ok(inReach > 2_000, `listings in reach: ${inReach}`);
  });

  it('holds every listing in a box, across the antimeridian too, each once', () => {
    const boxes = [
      ...Array.from({ length: 300 }, () => {
        const south = rnd() * 180 - 90, west = rnd() * 360 - 180;
        return { south, north: Math.min(90, south + rnd() * 8), west, east: ((west + rnd() * 12 + 540) % 360) - 180 };
      }),
      { south: -90, north: 90, west: 179.9, east: -179.9 }, { south: 12, north: 13, west: 0.15, east: 0.05 },
      { south: 89, north: 90, west: -180, east: 180 }, { south: 12.5, north: 12.5, west: 0.1, east: 0.1 },
    ];
    let inBox = 0;
    for (const box of boxes) {
      const seen: number[] = [];
      for (let r = 0, runs = grid.within(box.south, box.north, box.west, box.east); r < runs; r++) {
        for (let k = grid.starts[r]; k < grid.ends[r]; k++) seen.push(grid.order[k]);
      }
      assert.equal(new Set(seen).size, seen.length, `a listing twice for ${JSON.stringify(box)}`);
      const found = new Set(seen);
      const across = box.west > box.east;
      for (const i of located) {
        const inLng = across ? lng[i] >= box.west || lng[i] <= box.east : lng[i] >= box.west && lng[i] <= box.east;
        if (lat[i] >= box.south && lat[i] <= box.north && inLng) {
          inBox++;
          assert.ok(found.has(i), `listing ${i} (${lat[i]}, ${lng[i]}) missing for ${JSON.stringify(box)}`);
        }
      }
    }
    assert.ok(inBox > 2_000, `listings in boxes: ${inBox}`);
  });

  it('visits a small part of the listings for a reach of some kilometres', () => {
    for (const [a, b] of centres.slice(0, 10)) {
      const seen = visited({ lat: a, lng: b, dLat: 0.1, dLng: 0.15 });
      assert.ok(seen.length < n / 20, `${seen.length} visited around (${a}, ${b})`);
    }
  });
});
