/**
 * Query strings read without running their zod schema when they are plainly valid. A parameter's
 * schema may declare a quick reading (`quickly`): its value for a raw string it is sure of, else
 * undefined. An object schema's reading (`withQuickReading`) is derived from its shape: each
 * parameter read quickly (an enum by its values, one without a reading by its own schema alone),
 * the defaults of the absent ones filled in, then the object's cross-parameter rule. Whatever a
 * reading is unsure of (a repeated parameter, a value out of range, a broken rule) is left to the
 * schema, which decides and words the 400: a reading accepts only what its schema accepts, with
 * the same output (test/contract/quick-query.test.ts compares them over random queries).
 */
import { z } from 'zod';

/** A parameter's value read from its raw text; undefined when the reading is unsure. */
export type QuickReading = (raw: string) => unknown;
/** A query object's parsed value; undefined when a reading is unsure or a rule is broken. */
export type QuickQueryReading = (query: unknown) => Record<string, unknown> | undefined;

const readings = new WeakMap<z.ZodType, QuickReading>();
const queryReadings = new WeakMap<z.ZodType, QuickQueryReading>();

/** Declares a parameter schema's quick reading; returns the schema. */
export function quickly<S extends z.ZodType>(schema: S, read: QuickReading): S {
  readings.set(schema, read);
  return schema;
}

/** The reading of a present parameter: its schema's own (through optional and default), an enum's, else its schema on that value. */
function readingOf(schema: z.ZodType): QuickReading {
  for (let s: z.ZodType = schema; ;) {
    const own = readings.get(s);
    if (own) return own;
    if (s instanceof z.ZodEnum) {
      const values = new Set<unknown>(s.options);
      return (raw) => (values.has(raw) ? raw : undefined);
    }
    if (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
    else break;
  }
  return (raw) => {
    const r = schema.safeParse(raw);
    return r.success ? r.data : undefined;
  };
}

/**
 * Declares the quick reading of a query object schema, derived from its shape and `valid`, the
 * object's cross-parameter rule (the one its refinement applies); returns the schema.
 */
export function withQuickReading<S extends z.ZodObject>(schema: S, valid: (query: Record<string, unknown>) => boolean): S {
  const params = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, s]) => {
    const absent = s.safeParse(undefined);
    return { name, read: readingOf(s), required: !absent.success, fallback: absent.success ? absent.data : undefined };
  });
  queryReadings.set(schema, (query) => {
    if (query === null || typeof query !== 'object') return undefined;
    const raw = query as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    // in the shape's order, as the schema outputs them; names the shape lacks are dropped, as the schema drops them
    for (const { name, read, required, fallback } of params) {
      const text = raw[name];
      if (text === undefined) {
        if (required) return undefined;
        if (fallback !== undefined) out[name] = fallback;
        continue;
      }
      if (typeof text !== 'string') return undefined;
      const value = read(text);
      if (value === undefined) return undefined;
      out[name] = value;
    }
    return valid(out) ? out : undefined;
  });
  return schema;
}

/** The quick reading declared for a query object schema, if any. */
export const quickQueryReading = (schema: z.ZodType): QuickQueryReading | undefined => queryReadings.get(schema);
