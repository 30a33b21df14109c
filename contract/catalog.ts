import { z } from 'zod';
import {
  AmenitySlugSchema, BillingPeriodSchema, BuildImageSchema, CurrencySchema, DateTimeSchema,
  FacetValueSchema, ImageSchema, LatLngSchema, MarketPositionSchema, MoneySchema, OptionTypeSchema,
  RatingSchema, SitePathSchema, SlugNameSchema, SlugSchema, UriSchema,
} from './common.ts';
import { facetKeys, FILTER_DECLARATIONS } from './filters.ts';
import { PriceBasisSchema } from './prices.ts';

/**
 * The price a listing takes its place by in the price orders (contract/prices.ts): an amount in
 * the listing's own currency, on a basis; the orders compare the basis, then the amount in EUR.
 */
export const ComparablePriceSchema = z.strictObject({
  amount: z.number().min(0),
  currency: CurrencySchema,
  basis: PriceBasisSchema.describe('What the amount is a price of: `monthly` (a month, week or year price as its monthly equivalent), or one `day`, `hour` or use (`once`).'),
});
export type ComparablePrice = z.infer<typeof ComparablePriceSchema>;

const OperatorRefSchema = (image: z.ZodType) =>
  z.strictObject({ slug: SlugSchema, name: z.string(), logo: image.optional() });

function listingCardShape(image: z.ZodType) {
  return {
    slug: SlugSchema,
    title: z.string(),
    countryCode: z.string().length(2).optional(),
    city: SlugNameSchema.optional(),
    zone: SlugNameSchema.optional(),
    operator: OperatorRefSchema(image).optional(),
    coordinates: LatLngSchema.optional(),
    fromPrice: MoneySchema.optional(),
    fromBillingPeriod: BillingPeriodSchema.optional(),
    rating: RatingSchema.optional(),
    featured: z.boolean(),
    updatedAt: DateTimeSchema.optional(),
    excerpt: z.string().optional(),
    images: z.array(image),
    amenities: z.array(AmenitySlugSchema),
    capacity: z.int().min(1).optional(),
    capacity_status: z.enum(['confirmed', 'possible_undeclared']).optional(),
    marketPosition: MarketPositionSchema.optional(),
    distanceMeters: z.number().min(0).optional(),
    comparablePrice: ComparablePriceSchema.nullable(),
  };
}
export const ListingCardSchema = z.strictObject(listingCardShape(ImageSchema));
export const BuildListingCardSchema = z.strictObject(listingCardShape(BuildImageSchema));
export type ListingCard = z.infer<typeof ListingCardSchema>;
export type BuildListingCard = z.infer<typeof BuildListingCardSchema>;

/**
 * Fields of a card or marker that depend on the request (the option type chosen, the point
 * searched from): the build stores every card and marker without them and the API adds them
 * when it renders one.
 */
export const REQUEST_DEPENDENT_FIELDS = ['fromPrice', 'fromBillingPeriod', 'marketPosition', 'distanceMeters', 'comparablePrice'] as const;
const withoutRequestDependent = { fromPrice: true, fromBillingPeriod: true, marketPosition: true, distanceMeters: true, comparablePrice: true } as const;
/** A card as the build stores it: every field but the request-dependent ones. */
export const BuildStaticCardSchema = BuildListingCardSchema.omit(withoutRequestDependent);
export type BuildStaticCard = z.infer<typeof BuildStaticCardSchema>;

export const PricingOptionSchema = z.strictObject({
  optionType: OptionTypeSchema,
  /** the operator's own text, as published */
  title: z.string(),
  typeLabel: z.string().optional().describe('The option type\'s label in the requested locale (an addition to the reference); `title` is the operator\'s own text.'),
  priceOnRequest: z.boolean(),
  billingPeriod: BillingPeriodSchema,
  price: MoneySchema.optional(),
  minCapacity: z.int().min(1).optional(),
  maxCapacity: z.int().min(1).optional(),
});

