/**
 * The words of the published OpenAPI document that are not in a route declaration: what an
 * integrator needs to know and would otherwise have to guess. Route summaries and descriptions
 * stay with their routes; this file adds the cross-cutting parts.
 */
import type { AppConfig } from '../config.ts';
import { LOCALES } from '../../contract/common.ts';
import { MIN_SAMPLE_SIZE, MARKET_BANDS } from '../../contract/rules.ts';
import { additionsText } from './additions.ts';

export const API_TITLE = 'Desk Atlas API';

/** LOCALES as prose: `en`, `de` or `es`. */
const LOCALE_CHOICES = `${LOCALES.slice(0, -1).map((l) => `\`${l}\``).join(', ')} or \`${LOCALES.at(-1)}\``;

export function apiDescription(config: Pick<AppConfig, 'serviceName' | 'siteUrl' | 'rateLimit'>): string {
  const reads = config.rateLimit.readMax;
  const leads = config.rateLimit.leadMax;
  const leadMinutes = Math.round(config.rateLimit.leadWindowMs / 60_000);
  return [
    `Read-only access to the ${config.serviceName} catalogue of coworking spaces and private offices (listing cards, space details, map markers, facets, geography, market rates, rankings, hubs, autocomplete), the open per-city price index, and the two write operations that send an enquiry to our team.`,
    '',
    '## Using the data',
    '',
    'Catalogue and market data are published under CC BY 4.0. Every catalogue and market response carries `meta.citation`: reproduce its `text` (or the fields it is made of) wherever you show or republish the data.',
    '',
    'Prices are the figures operators publish, in the space\'s own currency; they are not negotiated quotes, not booking prices and never converted. Availability is not real time.',
    '',
    '## Requests',
    '',
    '- No API key, token or `Authorization` header: every endpoint is public and the document declares no security requirement.',
    `- Catalogue reads require \`locale\` (${LOCALE_CHOICES}); there is no implicit default. Repeating a parameter (\`locale=en&locale=de\`) is a 400.`,
    '- Filter values (country, city, zone, operator slugs) come from `GET /v1/geo/bootstrap` and `GET /v1/facets`. An unknown slug in a filter gives an empty page, not an error.',
    '- The API is meant to be called server to server; cross-origin browser requests are accepted only from the service\'s own sites.',
    '',
    '## Paging',
    '',
    '`meta.pagination` gives `page`, `pageSize`, `total` and `pageCount`; a page past the end is empty. The default order of the property list is `random`, a seeded permutation: the first response returns `meta.seed`; send it back as `seed` on every following page, otherwise pages repeat some listings and skip others. Every other order is total and deterministic (ties break on the slug).',
    '',
    '## Sample sizes',
    '',
    `Every aggregate (medians, ranges, market position, price index) states \`sampleSize\`: the number of distinct spaces behind the figure. A space with several offers of one product counts once, at its cheapest monthly price per desk. Only current, monthly (or yearly/weekly, normalised to a month) desk prices count; price-on-request offers, day and hour prices and offices without a desk count are left out. Below ${MIN_SAMPLE_SIZE} spaces a figure is not statistically meaningful: the price index then publishes no figures (\`published: false\`, \`flag: "insufficient_sample"\`), market rates flag it with \`thinSample: true\`, and market positions are omitted. Show the sample size next to any figure you display.`,
    '',
    '## Caching',
    '',
    'Each operation states its cache hint in `x-cache` (`maxAge` and `staleWhileRevalidate` in seconds, or `no-store`); the same values are sent in `Cache-Control`. GET bodies carry a strong `ETag`; send it in `If-None-Match` to receive `304 Not Modified`.',
    '',
    '## Limits',
    '',
    `Reads: ${reads} requests per minute per client IP (\`/v1/health\` is not counted). Enquiries: in addition, ${leads} per ${leadMinutes} minutes per IP; a replay of a stored enquiry (the same \`Idempotency-Key\` and body) is answered without counting. Every response, errors included, carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window resets); a 429, 502 or 503 adds \`Retry-After\`.`,
    '',
    '## Errors',
    '',
    `Every error is \`application/problem+json\` (RFC 9457) with a stable \`code\`; \`status\` always equals the HTTP status, and a 400 lists each offending parameter or body field in \`errors[]\` (query parameter name, or body path in dots such as \`attribution.viewedProperties.3\`). A missing required parameter or member says so (\`locale is required: one of ${LOCALES.join(', ')}\`); a name where a slug goes (\`city=Berlin\`, \`city=München\`) is a 400 whose message names the slug (\`berlin\`, \`munich\`) or, for a name the catalogue does not know, its slug form and where the slugs are listed, while a well-formed slug nobody uses gives an empty page. Official clients that send \`X-Client-Build\` below the supported minimum receive 400 \`CLIENT_TOO_OLD\` (not on \`/v1/config\` or \`/v1/health\`).`,
    '',
    '## Enquiries',
    '',
    'The two POST operations are not reads: each call creates a real enquiry that people at our team act on, and an inquiry is also forwarded to the space operator. Call them only when an end user has explicitly asked to enquire and has supplied their own name and contact details. Never call them to test the API, to check availability or prices, with invented or scraped contact details, or on someone\'s behalf without their request. In production each call needs a challenge token that the person solves in a browser on our enquiry form; it cannot be obtained programmatically and must not be invented or replayed.',
    '',
    '## Versioning',
    '',
    'The major version is in the path (`/v1`). Within it the contract only grows: fields and endpoints are added, nothing published is removed, renamed or retyped, so ignore fields you do not know. Every success response states `meta.contractVersion`.',
    '',
    '## Additions to the reference',
    '',
    'Official apps are generated from the published reference description of this API; its operations keep their `operationId`s, tags and shapes here. What this service adds to them, beyond 304 answers to `If-None-Match` (every other operation of this document is ours):',
    '',
    additionsText(),
  ].join('\n');
}

