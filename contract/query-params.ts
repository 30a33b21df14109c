/**
 * Numbers in query strings. They arrive as strings: numbers are parsed strictly (no empty
 * strings, no hex, no arrays) before the numeric limits apply.
 */
import { z } from 'zod';
import { quickly } from './quick-query.ts';

export const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

const parsed = (pattern: RegExp) => (v: unknown) => (typeof v === 'string' && pattern.test(v) ? Number(v) : v);
/** A number parameter: its text in `pattern`'s form, its value within `limits`; read quickly by the same two steps. */
const numberParam = <S extends z.ZodType>(pattern: RegExp, limits: z.ZodNumber, schema: S) =>
  quickly(schema, (raw) => {
    if (!pattern.test(raw)) return undefined;
    const r = limits.safeParse(Number(raw));
    return r.success ? r.data : undefined;
  });

export const queryNumber = <T extends z.ZodNumber>(schema: T) => numberParam(NUMERIC, schema, z.preprocess(parsed(NUMERIC), schema));
export const queryInt = (min: number, max?: number) => {
  const base = max === undefined ? z.int().min(min) : z.int().min(min).max(max);
  return numberParam(INTEGER, base, z.preprocess(parsed(INTEGER), base));
};
/** An optional integer parameter that takes `value` when absent (declared as its `default` in the OpenAPI document). */
export const queryIntDefault = (value: number, min: number, max: number) => {
  const base = z.int().min(min).max(max);
  return numberParam(INTEGER, base, z.preprocess(parsed(INTEGER), base.default(value)));
};