function propertyDetailShape(image: z.ZodType, url: z.ZodType) {
  return {
    slug: SlugSchema,
    title: z.string(),
    featured: z.boolean(),
    description: z.string(),
    address: z.string(),
    images: z.array(image),
    amenities: z.array(AmenitySlugSchema),
    pricingOptions: z.array(PricingOptionSchema),
    webUrl: url,
    countryCode: z.string().length(2).optional(),
    city: SlugNameSchema.optional(),
    zone: SlugNameSchema.optional(),
    operator: OperatorRefSchema(image).optional(),
    coordinates: LatLngSchema.optional(),
    fromPrice: MoneySchema.optional(),
    fromBillingPeriod: BillingPeriodSchema.optional(),
    rating: RatingSchema.optional(),
    updatedAt: DateTimeSchema.optional(),
    capacity: z.int().min(1).optional(),
    marketPosition: MarketPositionSchema.optional(),
  };
}
export const PropertyDetailSchema = z.strictObject(propertyDetailShape(ImageSchema, UriSchema));
export const BuildPropertyDetailSchema = z.strictObject(propertyDetailShape(BuildImageSchema, SitePathSchema));
export type PropertyDetail = z.infer<typeof PropertyDetailSchema>;
export type BuildPropertyDetail = z.infer<typeof BuildPropertyDetailSchema>;

function mapMarkerShape(image: z.ZodType) {
  return {
    slug: SlugSchema,
    title: z.string(),
    coordinates: LatLngSchema,
    featured: z.boolean(),
    fromPrice: MoneySchema.optional(),
    fromBillingPeriod: BillingPeriodSchema.optional(),
    image: image.optional(),
  };
}
export const MapMarkerSchema = z.strictObject(mapMarkerShape(ImageSchema));
export const BuildMapMarkerSchema = z.strictObject(mapMarkerShape(BuildImageSchema));
export type MapMarker = z.infer<typeof MapMarkerSchema>;

export const FACET_KEYS = facetKeys(FILTER_DECLARATIONS);
/** A facet lists at most this many values (highest counts first; selected values always); meta.truncated says one was cut. */
export const MAX_FACET_VALUES = 200;
export const FacetsPayloadSchema = z.strictObject({
  facets: z.array(z.strictObject({
    key: z.enum(FACET_KEYS),
    label: z.string(),
    values: z.array(z.strictObject({ value: FacetValueSchema, label: z.string(), count: z.int().min(0) })),
  })),
  /**
   * The range minPrice/maxPrice select from: comparable amounts on `basis` (our addition), the
   * monthly equivalent without pricingOptionType, else that type's basis (contract/prices.ts).
   */
  priceRange: z.strictObject({
    min: MoneySchema,
    max: MoneySchema,
    basis: PriceBasisSchema.optional().describe(
      'What min and max are prices of (an addition to the reference): `monthly` (month, week and year prices as their monthly equivalent), or per `day`, `hour` or use (`once`).',
    ),
  }).optional(),
  capacityRange: z.strictObject({ min: z.int().min(1), max: z.int().min(1) }).optional(),
});
export type FacetsPayload = z.infer<typeof FacetsPayloadSchema>;

export const GeoPayloadSchema = z.strictObject({
  countries: z.array(z.strictObject({
    slug: SlugSchema, name: z.string(), code: z.string().length(2), propertyCount: z.int().min(0),
  })),
  cities: z.array(z.strictObject({
    slug: SlugSchema,
    name: z.string(),
    countryCode: z.string().length(2),
    propertyCount: z.int().min(0),
    center: z.strictObject({ lat: z.number(), lng: z.number() }),
    zones: z.array(z.strictObject({ slug: SlugSchema, name: z.string(), propertyCount: z.int().min(0) })),
    icon: ImageSchema.optional(),
  })),
  currencies: z.record(z.string(), CurrencySchema),
});
export type GeoPayload = z.infer<typeof GeoPayloadSchema>;

export const ConfigPayloadSchema = z.strictObject({
  minSupportedBuild: z.int().min(0),
  recommendedBuild: z.int().min(0).optional(),
  flags: z.record(z.string(), z.boolean()),
  message: z.strictObject({
    title: z.string(), body: z.string(), severity: z.enum(['info', 'warning', 'critical']),
  }).optional(),
});
export type ConfigPayload = z.infer<typeof ConfigPayloadSchema>;

export const HealthPayloadSchema = z.strictObject({
  status: z.literal('ok'),
  sha: z.string(),
  /** addition: the id of the data build being served (dist/builds/<id>, the manifest's buildId) */
  buildId: z.string().optional().meta({ description: 'Id of the data build being served (the pipeline build id, e.g. 20261122T012058417Z-9365).' }),
});
