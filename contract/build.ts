/**
 * The published build: what the pipeline writes to dist/builds/<id>/ and the API loads.
 * The pipeline validates every file against these schemas before it publishes;
 * the API checks the manifest and their structure when it loads a build. Files named
 * `<name>.<locale>.json` and `<name>.<locale>.ndjson` exist once per locale of LOCALES; the
 * others are locale-independent.
 * Absolute URLs are stored as site-relative paths (see SitePathSchema).
 */
import { z } from 'zod';
import {
  BillingPeriodSchema, BuildImageSchema, CurrencySchema, DateTimeSchema, LatLngSchema, LOCALES, type Locale,
  MarketPositionSchema, OptionTypeSchema, SitePathSchema, SlugSchema, AmenitySlugSchema,
} from './common.ts';
import {
  BuildMapMarkerSchema, BuildPropertyDetailSchema, BuildStaticCardSchema, ConfigPayloadSchema, GeoPayloadSchema,
} from './catalog.ts';
import { PRICE_BASES } from './prices.ts';
import {
  MarketRatesPayloadSchema, PlaceHubSchema, PriceIndexCitySchema, RankingsPayloadSchema,
  SnapshotSourceSchema, SuggestionSchema, operatorHubShape,
} from './market.ts';
import { BULK_FILES, PriceHistoryCitySchema, PriceHistoryFileSchema, RejectsSummarySchema, RELEASE_ID_PATTERN } from './research.ts';
import { SUGGEST_INDEX_FILE } from './suggest-index.ts';

/** Where the pipeline publishes (`builds/<id>/`, the `current` link) and the API serves from, unless DIST_DIR says otherwise. */
export const DEFAULT_DIST_DIR = 'dist';

/**
 * 3: files made for loading: the listings' cards, map markers and details as NDJSON, one line per
 * listing in the order of listing-columns.json (no byte offsets in any file); the manifest carries
 * the hash of the contract the build was checked against.
 * 4: a record index per details file (DETAILS_INDEX): the API checks every detail line it reads;
 * suggest.json carries its names folded (`foldedNames`), so the API does not fold them at load.
 * 5: listing-columns.json's prices carry the comparable price (comparableAmount, comparableEur,
 * comparableCurrency, comparableBasis) in place of sortAmountEur.
 * 6: listings in place order (country, city, zone, then slug) instead of slug order, in
 * listing-columns.json and the NDJSON files alike;
 * and the autocomplete as SUGGEST_FILES (suggestions per locale as NDJSON in rank order, and
 * suggest-index.bin with the lookups' sorted words, postings and typo blocks) in place of suggest.json;
 * and the hubs (rankings, places, operators) are keyed files (KEYED_BUILD_FILES): one value per line,
 * a record index and the keys, in place of one JSON object per locale.
 * 7: the listing columns as listing-columns.bin (contract/listing-columns.ts: typed arrays with a
 * JSON header, and the sort orders computed by the pipeline) in place of listing-columns.json;
 * and a line index beside each NDJSON file the API holds in memory (LINE_INDEXED_FILES,
 * contract/line-index.ts); and the lead routing as a keyed file (LEAD_ROUTING) in place of
 * lead-routing.json.
 * 8: the market rates as one market-rates.json, each city named by its slug alone (its name is the
 * locale's geo file's), in place of market-rates.<locale>.json, which differed only in the names.
 * 9: listing-columns.bin orders the listings by latitude too (`order.lat`).
 * 10: facet-labels.json lists each facet's values in label order per locale (`order`); the
 * manifest gives each file's xxh64 beside its sha256 (`xxh64`), which the API checks at load; a
 * keyed file's lines are in the order of their keys (keyedEntries).
 * 11: the manifest names the release of the build's research files (`releaseId`), which is named
 * by its content and may be older than the build.
 * 12: every research file (RELEASE_FILES) has its gzip and brotli encodings beside it, listed in
 * the manifest (`price-history.json.gz`, `.br`: contract/research.ts PRECOMPRESSED).
 * 13: suggest-index.bin answers the heavy prefixes too (SUGGEST_HEAVY_POSTINGS, typo matches
 * included) beside the short ones: `answeredPrefixes`, `answerTotal`, `answerTopStart`, `answerTop`
 * in place of `shortPrefixes`, `shortTotal`, `shortTopStart`, `shortTop`.
 * 14: the cards of every locale split where the locales differ (CARD_FILES), which the API holds
 * in place of cards.<locale>.ndjson.
 * 15: the monthly history's cities as a keyed file too (PRICE_HISTORY_BY_CITY), beside
 * price-history.json, so a price page reads one city from disk rather than the file whole.
 * 16: listing-columns.bin holds what the engine derived at every start (contract/listing-columns.ts
 * ListingIndexes): each order's ranks, the slug table, latitude cosines, the coordinates' bitset and
 * latitude order, the cell grid; a listing with only one of latitude and longitude has neither.
 * 17: an autocomplete entry the same in a locale as in the first (SUGGEST_FILES) is `null` there.
 */
