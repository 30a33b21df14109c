/**
 * Every page type in every locale, as a person sees it in Chromium: valid HTML (html-validate's
 * recommended rules on the served markup), no critical or serious axe-core violation, no
 * horizontal page scroll at phone widths, chart text at least 11 px as rendered, and wide tables
 * scrollable from the keyboard. Screenshots at 390 and 1280 px go to test/output/a11y/
 * (git-ignored) for review. A new page type is one line of PAGE_TYPES.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HtmlValidate } from 'html-validate';
import { type BrowserContext, type Page } from 'playwright-core';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { get } from '../support/app.ts';
import { sampleApp, type SampleApp } from './sample.ts';
import { launchChromium } from '../support/chromium.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', 'output', 'a11y');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PHONE_WIDTHS = [360, 390];
const SCREENSHOT_WIDTHS = [390, 1280];
const MIN_CHART_TEXT_PX = 11;

/** Slugs of the sample that give every page type real content. */
interface Sample { country: string; city: string; zone: string; space: string; operator: string }

interface PageType {
  name: string;
  /** the page's path in a locale; pages that have no locale ignore it and are visited once */
  path(locale: Locale, s: Sample): string;
  localized: boolean;
  status?: number;
  /** what a reader does on the page before it is checked, once it has loaded */
  use?(page: Page): Promise<void>;
}

const page = (name: string, path: PageType['path'], status = 200): PageType => ({ name, path, localized: true, status });
const unlocalized = (name: string, path: string, use?: PageType['use']): PageType => ({ name, path: () => path, localized: false, use });

/** /docs as Swagger UI draws it, with its first operation open and tried out (its answer shown). */
async function tryFirstOperation(p: Page) {
  await p.waitForSelector('.opblock-summary-control', { timeout: 60_000 });
  await p.click('.opblock-summary-control');
  await p.click('.try-out__btn');
  await p.click('.execute');
  await p.waitForSelector('.live-responses-table', { timeout: 60_000 });
}

export const PAGE_TYPES: PageType[] = [
  page('home', (l) => `/${l}`),
  page('country', (l, s) => `/${l}/coworking/${s.country}`),
  page('city', (l, s) => `/${l}/coworking/${s.country}/${s.city}`),
  page('zone', (l, s) => `/${l}/coworking/${s.country}/${s.city}/${s.zone}`),
  page('space', (l, s) => `/${l}/space/${s.space}`),
  page('operator', (l, s) => `/${l}/operator/${s.operator}`),
  page('best', (l, s) => `/${l}/best/${s.city}`),
  page('prices', (l) => `/${l}/prices`),
  page('city-prices', (l, s) => `/${l}/prices/${s.city}`),
  page('price-index', (l) => `/${l}/price-index`),
  page('price-index-country', (l, s) => `/${l}/price-index/${s.country}`),
  page('search', (l, s) => `/${l}/search?city=${s.city}&sortBy=price-asc`),
  page('search-invalid', (l) => `/${l}/search?minCapacity=many`, 400),
  page('contact', (l) => `/${l}/contact`),
  page('space-enquiry', (l, s) => `/${l}/space/${s.space}/enquiry`),
  page('not-found', (l) => `/${l}/space/no-such-space`, 404),
  unlocalized('problem', '/problems/not-found'),
  unlocalized('docs', '/docs', tryFirstOperation),
];

let s: SampleApp;
let origin: string;
let browser: BrowserContext;
let profile: string;
let sample: Sample;
const htmlValidate = new HtmlValidate({ extends: ['html-validate:recommended'] });

async function pickSample(): Promise<Sample> {
  const geo = (await get(s.app, '/v1/geo/bootstrap?locale=en')).body.data;
  const city = [...geo.cities].sort((a: { zones: unknown[] }, b: { zones: unknown[] }) => b.zones.length - a.zones.length)[0];
  const cards = (await get(s.app, `/v1/properties?locale=en&city=${city.slug}&sortBy=rating-desc&pageSize=50`)).body.data;
  return {
    country: geo.countries.find((c: { code: string }) => c.code === city.countryCode).slug,
    city: city.slug,
    zone: city.zones[0].slug,
    space: cards[0].slug,
    operator: cards.find((c: { operator?: unknown }) => c.operator).operator.slug,
  };
}

