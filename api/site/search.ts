/**
 * The search page, /{locale}/search: GET /v1/properties as a page. It takes the list's query
 * parameters with the same schema, asks the same engine for the cards and for the facets of
 * GET /v1/facets, and shows a form of the facets with their counts, the cards with paging, and a
 * link per filter that drops it. A bad parameter gives the form again with the message (400).
 */
import { randomInt } from 'node:crypto';
import type { FacetsPayload } from '../../contract/catalog.ts';
import { CURRENCIES, type Locale } from '../../contract/common.ts';
import { FILTER_DECLARATIONS } from '../../contract/filters.ts';
import { MAX_PAGE, PropertyListQuerySchema, SORT_ORDERS, type PropertyListQuery, type SortBy } from '../../contract/queries.ts';
import { BytesOut, FACETS_BYTES } from '../catalog/facet-payload.ts';
import { JsonBytes } from '../catalog/json-bytes.ts';
import { fieldErrors } from '../http/errors.ts';
import type { FieldError } from '../http/problems.ts';
import { listPage } from '../http/citation.ts';
import { SEARCH_STRINGS } from './search-strings.ts';
import { formatMoney, formatNumber, STRINGS } from './strings.ts';
import { apiLink, listingCards, PAGE_LIST_ORDER, pager, type PageView, type ViewContext } from './views.ts';

export const searchPagePath = (locale: Locale) => `/${locale}/search`;

/** The query as the form and the links carry it: text values by parameter name, empty ones left out. */
export type SearchInput = Record<string, string>;

type FilterParam = { [K in keyof typeof FILTER_DECLARATIONS]: keyof (typeof FILTER_DECLARATIONS)[K]['params'] }[keyof typeof FILTER_DECLARATIONS];
/** Every filter parameter, in the order of their declaration; then what orders and pages the list. */
const FILTER_PARAMS = Object.values(FILTER_DECLARATIONS).flatMap((f) => Object.keys(f.params)) as FilterParam[];
const LIST_PARAMS = [...FILTER_PARAMS, 'sortBy', 'seed', 'pageSize', 'page'];
/** The point filter's parameters: dropped together (sortBy=distance needs them). */
const POINT_PARAMS: string[] = Object.keys(FILTER_DECLARATIONS.point.params);
/** Facets the form offers as a list to choose one from; `amenities` is a set of boxes to tick. */
const CHOICE_FACETS = ['country', 'city', 'zone', 'operator', 'pricingOptionType'] as const;
/** The orders the form offers; distance only with a point. */
const FORM_ORDERS: SortBy[] = [PAGE_LIST_ORDER, ...SORT_ORDERS.filter((o) => o !== PAGE_LIST_ORDER)];

/**
 * A form's query as the list takes it: empty fields are unset, ticked amenities (the parameter
 * repeated) are one comma-separated list, parameters the list does not take are left out, the locale is the page's, and the order is the page's
 * unless one is asked for.
 */
export function searchInput(query: unknown, locale: Locale): SearchInput {
  const input: SearchInput = {};
  for (const [name, raw] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (!LIST_PARAMS.includes(name)) continue;
    const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (values.length === 0) continue;
    // any other parameter given twice is one value its schema refuses, with its message
    input[name] = values.join(',');
  }
  return input;
}

/** The list's query of an input, or the errors of its parameters. */
export function parseSearch(input: SearchInput, locale: Locale): { query: PropertyListQuery } | { errors: FieldError[] } {
  const raw = { sortBy: PAGE_LIST_ORDER, ...input, locale };
  const parsed = PropertyListQuerySchema.safeParse(raw);
  if (parsed.success) return { query: parsed.data };
  return { errors: fieldErrors(parsed.error, undefined, { input: raw }) };
}

/** A random order needs a seed to page through: the server picks one, which the links carry (meta.seed in the API). */
export function seeded(query: PropertyListQuery, input: SearchInput): { query: PropertyListQuery; input: SearchInput; fresh: boolean } {
  if (query.sortBy !== 'random' || query.seed !== undefined) return { query, input, fresh: false };
  const seed = randomInt(0, 2147483647);
  return { query: { ...query, seed }, input: { ...input, seed: String(seed) }, fresh: true };
}

