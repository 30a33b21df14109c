import { z } from 'zod';
import { envelope, LocaleSchema, PaginatedMetaSchema } from '../../../contract/common.ts';
import { queryIntDefault } from '../../../contract/query-params.ts';
import { DEFAULT_SUGGEST_LIMIT, MAX_SUGGEST_LIMIT, SuggestionSchema } from '../../../contract/market.ts';
import { closeEnvelope, openEnvelope, pagination } from '../../http/envelope.ts';
import { CACHE } from '../../http/headers.ts';
import { defineRoute } from '../../http/route.ts';
import { requestKey } from '../../http/response-cache.ts';

/** Room for a body of the most suggestions a request may ask for (a suggestion of the 100k bench: ~150 B) and meta. */
const SUGGEST_BYTES = MAX_SUGGEST_LIMIT * 256 + 1024;

const SuggestQuerySchema = z.object({
  locale: LocaleSchema,
  q: z.string().min(1).max(100),
  limit: queryIntDefault(DEFAULT_SUGGEST_LIMIT, 1, MAX_SUGGEST_LIMIT),
});

export const suggestRoute = defineRoute({
  operationId: 'searchSuggest',
  method: 'GET',
  url: '/v1/search/suggest',
  summary: 'Autocomplete across countries, cities, zones, operators and spaces',
  description:
    'Matches the start of any word of any name, in every locale, ignoring case and accents (ü = u = ue), so munich, münchen, '
    + 'muenchen and munc all find Munich; from 4 characters one typo is tolerated. Exact prefix matches rank above typo '
    + `matches, then larger places first. limit 1..${MAX_SUGGEST_LIMIT}, default ${DEFAULT_SUGGEST_LIMIT}; meta.pagination is always page 1 and `
    + 'its total counts every match.',
  querystring: SuggestQuerySchema,
  response: envelope(z.array(SuggestionSchema), PaginatedMetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.listing,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: ({ query: q, build, cite }) => {
    const { total, ranks } = build.suggestIndex.search(q.q, q.limit);
    const w = openEnvelope(SUGGEST_BYTES);
    build.suggestIndex.writeItems(w, ranks, q.locale);
    return { json: closeEnvelope(w, { pagination: pagination(1, q.limit, total), citation: cite(q.locale, { kind: 'home' }) }) };
  },
});