before(async () => {
  s = await sampleApp();
  origin = await s.app.listen({ host: '127.0.0.1', port: 0 });
  sample = await pickSample();
  profile = await mkdtemp(join(tmpdir(), 'desk-atlas-chromium-'));
  browser = await launchChromium(profile);
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await s?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** Every visit of the list: each localized page type in each locale, the others once. */
const visits = () => PAGE_TYPES.flatMap((p) => (p.localized ? LOCALES.map((l) => ({ type: p, locale: l as Locale | undefined })) : [{ type: p, locale: undefined }]));

async function open(p: Page, type: PageType, locale: Locale | undefined) {
  const path = type.path(locale ?? 'en', sample);
  const res = await p.goto(origin + path, { waitUntil: 'load' });
  assert.equal(res?.status(), type.status ?? 200, path);
  await type.use?.(p);
  return path;
}

interface AxeResult { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }

/** axe-core's violations that are critical or serious, one line each. */
async function seriousViolations(p: Page): Promise<string[]> {
  await p.addScriptTag({ path: AXE });
  const result = await p.evaluate('axe.run(document, { resultTypes: ["violations"] })') as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
}

/**
 * What a phone shows: how far the page is wider than the window, the smallest chart text as drawn
 * (its font size times the svg's scale), and the tables that overflow without a keyboard-scrollable,
 * labelled region around them. Plain JavaScript, as in browser.test.ts.
 */
const PHONE = `(() => {
  const root = document.documentElement;
  const texts = [...document.querySelectorAll('svg[role="img"] text, figure svg text')].map((t) => {
    const svg = t.ownerSVGElement;
    const vb = svg.viewBox.baseVal;
    const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
    return { text: t.textContent.trim(), px: parseFloat(getComputedStyle(t).fontSize) * scale };
  }).filter((t) => t.text !== '');
  const smallest = texts.reduce((a, t) => (a && a.px <= t.px ? a : t), undefined);
  const trapped = [...document.querySelectorAll('table')].filter((table) => {
    // the nearest box that scrolls (or clips) the table sideways: with none, what overflows widens the page
    let el = table.parentElement;
    while (el && el !== document.body && !(el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX !== 'visible')) el = el.parentElement;
    if (!el || el === document.body) return false;
    const region = el.getAttribute('role') === 'region' || el.tagName === 'SECTION';
    const labelled = region && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'));
    return !(labelled && el.tabIndex === 0);
  }).map((t) => (t.caption ? t.caption.textContent.trim() : t.className || 'table'));
  return { overflow: root.scrollWidth - root.clientWidth, smallest, trapped };
})()`;

describe('every page type in every locale', () => {
  for (const { type, locale } of visits()) {
    const where = locale ? `/${locale} ${type.name}` : type.name;

    it(`${where}: valid HTML (html-validate, recommended rules)`, async () => {
      const path = type.path(locale ?? 'en', sample);
      const r = await s.app.inject({ url: path });
      assert.equal(r.statusCode, type.status ?? 200, path);
      const report = await htmlValidate.validateString(r.body, path);
      const messages = report.results.flatMap((f) => f.messages.map((m) => `${m.ruleId} at ${m.line}:${m.column}: ${m.message}`));
      assert.deepEqual([...new Set(messages)].slice(0, 20), [], `${path}: ${messages.length} messages`);
    });

    it(`${where}: no critical or serious axe-core violation, at 1280 and 390 px`, async () => {
      const p = await browser.newPage();
      try {
        for (const width of SCREENSHOT_WIDTHS) {
          await p.setViewportSize({ width, height: 900 });
          const path = await open(p, type, locale);
          assert.deepEqual(await seriousViolations(p), [], `${path} at ${width} px`);
          await p.screenshot({ path: join(SCREENSHOTS, `${type.name}${locale ? `.${locale}` : ''}.${width}.png`), fullPage: true });
        }
      } finally {
        await p.close();
      }
    });

    it(`${where}: reflows at ${PHONE_WIDTHS.join(' and ')} px, chart text at least ${MIN_CHART_TEXT_PX} px, wide tables scroll from the keyboard`, async () => {
      const p = await browser.newPage();
      try {
        for (const width of PHONE_WIDTHS) {
          await p.setViewportSize({ width, height: 800 });
          const path = await open(p, type, locale);
          const phone = await p.evaluate(PHONE) as { overflow: number; smallest?: { text: string; px: number }; trapped: string[] };
          assert.ok(phone.overflow <= 0, `${path} at ${width} px: the page is ${phone.overflow} px wider than the window`);
          if (phone.smallest) {
            assert.ok(phone.smallest.px >= MIN_CHART_TEXT_PX - 0.05, `${path} at ${width} px: chart text "${phone.smallest.text}" is drawn at ${phone.smallest.px.toFixed(1)} px`);
          }
          assert.deepEqual(phone.trapped, [], `${path} at ${width} px: tables wider than the window outside a focusable, labelled region`);
        }
      } finally {
        await p.close();
      }
    });
  }
});
