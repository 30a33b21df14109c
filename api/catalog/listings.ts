/**
 * The listings of one build as typed columns: what the filters, orders, facets and the rendering
 * of cards read. The loader has checked the columns' structure (lengths, indices in range, orders
 * that are permutations, the slug and latitude orders sorted: decodeListingColumns,
 * contract/listing-columns.ts); the build made the slug table, ranks, cosines and cell grid, which
 * are taken as they are.
 */
import type { ListingColumnsData } from '../../contract/listing-columns.ts';
import type { OptionType } from '../../contract/common.ts';
import { AmountIndex } from './amounts.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { CellGrid } from './cell-grid.ts';
import { fnv1a } from '../../contract/fnv1a.ts';
import { haversineTerm, haversineTermOfArc, latitudeCosine, longitudeGap, longitudeReach, METERS_PER_DEGREE_LAT, metersOfTerm, RAD } from '../../contract/geo.ts';
import { PRODUCTS, priceTables, type PriceTables, type Product, type ProductTable } from './price-tables.ts';

/**
 * One product's price facts (overall or of one option type) of every listing: the fromPrice the
 * card shows (amount NaN and currency 0 when none), its market position, the comparable price the
 * price orders sort by, and that price on the product's own basis that the price filter and
 * summary read (contract/prices.ts).
 */
export interface PriceColumn extends Omit<ProductTable, 'onBasisIndex'> {
  amount: Float64Array;
  /** the comparable amount in the listing's currency (ProductTable.comparableCurrency says whether the listing has one) */
  comparableAmount: Float64Array;
  /** index into ListingTable.marketJson, -1 when the listing has no market position */
  marketPosition: Int32Array;
}

export class ListingTable {
  readonly n: number;
  readonly slugs: string[];
  /** the listings are in place order (contract/build.ts); ties of every order break by slug: a listing's place among the slugs, and the listing at each place */
  readonly slugRank: Int32Array;
  /**
   * Each listing by its slug (a detail's lookup): open addressing over the slugs' hashes, a slot
   * holding a listing's index + 1 (0: empty), at most half full. A fraction of a Map's memory, and
   * a lookup as quick; a binary search of the slugs compares ~17 strings spread over memory.
   */
  private readonly slugSlots: Int32Array;
  /** every listing */
  readonly all: Bitset;
  /** each listing's capacity, NaN when it has none (or one below 1) */
  readonly capacity: Float64Array;
  /** the listings with a capacity (at least 1), by capacity */
  readonly byCapacity: AmountIndex;
  /** NaN when the listing has no coordinates */
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /** the cosine of each latitude (geo.ts latitudeCosine), made once per build for the distances */
  private readonly cosLat: Float64Array;
  readonly hasCoords: Bitset;
  /** the listings with coordinates by latitude, and their latitudes */
  readonly latOrder: Int32Array;
  readonly latSorted: Float64Array;
  /** the listings with coordinates by cell, which keepNear and keepInBox visit */
  private readonly cells: CellGrid;
  /** the listings keepNear and keepInBox keep, reused by every call */
  private readonly near: Int32Array;
  /** each market position as the card's `,"marketPosition":{…}`, UTF-8 */
  readonly marketJson: Buffer[];
  private readonly prices = new Map<Product, PriceColumn>();
  private readonly onBasisIndexes = new Map<Product, AmountIndex>();

  /** tables: made from cols here, unless a load worker made them (price-tables.ts) */
  constructor(readonly cols: ListingColumnsData, tables: PriceTables = priceTables(cols)) {
    const n = this.n = cols.slugs.length;
    this.slugs = cols.slugs;
    this.slugRank = cols.ranks.slug;
    this.slugSlots = cols.slugSlots;
    this.all = bits.full(n);
    this.marketJson = cols.dict.marketPositions.map((m) => Buffer.from(`,"marketPosition":${JSON.stringify(m)}`));
    const none = new Float64Array(n).fill(Number.NaN);
    const noPrice = { amount: none, comparableAmount: none, marketPosition: new Int32Array(n).fill(-1) };
    for (const product of PRODUCTS) {
      const c = product === 'all' ? cols.fromPrice : cols.fromPriceByType[product];
      const { onBasisIndex, ...derived } = tables.products[product];
      this.prices.set(product, { ...(c ? { amount: c.amount, comparableAmount: c.comparableAmount, marketPosition: c.marketPosition } : noPrice), ...derived });
      this.onBasisIndexes.set(product, new AmountIndex(onBasisIndex));
    }
    this.capacity = tables.capacities;
    this.byCapacity = new AmountIndex(tables.capacity);
    this.lat = cols.lat;
    this.lng = cols.lng;
    this.cosLat = cols.cosLat;
    this.hasCoords = cols.hasCoords;
    // the pipeline's latitude order: those with coordinates first, ascending
    this.latSorted = cols.latSorted;
    this.latOrder = cols.orders.lat.subarray(0, this.latSorted.length);
    this.near = new Int32Array(this.latSorted.length);
    this.cells = new CellGrid(cols.cells);
  }

