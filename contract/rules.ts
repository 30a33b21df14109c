/**
 * The publishing rules of every price figure. The pipeline's SQL receives them as macros
 * (pipeline/lib/models.ts: min_sample_size(), is_published_sample(n), market_verdict(price, median));
 * prose interpolates them.
 */

/** A median, a price range or a market position is published from this many distinct spaces. */
export const MIN_SAMPLE_SIZE = 5;

/**
 * Market position of a price against a median: below under `below` × median, above over
 * `above` × median, around in between (both bounds included).
 */
export const MARKET_BANDS = { below: 0.9, above: 1.1 } as const;

export interface PublishRules {
  minSampleSize: number;
  marketBands: { below: number; above: number };
}

export const PUBLISH_RULES: PublishRules = { minSampleSize: MIN_SAMPLE_SIZE, marketBands: MARKET_BANDS };
