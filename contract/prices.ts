/**
 * How prices of different billing periods compare (the price order, minPrice/maxPrice and the
 * facets' priceRange). The pipeline's SQL receives these as macros (pipeline/lib/models.ts
 * priceMacros); the API reads the same constants.
 */
import { z } from 'zod';
import type { BillingPeriod, OptionType } from './common.ts';

/**
 * Month ×1, year ÷12, week ×52÷12: the periods that have a monthly equivalent, each a fraction applied as
 * written (the amount times `times`, then divided by `per`), so that a week price of 210 is 910 a month, not
 * 909.99… through a rounded 52/12.
 */
export const MONTHLY_FACTORS = {
  month: { times: 1, per: 1 },
  year: { times: 1, per: 12 },
  week: { times: 52, per: 12 },
} as const satisfies Partial<Record<BillingPeriod, { times: number; per: number }>>;

/**
 * What a comparable price is a price of: `monthly` (the monthly equivalent of a month, week or
 * year price), or one day, one hour, one use. Prices compare only on the same basis; in this order
 * after the basis of the product (PRODUCT_PRICE_BASIS).
 */
export const PRICE_BASES = ['monthly', 'day', 'hour', 'once'] as const;
export const PriceBasisSchema = z.enum(PRICE_BASES);
export type PriceBasis = z.infer<typeof PriceBasisSchema>;

export const PERIOD_PRICE_BASIS: Record<BillingPeriod, PriceBasis> = {
  month: 'monthly', week: 'monthly', year: 'monthly', day: 'day', hour: 'hour', once: 'once',
};

/**
 * The basis a product is compared on: without an option type (`all`) monthly; a day pass per
 * day, a meeting room per hour, an event space per day. minPrice/maxPrice and priceRange are
 * amounts on this basis; listings priced only on another basis sort after the others.
 */
export const PRODUCT_PRICE_BASIS: Record<OptionType | 'all', PriceBasis> = {
  all: 'monthly',
  private_office: 'monthly',
  exclusive_bereich: 'monthly',
  fix_desk: 'monthly',
  flex_desk: 'monthly',
  day_pass: 'day',
  meeting_room: 'hour',
  virtual_office: 'monthly',
  event_space: 'day',
  membership: 'monthly',
};

/** The bases of a product in the order its listings sort: its own basis, then the others in PRICE_BASES order. */
export const priceBasisOrder = (product: OptionType | 'all'): PriceBasis[] =>
  [PRODUCT_PRICE_BASIS[product], ...PRICE_BASES.filter((b) => b !== PRODUCT_PRICE_BASIS[product])];
