/**
 * Numbers in query strings. They arrive as strings: numbers are parsed strictly (no empty
 * strings, no hex, no arrays) before the numeric limits apply.
 */
import { z } from 'zod';

export const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

const parsed = (pattern: RegExp) => (v: unknown) => (typeof v === 'string' && pattern.test(v) ? Number(v) : v);
export const queryNumber = <T extends z.ZodNumber>(schema: T) => z.preprocess(parsed(NUMERIC), schema);
export const queryInt = (min: number, max?: number) => {
  const base = z.int().min(min);
  return z.preprocess(parsed(INTEGER), max === undefined ? base : base.max(max));
};
/** An optional integer parameter that takes `value` when absent (declared as its `default` in the OpenAPI document). */
export const queryIntDefault = (value: number, min: number, max: number) =>
  z.preprocess(parsed(INTEGER), z.int().min(min).max(max).default(value));
