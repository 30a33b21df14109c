import type { BillingPeriod, Currency, LatLng, MarketPosition, OptionType } from '../../contract/common.ts';

/** The cheapest published price of a listing, overall or of one option type. */
export interface PriceFact {
  amount: number;
  currency: Currency;
  billingPeriod: BillingPeriod;
  /** amount converted to EUR with the dated reference FX table; for ordering only */
  sortAmountEur: number;
}

/**
 * What the query engine filters and sorts on, of one listing, without display text: the pipeline
 * assembles one per listing (sorted by slug) and writes them by column (listing-columns.json).
 */
export interface ListingFact {
  slug: string;
  countrySlug: string;
  countryCode: string;
  citySlug: string;
  zoneSlug: string | null;
  operatorSlug: string | null;
  amenities: string[];
  capacity: number | null;
  coordinates: LatLng | null;
  updatedAt: string | null;
  rating: { score: number; count: number } | null;
  featured: boolean;
  /** raw street and house number as published (the API normalises them for the address filter) */
  street: string;
  houseNumber: string;
  /** option types the listing offers, price on request included */
  optionTypes: OptionType[];
  fromPrice: PriceFact | null;
  fromPriceByType: Partial<Record<OptionType, PriceFact>>;
  /** against the city's overall median (no pricingOptionType) and per type */
  marketPosition: MarketPosition | null;
  marketPositionByType: Partial<Record<OptionType, MarketPosition>>;
}
