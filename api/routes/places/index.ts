import { z } from 'zod';
import type { LoadedBuild } from '../../loading/load.ts';
import { envelope, LocaleSchema, MetaSchema, SlugSchema, type Locale, type SlugName } from '../../../contract/common.ts';
import { PlaceHubSchema, PlaceKindSchema, type PlaceHub } from '../../../contract/market.ts';
import type { CitationPage } from '../../http/citation.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';
import { MIN_SAMPLE_SIZE } from '../../../contract/rules.ts';

const PlaceParamsSchema = z.object({ kind: PlaceKindSchema, slug: SlugSchema });

const slugName = (h: PlaceHub): SlugName => ({ slug: h.slug, name: h.name });

/** The hub's public page: /{locale}/coworking/{country}[/{city}[/{zone}]], walking up the parents. */
async function placePage(build: LoadedBuild, locale: Locale, hub: PlaceHub): Promise<CitationPage> {
  if (hub.kind === 'country') return { kind: 'coworking', country: slugName(hub) };
  const city = hub.kind === 'city' ? hub : hub.parent && await build.places[locale].get(`city/${hub.parent.slug}`);
  const country = city?.parent;
  if (!city || !country) return { kind: 'home' };
  return { kind: 'coworking', country, city: slugName(city), zone: hub.kind === 'zone' ? slugName(hub) : undefined };
}

export const placeHubRoute = defineRoute({
  operationId: 'placeProfile',
  method: 'GET',
  url: '/v1/places/:kind/:slug',
  summary: 'Country, city or zone hub',
  description:
    'Editorial copy, FAQs and statistics of a country, city or zone: listings, operators, children, the median monthly price '
    + `per desk with its sample and the price range (both left out under ${MIN_SAMPLE_SIZE} spaces). FAQs and the intro are computed from the `
    + 'statistics in the request locale where no editorial text exists. kind outside country, city, zone → 400; an unknown '
    + 'slug of that kind → 404.',
  querystring: z.object({ locale: LocaleSchema }),
  params: PlaceParamsSchema,
  response: envelope(PlaceHubSchema, MetaSchema),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.market,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ query, params, build, cite }) => {
    const hub = await build.places[query.locale].get(`${params.kind}/${params.slug}`);
    if (!hub) throw new ApiError('NOT_FOUND', `No ${params.kind} with slug "${params.slug}".`);
    return { data: hub, meta: { citation: cite(query.locale, await placePage(build, query.locale, hub)) } };
  },
});
