/**
 * Every URL the service hands out answers: the URLs are collected from real responses of the
 * sample build (citation.url, webUrl, methodologyUrl, image URLs, problem `type`, the
 * datapackage's and the releases' paths), each is requested, and so is every link of the pages they
 * lead to.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES } from '../../contract/common.ts';
import { get, SITE } from '../support/app.ts';
import { BASE, html, pathOf, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

/** Every absolute URL on the site or the API inside a JSON value (strings of the citation text too). */
function urlsIn(value: unknown, out: Set<string>) {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/https?:\/\/[^\s,"]+/g)) if (m[0].startsWith(SITE) || m[0].startsWith(BASE)) out.add(m[0]);
  } else if (Array.isArray(value)) {
    for (const v of value) urlsIn(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) urlsIn(v, out);
  }
}

/** A sample of responses: every GET endpoint in every locale, a few of each kind of slug, and errors. */
async function sampleResponses(): Promise<{ url: string; body: unknown }[]> {
  const releases = (await get(s.app, '/api/releases')).body.data;
  const urls: string[] = ['/api/price-report.datapackage.json', '/api/releases', `/api/releases/${releases[0].buildId}`, '/api/price-index/history', '/v1/properties?locale=xx', '/v1/nothing-here', '/v1/rankings?locale=en&city=atlantis'];
  for (const l of LOCALES) {
    const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${l}`)).body.data;
    const cities = geo.cities.slice(0, 3);
    const list = (await get(s.app, `/v1/properties?locale=${l}&sortBy=rating-desc&pageSize=5`)).body.data;
    const operators = [...new Set(list.filter((c: { operator?: unknown }) => c.operator).map((c: { operator: { slug: string } }) => c.operator.slug))];
    urls.push(
      `/v1/geo/bootstrap?locale=${l}`, `/api/price-index?locale=${l}`, `/v1/market/rates?locale=${l}`, `/v1/facets?locale=${l}`,
      `/v1/properties?locale=${l}&sortBy=rating-desc&pageSize=5`, `/v1/properties/map?locale=${l}&pageSize=5`,
      `/v1/search/suggest?locale=${l}&q=ber`,
      ...list.map((c: { slug: string }) => `/v1/properties/${c.slug}?locale=${l}`),
      ...operators.map((o) => `/v1/operators/${o}?locale=${l}`),
      ...operators.map((o) => `/v1/properties?locale=${l}&operator=${o}&pageSize=1`),
      ...geo.countries.slice(0, 3).map((c: { slug: string }) => `/v1/places/country/${c.slug}?locale=${l}`),
      ...cities.flatMap((c: { slug: string; zones: { slug: string }[] }) => [
        `/v1/places/city/${c.slug}?locale=${l}`, `/v1/rankings?locale=${l}&city=${c.slug}`,
        `/v1/market/rates?locale=${l}&city=${c.slug}`, `/v1/properties?locale=${l}&city=${c.slug}&pageSize=1`,
        ...c.zones.slice(0, 2).flatMap((z) => [`/v1/places/zone/${z.slug}?locale=${l}`, `/v1/properties?locale=${l}&zone=${z.slug}&pageSize=1`]),
      ]),
    );
  }
  const out = [];
  for (const url of urls) out.push({ url, body: (await get(s.app, url)).body });
  return out;
}

describe('every URL in a response', () => {
  it('answers 200 with a page or a file, and so does every link on those pages', async () => {
    const handedOut = new Set<string>();
    const responses = await sampleResponses();
    for (const r of responses) urlsIn(r.body, handedOut);
    const kinds = [...handedOut].map((u) => new URL(u).pathname.split('/')[2] === undefined ? new URL(u).pathname : new URL(u).pathname.split('/').slice(0, 3).join('/'));
    for (const expected of ['/en/space', '/de/coworking', '/es/operator', '/en/best', '/de/prices', '/es/price-index', '/problems/validation-failed', '/problems/not-found', '/media/spaces', '/api/releases']) {
      assert.ok(kinds.some((k) => k.startsWith(expected)), `the sample hands out ${expected}…`);
    }

    const pages = new Map<string, string>();
    const failures: string[] = [];
    const visit = async (url: string) => {
      const path = url.startsWith('/') ? url : pathOf(url);
      const [target, fragment] = path.split('#');
      const r = await get(s.app, target);
      if (r.status !== 200) failures.push(`${url} → ${r.status}`);
      else if (String(r.headers['content-type']).startsWith('text/html')) {
        pages.set(target, r.raw.body);
        if (fragment && !html(r.raw.body).getElementById(fragment)) failures.push(`${url}: no element #${fragment}`);
      }
    };
    for (const url of handedOut) await visit(url);
    assert.equal(failures.length, 0, `every URL handed out answers:\n${failures.join('\n')}`);
    assert.ok(pages.size >= 40, `${pages.size} pages reached`);

    const linked = new Set<string>();
    for (const body of pages.values()) {
      const doc = html(body);
      for (const a of doc.querySelectorAll('a[href], link[href]')) {
        const href = a.getAttribute('href')!;
        if (href.startsWith('#') || href.startsWith('https://creativecommons.org/')) continue;
        if (href.startsWith('/') && !href.startsWith('//')) linked.add(href);
        else if (href.startsWith(SITE) || href.startsWith(BASE)) linked.add(href);
        else failures.push(`a link leaves the service: ${href}`);
      }
    }
    for (const url of linked) if (!pages.has(url.split('#')[0])) await visit(url);
    assert.equal(failures.length, 0, `every link on ${pages.size} pages answers:\n${failures.join('\n')}`);
  });
});

describe('the pages of a locale', () => {
  it('link every listing from /{locale}', async () => {
    const total = (await get(s.app, '/v1/properties?locale=en&pageSize=1')).body.meta.pagination.total;
    for (const l of LOCALES) {
      // every page of the locale but the price pages, which list no space, and the search, whose
      // pages are as many as its queries: the place and operator pages alone reach every space
      const followed = new RegExp(`^/${l}(/coworking/|/operator/|/best/|$)`);
      const spaces = new Set<string>();
      const queue = [`/${l}`];
      const seen = new Set(queue);
      while (queue.length) {
        const url = queue.shift()!;
        const r = await get(s.app, url);
        assert.equal(r.status, 200, url);
        for (const a of html(r.raw.body).querySelectorAll('main a[href]')) {
          const href = a.getAttribute('href')!;
          if (href.startsWith(`/${l}/space/`)) spaces.add(href);
          else if (followed.test(href) && !seen.has(href)) {
            seen.add(href);
            queue.push(href);
          }
        }
      }
      assert.equal(spaces.size, total, `${l}: ${total - spaces.size} of ${total} spaces linked from no page reached from /${l} (${seen.size} pages)`);
    }
  });
});

