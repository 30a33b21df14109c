import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema, type Locale } from '../../../contract/common.ts';
import type { LoadedBuild } from '../../loading/load.ts';
import { documented, FILTER_DECLARATIONS as F } from '../../../contract/filters.ts';
import { MarketRatesPayloadSchema, type MarketRatesPayload } from '../../../contract/market.ts';
import { envelopeJson } from '../../http/envelope.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';
import { MIN_SAMPLE_SIZE } from '../../../contract/rules.ts';
import { cityNamer } from '../../site/city-names.ts';
import { perBuild } from '../../site/per-build.ts';

const MarketRatesQuerySchema = z.object({
  locale: LocaleSchema,
  country: documented(F.country.params.country),
  city: documented(F.city.params.city),
  currency: documented(F.currency.params.currency),
});
type MarketRatesQuery = z.infer<typeof MarketRatesQuerySchema>;

/**
 * Each city's rates in a locale as JSON, in the file's order: made the first time the locale is
 * asked for and kept with the build, so a request copies the JSON of the cities it selects (every
 * city serialized again took ~30 ms at 100,000 listings).
 */
const citiesJson = (build: LoadedBuild, locale: Locale): string[] =>
  perBuild(build, `market-rates.${locale}`, () => build.marketRates[locale].cities.map((c) => JSON.stringify(c.rates)));

/** The payload's JSON for the cities of the build that pass every filter, with the totals summed over them; and the city when one was asked for and found. */
function selectRates(build: LoadedBuild, q: MarketRatesQuery): { json: string; city?: MarketRatesPayload['cities'][number]['city'] } {
  const file = build.marketRates[q.locale];
  const json = citiesJson(build, q.locale);
  const selected: number[] = [];
  let totalProperties = 0;
  let totalPricePoints = 0;
  file.cities.forEach((c, k) => {
    if ((q.country !== undefined && c.countrySlug !== q.country) || (q.city !== undefined && c.rates.city.slug !== q.city)
      || (q.currency !== undefined && c.rates.currency !== q.currency)) return;
    selected.push(k);
    totalProperties += c.propertyCount;
    totalPricePoints += c.pricePointCount;
  });
  const payload: MarketRatesPayload = { cities: [], totalProperties, totalPricePoints, asOf: file.asOf };
  const [before, after] = JSON.stringify(payload).split('"cities":[]');
  return {
    json: `${before}"cities":[${selected.map((k) => json[k]).join(',')}]${after}`,
    city: q.city !== undefined && selected.length === 1 ? file.cities[selected[0]].rates.city : undefined,
  };
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
  handler: async ({ query: q, build, cite }) => {
    const { json, city } = selectRates(build, q);
    // cited by its page's title, which names the country of a city whose name another city shares
    const named = city && { slug: city.slug, name: (await cityNamer(build, q.locale))(city) };
    return { json: envelopeJson(json, { citation: cite(q.locale, { kind: 'prices', city: named }) }) };
  },
});
