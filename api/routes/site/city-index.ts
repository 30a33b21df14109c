/**
 * {site}/api/price-index/cities/{city}: one city of the price index with its monthly history,
 * what an agent asks for a city (the MCP tool get_coworking_price_index) without the whole index.
 */
import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema, SlugSchema, UriSchema } from '../../../contract/common.ts';
import { PriceIndexCitySchema } from '../../../contract/market.ts';
import { HistoryMonthSchema, PriceHistoryCitySchema } from '../../../contract/research.ts';
import type { LoadedBuild } from '../../loading/load.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute } from '../../http/route.ts';
import { historyOf, priceIndexOf } from '../../site/research.ts';

const CityIndexSchema = z.strictObject({
  asOf: z.iso.datetime({ offset: true }),
  methodologyUrl: UriSchema,
  city: PriceIndexCitySchema,
  /** every month of the history, oldest first: the months of `history`'s points */
  months: z.array(HistoryMonthSchema),
  history: PriceHistoryCitySchema.optional(),
});

export const cityIndexRoute = defineRoute({
  operationId: 'getPriceIndexCity',
  method: 'GET',
  url: '/api/price-index/cities/:city',
  summary: 'One city of the price index with its monthly history (JSON, CC BY 4.0)',
  description:
    'The city\'s entry of GET /api/price-index (figures, quality measures, flags, by desk product) and its series of '
    + 'GET /api/price-index/history (the median level and the chained same-spaces index per month, with their samples). '
    + '404 NOT_FOUND for a city the index does not hold. locale (optional, default en) only chooses the language of meta.citation.',
  tags: ['site'],
  params: z.object({ city: SlugSchema.describe('City slug (from /v1/geo/bootstrap or the index\'s cities).') }),
  querystring: z.object({ locale: LocaleSchema.optional() }),
  response: envelope(CityIndexSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.priceIndex,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ params, query, build, cite }) => {
    const city = priceIndexOf(build).city(params.city);
    if (!city) throw new ApiError('NOT_FOUND', `The price index holds no city with slug "${params.city}".`);
    const history = await historyOf(build);
    const { asOf, methodologyUrl } = build.priceIndexHead;
    return {
      data: { asOf, methodologyUrl, city, months: history?.months ?? [], history: await history?.city(params.city) },
      meta: { citation: cite(query.locale ?? 'en', { kind: 'prices', city: city.city }, { asOf: build.priceIndexHead.asOf, release: build.manifest.releaseId }) },
    };
  },
});
