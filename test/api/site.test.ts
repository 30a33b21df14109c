import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { envelope, MetaSchema } from '../../contract/common.ts';
import { PriceIndexPayloadSchema } from '../../contract/market.ts';
import { PriceHistoryPayloadSchema } from '../../contract/research.ts';
import {
  ApiCatalogSchema, AuthorizationServerMetadataSchema, ProtectedResourceMetadataSchema,
} from '../../api/site/discovery.ts';
import { get, SITE } from '../support/app.ts';
import { marketFixture, type MarketFixture } from './market-support.ts';

const PriceIndexResponse = envelope(PriceIndexPayloadSchema, MetaSchema);
const PriceHistoryResponse = envelope(PriceHistoryPayloadSchema, MetaSchema);
const BASE = 'https://api.deskatlas.test';
const LICENSE_LINK = '<https://creativecommons.org/licenses/by/4.0/>; rel="license"';

let f: MarketFixture;
before(async () => { f = await marketFixture(); });
after(() => f.app.close());

const QUALITY_COLUMNS = ['p25', 'p75', 'median_age_days', 'stale_share', 'largest_operator_share', 'flags', 'median_low', 'median_high'];
/** The quality columns of a CSV row, from the JSON figure they must equal. */
function qualityCells(x: any): Record<string, string> {
  const money = (m?: { amount: number }) => (m ? m.amount.toFixed(2) : '');
  const number = (n?: number) => (n === undefined ? '' : String(n));
  return {
    p25: money(x.p25), p75: money(x.p75), median_age_days: number(x.medianAgeDays), stale_share: number(x.staleShare),
    largest_operator_share: number(x.largestOperatorShare), flags: x.flags ?? '',
    median_low: money(x.medianInterval?.low), median_high: money(x.medianInterval?.high),
  };
}

/** Strict RFC 4180: consistent column counts, no stray quotes, no trimming, no relaxations. */
function parseStrict(csv: string): Record<string, string>[] {
  return parse(csv, {
    columns: true, delimiter: ',', quote: '"', escape: '"', record_delimiter: ['\r\n', '\n'],
    relax_quotes: false, relax_column_count: false, skip_empty_lines: false, trim: false, bom: false,
  });
}

describe('GET /api/price-index', () => {
  it('serves the index in the envelope with a citation of the price-index page', async () => {
    const r = await get(f.app, '/api/price-index');
    assert.equal(r.status, 200);
    PriceIndexResponse.parse(r.body);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'public, max-age=3600, stale-while-revalidate=86400');
    assert.equal(r.body.meta.citation.url, `${SITE}/en/price-index`);
    assert.equal(r.body.data.methodologyUrl, `${SITE}/en/price-index#methodology`);
    const de = await get(f.app, '/api/price-index?locale=de');
    assert.equal(de.body.meta.citation.title, 'Coworking-Preisindex');
    assert.deepEqual(de.body.data, r.body.data);
    assert.equal((await get(f.app, '/api/price-index?locale=fr')).status, 400);
    // the file's bytes as they are (site paths resolved): the body the index serialized would give
    assert.equal(r.raw.body, `{"data":${f.build.priceIndexJson.toString('utf8')},"meta":${JSON.stringify(r.body.meta)}}`);
  });

  it('publishes a city at 5 spaces and flags one at 4 without figures', async () => {
    const { cities } = (await get(f.app, '/api/price-index')).body.data;
    const munich = cities.find((c: { city: { slug: string } }) => c.city.slug === 'munich');
    const barcelona = cities.find((c: { city: { slug: string } }) => c.city.slug === 'barcelona');
    assert.deepEqual([munich.sampleSize, munich.published, munich.flag, munich.median.amount, munich.min.amount, munich.max.amount, munich.average.amount],
      [5, true, undefined, 280, 240, 330, 282]);
    assert.deepEqual([barcelona.sampleSize, barcelona.published, barcelona.flag], [4, false, 'insufficient_sample']);
    for (const k of ['median', 'average', 'min', 'max']) assert.equal(barcelona[k], undefined, k);
  });
});

