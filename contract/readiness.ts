import { z } from 'zod';

/** `GET /readyz` (our addition for orchestrators; `/v1/health` stays the liveness probe). */
export const ReadinessPayloadSchema = z.strictObject({
  status: z.literal('ready'),
  /** the build being served */
  buildId: z.string(),
  /** where rate limits are counted: this process, Redis shared by every replica, or this process while Redis is unreachable */
  rateLimits: z.enum(['local', 'shared', 'fallback']),
});
