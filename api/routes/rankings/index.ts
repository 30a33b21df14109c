import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema, SlugSchema } from '../../../contract/common.ts';
import { FILTER_DECLARATIONS } from '../../../contract/filters.ts';
import { queryIntDefault } from '../../../contract/query-params.ts';
import { DEFAULT_RANKING_LIMIT, MAX_RANKING_LIMIT, RankingsPayloadSchema } from '../../../contract/market.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';

const RankingsQuerySchema = z.object({
  locale: LocaleSchema,
  city: SlugSchema.describe(FILTER_DECLARATIONS.city.params.city.note),
  limit: queryIntDefault(DEFAULT_RANKING_LIMIT, 1, MAX_RANKING_LIMIT),
});

export const rankingsRoute = defineRoute({
  operationId: 'rankings',
  method: 'GET',
  url: '/v1/rankings',
  summary: 'Best-of ranking within one city',
  description:
    'The spaces of one city ordered by score (ties by slug). score = 100 × (0.5 × R + 0.3 × V + 0.2 × A): R a Bayesian-averaged '
    + 'rating (the city\'s mean rating as a prior worth 10 reviews), V value against the city\'s median monthly price per desk, '
    + 'A breadth of amenities against the city\'s best equipped space (pipeline/methodology.md, "Ranking score"). The score is '
    + 'relative to this city only and never comparable across cities. rating is absent on every entry when hasReviewData is '
    + `false. limit 1..${MAX_RANKING_LIMIT}, default ${DEFAULT_RANKING_LIMIT}. 404 NOT_FOUND for an unknown city.`,
  querystring: RankingsQuerySchema,
  response: envelope(RankingsPayloadSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.market,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ query: q, build, cite }) => {
    const ranking = await build.rankings[q.locale].get(q.city);
    if (!ranking) throw new ApiError('NOT_FOUND', `No city with slug "${q.city}".`);
    return {
      data: { ...ranking, ranked: ranking.ranked.slice(0, q.limit) },
      meta: { citation: cite(q.locale, { kind: 'best', city: ranking.city }) },
    };
  },
});
