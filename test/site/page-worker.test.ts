/**
 * The page worker makes what the loading thread would have: a country's page of the index is
 * rendered there and its cities' history read and parsed there, so what it sends back must be what the
 * loading thread's own templates and parse give.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES } from '../../contract/common.ts';
import { eta, localeFormat } from '../../api/site/html-templates.ts';
import { onPageWorker } from '../../api/site/page-workers.ts';
import { historyOf, priceIndexOf } from '../../api/site/research.ts';
import { sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const historySlugs = () => priceIndexOf(s.build).entries.map((e) => e.slug).filter((slug) => s.build.priceHistory!.has(slug));

describe('the page worker', () => {
  it('renders a template as this thread does, with the locale\'s own words and number formats', async () => {
    const history = (await historyOf(s.build))!;
    const slugs = historySlugs().slice(0, 3);
    const cities = await Promise.all(slugs.map(async (slug) => (await history.city(slug))!));
    for (const locale of LOCALES) {
      const table = {
        caption: 'History', corner: 'City',
        columns: history.months.map((m, k) => ({ key: m, label: history.monthLabels[locale][k] })),
        rows: cities.map((c) => ({ key: c.city.slug, label: c.city.slug, path: `/${locale}/prices/${c.city.slug}`, cells: c.points })),
      };
      const here = eta.render('./partials/history-table', { ...localeFormat(locale), table });
      assert.match(here, /data-amount=/, 'the sample has published months');
      assert.equal(await onPageWorker({ kind: 'page', template: 'partials/history-table', locale, values: { table } }), here, locale);
    }
  });

  it('reads the overall series of the cities asked for, in their order, with what a page shows of each point, skipping a city the history does not hold', async () => {
    const history = (await historyOf(s.build))!;
    const slugs = historySlugs().reverse().slice(0, 4);
    const overall = await history.overall([slugs[0], 'nowhere', ...slugs.slice(1)]);
    assert.deepEqual(overall, await Promise.all(slugs.map(async (slug) => {
      const { city, currency, points } = (await history.city(slug))!;
      return {
        city, currency,
        points: points.map(({ month, sampleSize, published, median, index, matchedSpaces }) => ({
          month, sampleSize, published, ...(median && { median }), ...(index !== undefined && { index }), matchedSpaces,
        })),
      };
    })));
    assert.deepEqual(await history.overall(['nowhere']), []);
  });
});
