/**
 * The site's discovery documents (docs/design.md §3, §7 "Authentication"): OAuth metadata that
 * declares nothing to authorize, the RFC 9727 API catalogue, and the plain-text auth guide.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AppConfig } from '../config.ts';
import { UriSchema } from '../../contract/common.ts';
import { MCP_PATH } from '../mcp/http.ts';

export const AUTH_GUIDE_PATH = '/auth.md';
/** First path segments of the registration, claim and token URIs older metadata advertised: gone, answered as the API answers (404 problem+json), never as a page. */
export const RETIRED_AUTH_SEGMENTS = ['oauth', 'register', 'claim'];

/** RFC 9728 protected-resource metadata: no scopes, no bearer methods. */
export const ProtectedResourceMetadataSchema = z.strictObject({
  resource: UriSchema,
  resource_name: z.string(),
  authorization_servers: z.array(UriSchema),
  scopes_supported: z.array(z.string()).length(0),
  bearer_methods_supported: z.array(z.string()).length(0),
  resource_documentation: UriSchema,
});

/** RFC 8414 authorization-server metadata with nothing to grant; agent_auth.skill points to the guide. */
export const AuthorizationServerMetadataSchema = z.strictObject({
  issuer: UriSchema,
  scopes_supported: z.array(z.string()).length(0),
  bearer_methods_supported: z.array(z.string()).length(0),
  grant_types_supported: z.array(z.string()).length(0),
  response_types_supported: z.array(z.string()).length(0),
  service_documentation: UriSchema,
  agent_auth: z.strictObject({ skill: UriSchema }),
});

const LinkTargetSchema = z.strictObject({ href: UriSchema, type: z.string().optional(), title: z.string().optional() });
/** RFC 9727 API catalogue: an RFC 9264 linkset of the REST API and the MCP server. */
export const ApiCatalogSchema = z.strictObject({
  linkset: z.array(z.strictObject({
    anchor: UriSchema,
    'service-desc': z.array(LinkTargetSchema),
    'service-doc': z.array(LinkTargetSchema),
    status: z.array(LinkTargetSchema),
  })),
});

export const API_CATALOG_CONTENT_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

export function protectedResourceMetadata(config: AppConfig, pagePath = '') {
  return {
    resource: config.siteUrl + pagePath,
    resource_name: config.serviceName,
    authorization_servers: [new URL(config.siteUrl).origin],
    scopes_supported: [],
    bearer_methods_supported: [],
    resource_documentation: config.siteUrl + AUTH_GUIDE_PATH,
  };
}

export function authorizationServerMetadata(config: AppConfig) {
  return {
    issuer: config.siteUrl,
    scopes_supported: [],
    bearer_methods_supported: [],
    grant_types_supported: [],
    response_types_supported: [],
    service_documentation: config.siteUrl + AUTH_GUIDE_PATH,
    agent_auth: { skill: config.siteUrl + AUTH_GUIDE_PATH },
  };
}

export function apiCatalog(config: AppConfig) {
  return {
    linkset: [{
      anchor: `${config.baseUrl}/v1`,
      'service-desc': [{ href: `${config.siteUrl}/openapi.json`, type: 'application/openapi+json' }],
      'service-doc': [{ href: `${config.siteUrl}/docs`, type: 'text/html' }],
      status: [{ href: `${config.baseUrl}/v1/health`, type: 'application/json' }],
    }, {
      // the same reads as MCP tools; `tools/list` describes them
      anchor: `${config.baseUrl}${MCP_PATH}`,
      'service-desc': [{ href: `${config.baseUrl}${MCP_PATH}`, type: 'application/json', title: 'MCP server (Streamable HTTP, read-only): tools/list describes its tools' }],
      'service-doc': [{ href: `${config.siteUrl}/docs`, type: 'text/html' }],
      status: [{ href: `${config.baseUrl}/v1/health`, type: 'application/json' }],
    }],
  };
}

const TEMPLATE = readFileSync(new URL('./auth.md', import.meta.url), 'utf8');

const duration = (ms: number) => {
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes)) return minutes === 1 ? 'minute' : `${minutes} minutes`;
  return `${Math.round(ms / 1000)} seconds`;
};

/** The authentication guide, with this deployment's addresses and limits filled in. */
export function authGuide(config: AppConfig): string {
  const values: Record<string, string> = {
    service: config.serviceName,
    site: config.siteUrl,
    base: config.baseUrl,
    readMax: String(config.rateLimit.readMax),
    readWindow: duration(config.rateLimit.readWindowMs),
    leadMax: String(config.rateLimit.leadMax),
    leadWindow: duration(config.rateLimit.leadWindowMs),
  };
  return TEMPLATE.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k]);
}