describe('GET /api/price-index/history and /api/price-report/history', () => {
  it('serves the monthly series with a citation, and the same rows as long-format CSV', async () => {
    const r = await get(f.app, '/api/price-index/history?locale=es');
    assert.equal(r.status, 200);
    PriceHistoryResponse.parse(r.body);
    assert.equal(r.headers['cache-control'], 'public, max-age=3600, stale-while-revalidate=86400');
    assert.equal(r.body.meta.citation.url, `${SITE}/es/price-index`);
    const history = r.body.data;
    const index = (await get(f.app, '/api/price-index')).body.data;
    assert.equal(history.methodologyUrl, `${SITE}/en/price-index#methodology`);
    assert.equal(history.asOf, index.asOf);
    assert.deepEqual(history.cities.map((c: any) => c.city.slug), index.cities.map((c: any) => c.city.slug));
    const munich = history.cities.find((c: any) => c.city.slug === 'munich');
    assert.deepEqual(munich.points.at(-1).median, index.cities.find((c: any) => c.city.slug === 'munich').median, 'the last month is today');

    const csv = await get(f.app, '/api/price-report/history');
    assert.equal(csv.status, 200);
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(csv.headers['content-disposition'], `attachment; filename="price-report-history-${index.asOf.slice(0, 10)}.csv"`);
    assert.equal(csv.headers.link, LICENSE_LINK);
    const rows = parseStrict(csv.raw.body);
    const money = (m?: { amount: number }) => (m ? m.amount.toFixed(2) : '');
    const expected = history.cities.flatMap((c: any) => [{ optionType: 'all', points: c.points }, ...c.byType].flatMap((series: any) =>
      series.points.map((p: any) => ({
        country_code: c.countryCode, city_slug: c.city.slug, city_name: c.city.name, currency: c.currency,
        product_type: series.optionType, month: p.month, sample_size: String(p.sampleSize), published: String(p.published),
        median: money(p.median), average: money(p.average), min: money(p.min), max: money(p.max), ...qualityCells(p),
        index: p.index === undefined ? '' : p.index.toFixed(2), matched_spaces: String(p.matchedSpaces),
      }))));
    assert.deepEqual(rows, expected);
  });
});

describe('GET /api/price-report', () => {
  it('is RFC 4180 CSV that, parsed strictly, equals the JSON index row for row', async () => {
    const r = await get(f.app, '/api/price-report');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8');
    const index = (await get(f.app, '/api/price-index')).body.data;
    assert.equal(r.headers['content-disposition'], `attachment; filename="price-report-${index.asOf.slice(0, 10)}.csv"`);
    assert.equal(r.headers.link, LICENSE_LINK);
    assert.equal(r.headers['cache-control'], 'public, max-age=3600, stale-while-revalidate=86400');
    const rows = parseStrict(r.raw.body);
    assert.deepEqual(Object.keys(rows[0]), ['country_code', 'city_slug', 'city_name', 'currency', 'product_type', 'sample_size',
      'published', 'median', 'average', 'min', 'max', 'as_of', ...QUALITY_COLUMNS]);
    const money = (m?: { amount: number }) => (m ? m.amount.toFixed(2) : '');
    const PRODUCTS = ['all', 'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
    assert.equal(rows.length, index.cities.length * PRODUCTS.length, 'one row per city and product');
    let k = 0;
    for (const c of index.cities) {
      // every city carries every product row in JSON, thin cities too: the same rows as the CSV
      assert.deepEqual(c.byType.map((b: { optionType: string }) => b.optionType), PRODUCTS.slice(1), c.city.slug);
      for (const product of PRODUCTS) {
        const row = rows[k++];
        const x = product === 'all' ? c : c.byType.find((b: { optionType: string }) => b.optionType === product);
        assert.deepEqual([row.country_code, row.city_slug, row.city_name, row.currency, row.product_type, row.as_of],
          [c.countryCode, c.city.slug, c.city.name, c.currency, product, index.asOf]);
        assert.deepEqual(row, {
          ...row, sample_size: String(x.sampleSize), published: String(x.published),
          median: money(x.median), average: money(x.average), min: money(x.min), max: money(x.max), ...qualityCells(x),
        }, `${c.city.slug} ${product}`);
      }
    }
    assert.ok(rows.some((row) => row.published === 'false' && row.median === ''), 'thin rows are in the report, flagged');
  });

  it('is described by a data package with every column, the licence and an absolute attribution', async () => {
    const r = await get(f.app, '/api/price-report.datapackage.json');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers.link, LICENSE_LINK);
    const header = parseStrict((await get(f.app, '/api/price-report')).raw.body)[0];
    const [resource] = r.body.resources;
    assert.deepEqual(resource.schema.fields.map((x: { name: string }) => x.name), Object.keys(header));
    // the resource is pinned: the release URL serves these bytes forever
    assert.equal(resource.path, `${SITE}/api/releases/${f.build.manifest.releaseId}/price-report.csv`);
    const asOf = (await get(f.app, '/api/price-index')).body.data.asOf.slice(0, 10);
    assert.equal(r.body.version, f.build.manifest.releaseId);
    assert.equal(r.body.licenses[0].path, 'https://creativecommons.org/licenses/by/4.0/');
    assert.equal(r.body.citation,
      `Source: Desk Atlas, Coworking price index, ${SITE}/en/price-index, CC BY 4.0, data as of ${asOf}, release ${f.build.manifest.releaseId}`);
    assert.equal(r.body.sources[0].path, `${SITE}/en/price-index`);
  });
});

