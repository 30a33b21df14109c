import { z } from 'zod';

/** At most this many names are reported, each cut to this length: they come from the client. */
const MAX_REPORTED = 20;
const MAX_NAME_LENGTH = 100;

/**
 * The dotted paths (`referrer`, `attribution.utmSource`) of the members of a parsed-successfully
 * request body that its schema does not declare, at every depth: the members an open object
 * (z.object) accepts and drops. Names only, never values; at most MAX_REPORTED.
 */
export function unknownMembers(schema: z.ZodType, value: unknown): string[] {
  const found: string[] = [];
  const walk = (s: z.ZodType, v: unknown, path: string) => {
    if (found.length >= MAX_REPORTED || v === null || typeof v !== 'object') return;
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) { walk(s.unwrap() as z.ZodType, v, path); return; }
    if (s instanceof z.ZodPipe) { walk(s.in as z.ZodType, v, path); return; }
    if (s instanceof z.ZodArray && Array.isArray(v)) { v.forEach((item, i) => walk(s.element as z.ZodType, item, `${path}${i}.`)); return; }
    if (!(s instanceof z.ZodObject) || Array.isArray(v) || s.def.catchall !== undefined) return;
    const shape = s.shape as Record<string, z.ZodType>;
    for (const [key, member] of Object.entries(v)) {
      if (Object.hasOwn(shape, key)) walk(shape[key], member, `${path}${key}.`);
      else if (found.length < MAX_REPORTED) found.push(`${path}${key}`.slice(0, MAX_NAME_LENGTH));
    }
  };
  walk(schema, value, '');
  return found;
}
