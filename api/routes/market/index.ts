import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema } from '../../../contract/common.ts';
import type { LocalizedMarketRates } from '../../build/market-rates.ts';
import { documented, FILTER_DECLARATIONS as F } from '../../../contract/filters.ts';
import { MarketRatesPayloadSchema, type MarketRatesPayload } from '../../../contract/market.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';
import { MIN_SAMPLE_SIZE } from '../../../contract/rules.ts';

const MarketRatesQuerySchema = z.object({
  locale: LocaleSchema,
  country: documented(F.country.params.country),
  city: documented(F.city.params.city),
  currency: documented(F.currency.params.currency),
});
type MarketRatesQuery = z.infer<typeof MarketRatesQuerySchema>;

/** The cities of the build that pass every filter, with the totals summed over them. */
function selectRates(file: LocalizedMarketRates, q: Omit<MarketRatesQuery, 'locale'>): MarketRatesPayload {
  const rows = file.cities.filter((c) => (q.country === undefined || c.countrySlug === q.country)
    && (q.city === undefined || c.rates.city.slug === q.city)
    && (q.currency === undefined || c.rates.currency === q.currency));
  let totalProperties = 0;
  let totalPricePoints = 0;
  for (const r of rows) {
    totalProperties += r.propertyCount;
    totalPricePoints += r.pricePointCount;
  }
  return { cities: rows.map((r) => r.rates), totalProperties, totalPricePoints, asOf: file.asOf };
}

export const marketRatesRoute = defineRoute({
  operationId: 'marketRates',
  method: 'GET',
  url: '/v1/market/rates',
  summary: 'Median, minimum and maximum monthly price per city, by option type',
  description:
    'Per city and desk product: median, minimum and maximum monthly price per desk in the city\'s currency, with the sample '
    + '(distinct spaces). Monthly normalisation: month ×1, year ÷12, week ×52/12; private offices and exclusive areas are '
    + `divided by their desks. A product with fewer than ${MIN_SAMPLE_SIZE} spaces keeps its figures and carries thinSample: true. dayPass `
    + `(per day) and meetingRoom (per hour) appear from ${MIN_SAMPLE_SIZE} spaces. Filters match slugs exactly (an unknown slug gives an empty `
    + 'list); totalProperties and totalPricePoints are summed over the selected cities. Methodology: pipeline/README.md, '
    + '"Methodology".',
  querystring: MarketRatesQuerySchema,
  response: envelope(MarketRatesPayloadSchema, MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.market,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query: q, build, cite }) => {
    const data = selectRates(build.marketRates[q.locale], q);
    const city = q.city !== undefined && data.cities.length === 1 ? data.cities[0].city : undefined;
    return { data, meta: { citation: cite(q.locale, { kind: 'prices', city }) } };
  },
});