/**
 * Tag descriptions, in the order the reference page (/docs) and the document list them: the
 * catalogue, market and search first, the discovery documents last. The /v1 tags are the
 * reference's (the first path segment); the others are ours.
 */
export const TAGS: Record<string, string> = {
  properties: 'Listing cards, space details and map markers.',
  facets: 'Filter values with contextual counts, driving a filter sheet.',
  geo: 'The geography index: countries, cities and zones with their slugs.',
  market: 'Market rates per city: medians and ranges per product, with sample sizes.',
  rankings: 'Best-of rankings within one city.',
  places: 'Country, city and zone hubs: editorial copy, FAQs and computed statistics.',
  operators: 'Operator hubs: profile, spaces and computed statistics.',
  search: 'Autocomplete across places, operators and spaces.',
  site: 'Open data on the site origin under CC BY 4.0: the price index (JSON) and the price report (CSV with a Data Package); placeholder media.',
  leads: 'Enquiries. Each call creates a real enquiry: only on an end user\'s explicit request, with their own details.',
  config: 'Remote configuration for official clients.',
  health: 'Liveness probe.',
  docs: 'This description and its reference page.',
  discovery: 'Discovery documents on the site origin: they declare that nothing requires authorization.',
};

/** Integrator notes appended to a route's own description, by operationId. */
export const OPERATION_NOTES: Record<string, string> = {
  listProperties:
    'Paging a random list: call once without `seed`, read `meta.seed`, then request page 2, 3, … with `seed` set to that value (and the same filters). Prices filter on the raw amount in each listing\'s own currency; add `currency` to compare like with like.',
  marketRates:
    `\`sampleSize\` counts distinct spaces; treat figures flagged \`thinSample\` (fewer than ${MIN_SAMPLE_SIZE} spaces) as indicative only.`,
};

/** The two enquiry operations, in our own words (their route declarations carry only their summaries). */
export const LEAD_NOTES: Record<string, string> = {
  contact: [
    'Sends a general enquiry, not tied to a space, to our team. It is not a read and not a test endpoint: every call reaches people.',
    '',
    'Call it only when an end user has explicitly asked to contact us and has typed in their own name and email. Never call it to probe the API, to check availability or prices, in automated retries of a successful call, or with invented details.',
    '',
    'Send an `Idempotency-Key` (any string up to 200 characters you choose per enquiry) so a retry after a timeout cannot create a second enquiry: the same key with the same body replays the first answer with `Idempotency-Replayed: true`; the same key with a different body is a 422. 5xx answers are not stored and may be retried under the same key.',
    '',
    'Order of checks: body validation (400), idempotency replay or conflict (422), the enquiry rate limit (429; a replay is not counted), challenge token (403 `CHALLENGE_FAILED`, or 502 when the verifier is unreachable). `website` is a honeypot and must be absent or empty.',
    '',
    'The body is open: a member this version does not declare (at the top level or inside `attribution`) is accepted and dropped, and only its name is logged; every declared member keeps its limits. It plays no part in the idempotency comparison. A member named `__proto__` is refused as malformed JSON (prototype poisoning).',
  ].join('\n'),
  inquiry: [
    'Sends an enquiry about one space or a shortlist of up to 20 to our team, which forwards it to each space\'s operator. We pass the enquiry on; we do not broker a contract or confirm availability.',
    '',
    'Call it only when an end user has explicitly asked to enquire about these spaces and has supplied their own name and email. Never call it to check availability or prices, to test the API, or with details the person did not give you.',
    '',
    '`properties` are space slugs from the catalogue; an unknown slug is a 400 naming `properties.N`. Idempotency and the order of checks are as for the general enquiry.',
  ].join('\n'),
};

