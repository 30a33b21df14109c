/**
 * The price pages in a real browser (Debian's Chromium, headless, driven by playwright-core): in
 * every locale the chart and the table of each country's /price-index page and of a city's /prices page agree with
 * /api/price-index, as rendered; every chart writes its numbers and months as the locale does,
 * colours no more series than its palette tells apart and clips no text. Screenshots go to
 * test/output/pages/ (git-ignored) for review.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BrowserContext, type Page } from 'playwright-core';
import { LOCALES, type Locale } from '../../contract/common.ts';
import type { PriceHistoryPayload } from '../../contract/research.ts';
import { CONTEXT_GREY, PALETTE } from '../../api/site/charts.ts';
import { STRINGS } from '../../api/site/strings.ts';
import type { PriceIndexCity, PriceIndexPayload } from '../../contract/market.ts';
import { get } from '../support/app.ts';
import { sampleApp, type SampleApp } from './sample.ts';
import { launchChromium } from '../support/chromium.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', 'output', 'pages');

let s: SampleApp;
let origin: string;
let browser: BrowserContext;
let profile: string;
let index: PriceIndexPayload;
/** each country of the index: its slug and its cities */
let countries: { slug: string; cities: PriceIndexCity[] }[];

before(async () => {
  s = await sampleApp();
  origin = await s.app.listen({ host: '127.0.0.1', port: 0 });
  profile = await mkdtemp(join(tmpdir(), 'desk-atlas-chromium-'));
  browser = await launchChromium(profile, { viewport: { width: 1100, height: 900 } });
  index = (await get(s.app, '/api/price-index')).body.data;
  const geo = (await get(s.app, '/v1/geo/bootstrap?locale=en')).body.data;
  countries = geo.countries.map((c: { slug: string; code: string }) => ({ slug: c.slug, cities: index.cities.filter((x) => x.countryCode === c.code) }))
    .filter((c: { cities: unknown[] }) => c.cities.length > 0);
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await s?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

interface Rendered {
  rows: { city: string; product: string; cityName: string; productName: string; sampleSize: number; amounts: Record<string, number | null> }[];
  charts: {
    currency: string | null;
    bars: { title: string; left: number; width: number }[];
    dots: { title: string; cx: number }[];
  }[];
}

/**
 * The table rows and the chart marks as the browser lays them out. Plain JavaScript in a string:
 * a function passed from here would carry tsx's helpers, which the page does not have.
 */
const RENDERED = `(() => {
  const text = (el) => (el?.textContent ?? '').replace(/\\s+/g, ' ').trim();
  let cityName = '';
  const rows = [...document.querySelectorAll('table.index-table tr[data-city]')].map((tr) => {
    const headers = tr.querySelectorAll('th');
    if (headers.length === 2) cityName = text(headers[0]);
    const amounts = {};
    for (const f of ['median', 'average', 'min', 'max']) {
      const v = tr.querySelector('[data-field="' + f + '"]')?.getAttribute('data-amount');
      amounts[f] = v == null ? null : Number(v);
    }
    return {
      city: tr.getAttribute('data-city'), product: tr.getAttribute('data-product'), cityName,
      productName: text(headers[headers.length - 1]), sampleSize: Number(text(tr.querySelector('[data-field="sampleSize"]'))), amounts,
    };
  });
  const charts = [...document.querySelectorAll('figure.index-chart')].map((fig) => ({
    currency: fig.getAttribute('data-currency'),
    bars: [...fig.querySelectorAll('svg g[data-mark="bar"] rect')].map((r) => {
      const box = r.getBoundingClientRect();
      return { title: text(r.querySelector('title')), left: box.left, width: box.width };
    }),
    dots: [...fig.querySelectorAll('svg g[data-mark="dot"] path')].map((p) => {
      const box = p.getBoundingClientRect();
      return { title: text(p.querySelector('title')), cx: box.left + box.width / 2 };
    }),
  }));
  return { rows, charts };
})()`;

const rendered = (page: Page): Promise<Rendered> => page.evaluate(RENDERED) as Promise<Rendered>;

/** The figures of a city of the index: overall first, then each product, as the API gives them. */
const figuresOf = (c: PriceIndexCity) => [{ product: 'all', ...c }, ...(c.byType ?? []).map((b) => ({ product: b.optionType as string, ...b }))];

function assertTableMatches(rows: Rendered['rows'], cities: PriceIndexCity[], where: string) {
  const expected = cities.flatMap((c) => figuresOf(c).map((f) => ({
    city: c.city.slug, product: f.product, sampleSize: f.sampleSize,
    amounts: Object.fromEntries((['median', 'average', 'min', 'max'] as const).map((k) => [k, f.published ? f[k]!.amount : null])),
  })));
  assert.deepEqual(rows.map(({ city, product, sampleSize, amounts }) => ({ city, product, sampleSize, amounts })), expected, `${where}: table`);
}

/** Bars start at zero: a bar's width and a dot's distance from the axis are the median times one scale. */
function assertProportional(points: { value: number; length: number; what: string }[], where: string) {
  const scale = points[0].length / points[0].value;
  for (const p of points) {
    assert.ok(Math.abs(p.length - p.value * scale) <= 1, `${where}: ${p.what} is drawn at ${p.length.toFixed(1)} px, expected ${(p.value * scale).toFixed(1)} px`);
  }
}

/** The label the page gives a product: from the rendered table (a row per product of the city). */
const nameOf = (rows: Rendered['rows'], city: string, product: string) => rows.find((r) => r.city === city && r.product === product)!.productName;

describe('price pages in Chromium', () => {
  for (const locale of LOCALES) {
    it(`/${locale}/price-index/{country}: each country's chart and table agree with /api/price-index`, async () => {
      const page = await browser.newPage();
      for (const country of countries) {
        const res = await page.goto(`${origin}/${locale}/price-index/${country.slug}`);
        assert.equal(res?.status(), 200);
        const r = await rendered(page);
        assertTableMatches(r.rows, country.cities, `${locale} ${country.slug}`);

        const currencies = [...new Set(country.cities.filter((c) => c.published).map((c) => c.currency))];
        assert.deepEqual(r.charts.map((c) => c.currency).sort(), currencies.sort());
        for (const chart of r.charts) {
          const cities = country.cities.filter((c) => c.published && c.currency === chart.currency);
          const where = `${locale} ${country.slug} ${chart.currency}`;
          assert.equal(chart.bars.length, cities.length, `${where}: a bar per published city`);
          const zero = chart.bars[0].left;
          const points: { value: number; length: number; what: string }[] = [];
          for (const c of cities) {
            const cityName = r.rows.find((row) => row.city === c.city.slug)!.cityName;
            const bar = chart.bars.find((b) => b.title.startsWith(`${cityName} · ${nameOf(r.rows, c.city.slug, 'all')}:`));
            assert.ok(bar, `${where}: a bar for ${c.city.slug}`);
            assert.ok(bar.title.includes(`n = ${c.sampleSize} `), `${where}: "${bar.title}"`);
            points.push({ value: c.median!.amount, length: bar.width, what: `${c.city.slug} all` });
            for (const t of (c.byType ?? []).filter((b) => b.published)) {
              const prefix = `${cityName} · ${nameOf(r.rows, c.city.slug, t.optionType)}:`;
              const dots = chart.dots.filter((d) => d.title.startsWith(prefix));
              assert.equal(dots.length, 1, `${where}: one dot "${prefix}"`);
              assert.ok(dots[0].title.includes(`n = ${t.sampleSize} `), `${where}: "${dots[0].title}"`);
              points.push({ value: t.median!.amount, length: dots[0].cx - zero, what: `${c.city.slug} ${t.optionType}` });
            }
          }
          assert.equal(chart.dots.length, points.length - cities.length, `${where}: a dot per published product and no other`);
          assertProportional(points, where);
        }
        if (country === countries[0]) await page.screenshot({ path: join(SCREENSHOTS, `price-index.${country.slug}.${locale}.png`), fullPage: true });
      }
      await page.close();
    });

    it(`/${locale}/prices/{city}: the city's chart and table agree with /api/price-index`, async () => {
      const city = [...index.cities].filter((c) => c.published)
        .sort((a, b) => (b.byType ?? []).filter((t) => t.published).length - (a.byType ?? []).filter((t) => t.published).length || b.sampleSize - a.sampleSize)[0];
      const page = await browser.newPage();
      const res = await page.goto(`${origin}/${locale}/prices/${city.city.slug}`);
      assert.equal(res?.status(), 200);
      const r = await rendered(page);
      assertTableMatches(r.rows, [city], `${locale} ${city.city.slug}`);
      assert.equal(r.charts.length, 1);
      const published = figuresOf(city).filter((f) => f.published);
      const bars = r.charts[0].bars;
      assert.deepEqual(bars.map((b) => b.title.split(':')[0]), published.map((f) => `${r.rows[0].cityName} · ${nameOf(r.rows, city.city.slug, f.product)}`));
      published.forEach((f, k) => assert.ok(bars[k].title.includes(`n = ${f.sampleSize} `), bars[k].title));
      assertProportional(published.map((f, k) => ({ value: f.median!.amount, length: bars[k].width, what: f.product })), `${locale} ${city.city.slug}`);
      await page.screenshot({ path: join(SCREENSHOTS, `prices-${city.city.slug}.${locale}.png`), fullPage: true });
      await page.close();
    });
  }
});

interface ChartText {
  /** where the text is: an axis' tick labels, or a text mark (a sample, a threshold) */
  role: 'x-axis tick label' | 'y-axis tick label' | 'text';
  content: string;
  /** its box in the coordinates of its svg's viewBox */
  box: { left: number; top: number; right: number; bottom: number };
}
interface RenderedChart {
  label: string;
  viewBox: { width: number; height: number };
  texts: ChartText[];
  lineStrokes: string[];
  dotColours: string[];
}

/** Every chart (a Plot svg) of the page: its texts as laid out, the colours of its series, its legend. Plain JavaScript, as RENDERED. */
const CHARTS = `(() => {
  const roles = ['x-axis tick label', 'y-axis tick label', 'text'];
  return [...document.querySelectorAll('figure.chart svg[aria-label]')].map((svg) => {
    const frame = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const scale = frame.width / vb.width;
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '').map((t) => {
      const b = t.getBoundingClientRect();
      const group = t.closest('g[data-mark]');
      return {
        role: roles.includes(group?.getAttribute('data-mark')) ? group.getAttribute('data-mark') : 'other',
        content: t.textContent.trim(),
        box: { left: (b.left - frame.left) / scale, top: (b.top - frame.top) / scale, right: (b.right - frame.left) / scale, bottom: (b.bottom - frame.top) / scale },
      };
    });
    const colour = (el, attr) => el.getAttribute(attr) ?? el.closest('g[' + attr + ']')?.getAttribute(attr) ?? '';
    return {
      label: svg.getAttribute('aria-label'),
      viewBox: { width: vb.width, height: vb.height },
      texts,
      lineStrokes: [...svg.querySelectorAll('g[data-mark="line"] path')].map((p) => colour(p, 'stroke')),
      dotColours: [...svg.querySelectorAll('g[data-mark="dot"] :is(circle, path)')].map((d) => { const f = colour(d, 'fill'); return f === 'white' ? colour(d, 'stroke') : f; }),
    };
  });
})()`;

const NUMBERS = Object.fromEntries(LOCALES.map((l) => [l, new Intl.NumberFormat(l, { maximumFractionDigits: 2 })])) as Record<Locale, Intl.NumberFormat>;
const MONTHS = Object.fromEntries(LOCALES.map((l) => [l, new Intl.DateTimeFormat(l, { month: 'short', year: 'numeric', timeZone: 'UTC' })])) as Record<Locale, Intl.DateTimeFormat>;

/** The number a label writes in the locale's way (de: 1.500 and 2,5), or undefined when it is written otherwise. */
function localeNumber(locale: Locale, label: string): number | undefined {
  const parts = NUMBERS[locale].formatToParts(12345.5);
  const group = parts.find((p) => p.type === 'group')!.value;
  const decimal = parts.find((p) => p.type === 'decimal')!.value;
  if (!/^[\d.,\s\u00a0\u202f]+$/.test(label)) return undefined;
  const value = Number(label.split(group).join('').replace(decimal, '.'));
  return Number.isFinite(value) && NUMBERS[locale].format(value) === label ? value : undefined;
}

describe('every chart in every locale', () => {
  let history: PriceHistoryPayload;
  let cities: string[];
  before(async () => {
    history = (await get(s.app, '/api/price-index/history')).body.data;
    cities = (await get(s.app, '/v1/market/rates?locale=en')).body.data.cities.map((c: { city: { slug: string } }) => c.city.slug);
  });

  for (const locale of LOCALES) {
    it(`/${locale}: writes each tick and label as numbers and months in the locale, colours at most ${PALETTE.length} series, clips no text`, async () => {
      const months = new Set(history.months.map((m) => MONTHS[locale].format(new Date(`${m}-01T00:00:00Z`))));
      const thresholds = [STRINGS[locale].publicationThreshold, STRINGS[locale].indexBase];
      const indexPanel = STRINGS[locale].sameSpacesIndex;
      const page = await browser.newPage();
      let charts = 0;
      for (const path of [...countries.map((c) => `/${locale}/price-index/${c.slug}`), ...cities.map((c) => `/${locale}/prices/${c}`)]) {
        assert.equal((await page.goto(origin + path))?.status(), 200, path);
        for (const chart of await page.evaluate(CHARTS) as RenderedChart[]) {
          charts++;
          const where = `${path} "${chart.label.slice(0, 60)}…"`;
          const isHistory = chart.texts.some((t) => months.has(t.content));
          for (const t of chart.texts) {
            const { left, top, right, bottom } = t.box;
            assert.ok(left >= -0.5 && top >= -0.5 && right <= chart.viewBox.width + 0.5 && bottom <= chart.viewBox.height + 0.5,
              `${where}: "${t.content}" lies at ${[left, top, right, bottom].map((v) => v.toFixed(1))}, outside 0 0 ${chart.viewBox.width} ${chart.viewBox.height}`);
            if (t.role === 'x-axis tick label' && isHistory) assert.ok(months.has(t.content), `${where}: "${t.content}" is not a month of the history in ${locale}`);
            else if (t.role === 'x-axis tick label' || (t.role === 'y-axis tick label' && isHistory)) {
              assert.notEqual(localeNumber(locale, t.content), undefined, `${where}: tick "${t.content}" is not a number in ${locale}`);
            } else if (t.role === 'text' && !thresholds.some((label) => t.content.endsWith(label))) {
              const n = /^n = (.+)$/.exec(t.content)?.[1];
              assert.ok(n !== undefined && localeNumber(locale, n) !== undefined, `${where}: "${t.content}" is not a sample in ${locale}`);
            }
          }
          const coloured = chart.lineStrokes.filter((c) => c !== CONTEXT_GREY);
          // the index panel draws a series that starts again at its base as two lines of its one colour
          if (!chart.label.includes(indexPanel)) assert.equal(new Set(coloured).size, coloured.length, `${where}: two lines share a colour: ${coloured}`);
          for (const c of [...coloured, ...chart.dotColours.filter((d) => d !== CONTEXT_GREY)]) assert.ok(PALETTE.includes(c), `${where}: ${c} is not of the palette`);
          assert.ok(new Set(coloured).size <= PALETTE.length, `${where}: ${new Set(coloured).size} colours of lines`);
        }
      }
      assert.ok(charts > cities.length, `${charts} charts read`);
      await page.close();
    });
  }

  it('screenshots the price pages and the 404 at phone and desktop widths', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage();
      await page.setViewportSize({ width, height: 900 });
      for (const [path, status] of [['/en/prices', 200], ['/de/prices', 200], ['/es/price-index', 200], ['/en/price-index/germany', 200],
        ['/de/price-index/spain', 200], ['/de/prices/berlin', 200], ['/es/prices/valencia-ve', 200], ['/en/no-such-page', 404], ['/de/space/gone', 404]] as const) {
        assert.equal((await page.goto(origin + path))?.status(), status, path);
        const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as number;
        assert.ok(overflow <= 0, `${path} at ${width} px: the page is ${overflow} px wider than the window`);
        await page.screenshot({ path: join(SCREENSHOTS, `${path.slice(1).replaceAll('/', '_')}.${width}.png`), fullPage: true });
      }
      await page.close();
    }
  });
});
