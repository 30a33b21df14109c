/**
 * The page behind each problem `type` URI ({site}/problems/<code>): what the code means and what
 * to do about it, in Markdown, one entry per code of the contract (the compiler lists a missing one).
 */
import type { AppConfig } from '../config.ts';
import type { ErrorCode } from '../../contract/problem.ts';

/** The heading of every problem page's list of codes. */
export const PROBLEM_CODES_HEADING = 'Every problem type';

/** What every problem page says of the format, under the code's own text. */
export const PROBLEM_FORMAT = 'Every error of the API is `application/problem+json` (RFC 9457) with `type`, `title`, `status`, `code` and `traceId`, and `detail` and `errors` where they help.';

const minutes = (ms: number) => `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;

export const PROBLEM_DOCS: Record<ErrorCode, (config: AppConfig) => string> = {
  VALIDATION_FAILED: () => `
A query parameter, a path parameter or the request body is not valid. \`errors\` lists every
offending field once: \`path\` is the query parameter's name (\`locale\`), or the path in the body
with dots (\`attribution.viewedProperties.3\`); \`message\` says what is wrong. Malformed JSON, a
content type other than \`application/json\` and a body over 64 KiB are reported the same way.

**What to do:** correct the fields named in \`errors\` and send the request again. Every parameter,
its type and its limits are in the [OpenAPI description](/openapi.json) and the [API reference](/docs).
`,
  NOT_FOUND: () => `
Nothing answers at this route, or no country, city, zone, space or operator has this slug. Slugs
match exactly (lower case, hyphens): \`berlin\`, not \`Berlin\`.

**What to do:** look the slug up in \`/v1/geo/bootstrap\` (places) or \`/v1/search/suggest\`
(anything by name). A slug can disappear when a newer build of the data no longer lists it.
`,
  RATE_LIMITED: (c) => `
This client (by IP address) sent more requests than the limit allows: ${c.rateLimit.readMax} reads a
${minutes(c.rateLimit.readWindowMs).replace(/^1 /, '')} and, on top, ${c.rateLimit.leadMax} enquiries every
${minutes(c.rateLimit.leadWindowMs)}. Every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`
and \`RateLimit-Reset\` (seconds); this one also carries \`Retry-After\`.

**What to do:** wait the \`Retry-After\` seconds before the next request, and pace requests by
\`RateLimit-Remaining\`. For bulk use, download the data instead: the price index as
[JSON](/api/price-index) or [CSV](/api/price-report).
`,
  CHALLENGE_FAILED: () => `
An enquiry (\`POST /v1/leads/…\`) carried no challenge token, or one the verifier rejected. Enquiries
reach real people, so each needs a challenge (Cloudflare Turnstile) solved by a person in a
browser. A token is valid once.

**What to do:** show the challenge to the person again and send the enquiry with the new token.
Scripts cannot send enquiries; see the [authentication guide](/auth.md).
`,
  UPSTREAM_UNAVAILABLE: () => `
The challenge verifier could not be reached while an enquiry was checked. Nothing was stored.

**What to do:** send the same request again a little later, with the same \`Idempotency-Key\`:
the enquiry is recorded once.
`,
  INTERNAL_ERROR: () => `
The server failed on a request it should have answered. The response never contains details of
the failure; \`traceId\` identifies the request in the server's logs.

**What to do:** try again later; when it persists, report it with the \`traceId\`.
`,
  CLIENT_TOO_OLD: () => `
An official app sent \`X-Client-Build\` with a build number below \`minSupportedBuild\` of
\`/v1/config\`: this version of the app is no longer supported. \`/v1/config\` and \`/v1/health\`
still answer, so the app can show its upgrade message.

**What to do:** update the app.
`,
  IDEMPOTENCY_KEY_CONFLICT: () => `
An enquiry reused an \`Idempotency-Key\` already used, within the last 24 hours on the same
endpoint, for a different body. Sending the same body with the same key again returns the first
answer (\`Idempotency-Replayed: true\`) without creating a second enquiry.

**What to do:** use a new key for a new enquiry; reuse a key only to retry exactly the same request.
`,
};
