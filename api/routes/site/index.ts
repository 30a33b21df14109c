/**
 * Site paths served by the same process (docs/design.md §3): the price index as JSON, the price report
 * as CSV with its Frictionless Data Package, and the discovery documents.
 */
import { z } from 'zod';
import type { LoadedBuild } from '../../loading/load.ts';
import { envelope, LocaleSchema, MetaSchema } from '../../../contract/common.ts';
import { PriceIndexPayloadSchema } from '../../../contract/market.ts';
import { PriceHistoryPayloadSchema } from '../../../contract/research.ts';
import { resolveSitePathsInJson } from '../../catalog/text.ts';
import { perBuild } from '../../site/per-build.ts';
import { envelopeBytes, envelopeEnds } from '../../http/envelope.ts';
import { readReleasePackage, resolvedReleasePackage } from '../../site/releases.ts';
import { LICENSE_URL } from '../../http/citation.ts';
import { CACHE, etagOf, type CacheHint } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute, type RouteResult } from '../../http/route.ts';
import type { FileBody } from '../../loading/checked-file.ts';
import { concatenated, type CheckedFile } from '../../loading/checked-file.ts';
import { DamagedFileError } from '../../loading/records.ts';
import { INDEX_BASE, MEDIAN_INTERVAL_LEVEL, MIN_SAMPLE_SIZE, STALE_PRICE_DAYS } from '../../../contract/rules.ts';
import {
  API_CATALOG_CONTENT_TYPE, ApiCatalogSchema, AuthorizationServerMetadataSchema, ProtectedResourceMetadataSchema,
  apiCatalog, authGuide, authorizationServerMetadata, protectedResourceMetadata, AUTH_GUIDE_PATH,
} from '../../site/discovery.ts';

const STATUSES = [200, 400, 429, 500, 502];
const DOCUMENT_CACHE: CacheHint = { maxAge: 3600, staleWhileRevalidate: 86400 };
const JSON_TYPE = 'application/json; charset=utf-8';
const LICENSE_LINK = `<${LICENSE_URL}>; rel="license"`;
const PRICE_REPORT_PATH = '/api/price-report';
const CSV_TYPE = 'text/csv; charset=utf-8';

const priceIndexRoute = defineRoute({
  operationId: 'getPriceIndex',
  method: 'GET',
  url: '/api/price-index',
  summary: 'Price index for all cities (JSON, CC BY 4.0)',
  description:
    'Per city: median, average, minimum and maximum monthly price per desk, sample size (distinct spaces) and the breakdown by '
    + `desk product. A city or product is published at a sample of ${MIN_SAMPLE_SIZE} or more; thinner ones carry published: false, flag `
    + '"insufficient_sample" and no figures. A published figure carries its quality measures: quartiles (p25, p75), the median '
    + `age of its prices in days, the share older than ${STALE_PRICE_DAYS} days, the largest operator's share of its spaces, its flag letters `
    + `and medianInterval, the median's ${MEDIAN_INTERVAL_LEVEL * 100}% distribution-free confidence interval (two prices of the sample by binomial ranks). `
    + 'methodologyUrl links the methodology (in the repository: pipeline/methodology.md). locale (optional, default en) only chooses the language of meta.citation.',
  tags: ['site'],
  querystring: z.object({ locale: LocaleSchema.optional() }),
  response: envelope(PriceIndexPayloadSchema, MetaSchema),
  statuses: STATUSES,
  cache: CACHE.priceIndex,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query, build, cite }) => {
    const locale = query.locale ?? 'en';
    const { asOf } = build.priceIndexHead;
    return { json: envelopeBytes(build.priceIndexJson, { citation: cite(locale, { kind: 'price-index' }, { asOf, release: build.manifest.releaseId }) }) };
  },
});

/** A research file of the build as a download named after it and the data date, under its licence, streamed from disk. */
function download(build: LoadedBuild, name: 'price-report' | 'price-report-history'): { file: FileBody } {
  const date = build.priceIndexHead.asOf.slice(0, 10);
  const file = build.servedFiles.body(`${name}.csv`, CSV_TYPE, { 'content-disposition': `attachment; filename="${name}-${date}.csv"`, link: LICENSE_LINK });
  if (!file) throw new ApiError('NOT_FOUND', `This build publishes no ${name}.csv.`);
  return { file };
}

const HISTORY_FILE = 'price-history.json';
/** Where the history's cities start: the head before them holds its one site path (methodologyUrl); no city has one. */
const CITIES_OPEN = Buffer.from('"cities":[');

/**
 * price-history.json as the envelope's data: its head up to the cities (read once per build, its
 * site path resolved), then the file's own bytes from there to the end, newline left out.
 */
