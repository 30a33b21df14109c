/**
 * Listings in cells of a grid of latitude and longitude, for the point and box searches: the
 * listings within a reach of a point, or in a box, lie in a few runs of the cells' order, one or
 * two per row of cells, instead of a band of latitude around the whole globe.
 */
import { COLUMNS, columnOf, ROWS, rowOf } from '../../contract/cell-grid.ts';
import { firstAtLeast } from './sorted.ts';

export class CellGrid {
  /** the listings by cell (row by row, west to east), then by index */
  readonly order: Int32Array;
  /** the cell of each listing of `order`, ascending */
  private readonly cells: Int32Array;
  /** the runs of `order` the last `around` or `within` found: [starts[k], ends[k]) */
  readonly starts = new Int32Array(2 * ROWS);
  readonly ends = new Int32Array(2 * ROWS);

  /** the listings with coordinates by cell and their cells (contract/cell-grid.ts cellsOf) */
  constructor({ order, cells }: { order: Int32Array; cells: Int32Array }) {
    this.order = order;
    this.cells = cells;
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
