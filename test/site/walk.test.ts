/**
 * The walk of a person looking for a desk, in Chromium (Debian's, headless, driven by
 * playwright-core) on the sample build, in every locale: home → search (a filter, the next page,
 * an order) → a space → its enquiry form (a first try the server refuses, then a good one) →
 * the confirmation, with one enquiry stored per walk in a real SQLite store. Screenshots of the
 * forms and the confirmation at 390 and 1,280 px go to test/output/enquiry/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type BrowserContext, type Page } from 'playwright-core';
import { LOCALES } from '../../contract/common.ts';
import type { LeadsService } from '../../api/leads/service.ts';
import { STRINGS } from '../../api/site/strings.ts';
import { openService, tableRows } from '../leads/support.ts';
import { sampleApp, type SampleApp } from './sample.ts';
import { launchChromium } from '../support/chromium.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', 'output', 'enquiry');
const WIDTHS = [390, 1280];

let s: SampleApp;
let service: LeadsService;
let origin: string;
let browser: BrowserContext;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-atlas-walk-'));
  service = await openService(dir);
  s = await sampleApp({ RATE_LIMIT_LEADS: '1000' }, { leads: service });
  origin = await s.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium(join(dir, 'profile'));
  await mkdir(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await s?.close();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Screenshots of the page as it is, at each width. */
async function shoot(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Clicks what leads to another page and waits for it. */
async function follow(page: Page, selector: string) {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

const path = (page: Page) => new URL(page.url()).pathname;
const query = (page: Page) => new URL(page.url()).searchParams;

describe('a person finds a space and enquires, in Chromium', () => {
  for (const [walk, locale] of LOCALES.entries()) {
    it(`/${locale}: home → search (a filter, the next page, an order) → a space → enquiry → confirmation`, async () => {
      const page = await browser.newPage();
      const t = STRINGS[locale].enquiry;
      await page.goto(`${origin}/${locale}`);

      await follow(page, `header nav a[href="/${locale}/search"]`);
      assert.equal(path(page), `/${locale}/search`);
      const country = await page.$eval('#f-country option:nth-child(2)', (o) => (o as HTMLOptionElement).value);
      await page.selectOption('#f-country', country);
      await follow(page, 'form.search-form button[type="submit"]');
      assert.equal(query(page).get('country'), country, 'a filter');
      await follow(page, '.pager a[rel="next"]');
      assert.equal(query(page).get('page'), '2', 'the next page');
      await page.selectOption('#f-sortBy', 'price-asc');
      await follow(page, 'form.search-form button[type="submit"]');
      assert.deepEqual([query(page).get('country'), query(page).get('sortBy')], [country, 'price-asc'], 'an order, the filter kept');

      await follow(page, '#results-heading ~ .cards h3 a');
      assert.match(path(page), new RegExp(`^/${locale}/space/[a-z0-9-]+$`));
      const space = path(page).split('/').pop()!;
      await page.locator('form.enquiry').scrollIntoViewIfNeeded();
      await shoot(page, `space-${locale}`);

      // an address the browser lets through and the API's schema does not: the server says so beside the field
      await page.fill('#enquiry-name', 'Zelda Quarterfield');
      await page.fill('#enquiry-email', 'zelda@example');
      await page.fill('#enquiry-desks', '6');
      await page.fill('#enquiry-message', `A team of six from March (${locale}).`);
      await follow(page, 'form.enquiry button[type="submit"]');
      assert.equal(path(page), `/${locale}/space/${space}/enquiry`);
      assert.equal((await page.textContent('#enquiry-email-error'))?.trim(), t.email);
      assert.equal(await page.inputValue('#enquiry-name'), 'Zelda Quarterfield', 'the values are kept');
      assert.equal(await page.inputValue('#enquiry-message'), `A team of six from March (${locale}).`);
      await shoot(page, `errors-${locale}`);
      assert.equal(await tableRows(service.store, 'leads'), walk, 'nothing stored yet');

      await page.fill('#enquiry-email', 'zelda.quarterfield@example.org');
      await follow(page, 'form.enquiry button[type="submit"]');
      assert.equal(path(page), `/${locale}/enquiry/sent`);
      assert.equal(await page.textContent('h1'), t.sentTitle);
      const reference = (await page.textContent('[data-reference]'))!;
      await shoot(page, `sent-${locale}`);

      const lead = await service.store.getLead(reference);
      assert.ok(lead, 'the enquiry is stored under the reference the page shows');
      assert.deepEqual([lead.endpoint, lead.payload.properties, lead.payload.locale, lead.payload.desks], ['inquiry', [space], locale, 6]);
      assert.equal(await tableRows(service.store, 'leads'), walk + 1, 'one enquiry per walk');

      await page.goto(`${origin}/${locale}/contact`);
      await shoot(page, `contact-${locale}`);
      await page.close();
    });
  }
});
