import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema } from '../../../contract/common.ts';
import { SlugParamsSchema } from '../../../contract/queries.ts';
import { OperatorHubSchema } from '../../../contract/market.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';
import { MIN_SAMPLE_SIZE } from '../../../contract/rules.ts';

export const operatorHubRoute = defineRoute({
  operationId: 'operatorProfile',
  method: 'GET',
  url: '/v1/operators/:slug',
  summary: 'Operator hub',
  description:
    'Editorial copy, FAQs and statistics of one operator: listings, cities, and its price position (the median of its spaces\' '
    + `monthly per-desk price ÷ city median, banded below/around/above, from ${MIN_SAMPLE_SIZE} spaces). 404 NOT_FOUND for an unknown slug.`,
  querystring: z.object({ locale: LocaleSchema }),
  params: SlugParamsSchema,
  response: envelope(OperatorHubSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.market,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ query, params, build, cite }) => {
    const hub = await build.operators[query.locale].get(params.slug);
    if (!hub) throw new ApiError('NOT_FOUND', `No operator with slug "${params.slug}".`);
    return { data: hub, meta: { citation: cite(query.locale, { kind: 'operator', slug: hub.slug, name: hub.name }) } };
  },
});
