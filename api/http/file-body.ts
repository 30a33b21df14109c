/**
 * Responses streamed from disk (api/loading/checked-file.ts) in the encoding the client accepts,
 * taken from the compressed siblings the pipeline wrote: the strong ETag of each representation is
 * known without reading a byte, so a 304 opens nothing and a 200 compresses nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileBody, Representation } from '../loading/checked-file.ts';
import { matching } from './headers.ts';

/** Whether a request accepts an encoding (RFC 9110 §12.5.3): named, or matched by `*`, with a q above 0. */
function acceptance(header: string | undefined): (encoding: string) => boolean {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(token, weight ? Number(weight.slice(2)) : 1);
  }
  return (encoding) => (q.get(encoding) ?? q.get('*') ?? 0) > 0;
}

/** The representation a request gets: the first encoding on offer it accepts, else the identity one. */
export function chosenRepresentation(body: FileBody, acceptEncoding: string | undefined): Representation {
  const accepts = acceptance(acceptEncoding);
  return body.representations.find((r) => r.encoding !== undefined && accepts(r.encoding))
    ?? body.representations.find((r) => r.encoding === undefined)!;
}

/** Sends a body streamed from disk: 304 on a matching If-None-Match without opening it. */
export async function sendFileBody(request: FastifyRequest, reply: FastifyReply, body: FileBody): Promise<FastifyReply> {
  const chosen = chosenRepresentation(body, request.headers['accept-encoding']);
  if (body.representations.length > 1) {
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  }
  for (const [k, v] of Object.entries(body.headers ?? {})) reply.header(k, v);
  const inm = request.headers['if-none-match'];
  const matched = inm ? matching(inm, chosen.etag) : undefined;
  if (matched) return reply.code(304).header('etag', matched).send();
  const stream = await chosen.open();
  reply.header('etag', chosen.etag);
  if (chosen.encoding) reply.header('content-encoding', chosen.encoding);
  reply.header('content-length', chosen.size);
  return reply.type(body.contentType).send(stream);
}
