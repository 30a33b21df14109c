import type { ErrorCode, Problem } from '../../contract/problem.ts';
import { PROBE_EVERY_MS } from '../circuit-breaker.ts';

/** The one catalogue of error kinds: HTTP status and title of every code. */
export const PROBLEM_KINDS: Record<ErrorCode, { status: number; title: string }> = {
  VALIDATION_FAILED: { status: 400, title: 'Request validation failed' },
  CLIENT_TOO_OLD: { status: 400, title: 'Client build no longer supported' },
  CHALLENGE_FAILED: { status: 403, title: 'Challenge failed' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  IDEMPOTENCY_KEY_CONFLICT: { status: 422, title: 'Idempotency key reused with a different body' },
  RATE_LIMITED: { status: 429, title: 'Too many requests' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error' },
  UPSTREAM_UNAVAILABLE: { status: 502, title: 'Upstream dependency unavailable' },
};

/**
 * The Retry-After of every 502 and 503: a dependency behind a breaker is probed again within this,
 * and a replica that is shutting down has left the balancer by then.
 */
export const RETRY_UNAVAILABLE_AFTER_S = Math.ceil(PROBE_EVERY_MS / 1000);

export interface FieldError { path: string; message: string }

/** Thrown anywhere in a handler; the error handler turns it into application/problem+json. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  /** `status`: only where HTTP needs another than the code's own (408, 431, readiness's 503) */
  constructor(code: ErrorCode, detail?: string, errors?: FieldError[], status?: number) {
    super(detail ?? PROBLEM_KINDS[code].title);
    this.code = code;
    this.status = status ?? PROBLEM_KINDS[code].status;
    this.errors = errors;
  }
}

export const validationFailed = (errors: FieldError[], detail = 'One or more parameters are invalid.') =>
  new ApiError('VALIDATION_FAILED', detail, errors);

/** `/problems/<code in kebab case>`: the site path of the page that explains a code (api/site/problems.ts). */
export const problemPath = (code: ErrorCode) => `/problems/${code.toLowerCase().replace(/_/g, '-')}`;

/** `{site}/problems/<code in kebab case>` */
function problemType(siteUrl: string, code: ErrorCode): string {
  return `${siteUrl.replace(/\/$/, '')}${problemPath(code)}`;
}

export function toProblem(siteUrl: string, error: ApiError, traceId: string): Problem {
  const problem: Problem = {
    type: problemType(siteUrl, error.code),
    title: PROBLEM_KINDS[error.code].title,
    status: error.status,
    code: error.code,
    traceId,
  };
  if (error.message && error.message !== problem.title) problem.detail = error.message;
  if (error.errors?.length) problem.errors = error.errors;
  return problem;
}