describe('discovery documents and the auth guide', () => {
  it('declares no protected resource (RFC 9728), at the root and for page paths', async () => {
    const root = await get(f.app, '/.well-known/oauth-protected-resource');
    assert.equal(root.status, 200);
    assert.equal(root.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(ProtectedResourceMetadataSchema.parse(root.body), {
      resource: SITE, resource_name: 'Desk Atlas', authorization_servers: [SITE], scopes_supported: [],
      bearer_methods_supported: [], resource_documentation: `${SITE}/auth.md`,
    });
    for (const page of ['/en', '/de/best/munich', '/es/coworking/germany/berlin/berlin-mitte']) {
      const r = await get(f.app, `/.well-known/oauth-protected-resource${page}`);
      assert.equal(r.status, 200, page);
      ProtectedResourceMetadataSchema.parse(r.body);
      assert.equal(r.body.resource, `${SITE}${page}`);
      assert.deepEqual([r.body.scopes_supported, r.body.bearer_methods_supported, r.body.authorization_servers], [[], [], [SITE]]);
    }
    assert.equal((await get(f.app, '/.well-known/oauth-protected-resource/en/../../etc')).status, 404);
  });

  it('serves authorization-server metadata with nothing to grant and agent_auth.skill → /auth.md', async () => {
    const r = await get(f.app, '/.well-known/oauth-authorization-server');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    const d = AuthorizationServerMetadataSchema.parse(r.body);
    assert.equal(d.issuer, SITE);
    assert.deepEqual([d.scopes_supported, d.bearer_methods_supported, d.grant_types_supported, d.response_types_supported], [[], [], [], []]);
    assert.equal(d.agent_auth.skill, `${SITE}/auth.md`);
    for (const key of ['registration_endpoint', 'token_endpoint', 'authorization_endpoint', 'revocation_endpoint']) assert.ok(!(key in r.body), key);
  });

  it('answers 404 NOT_FOUND on the registration and claim URIs older metadata advertised', async () => {
    for (const url of ['/.well-known/oauth-authorization-server/register', '/oauth/register', '/register', '/oauth/claim', '/claim',
      '/oauth/token', '/.well-known/openid-configuration']) {
      for (const method of ['GET', 'POST'] as const) {
        const r = await f.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        assert.equal(r.statusCode, 404, `${method} ${url}`);
        assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
        assert.equal(JSON.parse(r.body).code, 'NOT_FOUND');
      }
    }
  });

  it('serves the API catalogue as an RFC 9727 linkset', async () => {
    const r = await get(f.app, '/.well-known/api-catalog');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/linkset\+json\b/);
    const d = ApiCatalogSchema.parse(JSON.parse(r.raw.body));
    assert.equal(d.linkset[0].anchor, `${BASE}/v1`);
    assert.equal(d.linkset[0]['service-desc'][0].href, `${SITE}/openapi.json`);
    assert.equal(d.linkset[0]['service-doc'][0].href, `${SITE}/docs`);
    assert.equal(d.linkset[0].status[0].href, `${BASE}/v1/health`);
    assert.equal(d.linkset[1].anchor, `${BASE}/mcp`);
    assert.match(d.linkset[1]['service-desc'][0].title!, /MCP server/);
    const head = await f.app.inject({ method: 'HEAD', url: '/.well-known/api-catalog' });
    assert.equal(head.statusCode, 200);
  });

  it('serves /auth.md as Markdown: no keys, no OAuth, the challenge token and every error code', async () => {
    const r = await get(f.app, '/auth.md');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/markdown; charset=utf-8');
    const text: string = r.raw.body;
    for (const needle of ['no API keys', 'no OAuth', 'turnstileToken', '`challengeToken`', 'Never invent', 'replay',
      'explicitly asked', `${f.app.config.rateLimit.readMax} requests per minute`, '10 submissions per 10 minutes', `${BASE}/v1/leads/inquiry`, 'Idempotency-Key']) {
      assert.ok(text.includes(needle), needle);
    }
    for (const code of ['VALIDATION_FAILED', 'CLIENT_TOO_OLD', 'CHALLENGE_FAILED', 'NOT_FOUND', 'IDEMPOTENCY_KEY_CONFLICT',
      'RATE_LIMITED', 'INTERNAL_ERROR', 'UPSTREAM_UNAVAILABLE']) assert.ok(text.includes(code), code);
    assert.ok(!/\{\{\w+\}\}/.test(text), 'every placeholder filled');
  });

  it('sends rate-limit headers and never WWW-Authenticate, on successes and errors alike', async () => {
    const urls = [
      '/api/price-index', '/api/price-report', '/api/price-report.datapackage.json', '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/en', '/.well-known/oauth-authorization-server', '/.well-known/api-catalog', '/auth.md',
      '/.well-known/oauth-authorization-server/register', '/oauth/claim', '/v1/market/rates?locale=en', '/v1/market/rates',
      '/v1/rankings?locale=en&city=berlin', '/v1/rankings?locale=en&city=nowhere', '/v1/places/city/berlin?locale=en',
      '/v1/places/moon/x?locale=en', '/v1/operators/desk-nest?locale=en', '/v1/operators/x?locale=en',
      '/v1/search/suggest?locale=en&q=ber', '/v1/search/suggest?locale=en',
    ];
    for (const url of urls) {
      for (const headers of [{}, { authorization: 'Bearer made-up' }]) {
        const r = await f.app.inject({ method: 'GET', url, headers });
        assert.equal(r.headers['www-authenticate'], undefined, url);
        for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.ok(r.headers[h] !== undefined, `${h} on ${url}`);
        assert.ok(r.statusCode < 500, `${url}: ${r.statusCode}`);
      }
    }
  });
});
