/**
 * The price index as a research dataset beyond today's snapshot: the monthly history
 * ({site}/api/price-index/history, {site}/api/price-report/history).
 */
import { createHash } from 'node:crypto';
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
  /**
   * ours: the chained matched-model (Jevons) index, INDEX_BASE (100) at the first month of its segment; absent
   * where the chain does not reach the month (the methodology states the rule)
   */
  index: z.number().positive().optional(),
  /** ours: the spaces priced at the end of both this month and the month before, the index's link sample */
  matchedSpaces: z.int().min(0),
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

/** rejects-summary.json: the quarantine in figures, per input file and rule (the rows are in the build's rejects.csv). */
export const RejectsSummarySchema = z.strictObject({
  rejected: z.int().min(0),
  files: z.array(z.strictObject({
    file: z.string(),
    rows: z.int().min(0),
    rejected: z.int().min(0),
    /** rejected rows by rule, each row under the first rule it breaks */
    rules: z.record(z.string(), z.int().min(1)),
  })),
});
export type RejectsSummary = z.infer<typeof RejectsSummarySchema>;

/**
 * Releases: the research files of the published builds, kept under `<dist>/releases/<releaseId>/`
 * and never rewritten, served at {site}/api/releases/<releaseId>/<file>. A release is named by its
 * content, so every build of the same data cites the one release (pipeline/lib/release.ts). Its
 * datapackage.json lists every file with its sha256 and size.
 */
export const RELEASES_DIR = 'releases';
/** The price index's files in a release. */
export const INDEX_RELEASE_FILES = [
  'price-report.csv', 'price-report-history.csv', 'price-index.json', 'price-history.json', 'rejects-summary.json', 'source.json',
  'methodology.md',
] as const;
/** The bulk download: the listings and their current offers, as Parquet and as CSV (the same rows). */
export const BULK_FILES = ['listings.parquet', 'listings.csv', 'offers.parquet', 'offers.csv'] as const;
export type BulkFile = (typeof BULK_FILES)[number];
export const RELEASE_FILES = [...INDEX_RELEASE_FILES, ...BULK_FILES] as const;
export type ReleaseFile = (typeof RELEASE_FILES)[number];
/**
 * The encodings the pipeline writes beside every research file, in the build and in its release
 * (`price-history.json.br`, `price-history.json.gz`), in the server's order of preference: a
 * download is sent compressed without being compressed per request.
 */
export const PRECOMPRESSED = [{ encoding: 'br', suffix: '.br' }, { encoding: 'gzip', suffix: '.gz' }] as const;
export type ContentEncoding = (typeof PRECOMPRESSED)[number]['encoding'];
/**
 * Whether a release file has encoded siblings: Parquet compresses its own column chunks, so gzip
 * or brotli over it would save little and cost a pass over the file at every build.
 */
export const isPrecompressed = (file: string) => !file.endsWith('.parquet');
/** The name of a file's encoded sibling. */
export const encodedName = (file: string, encoding: ContentEncoding) => file + PRECOMPRESSED.find((p) => p.encoding === encoding)!.suffix;
/**
 * `<dist>/releases/index.json`: the id of every release, rewritten by the pipeline after it writes
 * one, so a replica fed by BUILD_URL (which cannot list a directory over HTTP) finds them all.
 */
export const RELEASES_INDEX = 'index.json';
export const RELEASE_DATAPACKAGE = 'datapackage.json';
/** Hex digits of the content digest in a release id: 48 bits, and a clash is refused, never overwritten. */
export const RELEASE_DIGEST_DIGITS = 12;
/**
 * A release id: the UTC date of its data (asOf) and the first 12 hex digits of its content digest,
 * e.g. 2026-10-29-3f9a1c2b7d4e; a release made before releases were named by their content keeps
 * the id of the build that made it (e.g. 20261123T012058417Z-9365), under which it was cited.
 */
export const RELEASE_ID_PATTERN = new RegExp(`^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9a-f]{${RELEASE_DIGEST_DIGITS}}|[0-9]{8}T[0-9]{9}Z-[0-9]+)$`);

/** The site path of a release, or of one of its files. */
export const releasePath = (releaseId: string, file?: string) => `/api/releases/${releaseId}${file ? `/${file}` : ''}`;

/**
 * `<asOf date>-<digest>`: the UTC date of the data, and the start of the sha256 of the research
 * files' `sha256sum` lines (`<sha256>  <file>\n`) in file name order, which a reader can check in
 * the release's directory: `LC_ALL=C sha256sum $(LC_ALL=C ls | grep -vx datapackage.json) | sha256sum`.
 */
export function releaseId(asOf: string, sha256Of: (file: ReleaseFile) => string): string {
  const lines = [...RELEASE_FILES].sort().map((file) => `${sha256Of(file)}  ${file}\n`).join('');
  return `${asOf.slice(0, 10)}-${createHash('sha256').update(lines).digest('hex').slice(0, RELEASE_DIGEST_DIGITS)}`;
}

/** A release's datapackage.json, as far as the API reads it (the rest is served as it is). */
export const ReleasePackageSchema = z.looseObject({
  version: z.string().regex(RELEASE_ID_PATTERN),
  created: DateTimeSchema,
  asOf: DateTimeSchema,
  sampleData: z.boolean(),
  description: z.string(),
  resources: z.array(z.looseObject({
    name: z.string(),
    /** the release file's site path, releasePath(version, file) */
    path: z.string(),
    bytes: z.int().min(0),
    hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  })),
});
export type ReleasePackage = z.infer<typeof ReleasePackageSchema>;

export const ReleasesIndexSchema = z.strictObject({ releases: z.array(z.string().regex(RELEASE_ID_PATTERN)) });

/** One release as /api/releases lists it. */
export const ReleaseSchema = z.strictObject({
  /** the release id (the field keeps the name it had when releases were named by their build) */
  buildId: z.string().regex(RELEASE_ID_PATTERN),
  /** the release's date: its data's (asOf), or for a release named by its build, when that build was made */
  created: DateTimeSchema,
  /** the data's own time: the latest accepted price observation */
  asOf: DateTimeSchema,
  sampleData: z.boolean(),
  url: UriSchema,
  datapackage: UriSchema,
  citationCff: UriSchema,
  bibtex: UriSchema,
  files: z.array(z.strictObject({
    name: z.string(),
    url: UriSchema,
    bytes: z.int().min(0),
    /** `sha256:<hex>`, as in the datapackage */
    hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  })),
});
export type Release = z.infer<typeof ReleaseSchema>;
