/**
 * What each public page shows: the data of the API response whose citation links to it, taken
 * from the loaded build as the routes take it (the hubs, the engine, market rates, rankings, the
 * price index), never recomputed. A view is undefined when the page does not exist (404).
 */
import type { LoadedBuild } from '../loading/load.ts';
import type { AppConfig } from '../config.ts';
import type { ListingCard, PropertyDetail } from '../../contract/catalog.ts';
import type { BillingPeriod, Locale, Money, OptionType, SlugName } from '../../contract/common.ts';
import type { PriceBasis } from '../../contract/prices.ts';
import type { SortBy } from '../../contract/queries.ts';
import type { PlaceHub, PriceIndexCity } from '../../contract/market.ts';
import type { PriceHistoryCity, PriceHistoryPoint } from '../../contract/research.ts';
import type { Filters } from '../catalog/engine.ts';
import { citationPath, citationTitle, type CitationPage, type CitedData } from '../http/citation.ts';
import type { HistorySeries } from './charts.ts';
import { onPageWorker } from './page-workers.ts';
import { hasHistory, historyOf, priceIndexOf, type History } from './research.ts';
import type { HistoryOverall } from './page-workers.ts';
import type { Names } from './page-workers.ts';
import { cityNamer, type CityNamer } from './city-names.ts';
import { formView, spaceEnquiryPath } from './enquiry-form.ts';
import { markdownToHtml } from './markdown.ts';
import { bibtex, bulkFiles, describeRelease, readReleasePackage } from './releases.ts';
import { pageCount, pageOf } from './paging.ts';
import { perBuild } from './per-build.ts';
import { STRINGS } from './strings.ts';
import { eachInTurns } from './turns.ts';

export interface DataLink { label: string; href: string; type: string }

export interface PageView {
  /** the eta template under api/site/templates/ */
  template: string;
  page: CitationPage;
  /** the page's heading and title when it is not the citation's (a search cites the place or operator it is filtered to) */
  title?: string;
  /** the page's meta description when descriptions.ts does not describe its kind of citation (a search) */
  description?: string;
  /** the page's path in a locale when it is not its citation's (a search's query, a later page of a list) */
  pathIn?: (locale: Locale) => string;
  /** the data date and release the page's citation names, as its API response's does */
  cited?: CitedData;
  data: Record<string, unknown>;
  /** the JSON and CSV this page shows */
  dataLinks: DataLink[];
  /** the page of a paged list it shows, when past the first (its canonical URL names it) */
  pageNumber?: number;
}

export interface ViewContext {
  build: LoadedBuild;
  config: AppConfig;
  locale: Locale;
  params: Record<string, string>;
  /** the page of a paged list (`?page=`), 1 on every other page */
  page: number;
}

/** The home names each country's largest cities; its hub lists them all. */
export const HOME_CITIES_PER_COUNTRY = 12;
/** Cities a page of the market rates or of a country's price index shows: pages grow with a country, not with the catalogue. */
export const PRICES_CITIES_PER_PAGE = 100;
export const INDEX_CITIES_PER_PAGE = 50;

/** How many listing cards a page of a place or operator shows. */
const CARDS_PER_PAGE = 24;
/** The order of the listings of a place or operator page, and of the search page unless asked otherwise. */
export const PAGE_LIST_ORDER: SortBy = 'rating-desc';

const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';

export const apiLink = (ctx: ViewContext, path: string, query: Record<string, string> = {}): DataLink => ({
  label: `${path} (${STRINGS[ctx.locale].json})`,
  href: `${ctx.config.baseUrl}${path}?${new URLSearchParams({ locale: ctx.locale, ...query })}`,
  type: JSON_TYPE,
});

const slugName = (h: { slug: string; name: string }): SlugName => ({ slug: h.slug, name: h.name });

/** A page's path in this view's locale. */
export const pathOf = (ctx: ViewContext, page: CitationPage) => citationPath(ctx.locale, page);

const spacePath = (ctx: ViewContext, slug: string) => pathOf(ctx, { kind: 'space', slug, title: '' });

/** A link to a page, with the page's title as its text. */
const linkTo = (ctx: ViewContext, page: CitationPage) => ({ path: pathOf(ctx, page), title: citationTitle(ctx.locale, page) });

