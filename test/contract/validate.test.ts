/**
 * contract/validate.ts compiles the contract's zod schemas with ajv; a nullable schema (anyOf
 * [S, null] in JSON Schema) is compiled as the type list [S.type, null] when S's keywords apply to
 * its type alone. Each case: what zod accepts, the compiled checker accepts, and what zod
 * rejects, it rejects.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { checkerFor } from '../../contract/validate.ts';

const CASES: { what: string; schema: z.ZodType; values: unknown[] }[] = [
  { what: 'a nullable integer with a minimum', schema: z.int().min(1).nullable(), values: [null, 1, 7, 0, 2.5, '1', undefined, {}] },
  { what: 'a nullable number with bounds', schema: z.number().min(0).max(5).nullable(), values: [null, 0, 4.5, 5, -0.1, 5.1, 'x', []] },
  { what: 'a nullable enum (enum constrains every type: not a type list)', schema: z.enum(['below', 'around', 'above']).nullable(), values: [null, 'below', 'cheap', 3] },
  { what: 'a nullable string pattern', schema: z.string().regex(/^[a-z]+$/).nullable(), values: [null, 'abc', 'ABC', 3] },
  { what: 'a nullable object', schema: z.strictObject({ a: z.int() }).nullable(), values: [null, { a: 1 }, { a: 'x' }, { a: 1, b: 2 }, [], 'x'] },
  { what: 'a nullable array of nullable numbers', schema: z.array(z.number().min(0).nullable()).nullable(), values: [null, [], [null, 1], [-1], [null, 'x'], ['1']] },
  { what: 'a nullable union', schema: z.union([z.literal('a'), z.int()]).nullable(), values: [null, 'a', 3, 'b', 2.5] },
];

describe('compiled contract checkers', () => {
  for (const { what, schema, values } of CASES) {
    it(`${what}: accepts and rejects what zod does`, () => {
      // on its own and as a member (the JSON Schema of the whole has a $schema keyword beside it)
      for (const s of [schema, z.strictObject({ member: schema })]) {
        const check = checkerFor(s);
        for (const value of values) {
          const v = s === schema ? value : { member: value };
          assert.equal(check(v) === undefined, s.safeParse(v).success, `${JSON.stringify(v)}: zod ${s.safeParse(v).success ? 'accepts' : 'rejects'} it`);
        }
      }
    });
  }
});
