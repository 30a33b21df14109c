/**
 * /llms.txt (llmstxt.org): what the service is and where an agent finds its data, made from the
 * build it is served from (counts, data date, release) and this deployment's addresses.
 */
import { z } from 'zod';
import type { LoadedBuild } from '../../loading/load.ts';
import type { AppConfig } from '../../config.ts';
import { LOCALES } from '../../../contract/common.ts';
import { MIN_SAMPLE_SIZE } from '../../../contract/rules.ts';
import { LICENSE_URL } from '../../http/citation.ts';
import { CACHE } from '../../http/headers.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute } from '../../http/route.ts';
import { MCP_PATH } from '../../mcp/http.ts';
import { TOOLS } from '../../mcp/tools.ts';
import { AUTH_GUIDE_PATH } from '../../site/discovery.ts';
import { twinPath } from '../../site/markdown-twins.ts';
import { bulkFiles, describeRelease } from '../../site/releases.ts';
import { RELEASE_DATAPACKAGE, releasePath } from '../../../contract/research.ts';

const count = (n: number) => n.toLocaleString('en');

/** The current release's bulk download, when it has one. */
function bulkLine(build: LoadedBuild, site: string): string {
  const pkg = build.releases.get(build.manifest.releaseId);
  if (!pkg) return '';
  const files = bulkFiles(describeRelease(pkg, site));
  if (files.length === 0) return '';
  return `- Every listing and its current offers, one row each, with place, operator, coordinates, price and the comparable monthly price per desk: ${
    files.map((f) => `[${f.name}](${f.url})`).join(', ')}; columns described in the release's [Data Package](${site}${releasePath(pkg.version, RELEASE_DATAPACKAGE)})\n`;
}

export function llmsText(build: LoadedBuild, config: AppConfig): string {
  const { countries, cities } = build.geo.en;
  const operators = Object.keys(build.labels.operator).length;
  const { asOf, source } = build.priceIndexHead;
  const { siteUrl: site, baseUrl: base, serviceName: name } = config;
  return `# ${name}

> An open catalogue of coworking spaces: ${count(build.engine.n)} spaces in ${count(cities.length)} cities of ${count(countries.length)} countries, from ${count(operators)} operators, with the prices operators publish and an open monthly price index per city. Everything is public and read-only: no key, no account. The data is under CC BY 4.0: cite it as each response's \`meta.citation\` says.

Data as of ${asOf.slice(0, 10)}, release ${build.manifest.releaseId}.${source?.sampleData ? ` SAMPLE DATA, NOT REAL PRICES: ${source.description}` : ''}

Catalogue reads need \`locale\` (${LOCALES.join(', ')}). Prices are in each space's own currency, never converted; a figure from fewer than ${MIN_SAMPLE_SIZE} spaces is flagged, not published as a plain figure.

## REST API

- [OpenAPI description](${site}/openapi.json): every operation, parameter and response schema
- [API reference](${site}/docs): the same, rendered
- [Authentication and limits](${site}${AUTH_GUIDE_PATH}): no keys; the read and enquiry rate limits; enquiries only on a person's explicit request
- [API catalog](${site}/.well-known/api-catalog): RFC 9727 linkset of the REST API and the MCP server
- [Search listings](${base}/v1/properties?locale=en): paged listing cards, filtered by place, operator, option type, amenities, capacity and price

## MCP server

- [MCP over Streamable HTTP](${base}${MCP_PATH}): read-only, stateless; tools ${TOOLS.map((t) => `\`${t.name}\``).join(', ')}

## Downloads (CC BY 4.0)

- [Price index](${base}/api/price-index): JSON, per city and desk product, with quality measures
- [Price index history](${base}/api/price-index/history): JSON, monthly, with the chained same-spaces index
- [Price report](${base}/api/price-report): CSV; [its history](${base}/api/price-report/history); [Data Package](${base}/api/price-report.datapackage.json)
- [Releases](${base}/api/releases): every published dataset, immutable and citable by its release id
${bulkLine(build, site)}- [Methodology](${site}/en/price-index#methodology): how every figure is made

## Pages

${LOCALES.map((l) => `- [${name} (${l})](${site}/${l})`).join('\n')}

Every page has a Markdown twin with the same facts, figures and citation at its address plus \`.md\`, e.g. [the price index](${site}${twinPath('/en/price-index')}); each page names its twin in a \`Link: <…>; rel="alternate"; type="text/markdown"\` header.

## Licence

Data: [CC BY 4.0](${LICENSE_URL}).
`;
}

export const llmsRoute = defineRoute({
  operationId: 'getLlmsText',
  method: 'GET',
  url: '/llms.txt',
  summary: 'What this service offers agents, in Markdown (llmstxt.org)',
  description: 'The catalogue in numbers, its data date and release, and the links an agent starts from: the REST API and its description, the MCP server, the downloads and the pages.',
  tags: ['discovery'],
  querystring: z.object({}),
  response: z.string(),
  statuses: [200, 429, 500, 502],
  cache: CACHE.priceIndex,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ build, config }) => ({ raw: llmsText(build, config), contentType: 'text/markdown; charset=utf-8' }),
});