  /** The listing with this slug, or undefined. */
  indexOf(slug: string): number | undefined {
    const { slugSlots: slots, slugs } = this;
    const mask = slots.length - 1;
    for (let h = fnv1a(slug) & mask; slots[h] !== 0; h = (h + 1) & mask) {
      if (slugs[slots[h] - 1] === slug) return slots[h] - 1;
    }
    return undefined;
  }

  /** The price facts of the option type, or overall: the fromPrice cards show, the comparable price filters and orders read. */
  price(type: OptionType | undefined): PriceColumn {
    return this.prices.get(type ?? 'all')!;
  }

  /** The listings by their price on the product's own basis (PriceColumn.onBasis), of the option type or overall. */
  onBasisIndex(type: OptionType | undefined): AmountIndex {
    return this.onBasisIndexes.get(type ?? 'all')!;
  }

  /** The distance in metres of listing i from a point, undefined when the listing has no coordinates. */
  distance(i: number, lat: number, lng: number): number | undefined {
    const a = this.nearnessFrom(lat, lng)(i);
    return a === Infinity ? undefined : metersOfTerm(a);
  }

  /** Keys that order listings as their distances from a point do (haversineTerm); Infinity for a listing without coordinates. */
  nearnessFrom(lat: number, lng: number): (i: number) => number {
    const cos = latitudeCosine(lat);
    return (i) => (Number.isNaN(this.lat[i]) ? Infinity : haversineTerm(lat, lng, cos, this.lat[i], this.lng[i], this.cosLat[i]));
  }

  /** Positions [start, end) in latOrder of the listings with lo ≤ latitude ≤ hi. */
  latRange(lo: number, hi: number): [number, number] {
    const a = this.latSorted;
    let l = 0, r = a.length;
    while (l < r) { const m = (l + r) >>> 1; if (a[m] < lo) l = m + 1; else r = m; }
    const start = l;
    r = a.length;
    while (l < r) { const m = (l + r) >>> 1; if (a[m] <= hi) l = m + 1; else r = m; }
    return [start, l];
  }

  /**
   * Narrows b to its listings within `radius` metres of a point, b being empty outside the words
   * [lo, hi): only the cells of the grid within reach are visited, and a listing out of reach in
   * longitude is passed over. The haversine term a = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)
   * decides, bounded first without trigonometry (x²(1 − x²/3) ≤ sin² x ≤ x² for the half-angles,
   * both within 90°): only a listing whose bounds straddle the radius has its term made, and one
   * within a billionth of the radius its distance in metres, as cards show it.
   */
  keepNear(b: Bitset, lat: number, lng: number, radius: number, lo = 0, hi = b.length): void {
    // the radius as degrees of arc, which is also its reach in latitude
    const arc = radius / METERS_PER_DEGREE_LAT;
    const dLat = arc + 1e-9;
    const dLng = longitudeReach(lat, radius) + 1e-9;
    const cos = latitudeCosine(lat);
    const inside = haversineTermOfArc(arc * (1 - 1e-9));
    const outside = haversineTermOfArc(arc * (1 + 1e-9));
    const { cells, lng: lngs, lat: lats, cosLat, near } = this;
    const { order, starts, ends } = cells;
    let kept = 0;
    for (let run = 0, runs = cells.around(lat, lng, dLat, dLng); run < runs; run++) {
      for (let k = starts[run]; k < ends[run]; k++) {
        const i = order[k];
        if (!bits.has(b, i)) continue;
        const gap = longitudeGap(lngs[i], lng);
        if (gap > dLng) continue;
        const x = ((lats[i] - lat) * RAD) / 2, y = (gap * RAD) / 2;
        const xx = x * x, yy = cos * cosLat[i] * y * y;
        if (xx + yy > inside) {
          if (xx * (1 - xx / 3) + yy * (1 - (y * y) / 3) > outside) continue;
          const a = haversineTerm(lat, lng, cos, lats[i], lngs[i], cosLat[i]);
          if (a > inside && (a > outside || metersOfTerm(a) > radius)) continue;
        }
        near[kept++] = i;
      }
    }
    bits.setOnly(b, near, kept, lo, hi);
  }

  /**
   * Narrows b to its listings in a box (across the antimeridian when west > east), b being empty
   * outside the words [lo, hi): only the cells of the grid in the box are visited.
   */
  keepInBox(b: Bitset, { south, north, west, east }: { south: number; north: number; west: number; east: number }, lo = 0, hi = b.length): void {
    const { cells, lat, lng, near } = this;
    const { order, starts, ends } = cells;
    const across = west > east;
    let kept = 0;
    for (let run = 0, runs = cells.within(south, north, west, east); run < runs; run++) {
      for (let k = starts[run]; k < ends[run]; k++) {
        const i = order[k];
        if (!bits.has(b, i) || lat[i] < south || lat[i] > north) continue;
        if (across ? lng[i] >= west || lng[i] <= east : lng[i] >= west && lng[i] <= east) near[kept++] = i;
      }
    }
    bits.setOnly(b, near, kept, lo, hi);
  }
}
