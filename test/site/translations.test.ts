/**
 * The pages in German and Spanish say everything in their language: no text the English page
 * shows is left on them but names and numbers, and counts, ratings, scores and dates are written
 * as the locale writes them (Intl), a count's noun in the form Intl.PluralRules chooses.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CURRENCIES, LOCALES, type Locale } from '../../contract/common.ts';
import { NEUTRAL_TERM, QUALITY_FLAG_LETTERS, RANKING_WEIGHTS, RATING_PRIOR_REVIEWS, VALUE_CAP } from '../../contract/rules.ts';
import { BULK_FILES } from '../../contract/research.ts';
import { formatMoney, formatShare, STRINGS } from '../../api/site/strings.ts';
import { get } from '../support/app.ts';
import { html, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
const OTHER_LOCALES = LOCALES.filter((l) => l !== 'en');

async function page(path: string, status = 200) {
  const r = await get(s.app, path);
  assert.equal(r.status, status, `${path}: ${String(r.raw.body).slice(0, 200)}`);
  return html(r.raw.body);
}

/** One page of every kind, as its path after `/{locale}`: each with the parts that carry text (photos, ratings, zones, charts). */
async function pageOfEveryKind(): Promise<string[]> {
  const space = (await get(s.app, '/v1/properties?locale=en&sortBy=rating-desc&pageSize=50')).body.data
    .find((c: { images: unknown[]; rating?: unknown; operator?: unknown; zone?: unknown }) => c.images.length && c.rating && c.operator && c.zone);
  return [
    '', '/coworking/germany', '/coworking/germany/berlin', `/coworking/germany/berlin/${(await get(s.app, '/v1/places/city/berlin?locale=en')).body.data.children[0].slug}`,
    `/space/${space.slug}`, `/operator/${space.operator.slug}`, '/best/berlin', '/prices', '/prices/berlin', '/price-index',
    '/search?city=berlin&amenities=wifi&minCapacity=5',
  ];
}

/**
 * Every name a page can show, in any locale: places, operators, spaces and their offers' own
 * titles (the operators' text, published as they wrote it).
 */
async function namesOfTheCatalogue(): Promise<string[]> {
  const names = new Set<string>();
  for (const locale of LOCALES) {
    const geo = (await get(s.app, `/v1/geo/bootstrap?locale=${locale}`)).body.data;
    for (const c of [...geo.countries, ...geo.cities, ...geo.cities.flatMap((c: { zones: unknown[] }) => c.zones)]) names.add(c.name);
  }
  for (let p = 1; ; p++) {
    const r = (await get(s.app, `/v1/properties?locale=en&sortBy=rating-desc&pageSize=50&page=${p}`)).body;
    for (const c of r.data) {
      names.add(c.title);
      if (c.operator) names.add(c.operator.name);
    }
    if (p >= r.meta.pagination.pageCount) break;
  }
  return [...names].sort((a, b) => b.length - a.length);
}

/**
 * Words that are the same in a language as in English, and the service's own terms (formats,
 * licence, the product's name): what a translation keeps.
 */
const SHARED_WORDS: Record<Locale, string[]> = {
  en: [],
  de: ['Median', 'Minimum', 'Maximum', 'Spaces', 'Space', 'Build', 'Release', 'Index'],
  es: ['base'],
};
/** a figure's quality flags: letters, not words */
const FLAGS = new RegExp(`(?<!\\p{L})[${Object.values(QUALITY_FLAG_LETTERS).join('')}]+(?!\\p{L})`, 'gu');
const SERVICE_TERMS = ['Desk Atlas', 'CC BY 4.0', 'CITATION.cff', 'BibTeX', 'JSON', 'CSV', 'API', 'UTC', 'Frictionless', ...BULK_FILES];

