/**
 * The examples of the published document, collected from a build of the committed sample
 * (data/): every value is picked from the build through the API itself (the largest city, its
 * zone, operator, amenities, a space of it, its address and coordinates …), and every response
 * example is the API's real answer to the request it names. `npm run openapi` writes the result
 * to api/openapi/examples.json; test/contract/examples.test.ts collects it again and compares.
 */
import { RELEASE_DATAPACKAGE } from '../contract/research.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/app.ts';
import { loadBuild, type LoadedBuild } from '../api/loading/load.ts';
import { staticCatalog } from '../api/loading/store.ts';
import { loadConfig } from '../api/config.ts';
import { LeadsService } from '../api/leads/service.ts';
import { CANONICAL_ENV } from '../api/openapi/document.ts';
import type { Examples, OperationExamples } from '../api/openapi/examples.ts';
import { runBuild } from '../pipeline/run.ts';
import { createProgress } from '../pipeline/lib/progress.ts';

const SAMPLE_DIR = join(import.meta.dirname, '..', 'data');
/** Lists of a response example keep this many entries; text keeps this many lines. */
const KEEP = 3;

export interface SampleApp {
  app: FastifyInstance;
  build: LoadedBuild;
  close(): Promise<void>;
}

/**
 * The app as the document describes it (the canonical configuration), serving a fresh build of
 * the committed sample, with a leads service in a scratch directory. Its clock stands at the
 * data's own time, so the citation dates of the examples do not depend on the day they are made.
 */