/** Descriptions for properties by name, added wherever such a property has none of its own. */
export const PROPERTY_NOTES: Record<string, string> = {
  sampleSize: 'Number of distinct spaces behind the figure (each counted once, at its cheapest monthly price per desk). Under 5 the figure is flagged or withheld; show it next to the figure.',
  seed: 'Seed of the random order. Send it back as the `seed` query parameter on every following page of the same list.',
  pagination: 'Position of this page in the whole result.',
  citation: 'Attribution for the data (CC BY 4.0): reproduce `text` wherever you reuse it.',
  contractVersion: 'Version of the API contract this response follows.',
  truncated: 'True when more items matched than one page holds.',
  thinSample: `Present (true) when the figure rests on fewer than ${MIN_SAMPLE_SIZE} spaces: indicative only.`,
  published: `Whether the figures are published: only with a sample of ${MIN_SAMPLE_SIZE} or more spaces.`,
  flag: `\`insufficient_sample\` when the sample is under ${MIN_SAMPLE_SIZE} spaces and no figures are given.`,
  asOf: 'Time of the build the figures were computed in.',
  fromPrice: 'Cheapest published price of the listing (of the requested pricingOptionType, if given), in its own currency.',
  comparablePrice: 'The price the listing takes its place by in `sortBy=price-asc` and `price-desc` (an addition to the reference): of its current priced offers (of `pricingOptionType`, if given), those on the first basis in the order `sortBy` describes, the cheapest; in its own currency, rounded to cents. The orders compare the basis, then the amount through a dated reference FX table. It can differ from `fromPrice`, the cheapest figure of any period as published: 27,000 a year is 2,250 a month. null when the listing has no priced offer (of that type).',
  marketPosition: `The listing's monthly price per desk against the city median of the same product (below < ${MARKET_BANDS.below} × median ≤ around ≤ ${MARKET_BANDS.above} × median < above). Omitted when the city sample is under 5.`,
  updatedAt: 'Last update of the underlying record: a price-freshness signal.',
  distanceMeters: 'Distance from lat/lng, present whenever they are given.',
  priceOnRequest: 'True when the operator publishes no price for the option; `price` is then absent.',
  score: 'Relative to this city only; never compare scores across cities.',
  received: 'Always true: the enquiry is stored and will be delivered.',
  reference: 'Reference of the enquiry; quote it when contacting us about it.',
};

/** Descriptions for parameters by name, when the schema has none (filters bring their own: contract/filters.ts). */
export const PARAMETER_NOTES: Record<string, string> = {
  locale: 'Language of labels, copy and the citation text. Required; no default.',
  page: 'Page number, from 1.',
  pageSize: 'Items per page.',
  seed: 'Seed of the random order (sortBy=random). Omit on the first page and reuse the `meta.seed` of the response on every following page.',
  sortBy: 'Order of the list; `random` (default) is seeded, see `seed`. `distance` needs lat and lng. `price-asc` and `price-desc` (an addition to the reference) compare like with like: month, week and year prices as their monthly equivalent, first; then listings priced only per day, per hour or per use, each among its own period; across currencies through a dated reference FX table. With pricingOptionType, that type\'s prices, on its own basis first (per day for day passes, per hour for meeting rooms).',
  q: 'What the user typed so far.',
  limit: 'Number of entries.',
  slug: 'Slug of the resource.',
  kind: 'Kind of place.',
  asset: 'File name of the asset.',
  releaseId: 'Id of the release, as /api/releases lists it (buildId): its data date and a digest of its files (e.g. 2026-10-29-3f9a1c2b7d4e).',
  file: 'File name within the release: a research file, datapackage.json, CITATION.cff or citation.bib.',
};