/** What a person reads or hears of a page: its title, description, text nodes and the text of its attributes. */
function textsOf(doc: Document): string[] {
  const out = [doc.title, doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? ''];
  let run = '';
  const visit = (node: Node) => {
    // adjacent text nodes are one text ("Basalt & Birch" parses as three)
    if (node.nodeType === 3) { run += node.textContent ?? ''; return; }
    out.push(run);
    run = '';
    if (node.nodeType !== 1) return;
    const el = node as Element;
    // a <pre> is a record for a program (the release's BibTeX, titled as the release names itself), not prose
    if (['STYLE', 'SCRIPT', 'PRE'].includes(el.tagName.toUpperCase())) return;
    // the language switcher names each language in that language; the normative methodology is English by design
    if (el.matches('nav[aria-label] a[hreflang], nav[aria-label] [aria-current][lang], #methodology > [lang="en"]')) return;
    // inside a chart, Plot names its groups by their structure ("bar", "y-axis tick"): the chart is one image, named by its own label
    const inChart = el.closest('figure.chart svg[aria-label]') !== null && !el.matches('figure.chart svg[aria-label]');
    for (const a of ['alt', 'title', 'aria-label', 'placeholder']) if (el.hasAttribute(a) && !(a === 'aria-label' && inChart)) out.push(el.getAttribute(a)!);
    for (const child of el.childNodes) visit(child);
  };
  visit(doc.body);
  out.push(run);
  return out.map(squash).filter(Boolean);
}

/** A text that still says something once names, service terms, shared words, paths, media types and numbers are taken out. */
function wordsLeft(text: string, names: string[], locale: Locale): string {
  let rest = ` ${text} `;
  for (const n of [...names, ...SERVICE_TERMS]) if (rest.includes(n)) rest = rest.split(n).join(' ');
  rest = rest.replace(/\S*\/\S*/g, ' ').replace(FLAGS, ' ');
  for (const w of SHARED_WORDS[locale]) rest = rest.replace(new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'gu'), ' ');
  return squash(rest.replace(/(?<!\p{L})\p{L}(?!\p{L})/gu, ' ').replace(/[^\p{L}]+/gu, ' '));
}

describe('translations', () => {
  it('leave no English on any kind of page in de and es: only names and numbers are shared with the English page', async () => {
    const paths = [...await pageOfEveryKind(), '/space/no-such-space'];
    const space = (await get(s.app, `/v1/properties/${paths.find((p) => p.startsWith('/space/'))!.slice(7)}?locale=en`)).body.data;
    // its address and its offers' titles are the operator's text, published as written
    // and the search's currencies are ISO codes, the same in every language
    const names = [...await namesOfTheCatalogue(), space.address, ...space.pricingOptions.map((o: { title: string }) => o.title), ...CURRENCIES]
      .sort((a, b) => b.length - a.length);
    const left: string[] = [];
    for (const path of paths) {
      const status = path.includes('no-such') ? 404 : 200;
      const english = new Set(textsOf(await page(`/en${path}`, status)));
      for (const locale of OTHER_LOCALES) {
        const doc = await page(`/${locale}${path}`, status);
        for (const t of textsOf(doc)) {
          if (english.has(t) && wordsLeft(t, names, locale)) left.push(`/${locale}${path}: "${t.slice(0, 120)}"`);
        }
        for (const el of doc.querySelectorAll('[lang]:not(html)')) {
          if (!el.matches('nav[aria-label] a[hreflang], nav[aria-label] [aria-current], #methodology > [lang="en"]')) left.push(`/${locale}${path}: an element in ${el.getAttribute('lang')}: "${squash(el.textContent ?? '').slice(0, 80)}"`);
        }
      }
    }
    assert.deepEqual(left, []);
  });

  it('say in the locale that the methodology below is the English text, after a summary in the locale', async () => {
    for (const locale of LOCALES) {
      const section = (await page(`/${locale}/price-index`)).querySelector('#methodology')!;
      const paragraphs = [...section.querySelectorAll(':scope > p')].map((p) => squash(p.textContent ?? ''));
      assert.deepEqual(paragraphs, [...STRINGS[locale].methodologySummary, STRINGS[locale].methodologyLanguage].map(squash), locale);
      assert.equal(section.querySelector(':scope > div')?.getAttribute('lang'), 'en');
    }
  });
});