export async function sampleApp(): Promise<SampleApp> {
  const dir = await mkdtemp(join(tmpdir(), 'desk-atlas-examples-'));
  const config = loadConfig({ ...CANONICAL_ENV, RATE_LIMIT_READS: '1000000', RATE_LIMIT_LEADS: '1000000' });
  const built = await runBuild({ dataDir: SAMPLE_DIR, distDir: join(dir, 'dist'), progress: createProgress(() => {}) });
  const build = await loadBuild(built.buildDir, { siteUrl: config.siteUrl });
  const now = Date.parse(build.priceIndexHead.asOf);
  const leads = await LeadsService.open({ dbPath: join(dir, 'leads.db'), mailSpoolDir: join(dir, 'mail'), teamEmail: config.leads.teamEmail, nodeEnv: 'test' }, { now: () => now });
  const app = await buildApp({ config, catalog: staticCatalog(build), leads, clock: () => now, logger: false });
  await app.ready();
  return {
    app,
    build,
    async close() {
      await app.close();
      await leads.close();
      await build.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Arrays cut to their first KEEP entries, at every depth; whether anything was cut. */
function shorten(value: unknown): { value: unknown; cut: boolean } {
  if (Array.isArray(value)) {
    const items = value.slice(0, KEEP).map(shorten);
    return { value: items.map((i) => i.value), cut: value.length > KEEP || items.some((i) => i.cut) };
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, shorten(v)] as const);
    return { value: Object.fromEntries(entries.map(([k, v]) => [k, v.value])), cut: entries.some(([, v]) => v.cut) };
  }
  return { value, cut: false };
}

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** Collects the examples from a sample app (see sampleApp). */
export async function collectExamples({ app, build }: SampleApp): Promise<Examples> {
  const get = async (url: string) => {
    const r = await app.inject({ url });
    if (r.statusCode !== 200) throw new Error(`GET ${url} answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
    return r;
  };
  const json = async (url: string) => (await get(url)).json();

  // The values, picked from the build: the city with the most spaces and what it holds.
  const locale = 'en';
  const geo = (await json(`/v1/geo/bootstrap?locale=${locale}`)).data;
  const city = [...geo.cities].sort((a, b) => b.propertyCount - a.propertyCount || (a.slug < b.slug ? -1 : 1))[0];
  const country = geo.countries.find((c: { code: string }) => c.code === city.countryCode);
  const zone = [...city.zones].sort((a, b) => b.propertyCount - a.propertyCount || (a.slug < b.slug ? -1 : 1))[0];
  const facets = (await json(`/v1/facets?locale=${locale}&city=${city.slug}`)).data;
  const top = (key: string, n = 1) => facets.facets.find((f: { key: string }) => f.key === key).values.slice(0, n).map((v: { value: string }) => v.value);
  const listQuery = { locale, city: city.slug, sortBy: 'rating-desc', pageSize: 2 };
  const list = await json(`/v1/properties?${query(listQuery)}`);
  const space = list.data[0];
  const detail = (await json(`/v1/properties/${space.slug}?locale=${locale}`)).data;
  const operator = top('operator')[0];
  const { lat, lng } = city.center;
  const round = (n: number) => Math.round(n * 1e4) / 1e4;
  const filters: Record<string, string | number> = {
    locale,
    country: country.slug,
    city: city.slug,
    zone: zone.slug,
    operator,
    pricingOptionType: top('pricingOptionType')[0],
    currency: facets.priceRange.min.currency,
    amenities: top('amenities', 2).join(','),
    minCapacity: detail.capacity,
    minPrice: facets.priceRange.min.amount,
    maxPrice: facets.priceRange.max.amount,
    lat,
    lng,
    radiusMeters: 2000,
    bbox: [round(lng - 0.05), round(lat - 0.05), round(lng + 0.05), round(lat + 0.05)].join(','),
    address: detail.address.split(',')[0],
  };
  const paging = { page: 1, seed: 20240601, sortBy: 'rating-desc' };

  const operations: Record<string, OperationExamples> = {};
  const read = async (operationId: string, parameters: Record<string, string | number>, url: string) => {
    const r = await get(url);
    const text = /json/.test(String(r.headers['content-type']));
    const { value, cut } = text ? shorten(r.json()) : { value: r.body, cut: false };
    operations[operationId] = { parameters, request: `GET ${url}`, response: value, ...(cut ? { shortened: true } : {}) };
  };

  await read('listProperties', { ...filters, ...paging, pageSize: 2 }, `/v1/properties?${query(listQuery)}`);
  await read('mapProperties', { ...filters, ...paging, pageSize: 3 }, `/v1/properties/map?${query({ ...listQuery, pageSize: 3 })}`);
  await read('propertyDetail', { slug: space.slug, locale }, `/v1/properties/${space.slug}?locale=${locale}`);
  await read('facets', filters, `/v1/facets?${query({ locale, city: city.slug })}`);
  await read('geoBootstrap', { locale }, `/v1/geo/bootstrap?locale=${locale}`);
  await read('marketRates', { locale, country: country.slug, city: city.slug, currency: filters.currency }, `/v1/market/rates?${query({ locale, city: city.slug })}`);
  await read('rankings', { locale, city: city.slug, limit: 3 }, `/v1/rankings?${query({ locale, city: city.slug, limit: 3 })}`);
  await read('placeProfile', { kind: 'city', slug: city.slug, locale }, `/v1/places/city/${city.slug}?locale=${locale}`);
  await read('operatorProfile', { slug: operator, locale }, `/v1/operators/${operator}?locale=${locale}`);
  const q = city.name.slice(0, 4).toLowerCase();
  await read('searchSuggest', { locale, q, limit: 5 }, `/v1/search/suggest?${query({ locale, q, limit: 5 })}`);
  await read('config', {}, '/v1/config');
  await read('health', {}, '/v1/health');
  await read('getPriceIndex', { locale }, `/api/price-index?locale=${locale}`);
  await read('getPriceReportDataPackage', {}, '/api/price-report.datapackage.json');
  const csv = async (operationId: string, url: string) => {
    const rows = (await get(url)).body.split('\r\n');
    operations[operationId] = { parameters: {}, request: `GET ${url}`, response: `${rows.slice(0, KEEP + 1).join('\r\n')}\r\n`, shortened: rows.length > KEEP + 2 };
  };
  await csv('getPriceReport', '/api/price-report');
  await read('getPriceIndexHistory', { locale }, `/api/price-index/history?locale=${locale}`);
  await read('getPriceIndexCity', { city: city.slug, locale }, `/api/price-index/cities/${city.slug}?locale=${locale}`);
  await csv('getPriceReportHistory', '/api/price-report/history');
  await read('listReleases', { locale }, `/api/releases?locale=${locale}`);
  const { releaseId } = build.manifest;
  await read('getRelease', { releaseId, locale }, `/api/releases/${releaseId}?locale=${locale}`);
  await read('getReleaseFile', { releaseId, file: RELEASE_DATAPACKAGE }, `/api/releases/${releaseId}/${RELEASE_DATAPACKAGE}`);
  await read('getReadiness', {}, '/readyz');
  const image = new URL(detail.images[0].url).pathname;
  await read('getMedia', { path: image.replace(/^\/media\//, '') }, image);
  await read('getApiCatalog', {}, '/.well-known/api-catalog');
  await read('getAuthorizationServerMetadata', {}, '/.well-known/oauth-authorization-server');
  await read('getProtectedResourceMetadata', {}, '/.well-known/oauth-protected-resource');
  const page = new URL(detail.webUrl).pathname.slice(1);
  await read('getPageProtectedResourceMetadata', { path: page }, `/.well-known/oauth-protected-resource/${page}`);
  await read('getAuthGuide', {}, '/auth.md');
  await read('getLlmsText', {}, '/llms.txt');
  await read('getDocsPage', {}, '/docs');
  // the reference page's assets and this document itself are not shown as examples of themselves
  operations.getDocsAsset = { parameters: { asset: 'swagger-ui.css' } };
  operations.getOpenApiDocument = { parameters: {} };

  // The enquiries, sent for real to the scratch leads service.
  const person = { name: 'Ada Example', email: 'ada@example.org', locale };
  const bodies = {
    contact: { ...person, company: 'Example Ltd', subject: 'Offices for a team of six', message: 'We are a team of six looking for a private office from next month.', attribution: { source: 'web', viewedProperties: [space.slug] } },
    inquiry: { ...person, phone: '+44 20 7946 0000', message: 'Could we visit next week?', properties: list.data.map((c: { slug: string }) => c.slug), desks: 6, duration: 'months', attribution: { source: 'app', campaign: 'spring' } },
  };
  for (const [operationId, body] of Object.entries(bodies)) {
    const key = `example-${operationId}-1`;
    const r = await app.inject({ method: 'POST', url: `/v1/leads/${operationId}`, payload: body, headers: { 'idempotency-key': key } });
    if (r.statusCode !== 200) throw new Error(`POST /v1/leads/${operationId} answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
    operations[operationId] = { parameters: { 'Idempotency-Key': key }, request: `POST /v1/leads/${operationId}`, body, response: r.json() };
  }

  // Errors: a name where a slug goes and no locale; an unknown space.
  const errors: Examples['errors'] = {};
  for (const [name, url] of [['BadRequest', `/v1/properties?city=${encodeURIComponent(city.name)}`], ['NotFound', `/v1/properties/${space.slug}-closed?locale=${locale}`]]) {
    const r = await app.inject({ url });
    errors[name] = { request: `GET ${url}`, response: r.json() };
  }
  return { operations, errors };
}

/**
 * The examples without what differs on every collection (an error's traceId, an enquiry's
 * reference, the build's id and time) or on any change of a research file (the release id), to
 * compare two collections.
 */
export function stableExamples(examples: Examples): Examples {
  // a build's id and time are those of the run that made it; a release's id digests every research
  // file, the methodology too, which no other example shows
  const copy = JSON.parse(JSON.stringify(examples)
    .replace(/\d{8}T\d{9}Z-\d+/g, '(build id)')
    .replace(/\d{4}-\d\d-\d\d-[0-9a-f]{12}/g, '(release id)')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '(build time)')) as Examples;
  for (const error of Object.values(copy.errors)) (error.response as { traceId?: string }).traceId = '(request id)';
  for (const operationId of ['contact', 'inquiry']) {
    const response = copy.operations[operationId]?.response as { data?: { reference?: string } } | undefined;
    if (response?.data) response.data.reference = '(reference)';
  }
  return copy;
}