function historyParts(build: LoadedBuild, siteUrl: string): Promise<{ file: CheckedFile; xxh64: string; head: Buffer; from: number; to: number }> {
  return perBuild(build, `${HISTORY_FILE} head`, async () => {
    const served = build.servedFiles.checked(HISTORY_FILE);
    if (!served) throw new ApiError('NOT_FOUND', `This build publishes no ${HISTORY_FILE}.`);
    const { file } = served;
    const start = Buffer.concat(await (await file.open(0, Math.min(file.size, 1 << 20))).toArray());
    const at = start.indexOf(CITIES_OPEN);
    if (at < 0) throw new DamagedFileError(HISTORY_FILE, 'the file', 'no "cities" in its first MB');
    const from = at + CITIES_OPEN.length;
    const last = Buffer.concat(await (await file.open(file.size - 1)).toArray());
    const head = Buffer.from(resolveSitePathsInJson(start.subarray(0, from).toString('utf8'), siteUrl));
    return { ...served, head, from, to: last[0] === 0x0a ? file.size - 1 : file.size };
  });
}

const priceHistoryRoute = defineRoute({
  operationId: 'getPriceIndexHistory',
  method: 'GET',
  url: '/api/price-index/history',
  summary: 'Monthly history of the price index (JSON, CC BY 4.0)',
  description:
    'Per city, overall (points) and per desk product (byType), one point per month of months: the offers as they stood at '
    + 'the end of the month (the latest observation of each offer before the month ended), with the same normalisation, '
    + `sample rule and threshold (${MIN_SAMPLE_SIZE} distinct spaces) as the price index, whose figures equal the last month's. `
    + 'The median level moves when spaces enter or leave the sample; index is a chained matched-model (Jevons) index over the '
    + `spaces priced at both month ends (matchedSpaces), ${INDEX_BASE} at the base month of a segment, published from ${MIN_SAMPLE_SIZE} `
    + 'matched spaces; a segment that starts again after an earlier one is flagged b. '
    + 'locale (optional, default en) only chooses the language of meta.citation.',
  tags: ['site'],
  querystring: z.object({ locale: LocaleSchema.optional() }),
  response: envelope(PriceHistoryPayloadSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.priceIndex,
  rateLimit: 'read',
  // streamed, never read whole: the envelope's head, the file's bytes, its meta
  handler: async ({ query, build, config, cite }): Promise<RouteResult> => {
    const { file, xxh64, head, from, to } = await historyParts(build, config.siteUrl);
    const pinned = { asOf: build.priceIndexHead.asOf, release: build.manifest.releaseId };
    const [open, close] = envelopeEnds({ citation: cite(query.locale ?? 'en', { kind: 'price-index' }, pinned) });
    const prefix = Buffer.concat([open, head]);
    const representation = {
      etag: etagOf(Buffer.concat([prefix, Buffer.from(xxh64), close])),
      size: prefix.length + (to - from) + close.length,
      open: async () => concatenated([prefix, await file.open(from, to), close]),
    };
    return { file: { contentType: JSON_TYPE, representations: [representation] } };
  },
});

const priceReportHistoryRoute = defineRoute({
  operationId: 'getPriceReportHistory',
  method: 'GET',
  url: `${PRICE_REPORT_PATH}/history`,
  summary: 'Monthly history of the price report as CSV (CC BY 4.0)',
  description:
    'RFC 4180 CSV in UTF-8 with a header row, long format: one row per city, product and month (country_code, city_slug, '
    + 'city_name, currency, product_type, month, sample_size, published, median, average, min, max, p25, p75, median_age_days, '
    + 'stale_share, largest_operator_share, flags); the same rows as '
    + `/api/price-index/history. Described by ${PRICE_REPORT_PATH}.datapackage.json.`,
  tags: ['site'],
  querystring: z.object({}),
  response: z.string(),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.priceIndex,
  rateLimit: 'read',
  handler: ({ build }) => download(build, 'price-report-history'),
});

const priceReportRoute = defineRoute({
  operationId: 'getPriceReport',
  method: 'GET',
  url: PRICE_REPORT_PATH,
  summary: 'Price report as CSV (CC BY 4.0)',
  description:
    'RFC 4180 CSV in UTF-8 with a header row, one row per city and product (product_type "all" for the city): country_code, '
    + 'city_slug, city_name, currency, product_type, sample_size, published, median, average, min, max, as_of, then the quality '
    + 'columns p25, p75, median_age_days, stale_share, largest_operator_share, flags. Unpublished '
    + `rows (sample under ${MIN_SAMPLE_SIZE}) leave the figures and quality columns empty. Described by ${PRICE_REPORT_PATH}.datapackage.json.`,
  tags: ['site'],
  querystring: z.object({}),
  response: z.string(),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.priceIndex,
  rateLimit: 'read',
  handler: ({ build }) => download(build, 'price-report'),
});

const priceReportPackageRoute = defineRoute({
  operationId: 'getPriceReportDataPackage',
  method: 'GET',
  url: `${PRICE_REPORT_PATH}.datapackage.json`,
  summary: 'Frictionless Data Package describing the price report and its history',
  description:
    'The datapackage of the current build\'s release (/api/releases/{releaseId}/datapackage.json): the Table Schema of every '
    + 'column of the price report and its history, its licence (CC BY 4.0), sources, attribution text naming the data date, '
    + 'and every file of the release with the URL that serves the same bytes forever, its sha256 (hash) and size (bytes).',
  tags: ['site'],
  querystring: z.object({}),
  response: z.looseObject({ resources: z.array(z.looseObject({})) }),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.priceIndex,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ build, config }) => ({
    raw: resolvedReleasePackage(await readReleasePackage(build, build.manifest.releaseId), config.siteUrl, config.serviceName),
    contentType: JSON_TYPE,
    headers: { link: LICENSE_LINK },
  }),
});