/** The path of a city's hub page, or undefined when the city is not in the build. */
function cityPath(ctx: ViewContext, citySlug: string): string | undefined {
  const place = ctx.build.engine.placeOf(ctx.locale, { city: citySlug });
  return place ? pathOf(ctx, { kind: 'coworking', ...place }) : undefined;
}

/** The billing period whose words say what a comparable price is a price of. */
const BASIS_PERIOD: Record<PriceBasis, BillingPeriod> = { monthly: 'month', day: 'day', hour: 'hour', once: 'once' };
const PRICE_ORDERS: readonly SortBy[] = ['price-asc', 'price-desc'];

export type ListedCard = ListingCard & { path: string; sortedBy?: { price: Money; period: BillingPeriod } };

/**
 * The cards of listings `indices` as GET /v1/properties answers them under `filters`, each with
 * its page's path; in a list ordered by price, each with the price it is ranked by, as a period's
 * price (`sortedBy`).
 */
export function listingCards(ctx: ViewContext, indices: readonly number[], filters: Filters, order: SortBy): ListedCard[] {
  const { engine } = ctx.build;
  return indices.map((i) => {
    const card = JSON.parse(engine.cardJson(i, ctx.locale, filters)) as ListingCard;
    const c = PRICE_ORDERS.includes(order) ? card.comparablePrice : null;
    const sortedBy = c ? { price: { amount: c.amount, currency: c.currency }, period: BASIS_PERIOD[c.basis] } : undefined;
    return { ...card, path: spacePath(ctx, card.slug), sortedBy };
  });
}

/** Where a paged list stands: its page, how many pages it has, and the paths of the pages before and after. */
export interface Pager { page: number; pageCount: number; prev?: string; next?: string }

/** The pager of page `page` of `pageCount`; `href` gives a page's path. A page past the end goes back to the last. */
export function pager(page: number, pageCount: number, href: (page: number) => string): Pager {
  return {
    page,
    pageCount,
    prev: page > 1 ? href(Math.min(page - 1, pageCount)) : undefined,
    next: page < pageCount ? href(page + 1) : undefined,
  };
}

/** Items grouped by a key, each group in the items' order. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The geo file's cities of each country, in its order; made once per build and locale. */
function citiesOf(build: LoadedBuild, locale: Locale, countryCode: string) {
  return perBuild(build, `cities-by-country|${locale}`, () => groupBy(build.geo[locale].cities, (c) => c.countryCode)).get(countryCode) ?? [];
}

