import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress, type TrustFunction } from './client-address.ts';
import { ApiError, toProblem } from './problems.ts';
import type { BucketState, RateCounters } from './rate-limit.ts';

interface ClientError extends Error {
  code?: string;
  /** what Node's HTTP parser had received when it gave up, a Buffer (absent on timeouts) */
  rawPacket?: unknown;
}

/** What Node could not read, as the status and detail of the answer. */
function describe(err: ClientError): { status: number; detail: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, detail: 'The request was not received in time.' };
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, detail: 'The request line and headers are larger than 16 KiB.' };
  return { status: 400, detail: 'The request is not valid HTTP/1.1.' };
}

const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S+ HTTP\/\d\.\d$/;

/** The X-Forwarded-For of a request whose request line parses (undefined when it has none), or null when the line does not parse. */
function forwardedFor(raw: unknown): string | undefined | null {
  if (!Buffer.isBuffer(raw)) return null;
  const lines = raw.toString('latin1').split('\r\n');
  if (!REQUEST_LINE.test(lines[0])) return null;
  const values: string[] = [];
  for (const line of lines.slice(1)) {
    if (line === '') break;
    const m = /^x-forwarded-for[ \t]*:(.*)$/i.exec(line);
    if (m) values.push(m[1].trim());
  }
  return values.length ? values.join(', ') : undefined;
}

export interface ClientErrorOptions {
  siteUrl: string;
  counters: RateCounters;
  clock: () => number;
  trustProxy: TrustFunction | false;
}

/**
 * Fastify's clientErrorHandler: requests Node's HTTP parser refuses before they become requests
 * (malformed, a request line and headers over 16 KiB, a client too slow to send its request) are
 * answered like every other error, as problem+json with `Cache-Control: no-store`. When the
 * request line parses, the request counts as a read of its client (the same address as
 * `request.client`, X-Forwarded-For included through a trusted proxy) and carries the RateLimit-*
 * headers; a client over its limit gets the 429. Every other answer carries the RateLimit-* headers
 * of the socket's address.
 */
export function clientErrorHandler(opts: ClientErrorOptions) {
  return (err: ClientError, socket: Socket): void => {
    // a reset connection has no one left to answer
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, detail } = describe(err);
    const forwarded = forwardedFor(err.rawPacket);
    // as Node does without a handler: never write into a response already under way (a request
    // whose body timed out after its handler answered)
    const underWay = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    const answer = (limit?: BucketState) => {
      if (!socket.writable || underWay) {
        socket.destroy();
        return;
      }
      const error = limit?.exceeded
        ? new ApiError('RATE_LIMITED', `Rate limit of ${limit.limit} requests exceeded; retry after ${limit.resetSeconds} s.`)
        : new ApiError('VALIDATION_FAILED', detail, [{ path: '(request)', message: detail }], status);
      const problem = toProblem(opts.siteUrl, error, randomUUID());
      const body = JSON.stringify(problem);
      const headers = [
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
        'Content-Type: application/problem+json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'Connection: close',
      ];
      if (limit) {
        headers.push(`RateLimit-Limit: ${limit.limit}`, `RateLimit-Remaining: ${limit.remaining}`, `RateLimit-Reset: ${limit.resetSeconds}`);
        if (limit.exceeded) headers.push(`Retry-After: ${limit.resetSeconds}`);
      }
      socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
    };
    if (!socket.remoteAddress) {
      answer();
      return;
    }
    // Without a request line (garbage, or a client that sent too little in time) X-Forwarded-For is
    // unknown: the answer reports the bucket of the socket's address without counting, since
    // behind a proxy that is the proxy's, shared by every client behind it.
    const counted = forwarded === null
      ? opts.counters.count(socket.remoteAddress, 'peek', opts.clock())
      : opts.counters.count(clientAddress(opts.trustProxy, socket.remoteAddress, forwarded), 'read', opts.clock());
    void Promise.resolve(counted).then(answer, () => answer());
  };
}
