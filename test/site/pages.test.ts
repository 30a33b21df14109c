/**
 * The public pages: each page the API's citations point to shows the data of that response, in
 * its locale, as accessible HTML with the attribution; unknown pages are HTML 404s.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { ERROR_CODES } from '../../contract/problem.ts';
import type { PriceIndexPayload } from '../../contract/market.ts';
import type { PriceHistoryPayload } from '../../contract/research.ts';
import { PROBLEM_KINDS, toProblem, ApiError } from '../../api/http/problems.ts';
import { PALETTE } from '../../api/site/charts.ts';
import { formatMoney, STRINGS } from '../../api/site/strings.ts';
import { HOME_CITIES_PER_COUNTRY, INDEX_CITIES_PER_PAGE, PRICES_CITIES_PER_PAGE } from '../../api/site/views.ts';
import { get, SITE } from '../support/app.ts';
import { html, pathOf, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const text = (el: Element | null) => squash(el?.textContent ?? '');

async function page(url: string) {
  const r = await get(s.app, url);
  assert.equal(r.status, 200, `${url}: ${String(r.raw.body).slice(0, 300)}`);
  assert.equal(r.headers['content-type'], 'text/html; charset=utf-8', url);
  return { ...r, doc: html(r.raw.body) };
}

/** Citations of one response per kind of page, in a locale. */
async function citedResponses(locale: Locale) {
  const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data;
  const city = [...geo.cities].sort((a: { zones: unknown[] }, b: { zones: unknown[] }) => b.zones.length - a.zones.length)[0];
  const list = (await get(s.app, `/v1/properties?locale=${locale}&sortBy=rating-desc&pageSize=1`)).body;
  const slug = list.data[0].slug;
  const operator = (await get(s.app, `/v1/properties?locale=${locale}&sortBy=rating-desc&pageSize=50`)).body.data.find((c: { operator?: unknown }) => c.operator).operator.slug;
  const country = geo.countries.find((c: { code: string }) => c.code === city.countryCode).slug;
  const urls = [
    `/v1/properties?locale=${locale}`,
    `/v1/properties/${slug}?locale=${locale}`,
    `/v1/places/country/${country}?locale=${locale}`,
    `/v1/places/city/${city.slug}?locale=${locale}`,
    `/v1/places/zone/${city.zones[0].slug}?locale=${locale}`,
    `/v1/operators/${operator}?locale=${locale}`,
    `/v1/rankings?locale=${locale}&city=${city.slug}`,
    `/v1/market/rates?locale=${locale}`,
    `/v1/market/rates?locale=${locale}&city=${city.slug}`,
    `/api/price-index?locale=${locale}`,
  ];
  const out = [];
  for (const url of urls) {
    const r = await get(s.app, url);
    assert.equal(r.status, 200, url);
    out.push({ url, body: r.body });
  }
  return out;
}

