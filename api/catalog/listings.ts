/**
 * The listings of one build as typed columns: what the filters, orders, facets and the rendering
 * of cards read. The loader has checked the columns' structure (lengths, indices in range, orders
 * that are permutations: decodeListingColumns, contract/listing-columns.ts); this checks that the
 * slug order sorts the slugs, each once (a slug is looked up in it).
 */
import type { ListingColumnsData, PriceColumnsData } from '../../contract/listing-columns.ts';
import { BILLING_PERIODS, CURRENCIES, OPTION_TYPES, type OptionType } from '../../contract/common.ts';
import { PRICE_BASES, PRODUCT_PRICE_BASIS } from '../../contract/prices.ts';
import { AmountIndex } from './amounts.ts';
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import { haversineMeters } from './geo.ts';

/**
 * One product's price facts (overall or of one option type) of every listing: the fromPrice the
 * card shows (amount NaN and currency 0 when none), its market position, and the comparable price
 * on the product's own basis that the price filter and summary read (contract/prices.ts).
 */
export interface PriceColumn {
  amount: Float64Array;
  /** index into CURRENCIES + 1 */
  currency: Uint8Array;
  /** index into BILLING_PERIODS + 1 */
  period: Uint8Array;
  /** index into ListingTable.marketJson, -1 when the listing has no market position */
  marketPosition: Int32Array;
  /** the comparable amount in the listing's currency when it is on the product's own basis (what minPrice/maxPrice and priceRange read); NaN otherwise */
  onBasis: Float64Array;
  /** currency of onBasis: index into CURRENCIES + 1, 0 when none */
  onBasisCurrency: Uint8Array;
}

export class ListingTable {
  readonly n: number;
  readonly slugs: string[];
  /** the listings are in place order (contract/build.ts); ties of every order break by slug: a listing's place among the slugs, and the listing at each place */
  readonly slugRank: Int32Array;
  readonly bySlug: Int32Array;
  /** every listing */
  readonly all: Bitset;
  readonly capacity: Int32Array;
  /** NaN when the listing has no coordinates */
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  readonly hasCoords: Bitset;
  /** the listings with coordinates by latitude, and their latitudes */
  readonly latOrder: Int32Array;
  readonly latSorted: Float64Array;
  /** each market position as the card's `,"marketPosition":{…}` */
  readonly marketJson: string[];
  private readonly prices = new Map<OptionType | '', PriceColumn>();
  private readonly onBasisIndexes = new Map<OptionType | '', AmountIndex>();

  constructor(readonly cols: ListingColumnsData) {
    const n = this.n = cols.slugs.length;
    this.slugs = cols.slugs;
    this.bySlug = cols.orders.slug;
    this.slugRank = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const i = this.bySlug[k];
      this.slugRank[i] = k;
      const before = k > 0 ? this.slugs[this.bySlug[k - 1]] : undefined, slug = this.slugs[i];
      if (before === slug) throw new Error(`listing-columns.bin: slug ${slug} used twice`);
      if (before !== undefined && before > slug) throw new Error(`listing-columns.bin: order.slug does not sort ${slug}`);
    }
    this.all = bits.full(n);
    const dict = cols.dict;
    this.marketJson = dict.marketPositions.map((m) => `,"marketPosition":${JSON.stringify(m)}`);
    const currencyCode = dict.currencies.map((c) => CURRENCIES.indexOf(c) + 1);
    const periodCode = dict.billingPeriods.map((p) => BILLING_PERIODS.indexOf(p) + 1);
    const none = (): PriceColumn => ({
      amount: new Float64Array(n).fill(Number.NaN), currency: new Uint8Array(n), period: new Uint8Array(n), marketPosition: new Int32Array(n).fill(-1),
      onBasis: new Float64Array(n).fill(Number.NaN), onBasisCurrency: new Uint8Array(n),
    });
    const fill = (product: OptionType | 'all', c: PriceColumnsData): PriceColumn => {
      const ownBasis = PRICE_BASES.indexOf(PRODUCT_PRICE_BASIS[product]);
      const col: PriceColumn = {
        amount: c.amount, currency: new Uint8Array(n), period: new Uint8Array(n), marketPosition: c.marketPosition,
        onBasis: new Float64Array(n).fill(Number.NaN), onBasisCurrency: new Uint8Array(n),
      };
      for (let i = 0; i < n; i++) {
        if (!Number.isNaN(c.amount[i])) {
          col.currency[i] = c.currency[i] >= 0 ? currencyCode[c.currency[i]] : 0;
          col.period[i] = c.billingPeriod[i] >= 0 ? periodCode[c.billingPeriod[i]] : 0;
        }
        const comparable = c.comparableAmount[i];
        if (!Number.isNaN(comparable) && c.comparableBasis[i] === ownBasis && !Number.isNaN(c.comparableEur[i]) && c.comparableCurrency[i] >= 0) {
          col.onBasis[i] = comparable;
          col.onBasisCurrency[i] = currencyCode[c.comparableCurrency[i]];
        }
      }
      return col;
    };
    this.prices.set('', fill('all', cols.fromPrice));
    for (const t of OPTION_TYPES) {
      const c = cols.fromPriceByType[t];
      this.prices.set(t, c ? fill(t, c) : none());
    }
    for (const [product, col] of this.prices) this.onBasisIndexes.set(product, new AmountIndex(col.onBasis, col.onBasisCurrency));

