/**
 * The search page, /{locale}/search: GET /v1/properties and GET /v1/facets as a page, from the
 * same engine; and the paging of place and operator pages through all their listings.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { SEARCH_STRINGS } from '../../api/site/search-strings.ts';
import { formatMoney, STRINGS } from '../../api/site/strings.ts';
import { get } from '../support/app.ts';
import { html, sampleApp, type SampleApp } from './sample.ts';

let s: SampleApp;
before(async () => { s = await sampleApp(); });
after(() => s?.close());

const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
const text = (el: Element | null) => squash(el?.textContent ?? '');

async function page(url: string, status = 200) {
  const r = await get(s.app, url);
  assert.equal(r.status, status, `${url}: ${String(r.raw.body).slice(0, 300)}`);
  assert.equal(r.headers['content-type'], 'text/html; charset=utf-8', url);
  return html(r.raw.body);
}

const api = async (url: string) => {
  const r = await get(s.app, url);
  assert.equal(r.status, 200, url);
  return r.body;
};

const cardSlugs = (doc: Document) => [...doc.querySelectorAll('#results-heading ~ .cards h3 a')].map((a) => a.getAttribute('href')!.split('/').pop());
/** A count as the page writes it after a label: "Berlin (116)", "WLAN (1.508)". */
const countOf = (t: string) => Number(/\(([\d.,\s\u202f]+)\)$/.exec(t)![1].replace(/\D/g, ''));
/** The query of a link on the page, as a plain object. */
const queryOf = (href: string) => Object.fromEntries(new URL(href, 'https://x.test').searchParams);

