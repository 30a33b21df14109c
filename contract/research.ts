/**
 * The price index as a research dataset beyond today's snapshot: the monthly history
 * ({site}/api/price-index/history, {site}/api/price-report/history).
 */
import { z } from 'zod';
import { CurrencySchema, DateTimeSchema, OptionTypeSchema, SitePathSchema, SlugNameSchema, UriSchema } from './common.ts';
import { FigureQualityShape, IndexFiguresShape, SnapshotSourceSchema } from './market.ts';

/** A month of the history, `YYYY-MM` (UTC). */
export const HistoryMonthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

/** One month of a series: the figures of the offers as they stood at the month's end. */
export const PriceHistoryPointSchema = z.strictObject({
  month: HistoryMonthSchema,
  sampleSize: z.int().min(0),
  published: z.boolean(),
  ...IndexFiguresShape,
  flag: z.literal('insufficient_sample').optional(),
  ...FigureQualityShape,
});
export type PriceHistoryPoint = z.infer<typeof PriceHistoryPointSchema>;

export const PriceHistoryCitySchema = z.strictObject({
  city: SlugNameSchema,
  countryCode: z.string().length(2),
  currency: CurrencySchema,
  /** the city overall (each space at its cheapest desk product), one point per month of `months` */
  points: z.array(PriceHistoryPointSchema),
  byType: z.array(z.strictObject({ optionType: OptionTypeSchema, points: z.array(PriceHistoryPointSchema) })),
});
export type PriceHistoryCity = z.infer<typeof PriceHistoryCitySchema>;

function priceHistoryShape(url: z.ZodType) {
  return {
    asOf: DateTimeSchema,
    methodologyUrl: url,
    /** every month of the history, oldest first; each series has one point per month, in this order */
    months: z.array(HistoryMonthSchema),
    cities: z.array(PriceHistoryCitySchema),
    source: SnapshotSourceSchema.optional(),
  };
}
export const PriceHistoryPayloadSchema = z.strictObject(priceHistoryShape(UriSchema));
export type PriceHistoryPayload = z.infer<typeof PriceHistoryPayloadSchema>;

/** price-history.json in a build: served at {site}/api/price-index/history with meta.citation added. */
export const PriceHistoryFileSchema = z.strictObject(priceHistoryShape(SitePathSchema));
