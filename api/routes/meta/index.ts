import { z } from 'zod';
import { ConfigPayloadSchema, HealthPayloadSchema } from '../../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../../contract/common.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';

export const healthRoute = defineRoute({
  operationId: 'getHealth',
  method: 'GET',
  url: '/v1/health',
  summary: 'Liveness probe',
  description: 'Answers while the process serves a build; `buildId` names that data build. Not counted by the rate limit.',
  querystring: z.object({}),
  response: envelope(HealthPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: 'no-store',
  rateLimit: 'exempt',
  clientBuildCheck: false,
  handler: ({ config, build }) => ({ data: { status: 'ok', sha: config.buildSha, buildId: build.id } }),
});

export const configRoute = defineRoute({
  operationId: 'getConfig',
  method: 'GET',
  url: '/v1/config',
  summary: 'Remote configuration for official clients',
  description: 'Minimum supported client build, feature flags and an optional message. Catalogue reads do not depend on it.',
  querystring: z.object({}),
  response: envelope(ConfigPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.config,
  rateLimit: 'read',
  clientBuildCheck: false,
  handler: ({ build }) => ({ data: build.config }),
});
