/**
 * The one way into the lead service from a request, shared by the API's /v1/leads/* and the
 * site's enquiry forms: the routes of the spaces named, read from the request's build, the
 * client's address for the challenge, the enquiry limit counted only for an enquiry the service
 * creates (a replay is not), and a log line without personal data.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LeadRouting } from '../../contract/build.ts';
import type { ContactBody, InquiryBody, LeadEndpoint } from '../../contract/leads.ts';
import type { LeadRoutes } from '../loading/load.ts';
import type { SubmitResult } from './service.ts';

export interface LeadSubmission {
  endpoint: LeadEndpoint;
  /** validated, every space it names known to the build */
  body: ContactBody | InquiryBody;
  idempotencyKey?: string;
}

/** Submits to the request's app's lead service; throws LeadRefusedError as the service does, and the 429 of the enquiry limit. */
export async function submitLead(request: FastifyRequest, reply: FastifyReply, leadRouting: LeadRoutes, { endpoint, body, idempotencyKey }: LeadSubmission): Promise<SubmitResult> {
  const service = request.server.leads;
  if (!service) throw new Error('this app was built without a leads service');
  const properties = 'properties' in body ? body.properties : undefined;
  const routing: LeadRouting = {};
  for (const slug of new Set(properties)) routing[slug] = (await leadRouting.get(slug))!;
  const result = await service.submit({
    endpoint, body, idempotencyKey, remoteIp: request.client, routing, admit: () => request.server.admitEnquiry(request, reply),
  });
  // Reference, endpoint and counts only: never name, email, phone or message.
  request.log.info({
    reference: result.body.data.reference, endpoint, replayed: result.replayed, properties: properties?.length,
  }, result.replayed ? 'lead replayed' : 'lead received');
  return result;
}
