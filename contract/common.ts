import { z } from 'zod';
import { quickly } from './quick-query.ts';

export const CONTRACT_VERSION = '1.0.0';

export const LOCALES = ['en', 'de', 'es'] as const;
export const LocaleSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof LocaleSchema>;
/** The locale every name must have: a text missing in another locale falls back to this one's. */
export const FALLBACK_LOCALE = 'en' satisfies Locale;
/** A value made for each locale, e.g. the Intl formatters, which cost far more to make than to use. */
export const byLocale = <T>(make: (locale: Locale) => T) => Object.fromEntries(LOCALES.map((l) => [l, make(l)])) as Record<Locale, T>;

export const CURRENCIES = ['EUR', 'GBP', 'USD', 'CHF', 'VES', 'AED'] as const;
export const CurrencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof CurrencySchema>;

export const OPTION_TYPES = [
  'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'day_pass',
  'meeting_room', 'virtual_office', 'event_space', 'membership',
] as const;
export const OptionTypeSchema = z.enum(OPTION_TYPES);
export type OptionType = z.infer<typeof OptionTypeSchema>;

export const BILLING_PERIODS = ['month', 'day', 'hour', 'week', 'year', 'once'] as const;
export const BillingPeriodSchema = z.enum(BILLING_PERIODS);
export type BillingPeriod = z.infer<typeof BillingPeriodSchema>;

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
/** Lower case, accents folded, every other run of characters one hyphen: how the pipeline makes a slug of a name. */
export function slugForm(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * The error for a value that is not in slug form (`city=Berlin`): slugs, not names, with the
 * slug form of the value as a hint (lower case, accents folded, other runs a hyphen, as the
 * pipeline makes slugs); the lists name the exact slugs.
 */
function notASlug(input: unknown): string {
  const form = typeof input === 'string' ? slugForm(input).slice(0, 60) : '';
  return `Not a slug: use the slug (lower-case letters, digits and hyphens${form ? `, e.g. "${form}"` : ''}), not the name; GET /v1/geo/bootstrap and GET /v1/facets list the slugs`;
}
export const MAX_SLUG = 200;
export const SlugSchema = quickly(
  z.string().min(1).max(MAX_SLUG).regex(SLUG_PATTERN, { error: (issue) => notASlug(issue.input) }),
  (raw) => (raw.length <= MAX_SLUG && SLUG_PATTERN.test(raw) ? raw : undefined),
);
export const AMENITY_SLUG_PATTERN = /^[a-z0-9_-]+$/;
export const AmenitySlugSchema = z.string().min(1).max(MAX_SLUG).regex(AMENITY_SLUG_PATTERN);
export const FacetValueSchema = AmenitySlugSchema;

export const DateTimeSchema = z.iso.datetime({ offset: true });
export const UriSchema = z.url();

/** Inside a build, absolute URLs are stored site-relative; the API resolves them against SITE_URL at load time. */
export const SitePathSchema = z.string().regex(/^\/[^\s]*$/, 'site-relative path starting with /');

export const MoneySchema = z.strictObject({
  amount: z.number().min(0),
  currency: CurrencySchema,
});
export type Money = z.infer<typeof MoneySchema>;

const imageFields = {
  width: z.int().min(1),
  height: z.int().min(1),
  alt: z.string(),
  thumbHash: z.string().optional(),
};
export const ImageSchema = z.strictObject({ url: UriSchema, ...imageFields });
export const BuildImageSchema = z.strictObject({ url: SitePathSchema, ...imageFields });
export type Image = z.infer<typeof ImageSchema>;
export type BuildImage = z.infer<typeof BuildImageSchema>;

export const SlugNameSchema = z.strictObject({ slug: SlugSchema, name: z.string() });
export type SlugName = z.infer<typeof SlugNameSchema>;

export const LatLngSchema = z.strictObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type LatLng = z.infer<typeof LatLngSchema>;

export const RatingSchema = z.strictObject({
  score: z.number().min(0).max(5),
  count: z.int().min(0),
});

export const VerdictSchema = z.enum(['below', 'around', 'above']);
export const MarketPositionSchema = z.strictObject({
  verdict: VerdictSchema,
  median: MoneySchema,
  sampleSize: z.int().min(0),
});
export type MarketPosition = z.infer<typeof MarketPositionSchema>;

export const FaqSchema = z.strictObject({ question: z.string(), answer: z.string() });
export const PriceRangeSchema = z.strictObject({ min: MoneySchema, max: MoneySchema });

export const CitationSchema = z.strictObject({
  source: z.string(),
  title: z.string(),
  url: UriSchema,
  accessed: z.iso.date(),
  license: z.literal('CC BY 4.0'),
  licenseUrl: z.literal('https://creativecommons.org/licenses/by/4.0/'),
  text: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const PaginationSchema = z.strictObject({
  page: z.int().min(1),
  pageSize: z.int().min(1),
  total: z.int().min(0),
  pageCount: z.int().min(0),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const MetaSchema = z.strictObject({
  contractVersion: z.string(),
  pagination: PaginationSchema.optional(),
  truncated: z.boolean().optional(),
  seed: z.int().min(0).max(2147483647).optional(),
  citation: CitationSchema.optional(),
});
export type Meta = z.infer<typeof MetaSchema>;

/** The envelope of every 200 response. */
export function envelope<T extends z.ZodType>(data: T, meta: z.ZodType = MetaSchema) {
  return z.strictObject({ data, meta });
}

/** A meta whose pagination is required (the property list, the map, suggest). */
export const PaginatedMetaSchema = MetaSchema.extend({ pagination: PaginationSchema });
