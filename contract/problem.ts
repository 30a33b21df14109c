import { z } from 'zod';

export const ERROR_CODES = [
  'VALIDATION_FAILED', 'NOT_FOUND', 'RATE_LIMITED', 'CHALLENGE_FAILED',
  'UPSTREAM_UNAVAILABLE', 'INTERNAL_ERROR', 'CLIENT_TOO_OLD', 'IDEMPOTENCY_KEY_CONFLICT',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ProblemSchema = z.strictObject({
  type: z.string(),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string().optional(),
  code: ErrorCodeSchema,
  errors: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
  traceId: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;
