/**
 * {site}/openapi.json (the OpenAPI 3.1 description, generated from the routes this app serves)
 * and {site}/docs (an API reference page rendered by Swagger UI, whose assets we serve ourselves
 * from swagger-ui-dist: no CDN, nothing loaded from elsewhere). The page's HTML lists every
 * operation already: Swagger UI takes a few seconds to parse and draw the document (its examples
 * make it ~370 kB), and the reader sees the list meanwhile, or without script.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { LoadedBuild } from '../../loading/load.ts';
import type { CacheHint } from '../../http/headers.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute } from '../../http/route.ts';
import { escapeHtml, referenceOf, requestOrigin } from './reference.ts';
import { DOCS_CSS } from './style.ts';

const DOC_CACHE: CacheHint = { maxAge: 300, staleWhileRevalidate: 3600 };
const ASSET_CACHE: CacheHint = { maxAge: 86400, staleWhileRevalidate: 604800 };
const STATUSES = [200, 400, 429, 500, 502];

const openApiRoute = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  url: '/openapi.json',
  summary: 'This OpenAPI 3.1 description',
  description: 'The machine-readable description of every endpoint, generated from the same schemas that validate requests and shape responses. Its server, and the URLs in its examples, are the origin the document was requested at.',
  querystring: z.object({}),
  response: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
  statuses: STATUSES,
  cache: DOC_CACHE,
  rateLimit: 'read',
  // the document of this app (its registered routes, for its configuration) on the request's origin: not kept in the response cache, whose key has no origin
  handler: ({ request, config }) => ({ json: referenceOf(request.server.routeDefinitions, config).documentParts.join(requestOrigin(request, config)) }),
});

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
  'init.js': 'text/javascript; charset=utf-8',
  'desk-atlas.css': 'text/css; charset=utf-8',
} as const;
type Asset = keyof typeof ASSETS;

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Try-it-out only for reads: the enquiry operations create real enquiries and must never be tried.
// Swagger UI draws out of sight and takes the operation list's place once it has the document
// (a loading state would take it at once, for seconds). No deep links: Swagger UI puts each one inside its operation's button, a link in a button. No
// syntax colours: too light on their dark ground. Swagger UI names none of its <select>s (the server
// list, a parameter's values, a response's examples): each is named by what it chooses when drawn.
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: false,
  syntaxHighlight: false,
  supportedSubmitMethods: ['get'],
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  onComplete: function () {
    document.getElementById('swagger-ui').hidden = false;
    document.getElementById('operation-list').remove();
  }
});
new MutationObserver(function () {
  document.querySelectorAll('#swagger-ui select:not([aria-label])').forEach(function (select) {
    var parameter = select.closest('tr[data-param-name]');
    select.setAttribute('aria-label', select.id === 'servers' ? 'Servers' : parameter ? parameter.getAttribute('data-param-name') : 'Examples');
  });
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;

const asset = (name: Asset): Buffer | string => {
  if (name === 'init.js') return INIT_JS;
  if (name === 'desk-atlas.css') return DOCS_CSS;
  return readFileSync(join(distDir, name));
};

/** What the served snapshot says of itself when its prices are invented (data/source.json). */
const sampleNotice = (build: LoadedBuild) => {
  const { source } = build.priceIndexHead;
  return source?.sampleData
    ? `<p role="note" class="sample-notice"><strong>Sample data, not real prices.</strong> ${escapeHtml(source.description)}</p>\n`
    : '';
};

const page = (config: AppConfig, build: LoadedBuild, operationList: string) => `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(config.serviceName)} API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="stylesheet" href="/docs/desk-atlas.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
<script src="/docs/swagger-ui-bundle.js" defer></script>
<script src="/docs/init.js" defer></script>
</head>
<body>
${sampleNotice(build)}<div id="operation-list">
${operationList}
</div>
<div id="swagger-ui" hidden></div>
</body>
</html>
`;

const docsPageRoute = defineRoute({
  operationId: 'getDocsPage',
  method: 'GET',
  url: '/docs',
  summary: 'API reference page',
  description: 'A human-readable reference rendered from /openapi.json; when the served data is sample data (its snapshot says so), the page says so first. Its HTML lists every operation, which Swagger UI then draws in full. Its assets are served from /docs/; nothing is loaded from a CDN. "Try it out" is enabled for reads only.',
  querystring: z.object({}),
  response: z.string(),
  statuses: STATUSES,
  cache: DOC_CACHE,
  rateLimit: 'read',
  handler: ({ request, config, build }) => ({
    raw: page(config, build, referenceOf(request.server.routeDefinitions, config).operationList), contentType: 'text/html; charset=utf-8',
  }),
});

const docsAssetRoute = defineRoute({
  operationId: 'getDocsAsset',
  method: 'GET',
  url: '/docs/:asset',
  summary: 'Asset of the API reference page',
  description: 'Stylesheet, scripts and icons of the reference page (Swagger UI, served by us).',
  querystring: z.object({}),
  params: z.object({ asset: z.enum(Object.keys(ASSETS) as [Asset, ...Asset[]]) }),
  response: z.string(),
  statuses: STATUSES,
  cache: ASSET_CACHE,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ params }) => ({ raw: asset(params.asset), contentType: ASSETS[params.asset] }),
});

/** The documentation routes, appended to the app's routes. */
export const DOCS_ROUTES = [openApiRoute, docsPageRoute, docsAssetRoute];
