/**
 * The page worker makes what the loading thread would have: a country's page of the index is
 * rendered there and its cities' history parsed there, so what it sends back must be what the
 * loading thread's own templates and parse give.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES } from '../../contract/common.ts';
import { eta, localeFormat } from '../../api/site/html-templates.ts';
import { onPageWorker } from '../../api/site/page-workers.ts';
import { historyOf, priceIndexOf, type History } from '../../api/site/research.ts';
import { sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const historySlugs = (history: History) => priceIndexOf(s.build).entries.map((e) => e.slug).filter((slug) => history.city(slug));

describe('the page worker', () => {
  it('renders a template as this thread does, with the locale\'s own words and number formats', async () => {
    const history = (await historyOf(s.build))!;
    const slugs = historySlugs(history).slice(0, 3);
    const cities = slugs.map((slug) => history.city(slug)!);
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

  it('parses the overall series of the cities asked for, in their order, skipping a city the history does not hold', async () => {
    const history = (await historyOf(s.build))!;
    const slugs = historySlugs(history).reverse().slice(0, 4);
    const overall = await history.overall([slugs[0], 'nowhere', ...slugs.slice(1)]);
    assert.deepEqual(overall, slugs.map((slug) => {
      const { city, currency, points } = history.city(slug)!;
      return { city, currency, points };
    }));
    assert.deepEqual(await history.overall(['nowhere']), []);
  });
});
