/**
 * The published build: what the pipeline writes to dist/builds/<id>/ and the API loads.
 * The pipeline validates every file against these schemas before it publishes;
 * the API validates them again when it loads a build. Files named `<name>.<locale>.json`
 * exist once per locale (en, de, es); the others are locale-independent.
 * Absolute URLs are stored as site-relative paths (see SitePathSchema).
 */
import { z } from 'zod';
import {
  BillingPeriodSchema, BuildImageSchema, CurrencySchema, DateTimeSchema, LatLngSchema,
  MarketPositionSchema, OptionTypeSchema, SitePathSchema, SlugSchema, AmenitySlugSchema,
} from './common.ts';
import {
  BuildListingCardSchema, BuildPropertyDetailSchema, ConfigPayloadSchema, GeoPayloadSchema,
} from './catalog.ts';
import {
  MarketRatesPayloadSchema, PlaceHubSchema, PriceIndexCitySchema, RankingsPayloadSchema,
  SUGGEST_KINDS, operatorHubShape,
} from './market.ts';

/** 2: listing-columns.json and listing-pack.<locale>.json added (the engine's data, made for loading). */
export const BUILD_FORMAT_VERSION = 2;

export const ManifestSchema = z.strictObject({
  formatVersion: z.literal(BUILD_FORMAT_VERSION),
  buildId: z.string().regex(/^[A-Za-z0-9_-]+$/),
  builtAt: DateTimeSchema,
  gitSha: z.string(),
  /** sha256 of every input file, by file name relative to data/ */
  inputChecksums: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  /** sha256 of every output file of the build except the manifest, by file name */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  rowCounts: z.record(z.string(), z.int().min(0)),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export const Localized = z.strictObject({ en: z.string(), de: z.string(), es: z.string() });
export type LocalizedText = z.infer<typeof Localized>;

/** The cheapest published price of a listing, overall or of one option type. */
export const PriceFactSchema = z.strictObject({
  amount: z.number().min(0),
  currency: CurrencySchema,
  billingPeriod: BillingPeriodSchema,
  /** amount converted to EUR with the dated reference FX table; for ordering only */
  sortAmountEur: z.number().min(0),
});
export type PriceFact = z.infer<typeof PriceFactSchema>;

/**
 * listing-facts.json: one entry per listing, sorted by slug, in the same order as
 * listings.<locale>.json and properties.<locale>.json. Everything the query engine filters
 * and sorts on, without display text.
 */
export const ListingFactSchema = z.strictObject({
  slug: SlugSchema,
  countrySlug: SlugSchema,
  countryCode: z.string().length(2),
  citySlug: SlugSchema,
  zoneSlug: SlugSchema.nullable(),
  operatorSlug: SlugSchema.nullable(),
  amenities: z.array(AmenitySlugSchema),
  capacity: z.int().min(1).nullable(),
  coordinates: LatLngSchema.nullable(),
  updatedAt: DateTimeSchema.nullable(),
  rating: z.strictObject({ score: z.number().min(0).max(5), count: z.int().min(0) }).nullable(),
  featured: z.boolean(),
  /** raw street and house number as published (the API normalises them for the address filter) */
  street: z.string(),
  houseNumber: z.string(),
  /** option types the listing offers, price on request included */
  optionTypes: z.array(OptionTypeSchema),
  fromPrice: PriceFactSchema.nullable(),
  fromPriceByType: z.partialRecord(OptionTypeSchema, PriceFactSchema),
  /** against the city's overall median (no pricingOptionType) and per type */
  marketPosition: MarketPositionSchema.nullable(),
  marketPositionByType: z.partialRecord(OptionTypeSchema, MarketPositionSchema),
});
export type ListingFact = z.infer<typeof ListingFactSchema>;
export const ListingFactsFileSchema = z.array(ListingFactSchema);

const Indices = z.array(z.int().min(0));
const NullableIndices = z.array(z.int().min(-1));
const PriceColumnsSchema = z.strictObject({
  amount: z.array(z.number().min(0).nullable()),
  sortAmountEur: z.array(z.number().min(0).nullable()),
  /** into currencies / billingPeriods / marketPositions; -1 when none */
  currency: NullableIndices,
  billingPeriod: NullableIndices,
  marketPosition: NullableIndices,
});
/**
 * listing-columns.json: listing-facts.json by column, made for loading (api/catalog/columns.ts
 * derives it from the facts; the API verifies that in the background). Every array has one entry
 * per listing, in the order of listing-facts.json; repeated values are stored once (`dict`) and
 * referenced by index (-1 for null); amenities and option types as the ascending indices of the
 * listings that have them; dates as ms since the epoch.
 */
export const ListingColumnsSchema = z.strictObject({
  slugs: z.array(SlugSchema),
  dict: z.strictObject({
    country: z.array(SlugSchema),
    countryCode: z.array(z.string().length(2)),
    city: z.array(SlugSchema),
    zone: z.array(SlugSchema),
    operator: z.array(SlugSchema),
    street: z.array(z.string()),
    houseNumber: z.array(z.string()),
    currencies: z.array(CurrencySchema),
    billingPeriods: z.array(BillingPeriodSchema),
    marketPositions: z.array(MarketPositionSchema),
  }),
  country: Indices,
  countryCode: Indices,
  city: Indices,
  zone: NullableIndices,
  operator: NullableIndices,
  street: Indices,
  houseNumber: Indices,
  amenities: z.record(AmenitySlugSchema, Indices),
  optionTypes: z.partialRecord(OptionTypeSchema, Indices),
  /** the featured listings */
  featured: Indices,
  capacity: z.array(z.int().min(1).nullable()),
  lat: z.array(z.number().nullable()),
  lng: z.array(z.number().nullable()),
  updatedMs: z.array(z.number().nullable()),
  ratingScore: z.array(z.number().min(0).max(5).nullable()),
  ratingCount: z.array(z.int().min(0).nullable()),
  fromPrice: PriceColumnsSchema,
  fromPriceByType: z.partialRecord(OptionTypeSchema, PriceColumnsSchema),
});
export type ListingColumns = z.infer<typeof ListingColumnsSchema>;

/** facet-labels.json: localized labels of every facet and of every facet value. */
const LabelMap = z.record(z.string(), Localized);
export const FacetLabelsSchema = z.strictObject({
  keys: z.strictObject({
    country: Localized, city: Localized, zone: Localized, operator: Localized,
    pricingOptionType: Localized, amenities: Localized,
  }),
  country: LabelMap,
  city: LabelMap,
  zone: LabelMap,
  operator: LabelMap,
  pricingOptionType: LabelMap,
  amenities: LabelMap,
});
export type FacetLabels = z.infer<typeof FacetLabelsSchema>;

export const GeoFileSchema = GeoPayloadSchema;

/** market-rates.<locale>.json: every city; the API filters and sums. */
export const MarketRatesFileSchema = z.strictObject({
  asOf: DateTimeSchema,
  cities: z.array(z.strictObject({
    countrySlug: SlugSchema,
    /** listings in the city */
    propertyCount: z.int().min(0),
    /** current published prices (latest observation per offer, price on request excluded) */
    pricePointCount: z.int().min(0),
    rates: MarketRatesPayloadSchema.shape.cities.element,
  })),
});
export type MarketRatesFile = z.infer<typeof MarketRatesFileSchema>;

/** rankings.<locale>.json: by city slug, every eligible space ranked (the API applies `limit`). */
export const RankingsFileSchema = z.record(SlugSchema, RankingsPayloadSchema);

/** places.<locale>.json: by `<kind>/<slug>`. */
export const PlacesFileSchema = z.record(z.string().regex(/^(country|city|zone)\/[a-z0-9-]+$/), PlaceHubSchema);

/** operators.<locale>.json: by operator slug. */
export const BuildOperatorHubSchema = z.strictObject(operatorHubShape(BuildImageSchema));
export const OperatorsFileSchema = z.record(SlugSchema, BuildOperatorHubSchema);

/** suggest.json: the autocomplete index, one entry per place, operator and space. */
export const SuggestEntrySchema = z.strictObject({
  kind: z.enum(SUGGEST_KINDS),
  slug: SlugSchema,
  label: Localized,
  sublabel: Localized.nullable(),
  center: LatLngSchema.nullable(),
  propertyCount: z.int().min(0).nullable(),
  /** every name of the entry in every locale, as written (the API folds case and accents) */
  names: z.array(z.string().min(1)),
  /** larger places rank first: listings for places and operators, 1 for spaces */
  weight: z.number().min(0),
});
export const SuggestFileSchema = z.array(SuggestEntrySchema);
export type SuggestEntry = z.infer<typeof SuggestEntrySchema>;

/** price-index.json: served at {site}/api/price-index with meta.citation added. */
export const PriceIndexFileSchema = z.strictObject({
  asOf: DateTimeSchema,
  methodologyUrl: SitePathSchema,
  cities: z.array(PriceIndexCitySchema),
});

/** lead-routing.json: by space slug, where an inquiry about that space goes. */
export const LeadRoutingFileSchema = z.record(SlugSchema, z.strictObject({
  title: z.string(),
  citySlug: SlugSchema,
  operatorSlug: SlugSchema.nullable(),
  operatorName: z.string().nullable(),
  enquiryEmail: z.email().nullable(),
}));
export type LeadRouting = z.infer<typeof LeadRoutingFileSchema>;

export const ConfigFileSchema = ConfigPayloadSchema;

const Offsets = z.array(z.int().min(0));
/**
 * listing-pack.<locale>.json: what the API's engine splices into responses, made by the pipeline
 * from listings.<locale>.json and properties.<locale>.json so the API does not derive it at
 * start-up (api/catalog/pack.ts). Listing i, in the order of listing-facts.json: bytes
 * `cardStarts[i] .. cardCuts[i]` of listings.<locale>.json are its card without the
 * request-dependent fields (fromPrice, fromBillingPeriod, marketPosition, distanceMeters, which
 * every card has last) and without the closing brace; `markers[markerEnds[i-1] .. markerEnds[i])`
 * (UTF-16 code units) is its map marker likewise ('' when it has no coordinates); bytes
 * `detailStarts[i] .. detailEnds[i]` of properties.<locale>.json are its detail. Site paths stay
 * site-relative.
 */
export const ListingPackSchema = z.strictObject({
  cardStarts: Offsets,
  cardCuts: Offsets,
  markers: z.string(),
  markerEnds: Offsets,
  detailStarts: Offsets,
  detailEnds: Offsets,
});
export type ListingPack = z.infer<typeof ListingPackSchema>;

/** Every locale-independent JSON file of a build, by file name, with its schema. */
export const BUILD_FILES = {
  'config.json': ConfigFileSchema,
  'facet-labels.json': FacetLabelsSchema,
  'listing-facts.json': ListingFactsFileSchema,
  'listing-columns.json': ListingColumnsSchema,
  'suggest.json': SuggestFileSchema,
  'price-index.json': PriceIndexFileSchema,
  'lead-routing.json': LeadRoutingFileSchema,
} as const;

/** Every localized JSON file of a build, written as `<name>.<locale>.json` for en, de and es. */
export const LOCALIZED_BUILD_FILES = {
  listings: z.array(BuildListingCardSchema),
  properties: z.array(BuildPropertyDetailSchema),
  geo: GeoFileSchema,
  'market-rates': MarketRatesFileSchema,
  rankings: RankingsFileSchema,
  places: PlacesFileSchema,
  operators: OperatorsFileSchema,
  'listing-pack': ListingPackSchema,
} as const;

/** The other files of a build: manifest.json, rejects.csv, price-report.csv, price-report.datapackage.json. */