/** The first `k` of `items` in `order` (ties in their order in `items`, as a stable sort), without sorting them all. */
function firstBy<T>(items: readonly T[], k: number, order: (a: T, b: T) => number): T[] {
  const top: T[] = [];
  for (const item of items) {
    if (top.length === k && order(item, top[k - 1]) >= 0) continue;
    const at = top.findIndex((t) => order(item, t) < 0);
    top.splice(at < 0 ? top.length : at, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}

// a country's cities run to 10,000 at 1,000,000 spaces: sorting them all by name held the home page's first request 40-55 ms
const largestCities = (build: LoadedBuild, locale: Locale, countryCode: string) => perBuild(build, `largest-cities|${locale}|${countryCode}`, () =>
  firstBy(citiesOf(build, locale, countryCode), HOME_CITIES_PER_COUNTRY, (a, b) => b.propertyCount - a.propertyCount || a.name.localeCompare(b.name, locale)));

/**
 * Page ctx.page of the listings a filter selects, best rated first, CARDS_PER_PAGE a page, with
 * the range shown and the pager (`path`: the page's own path); undefined past the last page.
 */
function pagedCards(ctx: ViewContext, filters: Filters, path: string) {
  const { engine } = ctx.build;
  const set = engine.match(filters);
  const pageCount = Math.max(1, Math.ceil(set.count / CARDS_PER_PAGE));
  if (ctx.page > pageCount) return undefined;
  const offset = (ctx.page - 1) * CARDS_PER_PAGE;
  const { total, indices } = engine.page(set, filters, PAGE_LIST_ORDER, 0, offset, CARDS_PER_PAGE);
  return {
    total,
    order: PAGE_LIST_ORDER,
    from: offset + 1,
    to: offset + indices.length,
    cards: listingCards(ctx, indices, filters, PAGE_LIST_ORDER),
    pager: pager(ctx.page, pageCount, (p) => pageOfList(path, p)),
  };
}

const pageOfList = (path: string, page: number) => (page === 1 ? path : `${path}?page=${page}`);

/** A page of a list in every locale: the same page of it (the listings' order is the same in each). */
const samePageIn = (ctx: ViewContext, page: CitationPage) => (locale: Locale) => pageOfList(citationPath(locale, page), ctx.page);

/** The search page with the listings a filter selects. */
export const searchPath = (ctx: ViewContext, filters: Record<string, string>) =>
  `/${ctx.locale}/search?${new URLSearchParams(filters)}`;

export function homeView(ctx: ViewContext): PageView {
  const geo = ctx.build.geo[ctx.locale];
  const countries = geo.countries.map((c) => ({
    ...c,
    path: pathOf(ctx, { kind: 'coworking', country: slugName(c) }),
    cities: largestCities(ctx.build, ctx.locale, c.code).map((city) => ({
      ...city,
      path: pathOf(ctx, { kind: 'coworking', country: slugName(c), city: slugName(city) }),
    })),
    cityCount: citiesOf(ctx.build, ctx.locale, c.code).length,
  }));
  return {
    template: 'home',
    page: { kind: 'home' },
    data: { countries },
    dataLinks: [apiLink(ctx, '/v1/geo/bootstrap'), ...priceIndexLinks(ctx)],
  };
}

export async function placeView(ctx: ViewContext): Promise<PageView | undefined> {
  const hubs = ctx.build.places[ctx.locale];
  const { country: countrySlug, city: citySlug, zone: zoneSlug } = ctx.params;
  const country = await hubs.get(`country/${countrySlug}`);
  const city = citySlug === undefined ? undefined : await hubs.get(`city/${citySlug}`);
  const zone = zoneSlug === undefined ? undefined : await hubs.get(`zone/${zoneSlug}`);
  if (!country) return undefined;
  if (citySlug !== undefined && (!city || city.parent?.slug !== country.slug)) return undefined;
  if (zoneSlug !== undefined && (!zone || zone.parent?.slug !== city?.slug)) return undefined;
  const hub = (zone ?? city ?? country) as PlaceHub;
  const page: CitationPage = { kind: 'coworking', country: slugName(country), city: city && slugName(city), zone: zone && slugName(zone) };
  const childPath = (child: { kind: string; slug: string; name: string }) => pathOf(ctx, child.kind === 'city'
    ? { kind: 'coworking', country: slugName(country), city: slugName(child) }
    : { kind: 'coworking', country: slugName(country), city: city && slugName(city), zone: slugName(child) });
  // a country's cities run to thousands at 1,000,000 spaces: their links are made between turns
  const children: { name: string; propertyCount: number; path: string }[] = [];
  await eachInTurns(hub.children ?? [], (c) => children.push({ name: c.name, propertyCount: c.propertyCount, path: childPath(c) }));
  const filters = { [hub.kind]: hub.slug } as Filters;
  const listing = pagedCards(ctx, filters, pathOf(ctx, page));
  if (!listing) return undefined;
  const breadcrumbs = [
    { name: country.name, path: pathOf(ctx, { kind: 'coworking', country: slugName(country) }) },
    ...(city ? [{ name: city.name, path: pathOf(ctx, { kind: 'coworking', country: slugName(country), city: slugName(city) }) }] : []),
  ].slice(0, hub.kind === 'country' ? 0 : hub.kind === 'city' ? 1 : 2);
  return {
    template: 'place',
    page,
    pathIn: samePageIn(ctx, page),
    data: {
      // the children listed once: a country's thousands of cities are what its page sends the page worker
      hub: { ...hub, children: undefined },
      breadcrumbs,
      children,
      listing,
      pager: listing.pager,
      searchHref: searchPath(ctx, { [hub.kind]: hub.slug }),
      listingsHref: apiLink(ctx, '/v1/properties', { [hub.kind]: hub.slug }).href,
      cityLinks: city && !zone ? [
        ...(ctx.build.rankings[ctx.locale].has(city.slug) ? [linkTo(ctx, { kind: 'best', city: slugName(city) })] : []),
        linkTo(ctx, { kind: 'prices', city: slugName(city) }),
      ] : [],
    },
    dataLinks: [apiLink(ctx, `/v1/places/${hub.kind}/${hub.slug}`), apiLink(ctx, '/v1/properties', { [hub.kind]: hub.slug })],
  };
}

export async function spaceView(ctx: ViewContext): Promise<PageView | undefined> {
  const { engine } = ctx.build;
  const i = engine.indexOf(ctx.params.slug);
  if (i === undefined) return undefined;
  const detail = JSON.parse(engine.detailJson(i, ctx.locale)) as PropertyDetail;
  const place = engine.placeOf(ctx.locale, { city: detail.city?.slug, zone: detail.zone?.slug });
  return {
    template: 'space',
    page: { kind: 'space', slug: detail.slug, title: detail.title },
    data: {
      detail,
      amenities: detail.amenities.map((a) => engine.label('amenities', a, ctx.locale)),
      optionName: (t: OptionType) => engine.label('pricingOptionType', t, ctx.locale),
      placePath: place && pathOf(ctx, { kind: 'coworking', ...place }),
      placeName: place && [place.zone?.name, place.city?.name, place.country.name].filter(Boolean).join(', '),
      operatorPath: detail.operator && pathOf(ctx, { kind: 'operator', slug: detail.operator.slug, name: detail.operator.name }),
      cityPricesPath: detail.city && pathOf(ctx, { kind: 'prices', city: detail.city }),
      enquiry: formView('inquiry', ctx.locale, spaceEnquiryPath(ctx.locale, detail.slug), ctx.config.leads.challengeSiteKey),
    },
    dataLinks: [apiLink(ctx, `/v1/properties/${detail.slug}`)],
  };
}

export async function operatorView(ctx: ViewContext): Promise<PageView | undefined> {
  const hub = await ctx.build.operators[ctx.locale].get(ctx.params.slug);
  if (!hub) return undefined;
  const page: CitationPage = { kind: 'operator', slug: hub.slug, name: hub.name };
  const listing = pagedCards(ctx, { operator: hub.slug }, pathOf(ctx, page));
  if (!listing) return undefined;
  return {
    template: 'operator',
    page,
    pathIn: samePageIn(ctx, page),
    data: {
      hub,
      cities: hub.cities.map((c) => ({ ...c, path: cityPath(ctx, c.slug) })),
      listing,
      pager: listing.pager,
      searchHref: searchPath(ctx, { operator: hub.slug }),
      listingsHref: apiLink(ctx, '/v1/properties', { operator: hub.slug }).href,
    },
    dataLinks: [apiLink(ctx, `/v1/operators/${hub.slug}`), apiLink(ctx, '/v1/properties', { operator: hub.slug })],
  };
}

export async function bestView(ctx: ViewContext): Promise<PageView | undefined> {
  const ranking = await ctx.build.rankings[ctx.locale].get(ctx.params.city);
  if (!ranking) return undefined;
  return {
    template: 'best',
    page: { kind: 'best', city: ranking.city },
    data: {
      ranking, cityPath: cityPath(ctx, ranking.city.slug), spacePath: (slug: string) => spacePath(ctx, slug),
      methodologyPath: `${pathOf(ctx, { kind: 'price-index' })}#methodology`,
    },
    dataLinks: [apiLink(ctx, '/v1/rankings', { city: ranking.city.slug, limit: String(ranking.ranked.length || 1) })],
  };
}

function priceIndexLinks(ctx: ViewContext, withHistory = false): DataLink[] {
  const t = STRINGS[ctx.locale];
  return [
    { label: `${t.nav.priceIndex} (${t.json})`, href: `/api/price-index?locale=${ctx.locale}`, type: JSON_TYPE },
    { label: `${t.priceReport} (${t.csv})`, href: '/api/price-report', type: CSV_TYPE },
    ...(withHistory ? [
      { label: `${t.history} (${t.json})`, href: `/api/price-index/history?locale=${ctx.locale}`, type: JSON_TYPE },
      { label: `${t.history} (${t.csv})`, href: '/api/price-report/history', type: CSV_TYPE },
    ] : []),
    { label: t.dataPackage, href: '/api/price-report.datapackage.json', type: JSON_TYPE },
  ];
}

/** How a page's figures name cities and desk products. */
interface FigureNames {
  /** a city by its slug alone */
  city(slug: string): string;
  /** a city as a place or rate names it */
  named: CityNamer;
  product(type: OptionType): string;
}

async function figureNames(ctx: ViewContext): Promise<FigureNames> {
  const { engine } = ctx.build;
  const named = await cityNamer(ctx.build, ctx.locale);
  return {
    city: (slug) => named({ slug, name: engine.label('city', slug, ctx.locale) }),
    named,
    product: (type) => engine.label('pricingOptionType', type, ctx.locale),
  };
}

/** The market rates of every city, a page of them at a time, each with its price page. */
export async function pricesView(ctx: ViewContext): Promise<PageView | undefined> {
  const file = ctx.build.marketRates[ctx.locale];
  const page = { kind: 'prices' } as const;
  const paged = pageOf(file.cities, ctx.page, PRICES_CITIES_PER_PAGE, pathOf(ctx, page));
  if (!paged) return undefined;
  const names = await figureNames(ctx);
  return {
    template: 'prices',
    page,
    pageNumber: paged.page,
    data: {
      ratesAsOf: file.asOf,
      cities: paged.items.map((c) => ({ ...c, name: names.named(c.rates.city), path: pathOf(ctx, { kind: 'prices', city: c.rates.city }) })),
      paged,
      optionName: names.product,
    },
    dataLinks: [apiLink(ctx, '/v1/market/rates'), ...priceIndexLinks(ctx)],
  };
}

/** The names of the cities and products a chart of these cities writes, as the tables write them. */
function chartNames(names: FigureNames, cities: PriceIndexCity[]): Names {
  const types = new Set(cities.flatMap((c) => (c.byType ?? []).map((b) => b.optionType)));
  return {
    cities: Object.fromEntries(cities.map((c) => [c.city.slug, names.city(c.city.slug)])),
    products: Object.fromEntries([...types].map((type) => [type, names.product(type)])),
  };
}

/** A city's market rates, its price index figures and their chart. */
export async function cityPricesView(ctx: ViewContext): Promise<PageView | undefined> {
  const rates = ctx.build.marketRates[ctx.locale].cities.find((c) => c.rates.city.slug === ctx.params.city);
  const indexCity = priceIndexOf(ctx.build).city(ctx.params.city);
  if (!rates && !indexCity) return undefined;
  const history = await historyOf(ctx.build);
  const historyCity = await history?.city(ctx.params.city);
  const names = await figureNames(ctx);
  const rated = rates?.rates.city ?? indexCity!.city;
  const city = { slug: rated.slug, name: names.named(rated) };
  const t = STRINGS[ctx.locale];
  const chart = indexCity && await perBuild(ctx.build, `city-chart|${ctx.locale}|${city.slug}`, () => onPageWorker({
    kind: 'city-chart', city: indexCity, names: chartNames(names, [indexCity]),
    text: { ariaLabel: t.chartCityCaption(city.name), locale: ctx.locale, currency: indexCity.currency },
  }) as Promise<string | undefined>);
  return {
    template: 'city-prices',
    page: { kind: 'prices', city },
    data: {
      city,
      rates: rates?.rates,
      indexCity: indexCity && indexRows(ctx, names, indexCity),
      chart,
      cityPath: cityPath(ctx, city.slug),
      optionName: names.product,
      priceIndexPath: pathOf(ctx, { kind: 'price-index' }),
      history: historyCity && await cityHistory(ctx, historyCity, history!),
    },
    dataLinks: [apiLink(ctx, '/v1/market/rates', { city: city.slug }), ...priceIndexLinks(ctx, history !== undefined)],
  };
}

/** A city of the index as table rows: all desk products, then each product. */
function indexRows(ctx: ViewContext, names: FigureNames, c: PriceIndexCity) {
  const row = (product: OptionType | 'all', f: Omit<PriceIndexCity, 'city' | 'countryCode' | 'currency' | 'byType' | 'flag'>) => ({
    product,
    productName: product === 'all' ? STRINGS[ctx.locale].allDesks : names.product(product),
    sampleSize: f.sampleSize, published: f.published, median: f.median, average: f.average, min: f.min, max: f.max,
    p25: f.p25, p75: f.p75, medianInterval: f.medianInterval, medianAgeDays: f.medianAgeDays, staleShare: f.staleShare,
    largestOperatorShare: f.largestOperatorShare, flags: f.flags,
  });
  return {
    slug: c.city.slug,
    name: names.city(c.city.slug),
    currency: c.currency,
    pricesPath: pathOf(ctx, { kind: 'prices', city: c.city }),
    rows: [row('all', c), ...(c.byType ?? []).map((b) => row(b.optionType, b))],
  };
}

/** A history table: a row per `rows` entry, a cell per column, each the median (when published) and the sample. */
export interface HistoryTable {
  caption: string;
  corner: string;
  columns: { key: string; label: string }[];
  rows: { key: string; label: string; path?: string; cells: Pick<PriceHistoryPoint, 'median' | 'sampleSize' | 'published' | 'index' | 'matchedSpaces'>[] }[];
}

/** A city's history: overall and each product as series, a row per month. */
async function cityHistory(ctx: ViewContext, c: PriceHistoryCity, history: History) {
  const t = STRINGS[ctx.locale];
  const names = await figureNames(ctx);
  const series: (HistorySeries & { key: string })[] = [
    { key: 'all', name: t.allDesks, points: c.points },
    ...c.byType.filter((b) => b.points.some((p) => p.published)).map((b) => ({ key: b.optionType, name: names.product(b.optionType), points: b.points })),
  ];
  const name = names.city(c.city.slug);
  const chart = await perBuild(ctx.build, `history-city|${ctx.locale}|${c.city.slug}`, async () => (await onPageWorker({
    kind: 'history-chart', series, text: { ariaLabel: t.historyCityCaption(name), locale: ctx.locale, currency: c.currency },
  }) as { html: string }).html);
  const table: HistoryTable = {
    caption: t.historyCityCaption(name),
    corner: t.month,
    columns: series.map((s) => ({ key: s.key, label: s.name })),
    rows: history.months.map((m, k) => ({ key: m, label: history.monthLabels[ctx.locale][k], cells: series.map((s) => s.points[k]) })),
  };
  return { chart, caption: t.historyCityCaption(name), table };
}

/** The overall history of a page of one country's cities: a chart of their series, a row per city. */
async function countryHistory(ctx: ViewContext, history: History, slugs: string[], key: string) {
  const t = STRINGS[ctx.locale];
  const names = await figureNames(ctx);
  const cities = await history.overall(slugs);
  const withFigures = cities.filter((c) => c.points.some((p) => p.published));
  const cityPricesPath = (c: HistoryOverall) => pathOf(ctx, { kind: 'prices', city: c.city });
  const currency = cities[0]?.currency;
  const charts = withFigures.length === 0 ? [] : await perBuild(ctx.build, `history-index|${ctx.locale}|${key}`, async () => {
    const series = withFigures.map((c) => ({ name: names.city(c.city.slug), points: c.points }));
    const chart = await onPageWorker({ kind: 'history-chart', series, text: { ariaLabel: t.historyIndexCaption(currency), locale: ctx.locale, currency } }) as { html: string; greyed: number };
    return [{ currency, caption: t.historyIndexCaption(currency), svg: chart.html, note: chart.greyed > 0 ? t.historyOthers(chart.greyed) : undefined }];
  });
  const table: HistoryTable = {
    caption: t.history,
    corner: t.city,
    columns: history.months.map((m, k) => ({ key: m, label: history.monthLabels[ctx.locale][k] })),
    rows: cities.map((c) => ({ key: c.city.slug, label: names.city(c.city.slug), path: cityPricesPath(c), cells: c.points })),
  };
  return { charts, table };
}

/** The build's methodology.md, when it ships one. */
function methodologyText(build: LoadedBuild): Promise<string | undefined> {
  return perBuild(build, 'methodology.md', async () => (await build.servedFiles.read('methodology.md'))?.toString('utf8'));
}

/** The methodology of the build as HTML. */
function methodologyHtml(build: LoadedBuild): Promise<string | undefined> {
  return perBuild(build, 'methodology', async () => {
    const md = await methodologyText(build);
    return md && markdownToHtml(md, 2);
  });
}

/** The build's release (its datapackage, CITATION.cff, BibTeX and bulk files), when the pipeline kept one. */
async function releaseOf(ctx: ViewContext) {
  const pkg = await readReleasePackage(ctx.build, ctx.build.manifest.releaseId).catch(() => undefined);
  if (!pkg) return undefined;
  const { serviceName, siteUrl } = ctx.config;
  const release = describeRelease(pkg, siteUrl);
  return { ...release, bibtexEntry: bibtex(pkg, siteUrl, serviceName), bulk: bulkFiles(release) };
}

/** The index's cities by country, in the geo file's order of countries; made once per build and locale. */
function indexCountries(build: LoadedBuild, locale: Locale) {
  return perBuild(build, `index-countries|${locale}`, async () => {
    const byCode = groupBy(priceIndexOf(build).entries, (c) => c.countryCode);
    return build.geo[locale].countries.filter((c) => byCode.has(c.code)).map((c) => ({ country: slugName(c), code: c.code, cities: byCode.get(c.code)! }));
  });
}

/** The path after the locale of every page of the index by country (the sitemap lists them). */
export async function indexCountryPaths(build: LoadedBuild, locale: Locale): Promise<string[]> {
  return (await indexCountries(build, locale)).flatMap(({ country, cities }) => Array.from({ length: pageCount(cities.length, INDEX_CITIES_PER_PAGE) },
    (_, k) => `/price-index/${country.slug}${k === 0 ? '' : `?page=${k + 1}`}`));
}

/** The pages of the market rates after the first, as paths after the locale (the sitemap lists them). */
export const pricesPagePaths = (build: LoadedBuild, locale: Locale): string[] => Array.from(
  { length: pageCount(build.marketRates[locale].cities.length, PRICES_CITIES_PER_PAGE) - 1 }, (_, k) => `/prices?page=${k + 2}`);

/** The index by country: each country's cities, what of them is published, its page; then the methodology and the citation. */
export async function priceIndexView(ctx: ViewContext): Promise<PageView> {
  const { asOf } = ctx.build.priceIndexHead;
  return {
    template: 'price-index',
    page: { kind: 'price-index' },
    cited: { asOf, release: ctx.build.manifest.releaseId },
    data: {
      indexAsOf: asOf,
      countries: (await indexCountries(ctx.build, ctx.locale)).map(({ country, cities }) => ({
        ...country,
        path: pathOf(ctx, { kind: 'price-index', country }),
        currencies: [...new Set(cities.map((c) => c.currency))].join(', '),
        cities: cities.length,
        published: cities.filter((c) => c.published).length,
      })),
      methodology: await methodologyHtml(ctx.build),
      methodologyText: await methodologyText(ctx.build),
      release: await releaseOf(ctx),
    },
    dataLinks: priceIndexLinks(ctx, hasHistory(ctx.build)),
  };
}

/** A country's part of the index, INDEX_CITIES_PER_PAGE cities a page: a chart, the table and the history of those cities. */
export async function priceIndexCountryView(ctx: ViewContext): Promise<PageView | undefined> {
  const entry = (await indexCountries(ctx.build, ctx.locale)).find((c) => c.country.slug === ctx.params.country);
  if (!entry) return undefined;
  const page: CitationPage = { kind: 'price-index', country: entry.country };
  const paged = pageOf(entry.cities, ctx.page, INDEX_CITIES_PER_PAGE, pathOf(ctx, page));
  if (!paged) return undefined;
  const index = priceIndexOf(ctx.build);
  const pageCities = paged.items.map((c) => index.city(c.slug)!);
  const { asOf } = ctx.build.priceIndexHead;
  const history = await historyOf(ctx.build);
  const t = STRINGS[ctx.locale];
  const names = await figureNames(ctx);
  const key = `${entry.country.slug}|${paged.page}`;
  const charts = await perBuild(ctx.build, `index-charts|${ctx.locale}|${key}`, () => {
    const currencies = [...new Set(pageCities.filter((c) => c.published).map((c) => c.currency))];
    return Promise.all(currencies.map(async (currency) => {
      const cities = pageCities.filter((c) => c.currency === currency);
      const text = { ariaLabel: t.chartIndexCaption(currency), locale: ctx.locale, currency };
      const svg = await onPageWorker({ kind: 'index-chart', cities, names: chartNames(names, cities), text }) as string;
      return { currency, caption: t.chartIndexCaption(currency), svg };
    }));
  });
  return {
    template: 'price-index-country',
    page,
    pageNumber: paged.page,
    cited: { asOf, release: ctx.build.manifest.releaseId },
    data: {
      indexAsOf: asOf,
      charts,
      paged,
      cities: pageCities.map((c) => indexRows(ctx, names, c)),
      priceIndexPath: pathOf(ctx, { kind: 'price-index' }),
      history: history && await countryHistory(ctx, history, paged.items.map((c) => c.slug), key),
    },
    dataLinks: priceIndexLinks(ctx, history !== undefined),
  };
}