describe('numbers, plurals and dates in the locale', () => {
  it('count with the noun Intl.PluralRules chooses: 1 review, 1 Bewertung, 1 reseña; 2 reviews, 2 Bewertungen, 2 reseñas', () => {
    const expected: Record<Locale, [string, string, string, string]> = {
      en: ['(1 review)', '(2 reviews)', '1 space', '1,500 spaces'],
      de: ['(1 Bewertung)', '(2 Bewertungen)', '1 Space', '1.500 Spaces'],
      es: ['(1 reseña)', '(2 reseñas)', '1 espacio', '1500 espacios'],
    };
    for (const locale of LOCALES) {
      const t = STRINGS[locale];
      const [one, two, space, many] = expected[locale];
      assert.ok(t.rating(4, 1).endsWith(one), t.rating(4, 1));
      assert.ok(t.rating(4, 2).endsWith(two), t.rating(4, 2));
      assert.equal(t.propertyCount(1), space);
      assert.equal(t.propertyCount(1500), many);
      assert.match(t.capacity(1), new RegExp(`1 ${{ en: 'person', de: 'Person', es: 'persona' }[locale]}$`));
    }
  });

  it('write a rating with one review, and ratings and scores with the locale\'s decimal sign, on the space and best-of pages', async () => {
    const rated = (await get(s.app, '/v1/properties?locale=en&sortBy=rating-desc&pageSize=50')).body.data
      .find((c: { rating?: { score: number; count: number } }) => c.rating && !Number.isInteger(c.rating.score));
    const ranking = (await get(s.app, '/v1/rankings?locale=en&city=berlin&limit=25')).body.data;
    const scored = ranking.ranked.find((r: { score: number }) => !Number.isInteger(r.score));
    const decimal: Record<Locale, string> = { en: '.', de: ',', es: ',' };
    for (const locale of LOCALES) {
      const space = await page(`/${locale}/space/${rated.slug}`);
      const score = String(rated.rating.score).replace('.', decimal[locale]);
      assert.ok(squash(space.querySelector('main dl')!.textContent!).includes(` ${score} `), `${locale}: rating ${score}`);
      const best = await page(`/${locale}/best/berlin`);
      const cells = [...best.querySelectorAll('td[data-score]')].map((td) => squash(td.textContent!));
      assert.ok(cells.includes(String(scored.score).replace('.', decimal[locale])), `${locale}: score ${scored.score} in ${cells.slice(0, 5)}`);
      assert.ok(!squash(best.querySelector('main')!.textContent!).match(/\(1 (reviews|Bewertungen|reseñas)\)/), locale);
    }
    // the sample has a space with exactly one review somewhere: its card and page say it in the singular
    const one = await findOneReview();
    if (one) for (const locale of LOCALES) {
      const doc = await page(`/${locale}/space/${one}`);
      const noun = { en: 'review', de: 'Bewertung', es: 'reseña' }[locale];
      assert.ok(squash(doc.querySelector('main dl')!.textContent!).includes(`(1 ${noun})`), `${locale}: ${one}`);
    }
  });

  it('write the data\'s date and time in the footer of every page in the locale, never as an ISO timestamp', async () => {
    const asOf = s.build.priceIndexHead.asOf;
    const written: Record<Locale, RegExp> = {
      en: /Data as of [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC/,
      de: /Datenstand \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4} um \d{2}:\d{2} UTC/,
      es: /Datos a \d{1,2} de [a-z]+ de \d{4}, \d{1,2}:\d{2} UTC|Datos a \d{1,2} de [a-z]+ de \d{4} a las \d{1,2}:\d{2} UTC/,
    };
    for (const locale of LOCALES) {
      for (const path of ['/prices', '/price-index', '/prices/berlin', '']) {
        const footer = squash((await page(`/${locale}${path}`)).querySelector('footer p')!.textContent!);
        assert.match(footer, written[locale], `/${locale}${path}`);
        assert.ok(!footer.includes(asOf), `/${locale}${path}: ${asOf} raw`);
      }
    }
  });

  it('give each best-of entry price its period, in the locale', async () => {
    const ranking = (await get(s.app, '/v1/rankings?locale=en&city=berlin&limit=25')).body.data;
    for (const locale of LOCALES) {
      const rows = [...(await page(`/${locale}/best/berlin`)).querySelectorAll('tbody tr')];
      ranking.ranked.forEach((r: { entryPrice?: { amount: number; currency: string }; entryBillingPeriod?: 'day' }, k: number) => {
        const last = squash(rows[k].querySelector('td:last-child')!.textContent!);
        assert.equal(last, r.entryPrice ? squash(`${formatMoney(locale, r.entryPrice)} ${STRINGS[locale].period[r.entryBillingPeriod!]}`) : '', `${locale} rank ${k + 1}`);
      });
    }
  });
});

