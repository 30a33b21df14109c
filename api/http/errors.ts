import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError, RETRY_UNAVAILABLE_AFTER_S, toProblem, validationFailed, type FieldError } from './problems.ts';

const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The value at a zod issue path inside the input, undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * One FieldError per offending path (query parameter name or dotted body path, e.g.
 * `attribution.viewedProperties.3`; `root` for the value itself), and one per unknown field
 * of a closed object. A required member that is absent says so (`locale is required`) rather
 * than zod's "expected string, received undefined" (`parsed.input`: what was parsed).
 */
export function fieldErrors(error: z.ZodError, root = '(root)', parsed?: { input: unknown }): FieldError[] {
  const byPath = new Map<string, FieldError>();
  const add = (path: string, message: string) => { if (!byPath.has(path)) byPath.set(path, { path, message }); };
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, 'Unknown field');
    } else if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && parsed && valueAt(parsed.input, issue.path) === undefined) {
      const required = base ? `${base} is required` : 'Required';
      add(base || root, issue.code === 'invalid_value' ? `${required}: one of ${issue.values.map(String).join(', ')}` : required);
    } else {
      add(base || root, issue.message);
    }
  }
  return [...byPath.values()];
}

/**
 * Parses each part of a request (path parameters, query, body) with its schema, or throws one
 * 400 VALIDATION_FAILED naming every bad field of every part.
 */
export function parseOrThrow<T extends readonly { schema: z.ZodType; input: unknown; what: 'path parameters' | 'query parameters' | 'body' }[]>(
  parts: T,
): { [K in keyof T]: z.output<T[K]['schema']> } {
  const errors: FieldError[] = [];
  const failed: string[] = [];
  const values = parts.map(({ schema, input, what }) => {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    errors.push(...fieldErrors(result.error, what === 'body' ? '(body)' : undefined, { input }));
    failed.push(what);
    return undefined;
  });
  if (failed.length === 1 && failed[0] === 'body') throw validationFailed(errors, 'The request body is invalid.');
  if (failed.length) throw validationFailed(errors, `One or more ${failed.join(' and ')} are invalid.`);
  return values as { [K in keyof T]: z.output<T[K]['schema']> };
}

/** Fastify's own client errors (malformed JSON, content type, body too large…): all VALIDATION_FAILED. */
function fromFastifyError(error: FastifyError): ApiError | undefined {
  const status = error.statusCode ?? 0;
  if (status === 404) return new ApiError('NOT_FOUND');
  if (status === 429) return new ApiError('RATE_LIMITED');
  if (status >= 400 && status < 500) {
    const code = error.code ?? '';
    let detail = 'The request could not be read.';
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') detail = 'The request body is larger than 64 KiB.';
    else if (code.startsWith('FST_ERR_CTP_INVALID_MEDIA_TYPE') || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') detail = 'Unsupported content type; send application/json.';
    else if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') detail = 'The request body is empty.';
    else if (error instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') detail = 'The request body is not valid JSON.';
    return new ApiError('VALIDATION_FAILED', detail, [{ path: '(body)', message: detail }]);
  }
  return undefined;
}

export function sendProblem(reply: FastifyReply, siteUrl: string, error: ApiError) {
  if ((error.status === 502 || error.status === 503) && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_UNAVAILABLE_AFTER_S));
  return reply
    .code(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(toProblem(siteUrl, error, String(reply.request.id))));
}

/**
 * The single error handler and the not-found handler of the app; `pageNotFound` answers a URL
 * that is a page's (an HTML 404) and returns undefined for one of the API's (problem+json).
 */
export function installErrorHandling(app: FastifyInstance, siteUrl: string, pageNotFound?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    let apiError: ApiError | undefined;
    if (error instanceof ApiError) apiError = error;
    else if (error instanceof z.ZodError) apiError = validationFailed(fieldErrors(error));
    else apiError = fromFastifyError(error);
    if (!apiError) {
      request.log.error({ err: error, route: request.routeOptions.url }, 'unhandled error');
      apiError = new ApiError('INTERNAL_ERROR', 'An internal error occurred.');
    } else if (apiError.status >= 500) {
      request.log.error({ err: error, route: request.routeOptions.url }, apiError.code);
    }
    if (apiError.code === 'RATE_LIMITED' && !reply.hasHeader('retry-after')) reply.header('retry-after', '60');
    return sendProblem(reply, siteUrl, apiError);
  });
  app.setNotFoundHandler((request, reply) => {
    return pageNotFound?.(request, reply) ?? sendProblem(reply, siteUrl, new ApiError('NOT_FOUND', `No resource at ${request.method} ${request.url.split('?')[0].slice(0, 200)}.`));
  });
}
