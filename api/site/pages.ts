/**
 * The public pages (docs/design.md §1 "Public pages", §3 "Public page URLs"): HTML rendered with eta
 * from the build the API serves, at every URL the API hands out (citation.url, webUrl,
 * methodologyUrl, problem types). Pages are not API operations: they are left out of the
 * OpenAPI description, answer text/html (a 404 too), and share the API's rate limit,
 * Cache-Control, ETag and per-build response cache.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoadedBuild } from '../loading/load.ts';
import type { AppConfig } from '../config.ts';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../../contract/common.ts';
import { ERROR_CODES, type ErrorCode } from '../../contract/problem.ts';
import { citation, citationPath, citationTitle, LICENSE_URL } from '../http/citation.ts';
import { CACHE, type CacheHint } from '../http/headers.ts';
import { ApiError, PROBLEM_KINDS, problemPath, validationFailed } from '../http/problems.ts';
import { refuseDamaged } from '../http/route.ts';
import { z } from 'zod';
import { queryInt } from '../../contract/query-params.ts';
import { requestKey, responsesOf } from '../http/response-cache.ts';
import { withPlaceSlugs } from '../http/slug-hint.ts';
import { contactPath } from './enquiry-form.ts';
import { installAddresses, requestLocale } from './addresses.ts';
import { onPageWorker, startPageWorker, stopPageWorker } from './page-workers.ts';
import { installSitemaps } from './sitemaps.ts';
import { CHART_CSS } from './chart-style.ts';
import { RETIRED_AUTH_SEGMENTS } from './discovery.ts';
import { markdownToHtml } from './markdown.ts';
import { invalidSearchView, parseSearch, searchInput, searchPagePath, searchView, seeded } from './search.ts';
import { MARKDOWN_TYPE, renderTwin, twinError, twinLink, twinPath } from './markdown-twins.ts';
import { PROBLEM_CODES_HEADING, PROBLEM_DOCS, PROBLEM_FORMAT } from './problems.ts';
import { formatDateTime, STRINGS } from './strings.ts';
import { eta, localeFormat } from './html-templates.ts';
import { describePage } from './descriptions.ts';
import {
  bestView, cityPricesView, homeView, operatorView, placeView, priceIndexCountryView, priceIndexView, pricesView, spaceView,
  type PageView, type ViewContext,
} from './views.ts';

const HTML_TYPE = 'text/html; charset=utf-8';
const PROBLEM_PAGE_CACHE: CacheHint = { maxAge: 3600, staleWhileRevalidate: 86400 };

interface PageRoute {
  /** after `/{locale}` */
  path: string;
  cache: CacheHint;
  /** a list in pages (`?page=`, from 1): a page number that is not one, or past the last page, is a 404 */
  paged?: true;
  /** rendered on the page worker: a page long enough (0.7 MB of HTML; a country's thousands of cities) that rendering it held every other request */
  onWorker?: true;
  view(ctx: ViewContext): PageView | undefined | Promise<PageView | undefined>;
}

/** Every localized page, served under /<locale> for each locale of LOCALES. */
const PAGES: PageRoute[] = [
  { path: '', cache: CACHE.geo, view: homeView },
  { path: '/coworking/:country', cache: CACHE.market, paged: true, view: placeView, onWorker: true },
  { path: '/coworking/:country/:city', cache: CACHE.market, paged: true, view: placeView },
  { path: '/coworking/:country/:city/:zone', cache: CACHE.market, paged: true, view: placeView },
  { path: '/space/:slug', cache: CACHE.listing, view: spaceView },
  { path: '/operator/:slug', cache: CACHE.market, paged: true, view: operatorView },
  { path: '/best/:city', cache: CACHE.market, view: bestView },
  { path: '/prices', cache: CACHE.market, view: pricesView, paged: true },
  { path: '/prices/:city', cache: CACHE.market, view: cityPricesView },
  { path: '/price-index', cache: CACHE.priceIndex, view: priceIndexView },
  { path: '/price-index/:country', cache: CACHE.priceIndex, view: priceIndexCountryView, paged: true, onWorker: true },
];

/** What every page's layout needs besides the page's own data. */
const frame = (build: LoadedBuild, config: AppConfig, locale: Locale) => ({ ...localeFormat(locale), ...frameData(build, config, locale) });