describe('public pages', () => {
  it('answer at every citation URL, in the locale, titled as the citation, with the attribution and links to the data', async () => {
    for (const locale of LOCALES) {
      for (const { url, body } of await citedResponses(locale)) {
        const cite = body.meta.citation;
        const { doc } = await page(pathOf(cite.url));
        assert.equal(doc.documentElement.getAttribute('lang'), locale, cite.url);
        assert.equal(text(doc.querySelector('h1')), cite.title, `${cite.url} (cited by ${url})`);
        assert.equal(doc.querySelector('link[rel="canonical"]')?.getAttribute('href'), cite.url);
        const footer = doc.querySelector('footer')!;
        assert.equal(footer.querySelector('a[rel="license"]')?.getAttribute('href'), 'https://creativecommons.org/licenses/by/4.0/');
        assert.ok(text(footer).includes(cite.text), `${cite.url}: the footer cites "${cite.text}"`);
        const data = [...doc.querySelectorAll('main a[type]')].map((a) => a.getAttribute('href')!);
        assert.ok(data.some((href) => href.includes('/api/') || href.startsWith('https://api.deskatlas.test/v1/')), `${cite.url} links its data: ${data}`);
        for (const href of data) assert.equal((await get(s.app, href.startsWith('/') ? href : pathOf(href))).status, 200, href);
        const others = [...doc.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => l.getAttribute('hreflang'));
        assert.deepEqual(others, [...LOCALES]);
      }
    }
  });

  it('show the figures of the response they stand for', async () => {
    const list = (await get(s.app, '/v1/properties?locale=de&sortBy=price-asc&pageSize=5')).body.data;
    for (const card of list) {
      const detail = (await get(s.app, `/v1/properties/${card.slug}?locale=de`)).body.data;
      const { doc } = await page(pathOf(detail.webUrl));
      const rows = [...doc.querySelectorAll('#pricing-heading ~ .table-wrap tbody tr')];
      assert.equal(rows.length, detail.pricingOptions.length, card.slug);
      detail.pricingOptions.forEach((o: { title: string; price?: { amount: number; currency: string } }, k: number) => {
        assert.equal(text(rows[k].querySelector('th')), o.title);
        assert.equal(text(rows[k].querySelector('td.num')), squash(o.price ? formatMoney('de', o.price) : 'auf Anfrage'));
      });
      assert.ok(text(doc.querySelector('main')).includes(detail.address));
    }

    const rates = (await get(s.app, '/v1/market/rates?locale=es')).body.data;
    const madrid = rates.cities.find((c: { city: { slug: string } }) => c.city.slug === 'madrid');
    const { doc: pricesDoc } = await page('/es/prices/madrid');
    const rateRows = [...pricesDoc.querySelectorAll('#rates-heading ~ .table-wrap tbody tr')];
    madrid.byType.forEach((b: { sampleSize: number; median: { amount: number; currency: string }; thinSample?: true }, k: number) => {
      const cells = [...rateRows[k].querySelectorAll('td')].map(text);
      assert.deepEqual(cells.slice(0, 2), [String(b.sampleSize), b.thinSample ? STRINGS.es.thinSample : squash(formatMoney('es', b.median))]);
    });

    const ranking = (await get(s.app, '/v1/rankings?locale=en&city=madrid&limit=25')).body.data;
    const { doc: bestDoc } = await page('/en/best/madrid');
    const ranked = [...bestDoc.querySelectorAll('tbody th a')].map((a) => a.getAttribute('href'));
    assert.deepEqual(ranked, ranking.ranked.map((r: { slug: string }) => `/en/space/${r.slug}`));

    const hub = (await get(s.app, '/v1/places/city/madrid?locale=en')).body.data;
    const { doc: placeDoc } = await page('/en/coworking/spain/madrid');
    const zones = [...placeDoc.querySelectorAll('#children-heading + ul a')].map(text);
    assert.deepEqual(zones, hub.children.map((c: { name: string }) => c.name));
    assert.ok(text(placeDoc.querySelector('main dl')).includes(squash(formatMoney('en', hub.medianMonthlyPerDesk.price))));
    const cards = placeDoc.querySelectorAll('.cards > li');
    assert.equal(cards.length, Math.min(24, hub.propertyCount));

    // a country's page is rendered on the page worker: every city linked, with its count, in the locale's number format
    for (const locale of LOCALES) {
      const country = (await get(s.app, `/v1/places/country/spain?locale=${locale}`)).body.data;
      const { doc: countryDoc } = await page(`/${locale}/coworking/spain`);
      const cities = [...countryDoc.querySelectorAll('#children-heading + ul li')].map((li) => [li.querySelector('a')!.getAttribute('href'), text(li)]);
      assert.ok(country.children.length > 1, 'the sample has a country of several cities');
      assert.deepEqual(cities, country.children.map((c: { slug: string; name: string; propertyCount: number }) =>
        [`/${locale}/coworking/spain/${c.slug}`, squash(`${c.name} (${STRINGS[locale].propertyCount(c.propertyCount)})`)]), locale);
      assert.ok(text(countryDoc.querySelector('h1')).includes(country.name), locale);
    }
  });

  it('tabulate the whole price index as /api/price-index publishes it, a page per country', async () => {
    const index: PriceIndexPayload = (await get(s.app, '/api/price-index')).body.data;
    const { doc: indexDoc } = await page('/en/price-index');
    const countryPages = new Map<string, Document>();
    for (const a of indexDoc.querySelectorAll('table.index-countries tbody th a')) countryPages.set(a.getAttribute('href')!, (await page(a.getAttribute('href')!)).doc);
    assert.equal(indexDoc.querySelectorAll('tr[data-city]').length, 0, 'the index page lists countries, not cities');
    const geo = (await get(s.app, '/v1/geo/bootstrap?locale=en')).body.data;
    const countryPath = (code: string) => `/en/price-index/${geo.countries.find((c: { code: string }) => c.code === code).slug}`;
    assert.deepEqual(new Set(countryPages.keys()), new Set(index.cities.map((c) => countryPath(c.countryCode))));
    for (const c of index.cities) {
      const doc = countryPages.get(countryPath(c.countryCode))!;
      for (const f of [{ product: 'all', ...c }, ...(c.byType ?? []).map((b) => ({ product: b.optionType, ...b }))]) {
        const row = doc.querySelector(`tr[data-city="${c.city.slug}"][data-product="${f.product}"]`);
        assert.ok(row, `${c.city.slug} ${f.product}`);
        assert.equal(text(row.querySelector('[data-field="sampleSize"]')), String(f.sampleSize));
        for (const field of ['median', 'average', 'min', 'max'] as const) {
          const cell: Element | null = row.querySelector(`[data-field="${field}"]`);
          assert.equal(cell?.getAttribute('data-amount') ?? undefined, f.published ? String(f[field]!.amount) : undefined, `${c.city.slug} ${f.product} ${field}`);
        }
        if (f.published) {
          assert.equal(row.querySelector('[data-field="p25"]')?.getAttribute('data-amount'), String(f.p25!.amount));
          assert.equal(text(row.querySelector('[data-field="medianInterval"]')),
            squash(`${formatMoney('en', f.medianInterval!.low)} – ${formatMoney('en', f.medianInterval!.high)}`), `${c.city.slug} ${f.product} interval`);
          assert.equal(text(row.querySelector('[data-field="flags"]')), f.flags);
        }
      }
    }
    assert.equal([...countryPages.values()].reduce((n, doc) => n + doc.querySelectorAll('tr[data-city]').length, 0),
      index.cities.reduce((n, c) => n + 1 + (c.byType?.length ?? 0), 0));
    const doc = indexDoc;
    assert.ok(doc.querySelector('#methodology h2'), 'the methodology section the methodologyUrl points to');
    const bib = doc.querySelector('#cite-heading ~ ul a[href$="/citation.bib"]')?.getAttribute('href');
    assert.ok(bib, 'links the release\'s BibTeX');
    const entry = await get(s.app, pathOf(bib));
    assert.equal(entry.status, 200);
    assert.equal(doc.querySelector('#cite-heading ~ pre')?.textContent, entry.raw.body, 'shows the same BibTeX entry');
    assert.equal(index.source?.sampleData, true);
    assert.equal(text(doc.querySelector('main [role="note"] span')), index.source.description, 'sample data says so');
    const docs = html((await s.app.inject({ url: '/docs' })).body);
    assert.equal(text(docs.querySelector('[role="note"]')), `Sample data, not real prices. ${index.source.description}`, '/docs says so too');
    for (const [path, countryDoc] of countryPages) {
      const mine = index.cities.filter((c) => countryPath(c.countryCode) === path);
      const charts = [...countryDoc.querySelectorAll('figure.index-chart')];
      assert.deepEqual(charts.map((f) => f.getAttribute('data-currency')), [...new Set(mine.filter((c) => c.published).map((c) => c.currency))], path);
      for (const f of charts) {
        assert.equal(f.querySelectorAll('svg g[data-mark="bar"] rect').length, mine.filter((c) => c.published).length, `${path}: a bar per published city`);
        assert.ok(f.querySelector('figcaption'));
      }
    }
  });

  it('tabulate the monthly history as /api/price-index/history publishes it, beside a chart per country', async () => {
    const history: PriceHistoryPayload = (await get(s.app, '/api/price-index/history')).body.data;
    const cell = (c: Element | null) => ({
      sampleSize: Number(c?.getAttribute('data-sample-size')), amount: c?.getAttribute('data-amount') ?? undefined,
      index: c?.querySelector('[data-index]')?.getAttribute('data-index') ?? undefined,
    });
    const point = (p: { sampleSize: number; published: boolean; median?: { amount: number }; index?: number }) => ({
      sampleSize: p.sampleSize, amount: p.published ? String(p.median!.amount) : undefined, index: p.index === undefined ? undefined : String(p.index),
    });

    const index: PriceIndexPayload = (await get(s.app, '/api/price-index')).body.data;
    const countryOf = new Map(index.cities.map((c) => [c.city.slug, c.countryCode]));
    const geo = (await get(s.app, '/v1/geo/bootstrap?locale=de')).body.data;
    const docs = new Map<string, Document>();
    for (const c of geo.countries) {
      if (index.cities.some((x) => x.countryCode === c.code)) docs.set(c.code, (await page(`/de/price-index/${c.slug}`)).doc);
    }
    for (const c of history.cities) {
      const row = docs.get(countryOf.get(c.city.slug)!)!.querySelector(`table.history-table tr[data-row="${c.city.slug}"]`);
      assert.ok(row, c.city.slug);
      assert.deepEqual(history.months.map((m) => cell(row.querySelector(`[data-column="${m}"]`))), c.points.map(point), c.city.slug);
    }
    for (const [code, doc] of docs) {
      const currencies = [...new Set(history.cities.filter((c) => countryOf.get(c.city.slug) === code && c.points.some((p) => p.published)).map((c) => c.currency))];
      assert.deepEqual([...doc.querySelectorAll('figure.history-chart')].map((f) => f.getAttribute('data-currency')), currencies, code);
    }

    // 8 cities in Germany: the palette's worth with the largest latest samples in colour, named in the legend; the rest grey, each named by its title and linked from the table
    const doc = docs.get('DE')!;
    const eur = history.cities.filter((c) => countryOf.get(c.city.slug) === 'DE' && c.points.some((p) => p.published));
    assert.ok(eur.length > PALETTE.length);
    const eurChart = doc.querySelector('figure.history-chart[data-currency="EUR"]')!;
    const largest = [...eur].sort((a, b) => b.points.at(-1)!.sampleSize - a.points.at(-1)!.sampleSize).slice(0, PALETTE.length);
    const cityName = (slug: string) => text(doc.querySelector(`table.history-table tr[data-row="${slug}"] th`));
    assert.deepEqual(new Set([...eurChart.querySelectorAll('span.chart-swatch')].map(text)), new Set(largest.map((c) => cityName(c.city.slug))));
    const grey = eur.filter((c) => !largest.includes(c));
    const titled = [...eurChart.querySelectorAll('svg.history-median g[data-mark="line"] path title')].map(text);
    assert.deepEqual(new Set(titled), new Set(grey.map((c) => cityName(c.city.slug))));
    for (const c of grey) assert.equal(doc.querySelector(`table.history-table tr[data-row="${c.city.slug}"] th a`)?.getAttribute('href'), `/de/prices/${c.city.slug}`);
    assert.equal(text(eurChart.querySelector('p')), STRINGS.de.historyOthers(eur.length - PALETTE.length));

    const london = history.cities.find((c) => c.city.slug === 'london')!;
    const { doc: cityDoc } = await page('/es/prices/london');
    const series = [{ key: 'all', points: london.points }, ...london.byType.filter((b) => b.points.some((p) => p.published)).map((b) => ({ key: b.optionType, points: b.points }))];
    history.months.forEach((m, k) => {
      const row = cityDoc.querySelector(`table.history-table tr[data-row="${m}"]`);
      assert.ok(row, m);
      assert.deepEqual(series.map((x) => cell(row.querySelector(`[data-column="${x.key}"]`))), series.map((x) => point(x.points[k])), m);
    });
    const marks = (panel: string) => cityDoc.querySelectorAll(`figure.history-chart svg.history-${panel} g[data-mark="dot"] :is(circle, path)`);
    assert.equal(marks('median').length, series.reduce((n, x) => n + x.points.filter((p) => p.published).length, 0), 'a median per published month');
    assert.equal(marks('index').length, series.reduce((n, x) => n + x.points.filter((p) => p.index !== undefined).length, 0), 'an index mark per indexed month');
    assert.ok(marks('index').length > 0, 'London has a same-spaces index');
    const samples = [...marks('sample')].map((m) => text(m.querySelector('title')));
    assert.equal(samples.length, series.length * history.months.length, 'a sample for every month, published or not');
    for (const x of series) {
      x.points.filter((p) => !p.published).forEach((p) => assert.ok(samples.some((title) => title.includes(`n = ${p.sampleSize} `) && title.endsWith(STRINGS.es.notPublished)), `${x.key} ${p.month}`));
    }
  });

  it('print no figure of a thin sample: the market rates table labels it as the API flags it (thinSample)', async () => {
    for (const locale of LOCALES) {
      const rates = (await get(s.app, `/v1/market/rates?locale=${locale}`)).body.data;
      const { doc } = await page(`/${locale}/prices`);
      let thin = 0;
      for (const c of rates.cities) {
        for (const b of c.byType) {
          const row = doc.querySelector(`tr[data-city="${c.city.slug}"][data-product="${b.optionType}"]`);
          assert.ok(row, `${locale} ${c.city.slug} ${b.optionType}`);
          const where = `${locale} ${c.city.slug} ${b.optionType} (n = ${b.sampleSize})`;
          if (b.thinSample) {
            thin++;
            assert.equal(text(row.querySelector('[data-thin-sample]')), STRINGS[locale].thinSample, where);
            assert.equal(row.querySelector('[data-amount]'), null, where);
            assert.ok(!text(row).includes(squash(formatMoney(locale, b.median))), `${where}: prints no median`);
          } else {
            assert.equal(row.querySelector('[data-amount]')?.getAttribute('data-amount'), String(b.median.amount), where);
          }
        }
      }
      assert.ok(thin > 0, 'the sample has thin samples');
    }
    const graz = (await get(s.app, '/v1/market/rates?locale=en&city=graz')).body.data.cities[0];
    const { doc } = await page('/en/prices/graz');
    const rows = [...doc.querySelectorAll('#rates-heading ~ .table-wrap tbody tr[data-product]')];
    assert.equal(rows.length, graz.byType.length);
    for (const row of rows) assert.equal(text(row.querySelector('[data-thin-sample]')), STRINGS.en.thinSample, 'every product of Graz is a thin sample');
  });

  it('name a city with its country where another shares its name, in headings, tables and charts', async () => {
    for (const locale of LOCALES) {
      const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data;
      const country = (code: string) => geo.countries.find((c: { code: string }) => c.code === code).name;
      const valencias = geo.cities.filter((c: { name: string }) => c.name === 'Valencia');
      assert.equal(valencias.length, 2);
      const names = valencias.map((c: { countryCode: string }) => `Valencia, ${country(c.countryCode)}`);

      const { doc: prices } = await page(`/${locale}/prices`);
      assert.deepEqual(valencias.map((c: { slug: string }) => text(prices.querySelector(`tr[data-city="${c.slug}"] th[scope="rowgroup"]`))), names);
      for (const [k, c] of valencias.entries()) {
        const country = geo.countries.find((x: { code: string }) => x.code === c.countryCode).slug;
        const { doc: index } = await page(`/${locale}/price-index/${country}`);
        assert.equal(text(index.querySelector(`table.index-table tr[data-city="${c.slug}"] th[scope="rowgroup"]`)), names[k]);
        assert.equal(text(index.querySelector(`table.history-table tr[data-row="${c.slug}"] th`)), names[k]);
        const chartText = [...index.querySelectorAll('figure.index-chart svg text')].map(text);
        assert.ok(chartText.includes(names[k]), `${locale}: the index chart names ${names[k]}`);
      }

      for (const [k, c] of valencias.entries()) {
        const cite = (await get(s.app, `/v1/market/rates?locale=${locale}&city=${c.slug}`)).body.meta.citation;
        assert.ok(cite.title.endsWith(names[k]), `${locale}: ${cite.title}`);
        const { doc } = await page(pathOf(cite.url));
        assert.equal(text(doc.querySelector('h1')), cite.title);
        assert.equal(text(doc.querySelector('figure.index-chart figcaption')), STRINGS[locale].chartCityCaption(names[k]));
      }
    }
  });

  it('are accessible without scripts: one h1, no skipped heading level, labelled navigation, alt text, table captions', async () => {
    const urls = ['/en', '/de/coworking/germany/berlin', '/es/space/almendra-arganzuela', '/de/operator/almendra-espacios', '/en/best/madrid',
      '/es/prices', '/de/prices/london', '/en/price-index', '/de/price-index/germany', '/problems/rate-limited'];
    for (const url of urls) {
      const { doc } = await page(url);
      assert.equal(doc.querySelectorAll('h1').length, 1, url);
      assert.equal(doc.querySelectorAll('script').length, 0, url);
      let level = 1;
      for (const h of doc.querySelectorAll('main h1, main h2, main h3, main h4')) {
        const l = Number(h.tagName[1]);
        assert.ok(l <= level + 1, `${url}: ${h.tagName} "${text(h)}" after h${level}`);
        level = l;
      }
      for (const nav of doc.querySelectorAll('nav')) assert.ok(nav.getAttribute('aria-label') || nav.getAttribute('aria-labelledby'), url);
      for (const img of doc.querySelectorAll('main img')) assert.ok(img.getAttribute('alt'), url);
      for (const table of doc.querySelectorAll('table')) assert.ok(table.querySelector('caption') || table.querySelector('thead th'), url);
      for (const svg of doc.querySelectorAll('figure.chart > svg')) {
        assert.equal(svg.getAttribute('role'), 'img', url);
        assert.ok(svg.getAttribute('aria-label'), url);
      }
    }
  });

  it('answer an unknown page with an HTML 404 in its locale', async () => {
    for (const url of ['/en/space/no-such-space', '/de/operator/nobody', '/es/best/atlantis', '/en/prices/atlantis',
      '/en/coworking/atlantis', '/en/coworking/spain/berlin', '/en/coworking/germany/berlin/madrid-centro', '/problems/teapot', '/fr/price-index']) {
      const r = await get(s.app, url, { accept: 'text/html' });
      assert.equal(r.status, 404, url);
      assert.equal(r.headers['content-type'], 'text/html; charset=utf-8', url);
      assert.equal(r.headers['cache-control'], 'no-store', url);
      const doc = html(r.raw.body);
      assert.equal(doc.documentElement.getAttribute('lang'), url.startsWith('/problems') || url.startsWith('/fr') ? 'en' : url.slice(1, 3));
    }
  });

  it('carry Cache-Control and a strong ETag, answering 304 to a matching If-None-Match', async () => {
    const expected: Record<string, string> = {
      '/en/price-index': 'public, max-age=3600, stale-while-revalidate=86400',
      '/de/prices/berlin': 'public, max-age=600, stale-while-revalidate=3600',
      '/es/space/almendra-arganzuela': 'public, max-age=300, stale-while-revalidate=3600',
      '/problems/not-found': 'public, max-age=3600, stale-while-revalidate=86400',
    };
    for (const [url, cacheControl] of Object.entries(expected)) {
      const r = await page(url);
      assert.equal(r.headers['cache-control'], cacheControl, url);
      const etag = String(r.headers.etag);
      assert.match(etag, /^"[\w-]+"$/);
      const again = await get(s.app, url, { 'if-none-match': etag });
      assert.equal(again.status, 304, url);
    }
  });
});

