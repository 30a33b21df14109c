/**
 * The search page in a real browser (Debian's Chromium, headless, driven by playwright-core), as
 * a person uses it without script help: from the home page to the search, a filter chosen in the
 * form, the next page, another order, a filter dropped. Screenshots at phone and desktop widths go
 * to test/output/pages/ (git-ignored) for review.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BrowserContext, type Page } from 'playwright-core';
import { LOCALES } from '../../contract/common.ts';
import { SEARCH_STRINGS } from '../../api/site/search-strings.ts';
import { get } from '../support/app.ts';
import { sampleApp, type SampleApp } from './sample.ts';
import { launchChromium } from '../support/chromium.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', 'output', 'pages');

let s: SampleApp;
let origin: string;
let browser: BrowserContext;
let profile: string;

before(async () => {
  s = await sampleApp();
  origin = await s.app.listen({ host: '127.0.0.1', port: 0 });
  profile = await mkdtemp(join(tmpdir(), 'desk-atlas-chromium-'));
  browser = await launchChromium(profile, { javaScriptEnabled: false });
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await s?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

const cardSlugs = (page: Page) => page.locator('#results-heading ~ .cards h3 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.split('/').pop()));
const apiSlugs = async (query: string) => (await get(s.app, `/v1/properties?${query}`)).body.data.map((c: { slug: string }) => c.slug);
const searchOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('the search page in Chromium, without script', () => {
  it('finds spaces from the home page: a filter, the next page, an order, a filter dropped', async () => {
    for (const locale of LOCALES) {
      const w = SEARCH_STRINGS[locale];
      const page = await browser.newPage();
      assert.equal((await page.goto(`${origin}/${locale}`))?.status(), 200);
      await page.getByRole('navigation').first().getByRole('link', { name: w.nav, exact: true }).click();
      assert.equal(new URL(page.url()).pathname, `/${locale}/search`);

      await page.locator('#f-city').selectOption('madrid');
      await page.locator('input[name="amenities"][value="wifi"]').check();
      await page.getByRole('button', { name: w.submit }).click();
      assert.deepEqual(searchOf(page), {
        country: '', city: 'madrid', operator: '', pricingOptionType: '', minCapacity: '', address: '',
        minPrice: '', maxPrice: '', currency: '', amenities: 'wifi', sortBy: 'rating-desc',
      });
      assert.deepEqual(await cardSlugs(page), await apiSlugs(`locale=${locale}&city=madrid&amenities=wifi&sortBy=rating-desc`));

      await page.locator('nav.pager a[rel="next"]').click();
      assert.deepEqual(searchOf(page), { city: 'madrid', amenities: 'wifi', page: '2' });
      assert.deepEqual(await cardSlugs(page), await apiSlugs(`locale=${locale}&city=madrid&amenities=wifi&sortBy=rating-desc&page=2`));

      await page.locator('#f-sortBy').selectOption('price-asc');
      await page.getByRole('button', { name: w.submit }).click();
      assert.equal(searchOf(page).sortBy, 'price-asc');
      assert.equal(searchOf(page).page, undefined, 'a new search starts at its first page');
      assert.deepEqual(await cardSlugs(page), await apiSlugs(`locale=${locale}&city=madrid&amenities=wifi&sortBy=price-asc`));

      await page.locator('#active-heading + ul a').first().click();
      assert.deepEqual(searchOf(page), { amenities: 'wifi', sortBy: 'price-asc' });
      await page.close();
    }
  });

  it('screenshots the search at phone and desktop widths', async () => {
    for (const [name, path] of [['search', '/en/search?city=berlin&amenities=wifi,kitchen&sortBy=price-asc&page=2'], ['search-invalid', '/de/search?minCapacity=abc&city=Berlin'], ['search-hub', '/es/coworking/spain?page=3']]) {
      for (const width of [390, 1280]) {
        const page = await browser.newPage();
        await page.setViewportSize({ width, height: 900 });
        await page.goto(origin + path);
        const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        assert.equal(overflow, 0, `${path} at ${width} px scrolls sideways`);
        await page.screenshot({ path: join(SCREENSHOTS, `${name}.${width}.png`), fullPage: true });
        await page.close();
      }
    }
  });
});