const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';

const protectedResourceRoute = defineRoute({
  operationId: 'getProtectedResourceMetadata',
  method: 'GET',
  url: PROTECTED_RESOURCE,
  summary: 'OAuth protected-resource metadata (RFC 9728): nothing is protected',
  description: 'Empty scopes_supported and bearer_methods_supported: no endpoint takes a token. See /auth.md.',
  tags: ['discovery'],
  querystring: z.object({}),
  response: ProtectedResourceMetadataSchema,
  statuses: STATUSES,
  cache: DOCUMENT_CACHE,
  rateLimit: 'read',
  handler: ({ config }) => ({ raw: JSON.stringify(protectedResourceMetadata(config)), contentType: JSON_TYPE }),
});

const protectedResourcePageRoute = defineRoute({
  operationId: 'getPageProtectedResourceMetadata',
  method: 'GET',
  url: `${PROTECTED_RESOURCE}/*`,
  summary: 'Protected-resource metadata of a page URL (RFC 9728 §3.1)',
  description: `The well-known segment is inserted before the page path: ${PROTECTED_RESOURCE}/en describes {site}/en, with the same empty scopes.`,
  tags: ['discovery'],
  querystring: z.object({}),
  response: ProtectedResourceMetadataSchema,
  statuses: [200, 400, 404, 429, 500, 502],
  cache: DOCUMENT_CACHE,
  rateLimit: 'read',
  handler: ({ request, config }) => {
    // Fastify hands the wildcard over percent-decoded: re-encode each segment so `resource` stays a URI.
    const segments = ((request.params as { '*': string })['*'] ?? '').replace(/\/$/, '').split('/');
    if (segments.some((s, i) => s === '.' || s === '..' || (s === '' && i > 0))) {
      throw new ApiError('NOT_FOUND', 'No page at that path.');
    }
    const pagePath = segments[0] === '' ? '' : `/${segments.map(encodeURIComponent).join('/')}`;
    return { raw: JSON.stringify(protectedResourceMetadata(config, pagePath)), contentType: JSON_TYPE };
  },
});

const authorizationServerRoute = defineRoute({
  operationId: 'getAuthorizationServerMetadata',
  method: 'GET',
  url: '/.well-known/oauth-authorization-server',
  summary: 'OAuth authorization-server metadata (RFC 8414): nothing to grant',
  description: 'Empty scopes, bearer methods, grant and response types; agent_auth.skill points to the authentication guide /auth.md. No registration or claim endpoint exists.',
  tags: ['discovery'],
  querystring: z.object({}),
  response: AuthorizationServerMetadataSchema,
  statuses: STATUSES,
  cache: DOCUMENT_CACHE,
  rateLimit: 'read',
  handler: ({ config }) => ({ raw: JSON.stringify(authorizationServerMetadata(config)), contentType: JSON_TYPE }),
});

const apiCatalogRoute = defineRoute({
  operationId: 'getApiCatalog',
  method: 'GET',
  url: '/.well-known/api-catalog',
  summary: 'API catalogue (RFC 9727 linkset)',
  description: 'The API ({base}/v1) with its OpenAPI description, documentation and health endpoint, and the read-only MCP server ({base}/mcp) that offers the same reads as tools.',
  tags: ['discovery'],
  querystring: z.object({}),
  response: ApiCatalogSchema,
  statuses: STATUSES,
  cache: DOCUMENT_CACHE,
  rateLimit: 'read',
  handler: ({ config }) => ({
    raw: JSON.stringify(apiCatalog(config)),
    contentType: API_CATALOG_CONTENT_TYPE,
    headers: { link: `<${config.siteUrl}/.well-known/api-catalog>; rel="api-catalog"` },
  }),
});

const authGuideRoute = defineRoute({
  operationId: 'getAuthGuide',
  method: 'GET',
  url: AUTH_GUIDE_PATH,
  summary: 'Authentication guide (plain text, Markdown)',
  description: 'No keys and no OAuth; reads are open; the lead endpoints need a challenge token solved by a person in a browser.',
  tags: ['discovery'],
  querystring: z.object({}),
  response: z.string(),
  statuses: STATUSES,
  cache: DOCUMENT_CACHE,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ config }) => ({ raw: authGuide(config), contentType: 'text/markdown; charset=utf-8' }),
});

/** Every site route of this feature, in registration order. */
export const SITE_ROUTES = [
  priceIndexRoute, priceHistoryRoute, priceReportRoute, priceReportHistoryRoute, priceReportPackageRoute,
  protectedResourceRoute, protectedResourcePageRoute, authorizationServerRoute, apiCatalogRoute, authGuideRoute,
];
