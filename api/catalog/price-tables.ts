/**
 * What the engine derives from listing-columns.bin's price and capacity columns: each product's
 * codes and price on its own basis, and the amount indexes the price and capacity filters search.
 * Typed arrays only, made in one pass per column: a load worker makes them while the loading
 * thread parses the other files (api/loading/load-worker.ts), and moves them without a copy.
 */
import { BILLING_PERIODS, CURRENCIES, OPTION_TYPES, type OptionType } from '../../contract/common.ts';
import type { ListingColumnsData, PriceColumnsData } from '../../contract/listing-columns.ts';
import { PRICE_BASES, PRODUCT_PRICE_BASIS } from '../../contract/prices.ts';
import { amountIndexBuffers, amountIndexData, type AmountIndexData } from './amounts.ts';

/** `all` (fromPrice) or an option type (fromPriceByType) */
export type Product = OptionType | 'all';
export const PRODUCTS: readonly Product[] = ['all', ...OPTION_TYPES];

/** One product's columns beside those listing-columns.bin holds (amount, marketPosition). */
export interface ProductTable {
  /** index into CURRENCIES + 1, 0 when none */
  currency: Uint8Array;
  /** index into BILLING_PERIODS + 1, 0 when none */
  period: Uint8Array;
  /** the comparable price the price orders sort by (the card's comparablePrice): its currency, index into CURRENCIES + 1, 0 when the listing has none */
  comparableCurrency: Uint8Array;
  /** its basis, index into PRICE_BASES */
  comparableBasis: Uint8Array;
  /** the comparable amount in the listing's currency when it is on the product's own basis (what minPrice/maxPrice and priceRange read); NaN otherwise */
  onBasis: Float64Array;
  /** currency of onBasis: index into CURRENCIES + 1, 0 when none */
  onBasisCurrency: Uint8Array;
  /** the listings by onBasis */
  onBasisIndex: AmountIndexData;
}

export interface PriceTables {
  products: Record<Product, ProductTable>;
  /** each listing's capacity as an amount (NaN when it has none, or one below 1) */
  capacities: Float64Array;
  /** the listings with a capacity, by capacity */
  capacity: AmountIndexData;
}

export function priceTables(cols: ListingColumnsData): PriceTables {
  const n = cols.slugs.length;
  const currencyCode = cols.dict.currencies.map((c) => CURRENCIES.indexOf(c) + 1);
  const periodCode = cols.dict.billingPeriods.map((p) => BILLING_PERIODS.indexOf(p) + 1);
  const table = (product: Product, c: PriceColumnsData | undefined): ProductTable => {
    const t = {
      currency: new Uint8Array(n), period: new Uint8Array(n), comparableCurrency: new Uint8Array(n), comparableBasis: new Uint8Array(n),
      onBasis: new Float64Array(n).fill(Number.NaN), onBasisCurrency: new Uint8Array(n),
    };
    if (c) {
      const ownBasis = PRICE_BASES.indexOf(PRODUCT_PRICE_BASIS[product]);
      for (let i = 0; i < n; i++) {
        if (!Number.isNaN(c.amount[i])) {
          t.currency[i] = c.currency[i] >= 0 ? currencyCode[c.currency[i]] : 0;
          t.period[i] = c.billingPeriod[i] >= 0 ? periodCode[c.billingPeriod[i]] : 0;
        }
        const comparable = c.comparableAmount[i];
        // what the price orders rank (the listing_orders mart): a listing without one of these comes last
        if (Number.isNaN(comparable) || c.comparableBasis[i] < 0 || Number.isNaN(c.comparableEur[i]) || c.comparableCurrency[i] < 0) continue;
        t.comparableCurrency[i] = currencyCode[c.comparableCurrency[i]];
        t.comparableBasis[i] = c.comparableBasis[i];
        if (c.comparableBasis[i] === ownBasis) {
          t.onBasis[i] = comparable;
          t.onBasisCurrency[i] = t.comparableCurrency[i];
        }
      }
    }
    return { ...t, onBasisIndex: amountIndexData(t.onBasis, t.onBasisCurrency) };
  };
  const capacities = new Float64Array(n);
  for (let i = 0; i < n; i++) capacities[i] = cols.capacity[i] >= 1 ? cols.capacity[i] : Number.NaN;
  return {
    products: Object.fromEntries(PRODUCTS.map((p) => [p, table(p, p === 'all' ? cols.fromPrice : cols.fromPriceByType[p])])) as Record<Product, ProductTable>,
    capacities,
    capacity: amountIndexData(capacities),
  };
}

/** The buffers of the tables (what a worker transfers: each array owns its buffer). */
export const priceTableBuffers = (t: PriceTables): ArrayBuffer[] => [
  ...Object.values(t.products).flatMap((p) => [p.currency.buffer, p.period.buffer, p.comparableCurrency.buffer, p.comparableBasis.buffer, p.onBasis.buffer, p.onBasisCurrency.buffer, ...amountIndexBuffers(p.onBasisIndex)] as ArrayBuffer[]),
  t.capacities.buffer as ArrayBuffer, ...amountIndexBuffers(t.capacity),
];