/** A space with exactly one review, if the sample has one. */
async function findOneReview(): Promise<string | undefined> {
  for (let p = 1; ; p++) {
    const r = (await get(s.app, `/v1/properties?locale=en&pageSize=50&page=${p}`)).body;
    const hit = r.data.find((c: { rating?: { count: number } }) => c.rating?.count === 1);
    if (hit) return hit.slug;
    if (p >= r.meta.pagination.pageCount) return undefined;
  }
}

describe('how the score works', () => {
  const apiDocs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');
  const methodology = readFileSync(join(import.meta.dirname, '..', '..', 'pipeline', 'methodology.md'), 'utf8');
  const weightsOf = (formula: string, decimal: string) => {
    const m = formula.match(/= 100 × \(([\d.,]+) × R \+ ([\d.,]+) × V \+ ([\d.,]+) × A\)/);
    assert.ok(m, `a formula in ${formula.slice(0, 100)}`);
    return m.slice(1).map((x) => Number(x.replace(decimal, '.')));
  };
  const weights = [RANKING_WEIGHTS.rating, RANKING_WEIGHTS.value, RANKING_WEIGHTS.amenities];

  it('states the formula of docs/api.md, whose weights are the constants the SQL ranks by', () => {
    assert.deepEqual(weightsOf(apiDocs, '.'), weights);
    assert.deepEqual(weightsOf(methodology, '.'), weights);
    assert.match(apiDocs, new RegExp(`prior worth ${RATING_PRIOR_REVIEWS} reviews`));
    assert.match(apiDocs, new RegExp(`min\\(median / price, ${VALUE_CAP}\\) / ${VALUE_CAP}\`; ${NEUTRAL_TERM} when unknown`));
  });

  it('is on every best-of page in its locale: the same formula and weights, the prior and the cap', async () => {
    const decimal: Record<Locale, string> = { en: '.', de: ',', es: ',' };
    for (const locale of LOCALES) {
      const section = (await page(`/${locale}/best/berlin`)).querySelector('#score')!;
      assert.ok(section, locale);
      assert.deepEqual(weightsOf(squash(section.querySelector('.score-formula')!.textContent!), decimal[locale]), weights, locale);
      const text = squash(section.textContent!);
      for (const w of weights) assert.ok(text.includes(squash(formatShare(locale, w))), `${locale}: ${formatShare(locale, w)}`);
      assert.ok(text.includes(` ${RATING_PRIOR_REVIEWS} `), `${locale}: the prior`);
      assert.ok(text.includes(` ${VALUE_CAP}`), `${locale}: the cap`);
      assert.ok(text.includes(` ${String(NEUTRAL_TERM).replace('.', decimal[locale])} `), `${locale}: the neutral term`);
      assert.equal(section.querySelector('h2')!.textContent, STRINGS[locale].scoreHow.heading);
    }
  });
});
