import { z } from 'zod';
import {
  BillingPeriodSchema, CurrencySchema, DateTimeSchema, FaqSchema, ImageSchema, LatLngSchema, MoneySchema,
  OptionTypeSchema, PriceRangeSchema, RatingSchema, SlugNameSchema, SlugSchema, UriSchema, VerdictSchema,
} from './common.ts';

const MedianSampleSchema = z.strictObject({ median: MoneySchema, sampleSize: z.int().min(0) });

export const MarketRatesPayloadSchema = z.strictObject({
  cities: z.array(z.strictObject({
    city: SlugNameSchema,
    currency: CurrencySchema,
    byType: z.array(z.strictObject({
      optionType: OptionTypeSchema,
      median: MoneySchema,
      min: MoneySchema,
      max: MoneySchema,
      sampleSize: z.int().min(0),
      thinSample: z.literal(true).optional(),
    })),
    sampleSize: z.int().min(0),
    countryCode: z.string().length(2).optional(),
    dayPass: MedianSampleSchema.optional(),
    meetingRoom: MedianSampleSchema.optional(),
  })),
  totalProperties: z.int().min(0),
  totalPricePoints: z.int().min(0),
  asOf: DateTimeSchema,
});
export type MarketRatesPayload = z.infer<typeof MarketRatesPayloadSchema>;

/** The most suggestions GET /v1/search/suggest returns (`limit` 1..20). */
export const MAX_SUGGEST_LIMIT = 20;
export const DEFAULT_SUGGEST_LIMIT = 8;

/** The longest ranking GET /v1/rankings returns (`limit` 1..25). */
export const MAX_RANKING_LIMIT = 25;
export const DEFAULT_RANKING_LIMIT = 10;

export const RankingsPayloadSchema = z.strictObject({
  city: SlugNameSchema,
  currency: CurrencySchema,
  sampleSize: z.int().min(0),
  hasReviewData: z.boolean(),
  ranked: z.array(z.strictObject({
    slug: SlugSchema,
    title: z.string(),
    score: z.number(),
    amenityCount: z.int().min(0),
    entryPrice: MoneySchema.optional(),
    entryBillingPeriod: BillingPeriodSchema.optional().describe(
      'Billing period of entryPrice (an addition to the reference): the listing\'s fromPrice is its cheapest published figure of any period.',
    ),
    rating: RatingSchema.optional(),
  })),
  asOf: DateTimeSchema,
});
export type RankingsPayload = z.infer<typeof RankingsPayloadSchema>;

export const PLACE_KINDS = ['country', 'city', 'zone'] as const;
export const PlaceKindSchema = z.enum(PLACE_KINDS);

export const PlaceHubSchema = z.strictObject({
  kind: PlaceKindSchema,
  slug: SlugSchema,
  name: z.string(),
  faqs: z.array(FaqSchema),
  propertyCount: z.int().min(0),
  asOf: DateTimeSchema,
  intro: z.string().optional(),
  shortDescription: z.string().optional(),
  priceRange: PriceRangeSchema.optional(),
  center: LatLngSchema.optional(),
  parent: SlugNameSchema.optional(),
  operatorCount: z.int().min(0).optional(),
  children: z.array(z.strictObject({
    kind: PlaceKindSchema, slug: SlugSchema, name: z.string(), propertyCount: z.int().min(0),
  })).optional(),
  medianMonthlyPerDesk: z.strictObject({ price: MoneySchema, sampleSize: z.int().min(0) }).optional(),
});
export type PlaceHub = z.infer<typeof PlaceHubSchema>;

function operatorHubShape(image: z.ZodType) {
  return {
    slug: SlugSchema,
    name: z.string(),
    faqs: z.array(FaqSchema),
    propertyCount: z.int().min(0),
    cities: z.array(SlugNameSchema),
    asOf: DateTimeSchema,
    logo: image.optional(),
    tagline: z.string().optional(),
    description: z.string().optional(),
    pricePosition: z.strictObject({ verdict: VerdictSchema, sampleSize: z.int().min(0) }).optional(),
  };
}
export const OperatorHubSchema = z.strictObject(operatorHubShape(ImageSchema));
export type OperatorHub = z.infer<typeof OperatorHubSchema>;
export { operatorHubShape };

