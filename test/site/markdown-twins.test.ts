/**
 * The Markdown twins (issue 53): every public page names its twin in a Link header and its head,
 * and the twin answers text/markdown in the page's locale with the page's title, figures (as the
 * JSON API has them) and citation; a page that does not exist has no twin either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { ERROR_CODES } from '../../contract/problem.ts';
import { PROBLEM_KINDS, problemPath } from '../../api/http/problems.ts';
import { PROBLEM_DOCS } from '../../api/site/problems.ts';
import { twinLink } from '../../api/site/markdown-twins.ts';
import { SEARCH_STRINGS } from '../../api/site/search-strings.ts';
import { formatMoney, formatNumber, STRINGS } from '../../api/site/strings.ts';
import { get, SITE } from '../support/app.ts';
import { BASE, html, pathOf, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const MARKDOWN = 'text/markdown; charset=utf-8';
const LINK = /^<([^>]+)>; rel="alternate"; type="text\/markdown"$/;
/** A localized page's path: a locale, then a path or the twin's .md. */
const localePage = new RegExp(`^/(${LOCALES.join('|')})(/|\\.md$)`);

/** Markdown as read: its backslash escapes undone. */
const plain = (md: string) => md.replace(/\\([\\`*_[\]<>|#])/g, '$1');

async function data(url: string) {
  const r = await get(s.app, url);
  assert.equal(r.status, 200, url);
  return r.body;
}

/** The twin of a page, found as an agent finds it: through the page's Link header. */
async function twinOf(pagePath: string) {
  const page = await get(s.app, pagePath);
  assert.equal(page.status, 200, pagePath);
  const link = LINK.exec(String(page.headers.link));
  assert.ok(link, `${pagePath} names its twin: ${page.headers.link}`);
  const head = html(page.raw.body).querySelector('link[rel="alternate"][type="text/markdown"]');
  assert.equal(head?.getAttribute('href'), link[1], `${pagePath}: the head names the same twin`);
  const twin = await get(s.app, pathOf(link[1]));
  assert.equal(twin.status, 200, link[1]);
  assert.equal(twin.headers['content-type'], MARKDOWN, link[1]);
  assert.equal(twin.headers['cache-control'], page.headers['cache-control'], `${link[1]} is cached as its page`);
  return { url: link[1], md: twin.raw.body, text: plain(twin.raw.body) };
}

/** A page's twin, checked for the page's title and citation; returns its text. */
async function citedTwin(citation: { url: string; title: string; text: string }) {
  const twin = await twinOf(pathOf(citation.url));
  assert.equal(twin.url, `${citation.url}.md`);
  assert.ok(twin.text.startsWith(`# ${citation.title}\n`), `${twin.url} is titled "${citation.title}":\n${twin.md.slice(0, 200)}`);
  assert.ok(twin.text.includes(citation.text), `${twin.url} cites "${citation.text}"`);
  assert.ok(twin.md.includes('(https://creativecommons.org/licenses/by/4.0/)'), `${twin.url} links the licence`);
  assert.doesNotMatch(twin.md, /\]\(\//, `${twin.url}: every link is absolute`);
  return twin.text;
}

/** The sample's largest city (most zones), its country, a space with an operator, both slugs. */
async function samplePlaces(locale: Locale) {
  const geo = (await data(`/v1/geo/bootstrap?locale=${locale}`)).data;
  const city = [...geo.cities].sort((a: { zones: unknown[] }, b: { zones: unknown[] }) => b.zones.length - a.zones.length)[0];
  const country = geo.countries.find((c: { code: string }) => c.code === city.countryCode);
  const card = (await data(`/v1/properties?locale=${locale}&city=${city.slug}&sortBy=rating-desc&pageSize=50`)).data
    .find((c: { operator?: unknown }) => c.operator);
  return { geo, city, country, space: card.slug as string, operator: card.operator.slug as string };
}

describe('Markdown twins', () => {
  for (const locale of LOCALES) {
    it(`${locale}: every kind of page has a twin with its title, key figures and citation`, async () => {
      const t = STRINGS[locale];
      const money = (m: { amount: number; currency: string }) => formatMoney(locale, m);
      const { geo, city, country, space, operator } = await samplePlaces(locale);

      const home = await citedTwin((await data(`/v1/geo/bootstrap?locale=${locale}`)).meta.citation);
      for (const c of geo.countries) assert.ok(home.includes(`${c.name}](${SITE}/${locale}/coworking/${c.slug}.md) (${t.propertyCount(c.propertyCount)})`), `home: ${c.name}`);

      for (const [kind, slug] of [['country', country.slug], ['city', city.slug], ['zone', city.zones[0].slug]]) {
        const hub = await data(`/v1/places/${kind}/${slug}?locale=${locale}`);
        const text = await citedTwin(hub.meta.citation);
        assert.ok(text.includes(t.propertyCount(hub.data.propertyCount)), `${kind} ${slug}: its count of spaces`);
        const median = hub.data.medianMonthlyPerDesk;
        if (median) assert.ok(text.includes(`${money(median.price)} (${t.sampleOf(median.sampleSize)})`), `${kind} ${slug}: median with its sample`);
        for (const faq of hub.data.faqs) assert.ok(text.includes(faq.question), `${kind} ${slug}: FAQ "${faq.question}"`);
      }

      const detail = await data(`/v1/properties/${space}?locale=${locale}`);
      const spaceText = await citedTwin(detail.meta.citation);
      assert.ok(spaceText.includes(detail.data.address), 'space: address');
      for (const o of detail.data.pricingOptions) {
        assert.ok(spaceText.includes(`| ${o.title} |`), `space: option ${o.title}`);
        if (o.price) assert.ok(spaceText.includes(`| ${money(o.price)} | ${t.period[o.billingPeriod as keyof typeof t.period]} |`), `space: ${o.title} at ${money(o.price)}`);
      }
      const position = detail.data.marketPosition;
      if (position) assert.ok(spaceText.includes(`${money(position.median)} (${t.sampleOf(position.sampleSize)})`), 'space: the city median with its sample');

      const hub = await data(`/v1/operators/${operator}?locale=${locale}`);
      const operatorText = await citedTwin(hub.meta.citation);
      assert.ok(operatorText.includes(t.propertyCount(hub.data.propertyCount)), 'operator: its count of spaces');

      const ranking = await data(`/v1/rankings?locale=${locale}&city=${city.slug}`);
      const bestText = await citedTwin(ranking.meta.citation);
      ranking.data.ranked.forEach((r: { title: string; slug: string; score: number }, k: number) => {
        assert.ok(bestText.includes(`| ${k + 1} | [${r.title}](${SITE}/${locale}/space/${r.slug}.md) | ${formatNumber(locale, r.score)} |`), `best: #${k + 1} ${r.title}`);
      });

      const rates = await data(`/v1/market/rates?locale=${locale}`);
      const pricesText = await citedTwin(rates.meta.citation);
      const cityRates = await data(`/v1/market/rates?locale=${locale}&city=${city.slug}`);
      const cityPricesText = await citedTwin(cityRates.meta.citation);
      for (const b of cityRates.data.cities[0].byType.filter((r: { thinSample?: boolean }) => !r.thinSample)) {
        const cells = `| ${formatNumber(locale, b.sampleSize)} | ${money(b.median)} | ${money(b.min)} | ${money(b.max)} |`;
        assert.ok(pricesText.includes(cells), `prices: ${city.slug} ${b.optionType} ${cells}`);
        assert.ok(cityPricesText.includes(cells), `city prices: ${b.optionType} ${cells}`);
      }

      const found = await data(`/v1/properties?locale=${locale}&city=${city.slug}&sortBy=price-asc`);
      const search = await twinOf(`/${locale}/search?city=${city.slug}&sortBy=price-asc`);
      assert.equal(search.url, `${SITE}/${locale}/search.md?city=${city.slug}&sortBy=price-asc`);
      assert.ok(search.text.includes(`\n## ${SEARCH_STRINGS[locale].results(found.meta.pagination.total)}\n`), `search: ${found.meta.pagination.total} found`);
      for (const card of found.data) assert.ok(search.text.includes(`### [${card.title}](${SITE}/${locale}/space/${card.slug}.md)`), `search: ${card.slug}`);

      const second = await twinOf(`/${locale}/coworking/${country.slug}?page=2`);
      assert.equal(second.url, `${SITE}/${locale}/coworking/${country.slug}.md?page=2`);
      const secondCards = (await data(`/v1/properties?locale=${locale}&country=${country.slug}&sortBy=rating-desc&page=2&pageSize=24`)).data;
      for (const card of secondCards) assert.ok(second.text.includes(`### [${card.title}](${SITE}/${locale}/space/${card.slug}.md)`), `hub page 2: ${card.slug}`);

      const index = await data(`/api/price-index?locale=${locale}`);
      const indexText = await citedTwin(index.meta.citation);
      const published = index.data.cities.filter((c: { published: boolean }) => c.published);
      assert.ok(published.length > 0);
      for (const country of geo.countries.filter((c: { code: string }) => index.data.cities.some((i: { countryCode: string }) => i.countryCode === c.code))) {
        assert.ok(indexText.includes(`| [${country.name}](${SITE}/${locale}/price-index/${country.slug}.md) |`), `price index: ${country.slug}`);
        // every page of the country's index, as the twins link them
        let countryText = '';
        for (let n = 1; ; n++) {
          const r = await get(s.app, `/${locale}/price-index/${country.slug}.md${n > 1 ? `?page=${n}` : ''}`);
          if (r.status === 404 && n > 1) break;
          assert.equal(r.status, 200, `${country.slug} page ${n}`);
          countryText += plain(r.raw.body);
        }
        for (const c of published.filter((i: { countryCode: string }) => i.countryCode === country.code)) {
          const row = `| ${formatNumber(locale, c.sampleSize)} | ${money(c.median)} | ${money(c.average)} | ${money(c.min)} | ${money(c.max)} |`;
          assert.ok(countryText.includes(`](${SITE}/${locale}/prices/${c.city.slug}.md) | ${t.allDesks} ${row}`), `price index of ${country.slug}: ${c.city.slug} ${row}`);
        }
      }
      assert.ok(indexText.includes(s.build.manifest.releaseId), 'price index: its release');
      for (const name of ['listings.parquet', 'offers.parquet']) assert.match(indexText, new RegExp(`\\[${name}\\]\\(${SITE}/api/releases/[^)]+/${name}\\)`), `price index: the release's ${name}`);
      assert.match(indexText, /\n#### /, 'price index: the methodology, its headings below the page\'s');
    });
  }

  it('is a 404 in Markdown where the page is a 404, and the page then names no twin', async () => {
    const { city, country } = await samplePlaces('en');
    for (const path of [
      '/en/space/no-such-space', '/de/operator/no-such-operator', '/es/best/atlantis', '/en/prices/atlantis',
      '/de/coworking/atlantis', `/en/coworking/${country.slug}/atlantis`, `/de/coworking/${country.slug}?page=999`, `/es/coworking/atlantis/${city.slug}`,
      `/en/coworking/${country.slug}/${city.slug}/no-such-zone`,
    ]) {
      const page = await get(s.app, path);
      assert.equal(page.status, 404, path);
      assert.equal(page.headers.link, undefined, `${path} names no twin`);
      const twin = await get(s.app, path.replace(/(\?|$)/, '.md$1'));
      assert.equal(twin.status, 404, `${path}: its twin`);
      assert.equal(twin.headers['content-type'], MARKDOWN);
      assert.ok(twin.raw.body.startsWith(`# ${STRINGS[path.slice(1, 3) as Locale].notFound}\n`), twin.raw.body);
    }
  });

  it('names the twin of a page asked for with characters a URI may not hold as one URI', async () => {
    // as the request line has it: inject would encode it first
    assert.equal(twinLink(SITE, '/en/prices?x=<a>"b c'), `<${SITE}/en/prices.md?x=%3Ca%3E%22b%20c>; rel="alternate"; type="text/markdown"`);
  });

  it('gives every problem page a twin with its code and text', async () => {
    for (const code of ERROR_CODES) {
      const { url, text } = await twinOf(problemPath(code));
      assert.equal(url, `${SITE}${problemPath(code)}.md`);
      assert.ok(text.startsWith(`# ${PROBLEM_KINDS[code].title}\n`), text.slice(0, 200));
      assert.ok(text.includes(`- code: \`${code}\``) && text.includes(`- status: \`${PROBLEM_KINDS[code].status}\``), `${url}: code and status`);
      assert.ok(text.includes(plain(PROBLEM_DOCS[code](s.app.config).trim().split('\n')[0])), `${url}: the code's own text`);
    }
    const missing = await get(s.app, '/problems/no-such-problem.md');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], MARKDOWN);
  });

  it('links only to pages and files that answer, pages through their twins', async () => {
    const { city, space, operator } = await samplePlaces('de');
    const failures: string[] = [];
    for (const path of ['/problems/rate-limited', '/de', `/de/search?city=${city.slug}&amenities=wifi`, `/de/best/${city.slug}`, `/de/space/${space}`, `/de/operator/${operator}`, `/de/prices/${city.slug}`]) {
      const { url, md } = await twinOf(path);
      for (const [, href] of md.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)) {
        if (href.startsWith('https://creativecommons.org/')) continue;
        if (!href.startsWith(SITE) && !href.startsWith(BASE)) { failures.push(`${url} leaves the service: ${href}`); continue; }
        const target = pathOf(href).split('#')[0];
        const r = await get(s.app, target);
        if (r.status !== 200) failures.push(`${url} → ${href}: ${r.status}`);
        else if (localePage.test(target) && r.headers['content-type'] !== MARKDOWN) {
          failures.push(`${url} → ${href}: a page linked as HTML`);
        }
      }
    }
    assert.deepEqual(failures, []);
  });
});
