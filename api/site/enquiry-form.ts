/**
 * The site's two enquiry forms, contact and an inquiry about one space: their fields are the
 * members of the API's request bodies (contract/leads.ts), with the limits those schemas set;
 * this module only says which control shows each one. A posted form becomes the API's body and
 * is checked by the same schema; each problem is said beside its field in the page's language.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Locale } from '../../contract/common.ts';
import { ContactBodySchema, InquiryBodySchema, type ContactBody, type InquiryBody, type LeadEndpoint } from '../../contract/leads.ts';
import { citationPath } from '../http/citation.ts';
import { STRINGS, type EnquiryStrings } from './strings.ts';

type Control = 'text' | 'email' | 'tel' | 'number' | 'date' | 'select' | 'textarea';
type FieldName = keyof EnquiryStrings['fields'];

interface FieldDeclaration { name: FieldName; control: Control; autocomplete?: string }

const PERSON: FieldDeclaration[] = [
  { name: 'name', control: 'text', autocomplete: 'name' },
  { name: 'email', control: 'email', autocomplete: 'email' },
  { name: 'phone', control: 'tel', autocomplete: 'tel' },
  { name: 'company', control: 'text', autocomplete: 'organization' },
];

const FORMS = {
  contact: { schema: ContactBodySchema, fields: [...PERSON, { name: 'subject', control: 'text' }, { name: 'message', control: 'textarea' }] },
  inquiry: {
    schema: InquiryBodySchema,
    fields: [
      ...PERSON, { name: 'desks', control: 'number' }, { name: 'moveInDate', control: 'date' }, { name: 'duration', control: 'select' },
      { name: 'message', control: 'textarea' },
    ],
  },
} satisfies Record<LeadEndpoint, { schema: z.ZodObject; fields: FieldDeclaration[] }>;

/** What the posted form calls the members that are not fields: the Turnstile widget's own name for its token. */
export const FORM_TOKEN = 'formToken';
export const HONEYPOT = 'website';
export const CHALLENGE_RESPONSE = 'cf-turnstile-response';

/** A member's schema without its optional wrapper, and what it asks of a value. */
function constraints(schema: z.ZodType) {
  const required = !schema.safeParse(undefined).success;
  const inner = (required ? schema : (schema as z.ZodOptional).unwrap()) as z.ZodType & {
    maxLength?: number | null; minValue?: number | null; maxValue?: number | null; options?: readonly string[];
  };
  return {
    required,
    maxLength: inner.maxLength ?? undefined,
    min: inner.minValue ?? undefined,
    max: inner.maxValue ?? undefined,
    options: inner.options,
  };
}

export interface FieldView {
  name: FieldName;
  id: string;
  label: string;
  control: Control;
  autocomplete?: string;
  required: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  options?: { value: string; label: string; selected: boolean }[];
  value: string;
  error?: string;
}

export interface FormView {
  action: string;
  token: string;
  fields: FieldView[];
  /** every problem, in the order of the fields, then those of the whole form; `id` links to a field */
  summary: { id?: string; message: string }[];
  honeypot: { id: string; label: string; value: string };
  /** the Turnstile widget, when the server checks the challenge */
  challenge?: { siteKey: string; language: Locale };
}

/** A fresh token: one rendering of a form, so that sending it twice makes one enquiry. */
export const newFormToken = () => randomBytes(16).toString('base64url');
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const contactPath = (locale: Locale) => `/${locale}/contact`;
export const spaceEnquiryPath = (locale: Locale, slug: string) => `${citationPath(locale, { kind: 'space', slug, title: '' })}/enquiry`;
export const sentPath = (locale: Locale, reference: string, space?: string) =>
  `/${locale}/enquiry/sent?${new URLSearchParams({ reference, ...(space ? { space } : {}) })}`;

/** Field values as typed, by name. */
export type FormValues = Partial<Record<FieldName | typeof HONEYPOT, string>>;

export interface FormState {
  values?: FormValues;
  errors?: Partial<Record<FieldName, string>>;
  /** problems of the whole form (the challenge, the rate limit…) */
  formErrors?: string[];
  token?: string;
}

