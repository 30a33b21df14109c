import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { LeadRouting } from '../../contract/build.ts';
import {
  ContactBodySchema, IDEMPOTENCY_HEADER, IdempotencyKeySchema, InquiryBodySchema, LeadReceiptResponseSchema,
  type ContactBody, type InquiryBody, type LeadEndpoint,
} from '../../contract/leads.ts';
import { validationFailed, type FieldError } from '../http/problems.ts';
import type { LeadsService } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the API core adds the lead bucket (10 per 10 minutes per IP) to such routes */
    leadRateLimit?: boolean;
  }
}

export interface LeadsPluginOptions {
  service: LeadsService;
  /** lead-routing.json of the build being served now */
  routing: () => LeadRouting;
}

export const LEAD_BODY_LIMIT = 64 * 1024;

/** The two operations as data, for the generated OpenAPI document (the plugin registers them). */
export const LEAD_OPERATIONS = [
  {
    operationId: 'createContactLead', method: 'POST', url: '/v1/leads/contact',
    summary: 'General enquiry', body: ContactBodySchema,
  },
  {
    operationId: 'createInquiryLead', method: 'POST', url: '/v1/leads/inquiry',
    summary: 'Enquiry for one space or a shortlist', body: InquiryBodySchema,
  },
].map((op) => ({
  ...op,
  method: 'POST' as const,
  headers: { 'Idempotency-Key': IdempotencyKeySchema.optional() },
  response: LeadReceiptResponseSchema,
  statuses: [200, 400, 403, 422, 429, 500, 502],
  replayHeader: 'Idempotency-Replayed',
}));

/** zod issues as `errors[]`, paths in dots (`attribution.viewedProperties.3`), the body root as `(body)`. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  const byPath = new Map<string, FieldError>();
  const add = (path: string, message: string) => { if (!byPath.has(path)) byPath.set(path, { path, message }); };
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, 'Unknown field');
    } else {
      add(base || '(body)', issue.message);
    }
  }
  return [...byPath.values()];
}

function parseBody(endpoint: LeadEndpoint, raw: unknown, routing: LeadRouting): ContactBody | InquiryBody {
  const parsed = endpoint === 'contact' ? ContactBodySchema.safeParse(raw) : InquiryBodySchema.safeParse(raw);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error), 'The request body is invalid.');
  if (endpoint === 'inquiry') {
    const unknown = (parsed.data as InquiryBody).properties
      .map((slug, i) => (Object.hasOwn(routing, slug) ? undefined : { path: `properties.${i}`, message: 'Unknown space' }))
      .filter((e): e is FieldError => e !== undefined);
    if (unknown.length) throw validationFailed(unknown, 'The request body is invalid.');
  }
  return parsed.data;
}

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

/** POST /v1/leads/contact and /v1/leads/inquiry. Register after the app's cross-cutting hooks. */
export const leadsPlugin: FastifyPluginAsync<LeadsPluginOptions> = async (app, opts) => {
  const { service, routing } = opts;
  for (const endpoint of ['contact', 'inquiry'] as const) {
    app.post(`/v1/leads/${endpoint}`, {
      config: { leadRateLimit: true },
      bodyLimit: LEAD_BODY_LIMIT,
    }, async (request, reply) => {
      const currentRouting = routing();
      const body = parseBody(endpoint, request.body, currentRouting);
      const key = idempotencyKey(request);
      const result = await service.submit({
        endpoint, body, idempotencyKey: key, remoteIp: request.ip, routing: currentRouting,
      });
      // Reference, endpoint and counts only: never name, email, phone or message.
      request.log.info({
        reference: result.body.data.reference, endpoint, replayed: result.replayed,
        properties: endpoint === 'inquiry' ? (body as InquiryBody).properties.length : undefined,
      }, result.replayed ? 'lead replayed' : 'lead received');
      reply.header('cache-control', 'no-store');
      if (result.replayed) reply.header('idempotency-replayed', 'true');
      return reply.code(result.statusCode).send(result.body);
    });
  }
};
