/**
 * {site}/openapi.json (the OpenAPI 3.1 description, generated from the routes this app serves)
 * and {site}/docs (an API reference page rendered by Swagger UI, whose assets we serve ourselves
 * from swagger-ui-dist: no CDN, nothing loaded from elsewhere).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AppConfig } from '../../config.ts';
import type { LoadedBuild } from '../../build/load.ts';
import { buildOpenApiDocument, serializeDocument } from '../../openapi/document.ts';
import type { CacheHint } from '../../http/headers.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute } from '../../http/route.ts';

const DOC_CACHE: CacheHint = { maxAge: 300, staleWhileRevalidate: 3600 };
const ASSET_CACHE: CacheHint = { maxAge: 86400, staleWhileRevalidate: 604800 };
const STATUSES = [200, 400, 429, 500, 502];

const openApiRoute = defineRoute({
  operationId: 'getOpenApiDocument',
  method: 'GET',
  url: '/openapi.json',
  summary: 'This OpenAPI 3.1 description',
  description: 'The machine-readable description of every endpoint, generated from the same schemas that validate requests and shape responses.',
  querystring: z.object({}),
  response: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) }),
  statuses: STATUSES,
  cache: DOC_CACHE,
  cacheKey: requestKey,
  rateLimit: 'read',
  // the document of this app: its registered routes, for its configuration
  handler: ({ request, config }) => ({ json: serializeDocument(buildOpenApiDocument({ routes: request.server.routeDefinitions, config })) }),
});

const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
  'init.js': 'text/javascript; charset=utf-8',
} as const;
type Asset = keyof typeof ASSETS;

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Try-it-out only for reads: the enquiry operations create real enquiries and must never be tried.
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    supportedSubmitMethods: ['get'],
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

const asset = (name: Asset): Buffer | string => (name === 'init.js' ? INIT_JS : readFileSync(join(distDir, name)));

const escapeHtml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the served snapshot says of itself when its prices are invented (data/source.json). */
const sampleNotice = (build: LoadedBuild) => {
  const { source } = build.priceIndexHead;
  return source?.sampleData
    ? `<p role="note" style="margin:1em 2em;padding:.75em 1em;border:2px solid #8a5a00;background:#fff4d6;color:#222;font:16px/1.4 sans-serif"><strong>Sample data, not real prices.</strong> ${escapeHtml(source.description)}</p>\n`
    : '';
};

const page = (config: AppConfig, build: LoadedBuild) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${config.serviceName.replace(/[<>&"]/g, '')} API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
${sampleNotice(build)}<noscript>The machine-readable description is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js" charset="utf-8"></script>
<script src="/docs/init.js" charset="utf-8"></script>
</body>
</html>
`;

const docsPageRoute = defineRoute({
  operationId: 'getDocsPage',
  method: 'GET',
  url: '/docs',
  summary: 'API reference page',
  description: 'A human-readable reference rendered from /openapi.json; when the served data is sample data (its snapshot says so), the page says so first. Its assets are served from /docs/; nothing is loaded from a CDN. "Try it out" is enabled for reads only.',
  querystring: z.object({}),
  response: z.string(),
  statuses: STATUSES,
  cache: DOC_CACHE,
  rateLimit: 'read',
  handler: ({ config, build }) => ({ raw: page(config, build), contentType: 'text/html; charset=utf-8' }),
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