/** frame's values (no functions: what a page worker is sent) */
function frameData(build: LoadedBuild, config: AppConfig, locale: Locale) {
  const { asOf, source } = build.priceIndexHead;
  return {
    /** what the snapshot says of itself when its prices are invented (data/source.json, written in FALLBACK_LOCALE) */
    sampleNotice: source?.sampleData ? (locale === FALLBACK_LOCALE ? source.description : STRINGS[locale].sampleDataText) : undefined,
    lang: locale,
    /** the locale the input's own prose (alt texts, source.json) is written in */
    inputLocale: FALLBACK_LOCALE,
    service: config.serviceName,
    buildId: build.id,
    asOf: formatDateTime(locale, asOf),
    licenseUrl: LICENSE_URL,
    chartCss: CHART_CSS,
    nav: {
      home: `/${locale}`,
      priceIndex: citationPath(locale, { kind: 'price-index' }),
      prices: citationPath(locale, { kind: 'prices' }),
      search: searchPagePath(locale),
      docs: '/docs',
      contact: contactPath(locale),
    },
  };
}

/** Everything a page's template is given, the HTML's and the Markdown twin's alike; `twinned`: the page has a twin. */
const pageModel = (view: PageView, ctx: ViewContext, now: number, twinned = false) => ({ ...localeFormat(ctx.locale), ...pageValues(view, ctx, now, twinned) });

/** pageModel's values, without the locale's formatters (what the page worker is sent) */
function pageValues(view: PageView, ctx: ViewContext, now: number, twinned: boolean) {
  const { config, locale } = ctx;
  const cite = citation({ siteUrl: config.siteUrl, serviceName: config.serviceName, locale, page: view.page, now, data: view.cited });
  const pageQuery = view.pageNumber && view.pageNumber > 1 ? `?page=${view.pageNumber}` : '';
  const path = view.pathIn?.(locale) ?? citationPath(locale, view.page) + pageQuery;
  return {
    ...frameData(ctx.build, config, locale),
    ...view.data,
    title: view.title ?? citationTitle(locale, view.page),
    description: view.description ?? describePage(view, locale),
    citation: cite,
    canonical: cite.url + pageQuery,
    alternates: LOCALES.map((l) => ({ locale: l, name: STRINGS[l].languageName, href: view.pathIn?.(l) ?? citationPath(l, view.page) + pageQuery, current: l === locale })),
    dataLinks: view.dataLinks,
    markdownTwin: twinned ? config.siteUrl + twinPath(path) : undefined,
  };
}

const renderView = (view: PageView, ctx: ViewContext, now: number, twinned = false) => eta.render(`./${view.template}`, pageModel(view, ctx, now, twinned));

/** renderView's HTML, rendered on the page worker: the event loop is free meanwhile. */
const renderViewOnWorker = (view: PageView, ctx: ViewContext, now: number, twinned = false) =>
  onPageWorker({ kind: 'page', template: view.template, locale: ctx.locale, values: pageValues(view, ctx, now, twinned) }) as Promise<string>;

/** A page outside PAGES (the enquiry forms, api/site/enquiry.ts): a template in the layout, without a citation. */
export function renderPage(
  ctx: Pick<ViewContext, 'build' | 'config' | 'locale'>, template: string,
  data: { title: string; alternates: { locale: Locale; name: string; href: string; current: boolean }[] } & Record<string, unknown>,
): string {
  return eta.render(`./${template}`, { ...frame(ctx.build, ctx.config, ctx.locale), dataLinks: [], ...data });
}

/** The Markdown twin of a page outside PAGES, from the same data as renderPage's. */
export function renderPageTwin(
  ctx: Pick<ViewContext, 'build' | 'config' | 'locale'>, template: string,
  data: { title: string; alternates: { locale: Locale; name: string; href: string; current: boolean }[] } & Record<string, unknown>,
): string {
  return renderTwin(template, { ...frame(ctx.build, ctx.config, ctx.locale), dataLinks: [], ...data }, ctx.config.siteUrl);
}

/** An error page in the locale: 404 (nothing here) or 500 (this page failed), with the request id to quote. */
function errorPage(reply: FastifyReply, build: LoadedBuild, config: AppConfig, locale: Locale, status: 404 | 500) {
  const t = STRINGS[locale];
  const html = eta.render(status === 404 ? './not-found' : './server-error', {
    ...frame(build, config, locale),
    title: status === 404 ? t.notFound : t.serverError,
    description: status === 404 ? t.notFoundText : t.serverErrorText,
    traceId: String(reply.request.id),
    alternates: LOCALES.map((l) => ({ locale: l, name: STRINGS[l].languageName, href: `/${l}`, current: l === locale })),
    dataLinks: [],
  });
  return reply.code(status).type(HTML_TYPE).send(html);
}

const notFound = (reply: FastifyReply, build: LoadedBuild, config: AppConfig, locale: Locale) => errorPage(reply, build, config, locale, 404);

/**
 * The not-found handler of the pages: an HTML 404, in the path's locale or else the visitor's,
 * for every URL outside the API's first segments (`/v1`, `/api`, `/.well-known` …, taken from
 * the API's routes), which keep their problem+json. Undefined for an API URL.
 */
