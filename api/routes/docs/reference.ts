/**
 * The reference as this app serves it, made once per app from its routes and configuration: the
 * OpenAPI document, cut where the request's origin goes, and the list of its operations as HTML
 * for the first paint of /docs.
 */
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import { loadConfig } from '../../config.ts';
import { buildOpenApiDocument, CANONICAL_ENV, serializeDocument } from '../../openapi/document.ts';
import type { RouteDefinition } from '../../http/route.ts';

type Json = Record<string, any>;

/** The origin the committed examples were recorded on (the canonical configuration's). */
const EXAMPLES_ORIGIN = loadConfig({ ...CANONICAL_ENV }).baseUrl;

/** host[:port] as a Host header may carry it; anything else is not put into the document. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export interface Reference {
  /**
   * The document's text in pieces: the API server and every URL of the examples on the request's
   * origin go between them, so that each example can be tried where the reader is.
   */
  documentParts: string[];
  /** every operation, grouped by tag as /docs shows them: the page's content before Swagger UI has drawn it */
  operationList: string;
}

export const escapeHtml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The tags and their operations, in the order of the document, marked up as Swagger UI marks up its list (its stylesheet styles both alike). */
function operationList(doc: Json): string {
  const byTag = new Map<string, { method: string; path: string; summary: string }[]>((doc.tags as Json[]).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of ['get', 'post']) {
      const op = item[method];
      if (op) byTag.get(op.tags[0])!.push({ method, path, summary: op.summary ?? '' });
    }
  }
  const sections = (doc.tags as Json[]).map((tag) => `<section class="opblock-tag-section" aria-labelledby="tag-${tag.name}">
<h2 class="opblock-tag" id="tag-${tag.name}">${escapeHtml(tag.name)} <small>${escapeHtml(tag.description ?? '')}</small></h2>
<ul class="operation-list">
${byTag.get(tag.name)!.map((op) => `<li class="opblock opblock-${op.method}"><span class="opblock-summary opblock-summary-${op.method}"><span class="opblock-summary-method">${op.method.toUpperCase()}</span> <code class="opblock-summary-path">${escapeHtml(op.path)}</code> <span class="opblock-summary-description">${escapeHtml(op.summary)}</span></span></li>`).join('\n')}
</ul>
</section>`);
  return `<div class="swagger-ui"><div class="wrapper">
<h1 class="title">${escapeHtml(doc.info.title)}</h1>
<p>${escapeHtml(doc.info.summary ?? '')} <a href="/openapi.json">/openapi.json</a></p>
${sections.join('\n')}
</div></div>`;
}

const made = new WeakMap<readonly RouteDefinition<any, any, any>[], Reference>();

/** The reference of an app's routes, made on its first use. */
export function referenceOf(routes: readonly RouteDefinition<any, any, any>[], config: AppConfig): Reference {
  let reference = made.get(routes);
  if (!reference) {
    // the API server on the examples' origin, so that one cut puts both on the request's
    const doc = buildOpenApiDocument({ routes, config: { ...config, baseUrl: EXAMPLES_ORIGIN } });
    reference = { documentParts: serializeDocument(doc).split(EXAMPLES_ORIGIN), operationList: operationList(doc) };
    made.set(routes, reference);
  }
  return reference;
}

/** The origin a request reached us at (behind a trusted proxy, the one the client used); the configured base URL when its Host is not a host. */
export function requestOrigin(request: FastifyRequest, config: AppConfig): string {
  return HOST.test(request.host) ? `${request.protocol}://${request.host}` : config.baseUrl;
}
