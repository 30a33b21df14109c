/**
 * The price pages in a real browser (Debian's Chromium, headless, driven by playwright-core): in
 * every locale the chart and the table of /price-index and of a city's /prices page agree with
 * /api/price-index, as rendered. Screenshots go to test/output/pages/ (git-ignored) for review.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { LOCALES } from '../../contract/common.ts';
import type { PriceIndexCity, PriceIndexPayload } from '../../contract/market.ts';
import { get } from '../support/app.ts';
import { sampleApp, type SampleApp } from './sample.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, '..', 'output', 'pages');

let s: SampleApp;
let origin: string;
let browser: BrowserContext;
let profile: string;
let index: PriceIndexPayload;

before(async () => {
  s = await sampleApp();
  origin = await s.app.listen({ host: '127.0.0.1', port: 0 });
  profile = await mkdtemp(join(tmpdir(), 'desk-atlas-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  index = (await get(s.app, '/api/price-index')).body.data;
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
    bars: { href: string | null; title: string; left: number; width: number }[];
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
    bars: [...fig.querySelectorAll('svg g[aria-label="bar"] rect')].map((r) => {
      const box = r.getBoundingClientRect();
      return { href: r.closest('a')?.getAttribute('href') ?? null, title: text(r.querySelector('title')), left: box.left, width: box.width };
    }),
    dots: [...fig.querySelectorAll('svg g[aria-label="dot"] path')].map((p) => {
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
    it(`/${locale}/price-index: each currency's chart and the table agree with /api/price-index`, async () => {
      const page = await browser.newPage();
      const res = await page.goto(`${origin}/${locale}/price-index`);
      assert.equal(res?.status(), 200);
      const r = await rendered(page);
      assertTableMatches(r.rows, index.cities, locale);

      const currencies = [...new Set(index.cities.filter((c) => c.published).map((c) => c.currency))];
      assert.deepEqual(r.charts.map((c) => c.currency).sort(), currencies.sort());
      for (const chart of r.charts) {
        const cities = index.cities.filter((c) => c.published && c.currency === chart.currency);
        const where = `${locale} ${chart.currency}`;
        assert.equal(chart.bars.length, cities.length, `${where}: a bar per published city`);
        const zero = chart.bars[0].left;
        const points: { value: number; length: number; what: string }[] = [];
        for (const c of cities) {
          const bar = chart.bars.find((b) => b.href === `/${locale}/prices/${c.city.slug}`);
          assert.ok(bar, `${where}: a bar links to ${c.city.slug}`);
          const cityName = r.rows.find((row) => row.city === c.city.slug)!.cityName;
          assert.ok(bar.title.startsWith(`${cityName} · `) && bar.title.includes(`n = ${c.sampleSize} `), `${where}: "${bar.title}"`);
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
      await page.screenshot({ path: join(SCREENSHOTS, `price-index.${locale}.png`), fullPage: true });
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