describe('GET /{locale}/search', () => {
  it('shows the cards of GET /v1/properties and the counts of GET /v1/facets for the same query', async () => {
    const cases: [Locale, string][] = [
      ['en', ''],
      ['de', 'city=berlin&amenities=wifi,kitchen'],
      ['es', 'country=spain&pricingOptionType=flex_desk&minCapacity=10'],
      ['en', 'operator=tessellate-commons&maxPrice=400'],
    ];
    for (const [locale, q] of cases) {
      const doc = await page(`/${locale}/search?${q}`);
      assert.equal(doc.documentElement.getAttribute('lang'), locale);
      assert.equal(text(doc.querySelector('h1')), SEARCH_STRINGS[locale].title);
      const list = await api(`/v1/properties?locale=${locale}&sortBy=rating-desc&${q}`);
      assert.ok(list.meta.pagination.total > 0, q);
      assert.deepEqual(cardSlugs(doc), list.data.map((c: { slug: string }) => c.slug), `${locale} ${q}: the list's first page`);
      assert.equal(text(doc.querySelector('#results-heading')), SEARCH_STRINGS[locale].results(list.meta.pagination.total));

      const facets = (await api(`/v1/facets?locale=${locale}&${q}`)).data;
      for (const facet of facets.facets) {
        const shown = facet.key === 'amenities'
          ? [...doc.querySelectorAll('input[name="amenities"]')].map((i) => ({ value: i.getAttribute('value'), count: countOf(text(i.parentElement)), on: i.hasAttribute('checked') }))
          : [...doc.querySelectorAll(`select[name="${facet.key}"] option`)].slice(1).map((o) => ({ value: o.getAttribute('value'), count: countOf(text(o)), on: o.hasAttribute('selected') }));
        // a neighbourhood is offered once a city is chosen
        if (facet.key === 'zone' && !new URLSearchParams(q).has('city')) { assert.equal(shown.length, 0); continue; }
        const selected = new URLSearchParams(q).get(facet.key)?.split(',') ?? [];
        assert.deepEqual(shown, facet.values.map((v: { value: string; count: number }) => ({ value: v.value, count: v.count, on: selected.includes(v.value) })), `${locale} ${q}: facet ${facet.key}`);
      }
    }
  });

  it('pages with rel prev and next links, in the head and on the page, through every listing found', async () => {
    const total = (await api('/v1/properties?locale=en&city=berlin&pageSize=1')).meta.pagination.total;
    const all = [];
    for (let p = 1; p <= Math.ceil(total / 50); p++) all.push(...(await api(`/v1/properties?locale=en&city=berlin&sortBy=rating-desc&pageSize=50&page=${p}`)).data.map((c: { slug: string }) => c.slug));
    let url: string | undefined = '/en/search?city=berlin';
    const seen: string[] = [];
    let pages = 0;
    let prev: string | undefined;
    while (url) {
      const doc = await page(url);
      pages++;
      const next = doc.querySelector('nav.pager a[rel="next"]')?.getAttribute('href') ?? undefined;
      assert.equal(doc.querySelector('head link[rel="next"]')?.getAttribute('href') ?? undefined, next, url);
      assert.equal(doc.querySelector('head link[rel="prev"]')?.getAttribute('href') ?? undefined, prev, url);
      assert.equal(doc.querySelector('nav.pager a[rel="prev"]')?.getAttribute('href') ?? undefined, prev, url);
      seen.push(...cardSlugs(doc) as string[]);
      prev = url;
      url = next;
    }
    assert.equal(pages, Math.ceil(total / 20));
    assert.deepEqual(seen, all);
  });

  it('links each filter to the same search without it', async () => {
    const q = 'city=berlin&amenities=wifi,kitchen&minCapacity=10&sortBy=price-asc';
    const doc = await page(`/de/search?${q}&page=2`);
    const chips = [...doc.querySelectorAll('#active-heading + ul a')];
    const asked = Object.fromEntries(new URLSearchParams(q));
    const without = (changes: Record<string, string | undefined>) =>
      Object.fromEntries(Object.entries({ ...asked, ...changes }).filter(([, v]) => v !== undefined));
    assert.deepEqual(chips.map((a) => queryOf(a.getAttribute('href')!)), [
      without({ city: undefined }),
      without({ amenities: 'kitchen' }),
      without({ amenities: 'wifi' }),
      without({ minCapacity: undefined }),
      {},
    ]);
    assert.deepEqual(chips.map(text).slice(0, 4), ['Stadt: Berlin entfernen', 'Ausstattung: WLAN entfernen', 'Ausstattung: Küche entfernen', 'Platz für mindestens (Personen): 10 entfernen']);
    for (const a of chips) {
      const href = a.getAttribute('href')!;
      const total = (await api(`/v1/properties?locale=de&${new URL(href, 'https://x.test').searchParams}`)).meta.pagination.total;
      assert.equal(text((await page(href)).querySelector('#results-heading')), SEARCH_STRINGS.de.results(total), href);
    }
  });

  it('sorts as the list does, and pages a random order by the seed it picked', async () => {
    const doc = await page('/en/search?country=spain&sortBy=price-asc');
    const list = await api('/v1/properties?locale=en&country=spain&sortBy=price-asc');
    assert.deepEqual(cardSlugs(doc), list.data.map((c: { slug: string }) => c.slug));
    assert.equal(doc.querySelector('select[name="sortBy"] option[selected]')?.getAttribute('value'), 'price-asc');

    const random = await page('/en/search?country=spain&sortBy=random');
    const seed = random.querySelector('input[type="hidden"][name="seed"]')?.getAttribute('value');
    assert.match(seed ?? '', /^\d+$/);
    const next = random.querySelector('nav.pager a[rel="next"]')!.getAttribute('href')!;
    assert.deepEqual(queryOf(next), { country: 'spain', sortBy: 'random', seed, page: '2' });
    const [first, second] = [
      await api(`/v1/properties?locale=en&country=spain&sortBy=random&seed=${seed}`),
      await api(`/v1/properties?locale=en&country=spain&sortBy=random&seed=${seed}&page=2`),
    ];
    assert.deepEqual(cardSlugs(random), first.data.map((c: { slug: string }) => c.slug));
    assert.deepEqual(cardSlugs(await page(next)), second.data.map((c: { slug: string }) => c.slug));
  });

  it('shows on each card of a list ordered by price the comparable price it is ranked by, in the page\'s locale', async () => {
    const basisPeriod = { monthly: 'month', day: 'day', hour: 'hour', once: 'once' } as const;
    type Card = { slug: string; comparablePrice: { amount: number; currency: string; basis: keyof typeof basisPeriod } | null };
    const line = (locale: Locale, c: NonNullable<Card['comparablePrice']>) =>
      squash(`${STRINGS[locale].comparablePrice} ${formatMoney(locale, c)} ${STRINGS[locale].period[basisPeriod[c.basis]]}`);
    const cardTexts = (doc: Document) => [...doc.querySelectorAll('#results-heading ~ .cards li')].map((li) => text(li));
    for (const [locale, q] of [['en', 'country=spain&sortBy=price-asc'], ['de', 'city=berlin&sortBy=price-desc'], ['es', 'country=spain&pricingOptionType=meeting_room&sortBy=price-asc']] as [Locale, string][]) {
      const cards: Card[] = (await api(`/v1/properties?locale=${locale}&${q}`)).data;
      const shown = cardTexts(await page(`/${locale}/search?${q}`));
      assert.equal(shown.length, cards.length, q);
      assert.ok(cards.some((c) => c.comparablePrice), q);
      cards.forEach((c, k) => {
        if (c.comparablePrice) assert.ok(shown[k].includes(line(locale, c.comparablePrice)), `${locale} ${q}: ${c.slug} shows "${line(locale, c.comparablePrice)}": ${shown[k]}`);
        else assert.ok(!shown[k].includes(STRINGS[locale].comparablePrice), `${c.slug} has none`);
      });
    }
    // a meeting room is compared per hour, a monthly price per month
    const perHour = (await api('/v1/properties?locale=en&pricingOptionType=meeting_room&sortBy=price-asc')).data[0].comparablePrice;
    assert.equal(perHour.basis, 'hour');
    // in another order the cards show only the operator's own figures
    for (const url of ['/en/search?country=spain&sortBy=rating-desc', '/en/coworking/spain']) {
      assert.ok(!(await page(url)).body.textContent!.includes(STRINGS.en.comparablePrice), url);
    }
    const twin = await get(s.app, '/en/search.md?country=spain&sortBy=price-asc');
    const first: Card = (await api('/v1/properties?locale=en&country=spain&sortBy=price-asc')).data[0];
    assert.ok(String(twin.raw.body).includes(`- ${STRINGS.en.comparablePrice} **${formatMoney('en', first.comparablePrice!)}** ${STRINGS.en.period.month}`), String(twin.raw.body).slice(0, 600));
  });

  it('reads a submitted form: empty fields unset, ticked amenities as one list', async () => {
    const submitted = await page('/en/search?country=&city=berlin&zone=&operator=&pricingOptionType=&minCapacity=&address=&minPrice=&maxPrice=&currency=&amenities=wifi&amenities=kitchen&sortBy=rating-desc');
    const linked = await page('/en/search?city=berlin&amenities=wifi,kitchen');
    assert.deepEqual(cardSlugs(submitted), cardSlugs(linked));
    assert.deepEqual(
      [...submitted.querySelectorAll('input[name="amenities"][checked]')].map((i) => i.getAttribute('value')).sort(),
      ['kitchen', 'wifi'],
    );
    // every field of the form is a parameter of the list
    const names = new Set([...submitted.querySelectorAll('form[role="search"] [name]')].map((e) => e.getAttribute('name')));
    assert.deepEqual([...names].sort(), ['address', 'amenities', 'city', 'country', 'currency', 'maxPrice', 'minCapacity', 'minPrice', 'operator', 'pricingOptionType', 'sortBy', 'zone']);
  });

  it('answers bad parameters with the form again, the values kept and each message beside its name (400, HTML)', async () => {
    for (const locale of LOCALES) {
      const doc = await page(`/${locale}/search?minCapacity=abc&city=Berlin&sortBy=distance&amenities=wifi`, 400);
      const errors = [...doc.querySelectorAll('.errors li')];
      assert.deepEqual(errors.map((li) => li.querySelector('a')!.getAttribute('href')), ['#f-city', '#f-minCapacity', '#f-sortBy']);
      assert.match(text(errors[0]), /"berlin"/, 'the slug of the city named');
      assert.match(text(errors[2]), /requires lat and lng/);
      assert.equal(text(doc.querySelector('.errors h2')), SEARCH_STRINGS[locale].invalid);
      const capacity = doc.getElementById('f-minCapacity')!;
      assert.equal(capacity.getAttribute('value'), 'abc');
      assert.equal(capacity.getAttribute('aria-invalid'), 'true');
      assert.equal(doc.querySelector('#f-city option[selected]')?.getAttribute('value'), 'Berlin');
      assert.equal(doc.querySelector('#f-sortBy option[selected]')?.getAttribute('value'), 'distance');
      assert.ok(doc.querySelector('input[name="amenities"][value="wifi"][checked]'), 'a valid value is kept');
      assert.equal(doc.querySelector('#results-heading'), null);
    }
    for (const q of ['page=0', 'page=501', 'pageSize=51', 'amenities=Wi%20Fi!', 'maxPrice=-1', 'country=spain&country=france', 'lat=40.4', 'bbox=1,2,3', 'address=ab']) {
      const doc = await page(`/en/search?${q}`, 400);
      assert.ok(doc.querySelectorAll('.errors li').length >= 1, q);
      assert.ok(doc.querySelector('form[role="search"]'), q);
    }
  });

  it('switches language to the same search, and a hub to the same page of it', async () => {
    for (const [url, path] of [['/de/search?city=berlin&amenities=wifi&page=2', '/search?city=berlin&amenities=wifi&page=2'], ['/es/coworking/germany?page=3', '/coworking/germany?page=3']]) {
      const doc = await page(url);
      const alternates = [...doc.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => [l.getAttribute('hreflang'), l.getAttribute('href')]);
      assert.deepEqual(alternates, LOCALES.map((l) => [l, `/${l}${path}`]), url);
    }
  });

  it('keeps a page of a search in the response cache, with an ETag, from its second request', async () => {
    const url = '/es/search?city=madrid&sortBy=price-desc';
    const first = await get(s.app, url);
    const second = await get(s.app, url);
    assert.equal(first.raw.body, second.raw.body);
    assert.equal(second.headers['cache-control'], 'public, max-age=300, stale-while-revalidate=3600');
    assert.match(String(second.headers.etag), /^"/);
    assert.equal((await get(s.app, url, { 'if-none-match': String(second.headers.etag) })).status, 304);
  });
});

describe('place and operator pages', () => {
  /** Every card of a page and of the pages its rel=next links lead to. */
  async function walk(first: string): Promise<{ slugs: string[]; pages: number }> {
    const slugs: string[] = [];
    let url: string | undefined = first;
    let pages = 0;
    while (url) {
      const doc = await page(url);
      pages++;
      slugs.push(...[...doc.querySelectorAll('#spaces-heading ~ .cards h3 a')].map((a) => a.getAttribute('href')!.split('/').pop()!));
      url = doc.querySelector('nav.pager a[rel="next"]')?.getAttribute('href') ?? undefined;
      assert.equal(doc.querySelector('head link[rel="next"]')?.getAttribute('href') ?? undefined, url);
    }
    return { slugs, pages };
  }

  async function allSlugs(query: string): Promise<string[]> {
    const out: string[] = [];
    for (let p = 1; ; p++) {
      const body = await api(`/v1/properties?locale=en&sortBy=rating-desc&pageSize=50&page=${p}&${query}`);
      out.push(...body.data.map((c: { slug: string }) => c.slug));
      if (p >= body.meta.pagination.pageCount) return out;
    }
  }

  it('page through all their listings, best rated first, and link the search with their place or operator', async () => {
    const operator = (await api('/v1/properties?locale=en&sortBy=rating-desc&pageSize=50')).data.find((c: { operator?: unknown }) => c.operator).operator.slug;
    for (const [path, query] of [['/en/coworking/germany', 'country=germany'], ['/en/coworking/germany/berlin', 'city=berlin'], [`/en/operator/${operator}`, `operator=${operator}`]]) {
      const expected = await allSlugs(query);
      const { slugs, pages } = await walk(path);
      assert.deepEqual(slugs, expected, path);
      assert.equal(pages, Math.ceil(expected.length / 24), path);
      const doc = await page(path);
      assert.ok(doc.querySelector(`a[href="/en/search?${query}"]`), `${path} links the search with ${query}`);
    }
    assert.ok((await allSlugs('country=germany')).length > 24, 'more than a page');
  });

  it('answer 404 for a page that is not one or lies past the last', async () => {
    for (const q of ['page=0', 'page=abc', 'page=17', 'page=1.5']) await page(`/en/coworking/germany?${q}`, 404);
    await page('/en/coworking/germany?page=16');
  });
});
