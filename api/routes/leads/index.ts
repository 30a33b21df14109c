/**
 * POST /v1/leads/contact and /v1/leads/inquiry. Order of checks: the read limit (429), the body
 * (400, unknown spaces included), the Idempotency-Key header (400), then the service: idempotency
 * replay or conflict (422), the enquiry limit (429: a replay is not counted), the challenge (403, 502).
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ContactBodySchema, IDEMPOTENCY_HEADER, IdempotencyKeySchema, InquiryBodySchema, LeadReceiptResponseSchema,
  type LeadEndpoint,
} from '../../../contract/leads.ts';
import type { LeadRoutes } from '../../loading/load.ts';
import { ApiError, validationFailed, type FieldError } from '../../http/problems.ts';
import { LeadRefusedError } from '../../leads/service.ts';
import { submitLead } from '../../leads/submit.ts';
import { defineRoute, type RouteContext, type RouteResult } from '../../http/route.ts';

const REPLAYED_HEADER = 'Idempotency-Replayed';

function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(value);
  if (!parsed.success) {
    throw validationFailed([{ path: 'Idempotency-Key', message: Array.isArray(value) ? 'Send the header once' : parsed.error.issues[0].message }],
      'The Idempotency-Key header is invalid.');
  }
  return parsed.data;
}

function checkSpaces(properties: string[], routes: LeadRoutes) {
  const unknown = properties
    .map((slug, i) => (routes.has(slug) ? undefined : { path: `properties.${i}`, message: 'Unknown space' }))
    .filter((e): e is FieldError => e !== undefined);
  if (unknown.length) throw validationFailed(unknown, 'The request body is invalid.');
}

async function submit(endpoint: LeadEndpoint, ctx: RouteContext<unknown, unknown, z.output<typeof ContactBodySchema | typeof InquiryBodySchema>>): Promise<RouteResult> {
  const { request, reply, body, build } = ctx;
  if ('properties' in body) checkSpaces(body.properties, build.leadRouting);
  const result = await submitLead(request, reply, build.leadRouting, { endpoint, body, idempotencyKey: idempotencyKey(request) })
    .catch((err: unknown) => {
      if (!(err instanceof LeadRefusedError)) throw err;
      throw new ApiError(err.code, err.message);
    });
  reply.code(result.statusCode);
  if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
  return { json: JSON.stringify(result.body) };
}

const common = {
  method: 'POST' as const,
  headers: { 'Idempotency-Key': IdempotencyKeySchema.optional() },
  responseHeaders: [REPLAYED_HEADER],
  response: LeadReceiptResponseSchema,
  statuses: [200, 400, 403, 422, 429, 500, 502],
  cache: 'no-store' as const,
  rateLimit: 'lead' as const,
};

export const contactLeadRoute = defineRoute({
  ...common,
  operationId: 'contact',
  url: '/v1/leads/contact',
  summary: 'General enquiry',
  body: ContactBodySchema,
  handler: (ctx) => submit('contact', ctx),
});

export const inquiryLeadRoute = defineRoute({
  ...common,
  operationId: 'inquiry',
  url: '/v1/leads/inquiry',
  summary: 'Enquiry for one space or a shortlist',
  body: InquiryBodySchema,
  handler: (ctx) => submit('inquiry', ctx),
});