export const BUILD_FORMAT_VERSION = 17;

export const ManifestSchema = z.strictObject({
  formatVersion: z.literal(BUILD_FORMAT_VERSION),
  buildId: z.string().regex(/^[A-Za-z0-9_-]+$/),
  /** the release that holds the build's research files (releases/<releaseId>/): every build of the same data names the same one */
  releaseId: z.string().regex(RELEASE_ID_PATTERN),
  builtAt: DateTimeSchema,
  gitSha: z.string(),
  /** sha256 of the JSON Schemas of every build file (contract/hash.ts): a server checks it was built against the same contract */
  contractHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** sha256 of every input file, by file name relative to data/ */
  inputChecksums: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  /** sha256 of every output file of the build except the manifest, by file name (copies, downloads and releases are checked against it) */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  /** xxh64 of the same files, by file name: what the API checks the files it holds in memory against at load (contract/file-digests.ts) */
  xxh64: z.record(z.string(), z.string().regex(/^[0-9a-f]{16}$/)),
  /**
   * counts of the outputs (`listings` …) and of the input: `input.<table>` rows read,
   * `input.<table>.rejected` rows quarantined, `input.<table>.<name>` distinct counts
   * (pipeline/lib/volume.ts); the next build's volume guards compare with them
   */
  rowCounts: z.record(z.string(), z.int().min(0)),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** A text in every locale. */
export const Localized = z.strictObject(Object.fromEntries(LOCALES.map((l) => [l, z.string()])) as Record<Locale, z.ZodString>);
export type LocalizedText = z.infer<typeof Localized>;

const Indices = z.array(z.int().min(0));
const NullableIndices = z.array(z.int().min(-1));
/**
 * One product's prices (overall or of an option type): the fromPrice (amount, currency,
 * billingPeriod) cards show, the market position, and the comparable price the price order and
 * the price filter read (contract/prices.ts): on the first basis of the product's order, the
 * cheapest; its amount in its currency (monthly equivalent on the monthly basis), and in EUR.
 */
const PriceColumnsSchema = z.strictObject({
  amount: z.array(z.number().min(0).nullable()),
  /** into currencies / billingPeriods / marketPositions; -1 when none */
  currency: NullableIndices,
  billingPeriod: NullableIndices,
  marketPosition: NullableIndices,
  comparableAmount: z.array(z.number().min(0).nullable()),
  comparableEur: z.array(z.number().min(0).nullable()),
  /** into currencies; -1 when none */
  comparableCurrency: NullableIndices,
  /** into PRICE_BASES (contract/prices.ts); -1 when none */
  comparableBasis: z.array(z.int().min(-1).max(PRICE_BASES.length - 1)),
});
/**
 * The listing_columns mart: what the query engine filters and sorts on, by column, which the
 * pipeline validates and writes as listing-columns.bin (contract/listing-columns.ts).
 * Every array has one entry per listing, in the order of `slugs` (place order: by country, city,
 * zone, then slug, so each country, city and zone is one range of listing indices), which is also
 * the line order of the NDJSON files; repeated values are stored once (`dict`, in order of first use) and
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

/** facet-labels.json: localized labels of every facet and of every facet value, and each facet's values in label order. */
const LabelMap = z.record(z.string(), Localized);
export const LABELLED_FACETS = ['country', 'city', 'zone', 'operator', 'pricingOptionType', 'amenities'] as const;
export type LabelledFacet = (typeof LABELLED_FACETS)[number];

/**
 * The order of labelled values in a locale, which GET /v1/facets lists values of the same count
 * in: the locale's collation, ignoring case and accents, then the value.
 */
export function compareLabelled(locale: Locale): (a: { value: string; label: string }, b: { value: string; label: string }) => number {
  const collator = new Intl.Collator(locale, { sensitivity: 'base' });
  return (a, b) => collator.compare(a.label, b.label) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Each facet's values in the order of their labels in every locale (compareLabelled): the `order` of facet-labels.json. */
export function labelOrders(maps: Record<LabelledFacet, Record<string, LocalizedText>>): FacetLabels['order'] {
  return Object.fromEntries(LABELLED_FACETS.map((facet) => [facet, Object.fromEntries(LOCALES.map((l) => {
    const labelled = Object.entries(maps[facet]).map(([value, label]) => ({ value, label: label[l] }));
    return [l, labelled.sort(compareLabelled(l)).map((v) => v.value)];
  }))])) as FacetLabels['order'];
}

const perFacet = <T extends z.ZodType>(schema: T) => z.strictObject(Object.fromEntries(LABELLED_FACETS.map((f) => [f, schema])) as Record<LabelledFacet, T>);
export const FacetLabelsSchema = z.strictObject({
  keys: perFacet(Localized),
  ...(Object.fromEntries(LABELLED_FACETS.map((f) => [f, LabelMap])) as Record<LabelledFacet, typeof LabelMap>),
  /** each facet's values in label order per locale (labelOrders): every value of its label map once, which the API checks at load */
  order: perFacet(z.strictObject(Object.fromEntries(LOCALES.map((l) => [l, z.array(z.string())])) as Record<Locale, z.ZodArray<z.ZodString>>)),
});
export type FacetLabels = z.infer<typeof FacetLabelsSchema>;

export const GeoFileSchema = GeoPayloadSchema;

/**
 * market-rates.json: every city's rates, the same in every locale; a city is named by its slug
 * alone, and the API takes its name in a locale from that locale's geo file. The API filters and sums.
 */
export const MarketRatesFileSchema = z.strictObject({
  asOf: DateTimeSchema,
  cities: z.array(z.strictObject({
    countrySlug: SlugSchema,
    /** listings in the city */
    propertyCount: z.int().min(0),
    /** current published prices (latest observation per offer, price on request excluded) */
    pricePointCount: z.int().min(0),
    rates: MarketRatesPayloadSchema.shape.cities.element.extend({ city: z.strictObject({ slug: SlugSchema }) }),
  })),
});
export type MarketRatesFile = z.infer<typeof MarketRatesFileSchema>;

/**
 * rankings.<locale>.json: by city slug, the top MAX_RANKING_LIMIT (contract/market.ts) spaces ranked;
 * sampleSize counts every eligible space (the API applies `limit`).
 */
export const RankingsFileSchema = z.record(SlugSchema, RankingsPayloadSchema);

/** places.<locale>.json: by `<kind>/<slug>`. */
export const PlacesFileSchema = z.record(z.string().regex(/^(country|city|zone)\/[a-z0-9-]+$/), PlaceHubSchema);

/** operators.<locale>.json: by operator slug. */
export const BuildOperatorHubSchema = z.strictObject(operatorHubShape(BuildImageSchema));
export const OperatorsFileSchema = z.record(SlugSchema, BuildOperatorHubSchema);

/** price-index.json: served at {site}/api/price-index with meta.citation added. */
export const PriceIndexFileSchema = z.strictObject({
  asOf: DateTimeSchema,
  methodologyUrl: SitePathSchema,
  cities: z.array(PriceIndexCitySchema),
  source: SnapshotSourceSchema.optional(),
});

/** The lead routing: by space slug, where an inquiry about that space goes (written as LEAD_ROUTING). */
export const LeadRoutingFileSchema = z.record(SlugSchema, z.strictObject({
  title: z.string(),
  citySlug: SlugSchema,
  operatorSlug: SlugSchema.nullable(),
  operatorName: z.string().nullable(),
  enquiryEmail: z.email().nullable(),
}));
export type LeadRouting = z.infer<typeof LeadRoutingFileSchema>;
export type LeadRoute = LeadRouting[string];

/**
 * The lead routing as a keyed file of its own (not localized: KEYED_FILE without a locale,
 * `lead-routing.ndjson`, `.index`, `.keys.json`): the API reads the routes of the spaces a lead
 * names when it receives one.
 */
export const LEAD_ROUTING = { name: 'lead-routing', schema: LeadRoutingFileSchema } as const;

/**
 * The cities of price-history.json as a keyed file of their own, by city slug (KEYED_FILE without a
 * locale: `price-history.ndjson`, `.index`, `.keys.json`), each line the city's entry as the JSON
 * file holds it: the price pages read the cities they show, a line each, never the whole history
 * (637 MB at 1,000,000 spaces). Written with the history; a build without one has neither.
 */
export const PRICE_HISTORY_BY_CITY = { name: 'price-history', schema: PriceHistoryCitySchema } as const;

export const ConfigFileSchema = ConfigPayloadSchema;

/** A map marker as the build stores it: without its price, which depends on the request. */
export const BuildStaticMarkerSchema = BuildMapMarkerSchema.omit({ fromPrice: true, fromBillingPeriod: true });
export type BuildStaticMarker = z.infer<typeof BuildStaticMarkerSchema>;

/** Every locale-independent JSON file of a build, by file name, with its schema. */
export const BUILD_FILES = {
  'config.json': ConfigFileSchema,
  'facet-labels.json': FacetLabelsSchema,
  'price-index.json': PriceIndexFileSchema,
  'market-rates.json': MarketRatesFileSchema,
} as const;

/** Every localized JSON file of a build, written as `<name>.<locale>.json` for each locale of LOCALES. */
export const LOCALIZED_BUILD_FILES = {
  geo: GeoFileSchema,
} as const;

/**
 * The localized files looked up by key, one value per request (the hubs), with the schema of the
 * whole map the pipeline validates. Each is written as three files per locale (KEYED_FILE): the
 * values, one JSON value and a newline per line (site paths site-relative); its record index, in
 * the format of DETAILS_INDEX; and the key of every line, in line order, as a JSON array of
 * strings. The API holds the keys and the index, and reads a line when it is asked for, checked
 * against the index.
 */
export const KEYED_BUILD_FILES = {
  rankings: RankingsFileSchema,
  places: PlacesFileSchema,
  operators: OperatorsFileSchema,
} as const;

const keyedBase = (name: string, locale?: string) => (locale ? `${name}.${locale}` : name);
export const KEYED_FILE = {
  lines: (name: string, locale?: string) => `${keyedBase(name, locale)}.ndjson`,
  index: (name: string, locale?: string) => `${keyedBase(name, locale)}.index`,
  keys: (name: string, locale?: string) => `${keyedBase(name, locale)}.keys.json`,
} as const;

/**
 * A keyed file's entries in its line order: by key, ascending in UTF-16 code units, which the API
 * relies on to find a key by a binary search of the keys.
 */
export const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const keyedEntries = <T>(values: Record<string, T>): [string, T][] => Object.entries(values).sort(([a], [b]) => compareKeys(a, b));

/** Every file of the keyed files of a build. */
export const keyedFileNames = (locales: readonly string[]) => Object.keys(KEYED_BUILD_FILES)
  .flatMap((name) => locales.flatMap((l) => [KEYED_FILE.lines(name, l), KEYED_FILE.index(name, l), KEYED_FILE.keys(name, l)]));

/**
 * The listings of a locale as NDJSON, written as `<name>.<locale>.ndjson`: line i (a JSON value
 * and a newline) belongs to the listing at index i of listing-columns.bin's `slugs`, so every
 * file has exactly one line per listing. `markers` holds `null` for a listing without coordinates.
 * Site paths stay site-relative; request-dependent fields are added by the API.
 */
export const NDJSON_BUILD_FILES = {
  cards: BuildStaticCardSchema,
  markers: BuildStaticMarkerSchema.nullable(),
  details: BuildPropertyDetailSchema,
} as const;

/** The NDJSON files the pipeline writes with a line index (`<name>.<locale>.lines`, contract/line-index.ts). */
export const LINE_INDEXED_FILES = ['cards', 'markers'] as const;

/**
 * The cards as the API holds them: the bytes of a card that every locale shares once, and each
 * locale's own bytes (its city and zone names, excerpt, …) apart. `card-parts.ndjson` has two
 * lines per listing, 2i and 2i + 1: the bytes card i begins and ends with in every locale;
 * `card-texts.<locale>.ndjson` has one, line i: the locale's bytes between them (maybe none).
 * Card i in a locale is those three lines joined without their newlines, byte for byte the line
 * of cards.<locale>.ndjson (which the pipeline checked and the API leaves on disk). Each file has
 * its line index (`.lines`, contract/line-index.ts); no site path spans two of them.
 */
export const CARD_FILES = {
  parts: 'card-parts.ndjson',
  texts: (locale: string) => `card-texts.${locale}.ndjson`,
} as const;

/**
 * `details.<locale>.index`, the record index of `details.<locale>.ndjson` (a file the API leaves on
 * disk and reads a line at a time): for every line, in line order, its length in bytes (newline
 * included) and its CRC-32 (zlib's), each a little-endian uint32. The pipeline writes it with the
 * lines it validated; the API checks each line it reads against it, so it serves only the bytes the
 * pipeline checked, even when the file is damaged after the build was loaded.
 */
export const DETAILS_INDEX = {
  name: (locale: string) => `details.${locale}.index`,
  bytesPerRecord: 8,
} as const;

/**
 * The autocomplete (GET /v1/search/suggest), one entry per place, operator and space:
 * `suggest.<locale>.ndjson` holds each entry as the endpoint returns it in that locale, one line
 * per entry in rank order (exact matches rank by weight, kind, slug; line i is rank i), and
 * `suggest-index.bin` (contract/suggest-index.ts) the words of every name and what the lookups
 * need, sorted and tabulated by the pipeline. In every locale but the first of LOCALES, an entry
 * written byte for byte as in the first is `null` (most spaces: their names are not translated),
 * so the API holds it once.
 */
export const SUGGEST_FILES = {
  lines: (locale: string) => `suggest.${locale}.ndjson`,
  lineSchema: SuggestionSchema,
  index: SUGGEST_INDEX_FILE,
} as const;

/**
 * The research files a build publishes beside the index and serves as they are (checked by the
 * pipeline, not parsed by the API at load): the monthly history as JSON (the CSV beside it,
 * price-report-history.csv, is described by price-report.datapackage.json), the snapshot's
 * declaration of what it is, and the quarantine in figures.
 */
export const RESEARCH_FILES = {
  'price-history.json': PriceHistoryFileSchema,
  /** data/source.json as read: what the snapshot is (sample data or not) */
  'source.json': SnapshotSourceSchema,
  'rejects-summary.json': RejectsSummarySchema,
} as const;

/** The other files of a build, besides manifest.json (which lists every file but itself). */
export const OTHER_BUILD_FILES = [
  'price-report.csv', 'price-report-history.csv', 'price-report.datapackage.json', 'rejects.csv',
  /** pipeline/methodology.md as it was when the build was made: the text the price-index page renders */
  'methodology.md',
  /** served from the release alone */
  ...BULK_FILES,
] as const;
