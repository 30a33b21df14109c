import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EARTH_RADIUS_M, haversineTerm, latitudeCosine, longitudeGap, longitudeReach, metersOfTerm } from '../../contract/geo.ts';

const haversineMeters = (lat1: number, lng1: number, cos1: number, lat2: number, lng2: number, cos2: number) => metersOfTerm(haversineTerm(lat1, lng1, cos1, lat2, lng2, cos2));

const RAD = Math.PI / 180;

/** The point `distance` metres from (lat, lng) on the initial bearing `bearing` (degrees), on the same sphere. */
function destination(lat: number, lng: number, bearing: number, distance: number): { lat: number; lng: number } {
  const d = distance / EARTH_RADIUS_M, t = bearing * RAD, p1 = lat * RAD;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(t));
  const l2 = lng * RAD + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / RAD, lng: ((l2 / RAD + 540) % 360) - 180 };
}

describe('longitudeReach', () => {
  it('bounds the longitude of every point on a circle, tightly (across the antimeridian too)', () => {
    for (const lat of [0, 45, -60, 70, 84.5]) {
      for (const lng of [0, 179.99, -179.5]) {
        for (const radius of [500, 20_000, 500_000]) {
          const reach = longitudeReach(lat, radius);
          assert.ok(reach < 180, `${lat} ${radius}`);
          let widest = 0;
          for (let bearing = 0; bearing < 360; bearing += 0.05) {
            const p = destination(lat, lng, bearing, radius);
            assert.ok(Math.abs(haversineMeters(lat, lng, latitudeCosine(lat), p.lat, p.lng, latitudeCosine(p.lat)) - radius) < 1e-3 * Math.max(1, radius / 1000));
            const gap = longitudeGap(p.lng, lng);
            assert.ok(gap <= reach + 1e-9, `(${lat}, ${lng}) r=${radius} bearing ${bearing}: ${gap} > ${reach}`);
            widest = Math.max(widest, gap);
          }
          assert.ok(reach - widest < 1e-4 * reach + 1e-9, `(${lat}, ${lng}) r=${radius}: reach ${reach}, widest ${widest}`);
        }
      }
    }
  });

  it('is every longitude when the circle reaches a pole', () => {
    assert.equal(longitudeReach(89.9, 20_000), 180);
    assert.equal(longitudeReach(-89.99, 2_000), 180);
    assert.ok(longitudeReach(89.9, 5_000) < 180);
  });

  it('measures longitude gaps the short way round', () => {
    assert.equal(longitudeGap(179, -179), 2);
    assert.equal(longitudeGap(-10, 20), 30);
    assert.equal(longitudeGap(0, 180), 180);
  });
});

describe('haversineTerm', () => {
  it('orders points by their distance from a point, as haversineMeters does', () => {
    const at = (lat: number, lng: number) => ({ lat, lng, cos: latitudeCosine(lat) });
    for (const o of [at(52.52, 13.4), at(-33.9, 151.2), at(0, 179.9), at(78, -15)]) {
      // distances from metres to half the globe, in one direction and many
      const points = [1, 10, 400, 3_000, 25_000, 800_000, 9_000_000, 19_000_000].flatMap((d) => [0, 77, 181, 300].map((b) => destination(o.lat, o.lng, b, d)));
      const meters = points.map((p) => haversineMeters(o.lat, o.lng, o.cos, p.lat, p.lng, latitudeCosine(p.lat)));
      const terms = points.map((p) => haversineTerm(o.lat, o.lng, o.cos, p.lat, p.lng, latitudeCosine(p.lat)));
      for (let a = 0; a < points.length; a++) {
        for (let b = 0; b < points.length; b++) {
          if (Math.abs(meters[a] - meters[b]) > 1e-6) assert.equal(Math.sign(terms[a] - terms[b]), Math.sign(meters[a] - meters[b]), `${meters[a]} m against ${meters[b]} m`);
        }
      }
    }
  });
});