export function pageNotFound(app: FastifyInstance) {
  let apiSegments: Set<string> | undefined;
  const firstSegment = (url: string) => url.split(/[/?#]/)[1] ?? '';
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    apiSegments ??= new Set([...app.routeDefinitions.map((d) => firstSegment(d.url)), ...RETIRED_AUTH_SEGMENTS]);
    const segment = firstSegment(request.url);
    // under a locale every address is a page; elsewhere only a browser's read (one that asks for
    // HTML) is a visitor's, and anything else a client of the API, which gets problem+json
    const page = (LOCALES as readonly string[]).includes(segment)
      || ((request.method === 'GET' || request.method === 'HEAD') && /\btext\/html\b/.test(request.headers.accept ?? ''));
    if (!page || apiSegments.has(segment)) return undefined;
    return notFound(reply, app.catalog.current().build, app.config, requestLocale(request));
  };
}

const PageNumberSchema = z.object({ page: queryInt(1).optional() });

/** The page of a paged list a query asks for (1 when it names none); undefined when `page` is not a page number. */
function listPageNumber(query: unknown): number | undefined {
  const parsed = PageNumberSchema.safeParse(query ?? {});
  return parsed.success ? parsed.data.page ?? 1 : undefined;
}

/** The problem code of a page path segment (`not-found` → NOT_FOUND). */
const PROBLEM_BY_SEGMENT = new Map<string, ErrorCode>(ERROR_CODES.map((code) => [problemPath(code).split('/').pop()!, code]));

/** Registers every page and its Markdown twin; call after the API routes (the pages take no path the API uses). */
export function installPages(app: FastifyInstance) {
  installAddresses(app);
  installSitemaps(app);
  app.addHook('onListen', (done) => {
    startPageWorker();
    done();
  });
  app.addHook('onClose', stopPageWorker);
  /**
   * Serves a page (HTML or Markdown, `type`) from the build's response cache, rendering it on a miss;
   * undefined from render → `failed` with 404, a failure → with 500.
   * `key` undefined: a page not to keep; `admit`: kept from the second time its key is asked for, as
   * the API's answers are (a search's keys are as many as the API's, a hub's pages as its listings).
   */
  const serve = async (
    request: FastifyRequest, reply: FastifyReply, key: string | undefined, type: string,
    render: (build: LoadedBuild, now: number) => Promise<string | undefined>,
    failed: (build: LoadedBuild, status: 404 | 500) => FastifyReply, admit = false,
  ) => {
    const served = app.catalog.current();
    const { build } = served, responses = responsesOf(served);
    const now = app.clock();
    const cacheKey = app.config.queryCache && key !== undefined ? `${type}|${key}` : undefined;
    let kept = cacheKey === undefined ? undefined : responses.get(cacheKey, now);
    if (!kept) {
      let body: string | undefined;
      try {
        body = await render(build, now).catch(refuseDamaged(app, request, build));
      } catch (err) {
        if (!(err instanceof ApiError)) request.log.error({ err, route: request.routeOptions.url }, 'page failed');
        return failed(build, 500);
      }
      if (body === undefined) return failed(build, 404);
      if (cacheKey === undefined || (admit && !responses.admits(cacheKey))) return reply.type(type).send(body);
      kept = responses.keep(cacheKey, now, { body, contentType: type });
    }
    reply.header('etag', kept.etag);
    return reply.type(kept.contentType).send(kept.body);
  };

  for (const locale of LOCALES) {
    for (const page of PAGES) {
      const url = `/${locale}${page.path}`;
      /** Serves the page or its twin: `render` makes either from the page's view. */
      const servePage = (
        request: FastifyRequest, reply: FastifyReply, type: string, failed: (build: LoadedBuild, status: 404 | 500) => FastifyReply,
        render: (view: PageView, ctx: ViewContext, now: number) => string | Promise<string>,
      ) => {
        const params = request.params as Record<string, string>;
        const pageNumber = page.paged ? listPageNumber(request.query) : 1;
        if (pageNumber === undefined) return failed(app.catalog.current().build, 404);
        return serve(request, reply, `${url}|${JSON.stringify(params)}|${pageNumber}`, type, async (build, now) => {
          const ctx: ViewContext = { build, config: app.config, locale, params, page: pageNumber };
          const view = await page.view(ctx);
          return view && render(view, ctx, now);
        }, failed, pageNumber > 1);
      };
      app.route({
        method: 'GET',
        url,
        config: { cache: page.cache },
        handler: (request, reply) => {
          reply.header('link', twinLink(app.config.siteUrl, request.url));
          return servePage(request, reply, HTML_TYPE, (build, status) => errorPage(reply.removeHeader('link'), build, app.config, locale, status),
            (view, ctx, now) => (page.onWorker ? renderViewOnWorker : renderView)(view, ctx, now, true));
        },
      });
      app.route({
        method: 'GET',
        url: twinPath(url),
        config: { cache: page.cache },
        handler: (request, reply) => servePage(request, reply, MARKDOWN_TYPE, (_, status) => twinError(reply, locale, app.config.siteUrl, status),
          (view, ctx, now) => renderTwin(view.template, pageModel(view, ctx, now), app.config.siteUrl)),
      });
    }

    /** The search page or its twin, each rendered by `render`. */
    const searchHandler = (type: string, render: (view: PageView, ctx: ViewContext, now: number) => string, failed: (reply: FastifyReply, build: LoadedBuild, status: 404 | 500) => FastifyReply) =>
      (request: FastifyRequest, reply: FastifyReply) => {
        const asked = searchInput(request.query, locale);
        const parsed = parseSearch(asked, locale);
        if ('errors' in parsed) {
          const { build } = app.catalog.current();
          const ctx: ViewContext = { build, config: app.config, locale, params: {}, page: 1 };
          const errors = withPlaceSlugs(validationFailed(parsed.errors), request, build).errors ?? parsed.errors;
          return reply.code(400).type(type).send(render(invalidSearchView(ctx, asked, errors), ctx, app.clock()));
        }
        const { query, input, fresh } = seeded(parsed.query, asked);
        // a seed picked for this request is never asked for again: nothing to keep
        const key = fresh ? undefined : `${searchPagePath(locale)}|${requestKey({ query, params: {} })}`;
        return serve(request, reply, key, type, async (build, now) => {
          const ctx: ViewContext = { build, config: app.config, locale, params: {}, page: query.page };
          return render(searchView(ctx, query, input), ctx, now);
        }, (build, status) => failed(reply, build, status), true);
      };
    const searchPage = searchHandler(HTML_TYPE, (view, ctx, now) => renderView(view, ctx, now, true),
      (reply, build, status) => errorPage(reply, build, app.config, locale, status));
    app.route({
      method: 'GET',
      url: searchPagePath(locale),
      config: { cache: CACHE.listing },
      handler: (request, reply) => searchPage(request, reply.header('link', twinLink(app.config.siteUrl, request.url))),
    });
    app.route({
      method: 'GET',
      url: twinPath(searchPagePath(locale)),
      config: { cache: CACHE.listing },
      handler: searchHandler(MARKDOWN_TYPE, (view, ctx, now) => renderTwin(view.template, pageModel(view, ctx, now), app.config.siteUrl),
        (reply, _, status) => twinError(reply, locale, app.config.siteUrl, status)),
    });
  }

  /** A problem page's model, or undefined for a segment that names no code. */
  const problemModel = (build: LoadedBuild, segment: string) => {
    const code = PROBLEM_BY_SEGMENT.get(segment);
    if (!code) return undefined;
    return {
      ...frame(build, app.config, 'en'),
      title: PROBLEM_KINDS[code].title,
      code,
      status: PROBLEM_KINDS[code].status,
      type: app.config.siteUrl + problemPath(code),
      markdown: PROBLEM_DOCS[code](app.config),
      format: PROBLEM_FORMAT,
      codesHeading: PROBLEM_CODES_HEADING,
      codes: ERROR_CODES.map((c) => ({ code: c, path: problemPath(c), current: c === code })),
      alternates: [],
      dataLinks: [],
      markdownTwin: app.config.siteUrl + twinPath(problemPath(code)),
    };
  };
  app.route({
    method: 'GET',
    url: '/problems/:code',
    config: { cache: PROBLEM_PAGE_CACHE },
    handler: (request, reply) => {
      const segment = (request.params as { code: string }).code;
      reply.header('link', twinLink(app.config.siteUrl, request.url));
      return serve(request, reply, `/problems/${segment}`, HTML_TYPE, async (build) => {
        const model = problemModel(build, segment);
        return model && eta.render('./problem', { ...model, body: markdownToHtml(model.markdown, 1), format: markdownToHtml(model.format) });
      }, (build, status) => errorPage(reply.removeHeader('link'), build, app.config, 'en', status));
    },
  });
  app.route({
    method: 'GET',
    url: twinPath('/problems/:code'),
    config: { cache: PROBLEM_PAGE_CACHE },
    handler: (request, reply) => {
      const segment = (request.params as { code: string }).code;
      return serve(request, reply, `/problems/${segment}`, MARKDOWN_TYPE, async (build) => {
        const model = problemModel(build, segment);
        return model && renderTwin('problem', model, app.config.siteUrl);
      }, (_, status) => twinError(reply, 'en', app.config.siteUrl, status));
    },
  });
}