describe('pages that grow with the catalogue', () => {
  it('split or page: the index lists countries, a country page its cities, the prices and the home a bounded number', async () => {
    const index: PriceIndexPayload = (await get(s.app, '/api/price-index')).body.data;
    for (const locale of LOCALES) {
      const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data;
      const { doc } = await page(`/${locale}/price-index`);
      const countryLinks = [...doc.querySelectorAll('main a')].map((a) => a.getAttribute('href')!).filter((h) => h.startsWith(`/${locale}/price-index/`));
      const cityLinks = [...doc.querySelectorAll('main a')].filter((a) => a.getAttribute('href')!.startsWith(`/${locale}/prices/`));
      assert.equal(cityLinks.length, 0, `${locale}: the index page links no city`);
      assert.equal(countryLinks.length, new Set(index.cities.map((c) => c.countryCode)).size, `${locale}: a link per country`);
      for (const href of countryLinks) {
        const country = geo.countries.find((c: { slug: string }) => href.endsWith(`/${c.slug}`));
        const { doc: countryDoc } = await page(href);
        const cities = new Set([...countryDoc.querySelectorAll('table.index-table tr[data-city]')].map((r) => r.getAttribute('data-city')));
        assert.ok(cities.size <= INDEX_CITIES_PER_PAGE, href);
        assert.deepEqual(cities, new Set(index.cities.filter((c) => c.countryCode === country.code).map((c) => c.city.slug)), `${href}: its cities, only them`);
        assert.equal((await get(s.app, `${href}?page=2`)).status, 404, 'no page past the last');
      }
      const { doc: prices } = await page(`/${locale}/prices`);
      assert.ok(new Set([...prices.querySelectorAll('tr[data-city]')].map((r) => r.getAttribute('data-city'))).size <= PRICES_CITIES_PER_PAGE);
      const { doc: home } = await page(`/${locale}`);
      for (const ul of home.querySelectorAll('#countries-heading ~ ul')) {
        assert.ok(ul.querySelectorAll(`a[href^="/${locale}/coworking/"]`).length <= HOME_CITIES_PER_COUNTRY + 1, `${locale}: a country's largest cities, then its hub`);
      }
      // each country's largest cities, most spaces first and by name among equals
      for (const h3 of home.querySelectorAll('#countries-heading ~ h3')) {
        const country = geo.countries.find((c: { slug: string }) => h3.querySelector('a')!.getAttribute('href') === `/${locale}/coworking/${c.slug}`);
        const largest = geo.cities.filter((c: { countryCode: string }) => c.countryCode === country.code)
          .sort((a: { propertyCount: number; name: string }, b: { propertyCount: number; name: string }) => b.propertyCount - a.propertyCount || a.name.localeCompare(b.name, locale))
          .slice(0, HOME_CITIES_PER_COUNTRY).map((c: { slug: string }) => `/${locale}/coworking/${country.slug}/${c.slug}`);
        const listed = [...h3.nextElementSibling!.querySelectorAll('a')].map((a) => a.getAttribute('href')).filter((h) => h !== `/${locale}/coworking/${country.slug}`);
        assert.deepEqual(listed, largest, `${locale} ${country.slug}`);
      }
    }
  });
});

describe('problem pages', () => {
  it('answer at the type URI of every problem code, naming its code, status and title', async () => {
    for (const code of ERROR_CODES) {
      const type = toProblem(SITE, new ApiError(code), 'trace').type;
      const { doc } = await page(pathOf(type));
      assert.equal(text(doc.querySelector('h1')), PROBLEM_KINDS[code].title);
      const main = text(doc.querySelector('main'));
      assert.ok(main.includes(code) && main.includes(String(PROBLEM_KINDS[code].status)) && main.includes(type), code);
      assert.ok(doc.querySelector('main strong'), `${code}: says what to do`);
    }
  });

  it('resolve the type of a real error response', async () => {
    const r = await get(s.app, '/v1/properties?locale=xx');
    assert.equal(r.status, 400);
    const { doc } = await page(pathOf(r.body.type));
    assert.equal(text(doc.querySelector('h1')), r.body.title);
  });
});
