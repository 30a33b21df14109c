import { z } from 'zod';
import { ConfigPayloadSchema, HealthPayloadSchema } from '../../../contract/catalog.ts';
import { envelope, MetaSchema } from '../../../contract/common.ts';
import { ReadinessPayloadSchema } from '../../../contract/readiness.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute } from '../../http/route.ts';

export const healthRoute = defineRoute({
  operationId: 'health',
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

export const readinessRoute = defineRoute({
  operationId: 'getReadiness',
  method: 'GET',
  url: '/readyz',
  summary: 'Readiness probe (our addition, for orchestrators and load balancers)',
  description: 'Ready (200) while this replica takes traffic: it listens only once a build is loaded, and answers 503 from SIGTERM on while it finishes the requests in flight (`SHUTDOWN_DRAIN_MS`). `rateLimits` says where rate limits are counted (`fallback`: Redis is unreachable and each replica counts its own). Not counted by the rate limit.',
  querystring: z.object({}),
  response: envelope(ReadinessPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 503],
  cache: 'no-store',
  rateLimit: 'exempt',
  clientBuildCheck: false,
  handler: ({ request, build }) => {
    const { lifecycle, rateCounters } = request.server;
    if (lifecycle.draining) throw new ApiError('UPSTREAM_UNAVAILABLE', 'Not ready: this replica is draining before it stops.', undefined, 503);
    return { data: { status: 'ready', buildId: build.id, rateLimits: rateCounters.mode } };
  },
});

export const configRoute = defineRoute({
  operationId: 'config',
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
