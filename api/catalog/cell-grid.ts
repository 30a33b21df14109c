/**
 * Listings in cells of a grid of latitude and longitude, for the point and box searches: the
 * listings within a reach of a point, or in a box, lie in a few runs of the cells' order, one or
 * two per row of cells, instead of a band of latitude around the whole globe.
 */
import { firstAtLeast } from './sorted.ts';

/** The side of a cell in degrees, of latitude and of longitude. */
const CELL_DEGREES = 0.25;
const ROWS = 180 / CELL_DEGREES;
const COLUMNS = 360 / CELL_DEGREES;
/** cell × 2³² + listing stays an exact double (a cell is below 2²¹) and sorts by cell, then listing */
const LISTINGS = 2 ** 32;

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
const columnOf = (lng: number) => Math.min(COLUMNS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEGREES)));

export class CellGrid {
  /** the listings by cell (row by row, west to east), then by index */
  readonly order: Int32Array;
  /** the cell of each listing of `order`, ascending */
  private readonly cells: Int32Array;
  /** the runs of `order` the last `around` or `within` found: [starts[k], ends[k]) */
  readonly starts = new Int32Array(2 * ROWS);
  readonly ends = new Int32Array(2 * ROWS);

  /** `located`: the listings with coordinates; lat and lng by listing. */
  constructor(located: ArrayLike<number>, lat: Float64Array, lng: Float64Array) {
    const keys = Float64Array.from(located, (i) => (rowOf(lat[i]) * COLUMNS + columnOf(lng[i])) * LISTINGS + i).sort();
    this.order = Int32Array.from(keys, (key) => key % LISTINGS);
    this.cells = Int32Array.from(keys, (key) => Math.floor(key / LISTINGS));
  }

  /**
   * Finds the runs of `order` holding every listing whose latitude is within dLat of lat and whose
   * longitude is within dLng of lng (across the antimeridian; 180 or more: any longitude), and
   * others of the same cells; returns how many (starts, ends).
   */
  around(lat: number, lng: number, dLat: number, dLng: number): number {
    if (dLng >= 180) return this.within(lat - dLat, lat + dLat, -180, 180);
    const wrap = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x);
    return this.within(lat - dLat, lat + dLat, wrap(lng - dLng), wrap(lng + dLng));
  }

  /**
   * Finds the runs of `order` holding every listing with south ≤ latitude ≤ north and a longitude
   * from west to east (across the antimeridian when west > east), and others of the same cells;
   * returns how many (starts, ends).
   */
  within(south: number, north: number, west: number, east: number): number {
    let found = 0;
    const add = (row: number, from: number, to: number) => {
      const start = firstAtLeast(this.cells, row * COLUMNS + columnOf(from)), end = firstAtLeast(this.cells, row * COLUMNS + columnOf(to) + 1);
      if (start < end) { this.starts[found] = start; this.ends[found++] = end; }
    };
    // a row as one run when the two ends of a reach across the antimeridian share a cell
    const wholeRows = west > east && columnOf(east) >= columnOf(west);
    for (let row = rowOf(south), last = rowOf(north); row <= last; row++) {
      if (wholeRows) add(row, -180, 180);
      else if (west <= east) add(row, west, east);
      else { add(row, west, 180); add(row, -180, east); }
    }
    return found;
  }
}