/** The path of the search with `input` changed by `changes` (undefined drops a parameter); the page's defaults are left out. */
function hrefOf(locale: Locale, input: SearchInput, changes: Record<string, string | undefined> = {}): string {
  const next: Record<string, string | undefined> = { ...input, ...changes };
  const parts: string[] = [];
  for (const name of LIST_PARAMS) {
    const v = next[name];
    if (v === undefined || (name === 'sortBy' && v === PAGE_LIST_ORDER) || (name === 'page' && v === '1')) continue;
    if (name === 'seed' && next.sortBy !== 'random') continue;
    parts.push(`${name}=${encodeURIComponent(v).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `${searchPagePath(locale)}?${parts.join('&')}` : searchPagePath(locale);
}

/** The facets of GET /v1/facets under the list's filters, from the same engine. */
function facetsOf(ctx: ViewContext, query: PropertyListQuery): FacetsPayload {
  const w = new JsonBytes(FACETS_BYTES);
  ctx.build.engine.facets(query, ctx.locale, new BytesOut(w));
  return JSON.parse(w.finish().toString()) as FacetsPayload;
}

/** What the form calls each parameter, in the page's locale. */
function paramLabel(ctx: ViewContext, name: string): string {
  const s = SEARCH_STRINGS[ctx.locale];
  const keys = ctx.build.engine.labels.keys as Record<string, Record<Locale, string>>;
  if (keys[name]) return keys[name][ctx.locale];
  const own: Record<string, string> = {
    minCapacity: s.minCapacity, minPrice: s.minPrice, maxPrice: s.maxPrice, currency: s.currency, address: s.address,
    bbox: s.bbox, sortBy: s.sortBy, lat: s.point, lng: s.point, radiusMeters: s.point,
  };
  return own[name] ?? name;
}

/** A link per filter set, each to the same search without it (and from its first page). */
function activeFilters(ctx: ViewContext, input: SearchInput) {
  const { engine } = ctx.build;
  const s = SEARCH_STRINGS[ctx.locale];
  const from = { page: undefined };
  const chips: { text: string; href: string }[] = [];
  const chip = (what: string, changes: Record<string, string | undefined>) =>
    chips.push({ text: s.remove(what), href: hrefOf(ctx.locale, input, { ...from, ...changes }) });
  for (const name of FILTER_PARAMS) {
    const v = input[name];
    if (v === undefined || (POINT_PARAMS.includes(name) && name !== 'lat')) continue;
    const label = paramLabel(ctx, name);
    if (name === 'amenities') {
      const all = [...new Set(v.split(','))];
      for (const a of all) chip(`${label}: ${engine.label('amenities', a, ctx.locale)}`, { amenities: all.filter((x) => x !== a).join(',') || undefined });
    } else if (name === 'lat') {
      const radius = input.radiusMeters ? ` (${formatNumber(ctx.locale, Number(input.radiusMeters))} m)` : '';
      chip(`${label}: ${input.lat}, ${input.lng}${radius}`, { lat: undefined, lng: undefined, radiusMeters: undefined, sortBy: input.sortBy === 'distance' ? undefined : input.sortBy });
    } else if ((CHOICE_FACETS as readonly string[]).includes(name)) {
      chip(`${label}: ${engine.label(name as (typeof CHOICE_FACETS)[number], v, ctx.locale)}`, { [name]: undefined });
    } else {
      chip(`${label}: ${v}`, { [name]: undefined });
    }
  }
  return chips;
}

/** A facet's choices: each value with its count; a value asked for that the facets do not list (a bad one) is kept selected. */
function choices(ctx: ViewContext, facets: FacetsPayload, key: string, selected: string | undefined) {
  const s = SEARCH_STRINGS[ctx.locale];
  const values = facets.facets.find((f) => f.key === key)?.values ?? [];
  const labels = new Map<string, number>();
  for (const v of values) labels.set(v.label, (labels.get(v.label) ?? 0) + 1);
  const options = values.map((v) => {
    // two cities of one name (valencia, valencia-ve) are told apart by their country
    const country = key === 'city' && labels.get(v.label)! > 1 ? ctx.build.engine.placeOf(ctx.locale, { city: v.value })?.country.name : undefined;
    return { value: v.value, text: s.withCount(country ? `${v.label}, ${country}` : v.label, v.count), selected: v.value === selected };
  });
  if (selected !== undefined && !options.some((o) => o.selected)) options.unshift({ value: selected, text: selected, selected: true });
  return options;
}

/** The orders to choose from (distance only from a point), with the one asked for, even when it is not one of them. */
function orderChoices(ctx: ViewContext, asked: string, hasPoint: boolean) {
  const s = SEARCH_STRINGS[ctx.locale];
  const offered = FORM_ORDERS.filter((o) => o !== 'distance' || hasPoint || asked === o);
  const options = offered.map((o) => ({ value: o as string, text: s.sort[o], selected: o === asked }));
  if (!options.some((o) => o.selected)) options.unshift({ value: asked, text: asked, selected: true });
  return options;
}

/** The form: each facet with its values and counts, the other filters, the order, and what it keeps unseen. */
function form(ctx: ViewContext, facets: FacetsPayload, input: SearchInput, invalid: Set<string>) {
  const s = SEARCH_STRINGS[ctx.locale];
  const field = (name: string) => ({ name, id: `f-${name}`, label: paramLabel(ctx, name), value: input[name] ?? '', invalid: invalid.has(name) });
  const amenities = new Set((input.amenities ?? '').split(',').filter(Boolean));
  const amenityValues = facets.facets.find((f) => f.key === 'amenities')?.values ?? [];
  const { priceRange, capacityRange } = facets;
  const period = priceRange && STRINGS[ctx.locale].period[priceRange.basis === 'monthly' || !priceRange.basis ? 'month' : priceRange.basis];
  const hasPoint = input.lat !== undefined || input.lng !== undefined;
  return {
    action: searchPagePath(ctx.locale),
    selects: CHOICE_FACETS
      // a neighbourhood is chosen within its city: the names of all of them at once mean little
      .filter((key) => key !== 'zone' || input.city !== undefined || input.zone !== undefined)
      .map((key) => ({ ...field(key), options: choices(ctx, facets, key, input[key]) })),
    amenities: {
      ...field('amenities'),
      options: amenityValues.map((v) => ({ value: v.value, text: s.withCount(v.label, v.count), checked: amenities.has(v.value) })),
    },
    minCapacity: { ...field('minCapacity'), note: capacityRange && s.capacityNote(formatNumber(ctx.locale, capacityRange.min), formatNumber(ctx.locale, capacityRange.max)) },
    minPrice: field('minPrice'),
    maxPrice: field('maxPrice'),
    priceNote: s.priceNote(priceRange && `${formatMoney(ctx.locale, priceRange.min)} – ${formatMoney(ctx.locale, priceRange.max)} ${period}`),
    currency: { ...field('currency'), options: CURRENCIES.map((c) => ({ value: c, text: c, selected: c === input.currency })) },
    address: field('address'),
    sortBy: { ...field('sortBy'), options: orderChoices(ctx, input.sortBy ?? PAGE_LIST_ORDER, hasPoint) },
    // what the page was asked with but the form does not show: sent on with it
    hidden: [...POINT_PARAMS, 'bbox', 'pageSize', ...(input.sortBy === 'random' ? ['seed'] : [])]
      .filter((name) => input[name] !== undefined).map((name) => ({ name, value: input[name] })),
  };
}

/** The page around its form and results; its data links are the API's answers of `apiInput`, the query it could read. */
function searchPage(ctx: ViewContext, input: SearchInput, apiInput: SearchInput, query: PropertyListQuery, data: Record<string, unknown>): PageView {
  const apiQuery = Object.fromEntries(Object.entries(apiInput).filter(([name]) => name !== 'page' && name !== 'pageSize'));
  return {
    template: 'search',
    page: listPage(ctx.build.engine, ctx.locale, query),
    title: SEARCH_STRINGS[ctx.locale].title,
    description: SEARCH_STRINGS[ctx.locale].description,
    pathIn: (locale) => hrefOf(locale, input),
    data: { chips: activeFilters(ctx, input), clearHref: searchPagePath(ctx.locale), ...data },
    dataLinks: [
      apiLink(ctx, '/v1/properties', { ...apiQuery, sortBy: query.sortBy, page: String(query.page), pageSize: String(query.pageSize) }),
      apiLink(ctx, '/v1/facets', Object.fromEntries(Object.entries(apiQuery).filter(([name]) => FILTER_PARAMS.includes(name as FilterParam)))),
    ],
  };
}

/** The page of a valid query: the form with the facets of its filters, and its page of cards. */
export function searchView(ctx: ViewContext, query: PropertyListQuery, input: SearchInput): PageView {
  const { engine } = ctx.build;
  const set = engine.match(query);
  const offset = (query.page - 1) * query.pageSize;
  const { total, indices } = engine.page(set, query, query.sortBy, query.seed ?? 0, offset, query.pageSize);
  const pageCount = Math.min(MAX_PAGE, Math.max(1, Math.ceil(total / query.pageSize)));
  return searchPage(ctx, input, input, query, {
    form: form(ctx, facetsOf(ctx, query), input, new Set()),
    results: {
      total,
      from: offset + 1,
      to: offset + indices.length,
      order: query.sortBy,
      cards: listingCards(ctx, indices, query, query.sortBy),
      pastTheEnd: total > 0 && indices.length === 0,
    },
    pager: pager(query.page, pageCount, (p) => hrefOf(ctx.locale, input, { page: String(p) })),
  });
}

/**
 * The page of a query with bad parameters: the form with the values as they were sent, each bad
 * one marked and explained, its facets counted under the parameters that were valid.
 */
export function invalidSearchView(ctx: ViewContext, input: SearchInput, errors: FieldError[]): PageView {
  const bad = new Set(errors.map((e) => e.path));
  const dropped = bad.has('lat') || bad.has('lng') ? new Set([...bad, ...POINT_PARAMS]) : bad;
  const valid = Object.fromEntries(Object.entries(input).filter(([name]) => !dropped.has(name)));
  const parsed = parseSearch(valid, ctx.locale);
  const [readable, query] = 'query' in parsed ? [valid, parsed.query] : [{}, (parseSearch({}, ctx.locale) as { query: PropertyListQuery }).query];
  return searchPage(ctx, input, readable, query, {
    form: form(ctx, facetsOf(ctx, query), input, bad),
    errors: errors.map((e) => ({ id: `f-${e.path}`, label: paramLabel(ctx, e.path), message: e.message })),
  });
}
