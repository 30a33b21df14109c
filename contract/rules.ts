/**
 * The publishing rules of every price figure and the ranking score. The pipeline's SQL receives them as macros
 * (pipeline/lib/models.ts: min_sample_size(), is_published_sample(n), market_verdict(price, median),
 * quality_flags(…), median_interval_tail(), index_base(), ranking_score(r, v, a), rating_prior_reviews(),
 * value_cap(), neutral_term()); prose interpolates them, and pipeline/methodology.md states them (a test
 * checks it does so correctly).
 */

/** A median, a price range or a market position is published from this many distinct spaces. */
export const MIN_SAMPLE_SIZE = 5;

/**
 * Market position of a price against a median: below under `below` × median, above over
 * `above` × median, around in between (both bounds included).
 */
export const MARKET_BANDS = { below: 0.9, above: 1.1 } as const;

/** A published figure from fewer distinct spaces than this is flagged as of low reliability. */
export const LOW_RELIABILITY_SAMPLE_SIZE = 10;

/**
 * The confidence level of a median's interval: two order statistics of the sample chosen by binomial ranks,
 * so that the interval covers the true median at least this often whatever the prices' distribution.
 */
export const MEDIAN_INTERVAL_LEVEL = 0.95;

/** The chained matched-model index of the history at the first month of each of its segments. */
export const INDEX_BASE = 100;

/** A price observed more than this many days before the figure's reference time counts as stale. */
export const STALE_PRICE_DAYS = 180;

/** A figure is flagged when one operator runs at least this share of the spaces behind it. */
export const DOMINANT_OPERATOR_SHARE = 0.6;

/**
 * The flag letters of a published figure (Eurostat-style: b and u are Eurostat's own letters,
 * a and o ours), written in alphabetical order.
 */
export const QUALITY_FLAG_LETTERS = {
  /** stale prices: the median age of the prices behind the figure exceeds STALE_PRICE_DAYS */
  stalePrices: 'a',
  /** break in the series (history only): the previous month was not published, an earlier one was */
  breakInSeries: 'b',
  /** one operator runs DOMINANT_OPERATOR_SHARE or more of the spaces behind the figure */
  dominantOperator: 'o',
  /** low reliability: published from fewer than LOW_RELIABILITY_SAMPLE_SIZE spaces */
  lowReliability: 'u',
} as const;

/**
 * The ranking score of a space within its city: 100 × the weighted sum of its rating (R), value (V) and
 * amenity (A) terms, each in 0..1 (pipeline/methodology.md, "Ranking score").
 */
export const RANKING_WEIGHTS = { rating: 0.5, value: 0.3, amenities: 0.2 } as const;

/** R, the Bayesian-averaged rating, takes the city's mean rating as a prior worth this many reviews. */
export const RATING_PRIOR_REVIEWS = 10;

/** V, the value term: the city median ÷ the space's price, capped at this, then divided by it. */
export const VALUE_CAP = 2;

/** R for every space of a city without reviews, and V without a price or a published city median. */
export const NEUTRAL_TERM = 0.5;

export interface PublishRules {
  minSampleSize: number;
  marketBands: { below: number; above: number };
  lowReliabilitySampleSize: number;
  stalePriceDays: number;
  dominantOperatorShare: number;
  medianIntervalLevel: number;
  indexBase: number;
}

export const PUBLISH_RULES: PublishRules = {
  minSampleSize: MIN_SAMPLE_SIZE,
  marketBands: MARKET_BANDS,
  lowReliabilitySampleSize: LOW_RELIABILITY_SAMPLE_SIZE,
  stalePriceDays: STALE_PRICE_DAYS,
  dominantOperatorShare: DOMINANT_OPERATOR_SHARE,
  medianIntervalLevel: MEDIAN_INTERVAL_LEVEL,
  indexBase: INDEX_BASE,
};