export const SUGGEST_KINDS = ['country', 'city', 'zone', 'operator', 'property'] as const;
export const SuggestionSchema = z.strictObject({
  kind: z.enum(SUGGEST_KINDS),
  slug: SlugSchema,
  label: z.string(),
  sublabel: z.string().optional(),
  center: LatLngSchema.optional(),
  propertyCount: z.int().min(0).optional(),
});
export type Suggestion = z.infer<typeof SuggestionSchema>;

/** The figures of a published price index row (monthly per desk); absent when it is not published. */
export const IndexFiguresShape = {
  median: MoneySchema.optional(),
  average: MoneySchema.optional(),
  min: MoneySchema.optional(),
  max: MoneySchema.optional(),
};
/**
 * The quality measures of a published figure (absent when it is not published): quartiles, the age
 * of the prices behind it, the share of its spaces run by the largest operator, and its flag
 * letters (contract/rules.ts QUALITY_FLAG_LETTERS; the methodology explains them).
 */
export const FigureQualityShape = {
  p25: MoneySchema.optional(),
  p75: MoneySchema.optional(),
  /** median age in whole days of the prices behind the figure, at the data's asOf (a month's end in the history) */
  medianAgeDays: z.number().min(0).optional(),
  /** share of those prices observed more than STALE_PRICE_DAYS (180) days before, 0–1 */
  staleShare: z.number().min(0).max(1).optional(),
  /** share of the spaces behind the figure run by its largest operator, 0–1 */
  largestOperatorShare: z.number().min(0).max(1).optional(),
  /** flag letters in alphabetical order, empty when none: a stale prices, b break in series, o dominant operator, u low reliability */
  flags: z.string().regex(/^a?b?o?u?$/).optional(),
  /**
   * ours: the median's 95% distribution-free confidence interval, two prices of the sample chosen by binomial
   * ranks (the methodology gives them); for a sample of 5, the smallest published, the minimum and maximum
   */
  medianInterval: z.strictObject({ low: MoneySchema, high: MoneySchema }).optional(),
};

export const PriceIndexCitySchema = z.strictObject({
  city: SlugNameSchema,
  countryCode: z.string().length(2),
  currency: CurrencySchema,
  sampleSize: z.int().min(0),
  published: z.boolean(),
  ...IndexFiguresShape,
  byType: z.array(z.strictObject({
    optionType: OptionTypeSchema,
    sampleSize: z.int().min(0),
    published: z.boolean(),
    ...IndexFiguresShape,
    ...FigureQualityShape,
  })).optional(),
  flag: z.literal('insufficient_sample').optional(),
  ...FigureQualityShape,
});
export type PriceIndexCity = z.infer<typeof PriceIndexCitySchema>;

/**
 * What the input snapshot is (data/source.json, copied into the build as source.json and carried by
 * the index, the history and the datapackage): where its prices come from, and whether they are
 * invented sample data.
 */
export const SnapshotSourceSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  /** true when the operators, spaces and prices are invented (the geography may still be real) */
  sampleData: z.boolean(),
  /** when the snapshot was taken from its source: no price can have been observed later (a later observation is quarantined as future_date) */
  extractedAt: DateTimeSchema,
  /** where the prices come from, when there is a page to point to */
  url: z.url().optional(),
});
export type SnapshotSource = z.infer<typeof SnapshotSourceSchema>;

function priceIndexShape<Url extends z.ZodType>(url: Url) {
  return { asOf: DateTimeSchema, methodologyUrl: url, cities: z.array(PriceIndexCitySchema), source: SnapshotSourceSchema.optional() };
}
export const PriceIndexPayloadSchema = z.strictObject(priceIndexShape(UriSchema));
export type PriceIndexPayload = z.infer<typeof PriceIndexPayloadSchema>;
export { priceIndexShape };
export { ImageSchema };
