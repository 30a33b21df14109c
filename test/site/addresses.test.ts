/**
 * The addresses people type rather than follow, and what a crawler asks for first: `/` and the
 * aliases of a locale's home, HTML error pages for every page-shaped URL, the favicon,
 * robots.txt and the sitemaps.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LOCALES } from '../../contract/common.ts';
import { KEYED_FILE } from '../../contract/build.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { SITEMAP_PART_URLS } from '../../api/site/sitemaps.ts';
import { STRINGS } from '../../api/site/strings.ts';
import { fixtureBuild, get, SITE, testApp } from '../support/app.ts';
import { removeDir } from '../support/build-fixture.ts';
import { html, pathOf, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
// no response cache: a page damaged after its first request is read again
before(async () => { s = await sampleApp({ QUERY_CACHE: '0' }); });
after(() => s?.close());

const HTML = 'text/html; charset=utf-8';
const PROBLEM = 'application/problem+json; charset=utf-8';
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The <loc> of every entry of a sitemap or sitemap index. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

describe('GET /', () => {
  it('redirects to the home of the best locale of Accept-Language, q-values honoured, else /en', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, '/en'],
      ['de', '/de'],
      ['de-AT,de;q=0.9,en;q=0.8', '/de'],
      ['fr-FR, fr;q=0.9, es;q=0.5, de;q=0.4', '/es'],
      ['en;q=0.2, es;q=0.8', '/es'],
      ['es;q=0, de;q=0.1', '/de'],
      ['fr, it', '/en'],
      ['en;q=0, *;q=0.5', '/de'],
      ['*', '/en'],
      ['garbage;;q=x,,', '/en'],
    ];
    for (const [header, location] of cases) {
      const r = await get(s.app, '/', header === undefined ? {} : { 'accept-language': header });
      assert.equal(r.status, 302, String(header));
      assert.equal(r.headers.location, location, String(header));
      assert.match(String(r.headers.vary), /accept-language/i);
      assert.equal(r.headers['cache-control'], 'no-store', 'a redirect that depends on the header is not cached as one page');
    }
  });

  it('redirects /{locale}/ and /{locale}/coworking permanently to the locale\'s home, which lists every country', async () => {
    for (const locale of LOCALES) {
      for (const url of [`/${locale}/`, `/${locale}/coworking`, `/${locale}/coworking/`]) {
        const r = await get(s.app, url);
        assert.equal(r.status, 301, url);
        assert.equal(r.headers.location, `/${locale}`, url);
      }
      assert.equal((await get(s.app, `/${locale}/coworking?utm=x`)).headers.location, `/${locale}?utm=x`, 'the query is kept');
      const home = html((await get(s.app, `/${locale}`)).raw.body);
      const countries = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data.countries;
      assert.deepEqual(new Set([...home.querySelectorAll('#countries-heading ~ h3 a')].map((a) => a.getAttribute('href'))),
        new Set(countries.map((c: { slug: string }) => `/${locale}/coworking/${c.slug}`)));
    }
  });
});

describe('error pages', () => {
  it('answer every page-shaped URL outside the routes with an HTML 404 in its locale; /v1 and /api keep problem+json', async () => {
    // what a browser asks for when it follows a link or an address typed
    const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const pages: [string, Record<string, string>, string][] = [
      ['/en/nope', {}, 'en'],
      ['/de/space/unknown-space', {}, 'de'],
      ['/es/coworking/spain/madrid/madrid-centro/extra', {}, 'es'],
      ['/de/price-index/atlantis', {}, 'de'],
      ['/es/prices?page=999', {}, 'es'],
      ['/en/prices?page=0', {}, 'en'],
      ['/fr', BROWSER, 'en'],
      ['/fr/price-index', { ...BROWSER, 'accept-language': 'fr, de;q=0.5' }, 'de'],
      ['/index.php', { ...BROWSER, 'accept-language': 'es' }, 'es'],
      ['/wp-admin/', BROWSER, 'en'],
    ];
    for (const [url, headers, locale] of pages) {
      const r = await get(s.app, url, headers);
      assert.equal(r.status, 404, url);
      assert.equal(r.headers['content-type'], HTML, url);
      assert.equal(r.headers['cache-control'], 'no-store', url);
      const doc = html(r.raw.body);
      assert.equal(doc.documentElement.getAttribute('lang'), locale, url);
      assert.equal(text(doc.querySelector('h1')), STRINGS[locale as 'en'].notFound, url);
      assert.equal(doc.querySelector(`main a[href="/${locale}"]`)?.getAttribute('href'), `/${locale}`, `${url}: leads home`);
    }
    // an API client outside the locales' pages (no HTML asked for) gets the API's 404, as docs/design.md §3 has it for unknown routes
    for (const url of ['/v1/nope', '/v1/properties/x/y', '/api/nope', '/api/price-index/nope', '/.well-known/nope', '/fr', '/nothing']) {
      const r = await get(s.app, url);
      assert.equal(r.status, 404, url);
      assert.equal(r.headers['content-type'], PROBLEM, url);
      assert.equal(r.body.code, 'NOT_FOUND', url);
    }
  });

  it('answer a page whose stored record is damaged with an HTML 500 in its locale; the other pages are served', async () => {
    const url = '/en/coworking/germany/berlin';
    assert.equal((await get(s.app, url)).status, 200);
    const file = join(s.build.dir, KEYED_FILE.lines('places', 'en'));
    const bytes = await readFile(file);
    const keys = JSON.parse(await readFile(join(s.build.dir, KEYED_FILE.keys('places', 'en')), 'utf8')) as string[];
    let at = 0;
    for (let k = keys.indexOf('city/berlin'); k > 0; k--) at = bytes.indexOf(0x0a, at) + 1;
    const damaged = Buffer.from(bytes);
    damaged[at] = 0x5b; // the same length, other bytes than the index holds
    await writeFile(file, damaged);
    try {
      const r = await get(s.app, url);
      assert.equal(r.status, 500);
      assert.equal(r.headers['content-type'], HTML);
      assert.equal(r.headers['cache-control'], 'no-store');
      const doc = html(r.raw.body);
      assert.equal(doc.documentElement.getAttribute('lang'), 'en');
      assert.equal(text(doc.querySelector('h1')), STRINGS.en.serverError);
      assert.ok(!r.raw.body.includes('DamagedFileError') && !/\bat .+:\d+:\d+/.test(r.raw.body), 'no stack trace');
      assert.match(text(doc.querySelector('main code')), /^[0-9a-f-]{36}$/, 'the request id to quote');
      assert.equal((await get(s.app, '/de/coworking/germany/berlin')).status, 200, 'the same hub in another locale');
      assert.equal((await get(s.app, '/en/coworking/germany/munich')).status, 200, 'another hub of the file');
    } finally {
      await writeFile(file, bytes);
    }
    assert.equal((await get(s.app, url)).status, 200, 'repaired in place');
  });
});

describe('favicon and robots.txt', () => {
  it('serve the mark as SVG and as an ICO holding a 32×32 PNG, linked from every page', async () => {
    const svg = await get(s.app, '/favicon.svg');
    assert.equal(svg.status, 200);
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
    assert.match(svg.raw.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">.*<\/svg>\n$/);
    assert.match(String(svg.headers['cache-control']), /^public, max-age=\d+/);
    const ico = await s.app.inject({ url: '/favicon.ico' });
    assert.equal(ico.statusCode, 200);
    assert.equal(ico.headers['content-type'], 'image/x-icon');
    const bytes = ico.rawPayload;
    assert.deepEqual([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7]], [0, 1, 1, 32, 32], 'an ICO of one 32×32 image');
    const png = bytes.subarray(bytes.readUInt32LE(18));
    assert.equal(png.length, bytes.readUInt32LE(14));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [32, 32]);
    for (const url of ['/en', '/de/price-index', '/es/nope']) {
      const doc = html((await get(s.app, url)).raw.body);
      assert.equal(doc.querySelector('link[rel="icon"]')?.getAttribute('href'), '/favicon.svg', url);
    }
  });

  it('robots.txt names the sitemap index on the site', async () => {
    const r = await get(s.app, '/robots.txt');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(r.raw.body, /^User-agent: \*$/m);
    assert.match(r.raw.body, new RegExp(`^Sitemap: ${SITE}/sitemap\\.xml$`, 'm'));
  });
});

describe('sitemaps', () => {
  it('index a sitemap per locale that lists every page a crawler should find, each answering 200', async () => {
    const index = await get(s.app, '/sitemap.xml');
    assert.equal(index.status, 200);
    assert.equal(index.headers['content-type'], 'application/xml; charset=utf-8');
    assert.match(index.raw.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const parts = locs(index.raw.body);
    assert.deepEqual(parts, LOCALES.map((l) => `${SITE}/sitemaps/${l}-1.xml`), 'one part a locale at the sample');
    for (const [k, locale] of LOCALES.entries()) {
      const part = await get(s.app, pathOf(parts[k]));
      assert.equal(part.status, 200);
      assert.match(part.raw.body, /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
      const urls = locs(part.raw.body);
      assert.equal(new Set(urls).size, urls.length, 'no URL twice');
      assert.ok(urls.every((u) => u.startsWith(`${SITE}/${locale}`)), `${locale}: only its own pages`);
      const listed = new Set(urls.map(pathOf));

      const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data;
      const expected = [`/${locale}`, `/${locale}/price-index`, `/${locale}/prices`];
      for (const c of geo.countries) expected.push(`/${locale}/coworking/${c.slug}`, `/${locale}/price-index/${c.slug}`);
      for (const c of geo.cities) {
        const country = geo.countries.find((x: { code: string }) => x.code === c.countryCode).slug;
        expected.push(`/${locale}/coworking/${country}/${c.slug}`, `/${locale}/prices/${c.slug}`);
        for (const z of c.zones) expected.push(`/${locale}/coworking/${country}/${c.slug}/${z.slug}`);
      }
      const rankings = [...s.build.rankings[locale].keys()];
      assert.ok(rankings.length > 0);
      for (const city of rankings) expected.push(`/${locale}/best/${city}`);
      for (const slug of s.build.operators[locale].keys()) expected.push(`/${locale}/operator/${slug}`);
      for (const slug of s.build.engine.slugs) expected.push(`/${locale}/space/${slug}`);
      for (const path of expected) assert.ok(listed.has(path), `${locale}: ${path} is listed`);
      assert.equal(listed.size, expected.length, `${locale}: nothing else is listed (${[...listed].filter((p) => !expected.includes(p)).slice(0, 5)})`);
    }
    // every listed page of one locale answers (the others differ only in their prefix)
    for (const url of locs((await get(s.app, '/sitemaps/de-1.xml')).raw.body)) {
      const r = await s.app.inject({ url: pathOf(url) });
      assert.equal(r.statusCode, 200, url);
    }
    assert.equal((await get(s.app, '/sitemaps/en-2.xml')).status, 404, 'no part past the last');
    assert.equal((await get(s.app, '/sitemaps/fr-1.xml')).status, 404);
  });

  it(`split a locale's sitemap into parts of ${SITEMAP_PART_URLS.toLocaleString('en')} URLs, each within the protocol's 50,000 URLs and 50 MB`, async () => {
    const { fixture, build } = await fixtureBuild({ extra: SITEMAP_PART_URLS + 50 });
    const app = await testApp({ catalog: staticCatalog(build) });
    try {
      const parts = locs((await get(app, '/sitemap.xml')).raw.body);
      assert.deepEqual(parts, LOCALES.flatMap((l) => [1, 2].map((n) => `${SITE}/sitemaps/${l}-${n}.xml`)));
      const urls: string[] = [];
      for (const part of parts.filter((p) => p.includes('/es-'))) {
        const r = await app.inject({ url: pathOf(part) });
        assert.equal(r.statusCode, 200);
        assert.ok(r.rawPayload.length <= 50 * 1024 * 1024);
        const mine = locs(r.body);
        assert.ok(mine.length <= Math.min(SITEMAP_PART_URLS, 50_000));
        urls.push(...mine);
      }
      assert.equal(urls.length, new Set(urls).size, 'no URL in two parts');
      const spaces = new Set(urls.filter((u) => u.includes('/es/space/')).map((u) => u.split('/').pop()));
      assert.equal(spaces.size, build.engine.slugs.length, 'every space in one part or the other');
      assert.equal(urls.length > SITEMAP_PART_URLS, true);
    } finally {
      await app.close();
      await build.close();
      await removeDir(fixture.dir);
    }
  });
});
