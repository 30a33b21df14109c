/** The mean Earth radius of the distances, in metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
export const RAD = Math.PI / 180;

/** The cosine of a latitude in degrees, as haversineTerm takes it. */
export const latitudeCosine = (lat: number) => Math.cos(lat * RAD);

/**
 * The haversine of the central angle between two points, from 0 to 1 (on the sphere of
 * EARTH_RADIUS_M; metersOfTerm makes it a great-circle distance). It grows with their distance, so
 * it orders points by distance without the square root and arcsine of each. The cosines of the
 * latitudes are given (latitudeCosine): a listing's is made once per build, a point's once per request.
 */
export function haversineTerm(lat1: number, lng1: number, cosLat1: number, lat2: number, lng2: number, cosLat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  return Math.sin(dLat / 2) ** 2 + cosLat1 * cosLat2 * Math.sin(dLng / 2) ** 2;
}

/** The great-circle distance in metres of a haversineTerm. */
export const metersOfTerm = (a: number) => 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));

/** The haversineTerm of two points `degrees` of arc apart: a point farther than that has a larger term. */
export const haversineTermOfArc = (degrees: number) => Math.sin((degrees * RAD) / 2) ** 2;

export const METERS_PER_DEGREE_LAT = EARTH_RADIUS_M * RAD;

/**
 * How far in longitude (degrees) a point within `radius` metres of a point at `lat` can lie:
 * asin(sin r / cos lat) on the sphere haversineTerm assumes; 180 when the circle reaches a pole.
 */
export function longitudeReach(lat: number, radius: number): number {
  const r = radius / EARTH_RADIUS_M;
  if (r >= Math.PI / 2 - Math.abs(lat * RAD)) return 180;
  return Math.asin(Math.sin(r) / Math.cos(lat * RAD)) / RAD;
}

/** The difference of two longitudes in degrees, across the antimeridian when shorter (0 to 180). */
export function longitudeGap(a: number, b: number): number {
  const d = Math.abs(a - b);
  return d > 180 ? 360 - d : d;
}

/** A bijective 32-bit mixer (murmur3 finalizer). */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}
