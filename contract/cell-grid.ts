/**
 * The cells of the grid the API's point and box searches visit (api/catalog/cell-grid.ts): cells of
 * CELL_DEGREES of latitude and longitude, numbered row by row from the south, west to east. The
 * pipeline sorts the listings by cell (listing-columns.bin's `cells.*` sections); the API finds
 * runs of cells in that order.
 */

/** The side of a cell in degrees, of latitude and of longitude. */
const CELL_DEGREES = 0.25;
export const ROWS = 180 / CELL_DEGREES;
export const COLUMNS = 360 / CELL_DEGREES;
/** cell × 2³² + listing stays an exact double (a cell is below 2²¹) and sorts by cell, then listing */
const LISTINGS = 2 ** 32;

export const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
export const columnOf = (lng: number) => Math.min(COLUMNS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEGREES)));

/** `located` (listings with coordinates) by cell, then by index (`order`), and the cell of each, ascending (`cells`). */
export function cellsOf(located: ArrayLike<number>, lat: ArrayLike<number>, lng: ArrayLike<number>): { order: Int32Array; cells: Int32Array } {
  const keys = Float64Array.from(located, (i) => (rowOf(lat[i]) * COLUMNS + columnOf(lng[i])) * LISTINGS + i).sort();
  return { order: Int32Array.from(keys, (key) => key % LISTINGS), cells: Int32Array.from(keys, (key) => Math.floor(key / LISTINGS)) };
}