    this.capacity = cols.capacity;
    this.lat = new Float64Array(n).fill(Number.NaN);
    this.lng = new Float64Array(n).fill(Number.NaN);
    this.hasCoords = new Uint32Array(this.all.length);
    let withCoords = 0;
    for (let i = 0; i < n; i++) {
      const lat = cols.lat[i], lng = cols.lng[i];
      if (!Number.isNaN(lat) && !Number.isNaN(lng)) {
        this.lat[i] = lat;
        this.lng[i] = lng;
        this.hasCoords[i >>> 5] |= 1 << (i & 31);
        withCoords++;
      }
    }
    // the pipeline's latitude order: those with coordinates first, ascending
    this.latOrder = cols.orders.lat.subarray(0, withCoords);
    this.latSorted = new Float64Array(withCoords);
    for (let k = 0; k < withCoords; k++) {
      const lat = (this.latSorted[k] = this.lat[this.latOrder[k]]);
      if (Number.isNaN(lat) || (k > 0 && lat < this.latSorted[k - 1])) throw new Error(`listing-columns.bin: order.lat does not sort ${this.slugs[this.latOrder[k]]} by latitude`);
    }
  }

  /** The listing with this slug (a binary search of the slug order), or undefined. */
  indexOf(slug: string): number | undefined {
    const { bySlug, slugs } = this;
    let lo = 0, hi = bySlug.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (slugs[bySlug[mid]] < slug) lo = mid + 1;
      else hi = mid;
    }
    return lo < bySlug.length && slugs[bySlug[lo]] === slug ? bySlug[lo] : undefined;
  }

  /** The price facts of the option type, or overall: the fromPrice cards show, the comparable price filters and orders read. */
  price(type: OptionType | undefined): PriceColumn {
    return this.prices.get(type ?? '')!;
  }

  /** The listings by their price on the product's own basis (PriceColumn.onBasis), of the option type or overall. */
  onBasisIndex(type: OptionType | undefined): AmountIndex {
    return this.onBasisIndexes.get(type ?? '')!;
  }

  distance(i: number, lat: number, lng: number): number | undefined {
    return Number.isNaN(this.lat[i]) ? undefined : haversineMeters(lat, lng, this.lat[i], this.lng[i]);
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
   * Narrows b to its listings with lo ≤ latitude ≤ hi that pass `keep` (radius and bounding-box
   * searches): only that band of the latitude order is visited.
   */
  keepInLatitudes(b: Bitset, lo: number, hi: number, keep: (i: number) => boolean): void {
    const [s, e] = this.latRange(lo, hi);
    bits.keepListed(b, this.latOrder, s, e, keep);
  }
}
