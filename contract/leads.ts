import { z } from 'zod';
import { LocaleSchema, MetaSchema, SlugSchema } from './common.ts';

/**
 * The contract's email rule (docs/design.md §7): local part not starting with a dot and
 * without consecutive dots; domain of dot-separated labels with a final label of at least 2
 * letters. zod's default email pattern is exactly that rule, and it keeps characters that
 * could break a mail header (`<`, `>`, `,`, spaces) out of the Reply-To we build from it.
 */
export const LeadEmailSchema = z.email({ pattern: z.regexes.email }).max(200);

export const DURATIONS = ['hours', 'days', 'weeks', 'months', 'years'] as const;
export const DurationSchema = z.enum(DURATIONS);
export type Duration = z.infer<typeof DurationSchema>;

/**
 * Request bodies are open objects, as in the published reference: a member they do not declare
 * is accepted and dropped (the route logs its name), so a client that sends more than this
 * version knows about never loses an enquiry. Every declared member keeps its limits.
 */
export const AttributionSchema = z.object({
  source: z.enum(['web', 'app']),
  firstTouch: z.string().max(200).optional(),
  lastTouch: z.string().max(200).optional(),
  campaign: z.string().max(120).optional(),
  viewedProperties: z.array(SlugSchema).max(50).optional(),
});
export type Attribution = z.infer<typeof AttributionSchema>;

const commonFields = {
  name: z.string().min(1).max(120),
  email: LeadEmailSchema,
  locale: LocaleSchema,
  phone: z.string().max(40).optional(),
  company: z.string().max(160).optional(),
  message: z.string().max(4000).optional(),
  attribution: AttributionSchema.optional(),
  /** optional in the schema, required in production (Turnstile token) */
  challengeToken: z.string().max(4000).optional(),
  /** honeypot: a human never fills it */
  website: z.string().max(0).optional(),
};

export const ContactBodySchema = z.object({
  ...commonFields,
  subject: z.string().max(200).optional(),
});
export type ContactBody = z.infer<typeof ContactBodySchema>;

export const InquiryBodySchema = z.object({
  ...commonFields,
  properties: z.array(SlugSchema).min(1).max(20),
  desks: z.int().min(1).max(1000).optional(),
  /** YYYY-MM-DD, a real calendar date (zod's date pattern knows leap years) */
  moveInDate: z.iso.date().optional(),
  duration: DurationSchema.optional(),
});
export type InquiryBody = z.infer<typeof InquiryBodySchema>;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKeySchema = z.string().min(1).max(200);

export const REFERENCE_PATTERN = /^DA-[0-9A-HJKMNP-TV-Z]{10}$/;
export const LeadReceiptSchema = z.strictObject({
  received: z.literal(true),
  reference: z.string().regex(REFERENCE_PATTERN),
});
export type LeadReceipt = z.infer<typeof LeadReceiptSchema>;

export const LeadReceiptResponseSchema = z.strictObject({ data: LeadReceiptSchema, meta: MetaSchema });

export const LEAD_ENDPOINTS = ['contact', 'inquiry'] as const;
export type LeadEndpoint = (typeof LEAD_ENDPOINTS)[number];