export function formView(kind: LeadEndpoint, locale: Locale, action: string, challengeSiteKey: string | undefined, state: FormState = {}): FormView {
  const t = STRINGS[locale].enquiry;
  const { shape } = FORMS[kind].schema;
  const fields = FORMS[kind].fields.map((f): FieldView => {
    const c = constraints(shape[f.name as keyof typeof shape]);
    const value = state.values?.[f.name] ?? '';
    return {
      name: f.name,
      id: `enquiry-${f.name}`,
      label: t.fields[f.name],
      control: f.control,
      autocomplete: f.autocomplete,
      required: c.required,
      maxLength: c.maxLength,
      min: c.min,
      max: c.max,
      options: c.options?.map((o) => ({ value: o, label: t.durations[o as keyof EnquiryStrings['durations']], selected: o === value })),
      value,
      error: state.errors?.[f.name],
    };
  });
  return {
    action,
    token: state.token ?? newFormToken(),
    fields,
    summary: [
      ...fields.filter((f) => f.error).map((f) => ({ id: f.id, message: `${f.label}: ${f.error}` })),
      ...(state.formErrors ?? []).map((message) => ({ message })),
    ],
    honeypot: { id: `enquiry-${HONEYPOT}`, label: t.honeypot, value: state.values?.[HONEYPOT] ?? '' },
    challenge: challengeSiteKey ? { siteKey: challengeSiteKey, language: locale } : undefined,
  };
}

/** The message beside a field for a zod issue about it. */
function message(t: EnquiryStrings, issue: z.core.$ZodIssue, typed: string | undefined): string {
  if (!typed) return t.required;
  switch (issue.code) {
    case 'too_big': return issue.origin === 'string' ? t.tooLong(Number(issue.maximum)) : t.atMost(Number(issue.maximum));
    case 'too_small': return issue.origin === 'string' ? t.required : t.atLeast(Number(issue.minimum));
    case 'invalid_type': return t.wholeNumber;
    case 'invalid_format': return issue.format === 'email' ? t.email : issue.format === 'date' ? t.date : t.invalid;
    case 'invalid_value': return t.option;
    default: return t.invalid;
  }
}

export type Submission = { values: FormValues; token?: string } & (
  | { ok: true; body: ContactBody | InquiryBody; idempotencyKey?: string }
  | { ok: false; state: FormState });

/**
 * A posted form as the API's body (empty fields left out, numbers read as numbers), checked by
 * the API's schema. The Idempotency-Key is the form's token and the sender's email: a token is
 * one rendering of the form, and a space page's rendering is shared by whoever the page cache
 * gives it to, so two people who send the same rendering make two enquiries, while one person
 * sending it twice makes one.
 */
export function readForm(kind: LeadEndpoint, posted: unknown, locale: Locale, space?: string): Submission {
  const raw = (posted && typeof posted === 'object' ? posted : {}) as Record<string, unknown>;
  const text = (name: string) => (typeof raw[name] === 'string' ? raw[name] as string : undefined);
  const posting = text(FORM_TOKEN);
  const token = posting && TOKEN_PATTERN.test(posting) ? posting : undefined;
  const values: FormValues = {};
  const body: Record<string, unknown> = { locale, attribution: { source: 'web' } };
  for (const f of FORMS[kind].fields) {
    const typed = text(f.name);
    if (typed === undefined) continue;
    values[f.name] = typed;
    const trimmed = typed.trim();
    if (trimmed === '') continue;
    body[f.name] = f.control === 'number' && /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : trimmed;
  }
  const honeypot = text(HONEYPOT);
  if (honeypot) body[HONEYPOT] = values[HONEYPOT] = honeypot;
  const challengeToken = text(CHALLENGE_RESPONSE);
  if (challengeToken) body.challengeToken = challengeToken;
  if (space !== undefined) body.properties = [space];

  const t = STRINGS[locale].enquiry;
  const parsed = FORMS[kind].schema.safeParse(body);
  if (!parsed.success) {
    const errors: FormState['errors'] = {};
    let unreadable = false;
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]) as FieldName;
      if (FORMS[kind].fields.some((f) => f.name === name)) errors[name] ??= message(t, issue, values[name]?.trim());
      else unreadable = true;
    }
    return { ok: false, values, token, state: { values, errors, formErrors: unreadable ? [t.notSent] : [], token } };
  }
  const email = parsed.data.email.toLowerCase();
  const idempotencyKey = token && `form:${token}:${createHash('sha256').update(email).digest('base64url').slice(0, 22)}`;
  return { ok: true, values, token, body: parsed.data, idempotencyKey };
}
