/**
 * /mcp: the MCP server over Streamable HTTP, stateless (a server and a transport per request,
 * answers as JSON; a GET or DELETE is 405, as the protocol has it for a server without sessions). Each tool call is a read of the REST API made for the caller's address, so
 * the reads' rate limit counts it; the protocol's own messages (initialize, tools/list) are not
 * counted.
 */
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { bindTools, mcpServer, type Read } from './server.ts';
import type { ToolBinding } from './schemas.ts';
import { CONTRACT_VERSION } from '../../contract/common.ts';

export const MCP_PATH = '/mcp';

/** A GET of the app's own REST API, counted against `clientAddress`. */
export const readThrough = (app: FastifyInstance, clientAddress: string): Read => async (url) => {
  const res = await app.inject({ method: 'GET', url, remoteAddress: clientAddress, headers: { accept: 'application/json' } });
  return { status: res.statusCode, body: res.json() };
};

/** The tools, bound once to the app's own OpenAPI document (after every route is registered). */
export function toolsOf(app: FastifyInstance): () => Map<string, ToolBinding> {
  let tools: Map<string, ToolBinding> | undefined;
  return () => (tools ??= bindTools(buildOpenApiDocument({ routes: app.routeDefinitions, config: app.config })));
}

export function installMcp(app: FastifyInstance) {
  const tools = toolsOf(app);
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: MCP_PATH,
    config: { cache: 'no-store', rateLimitExempt: true },
    handler: async (request, reply) => {
      // without sessions there is no stream to open (GET) or end (DELETE)
      if (request.method !== 'POST') {
        return reply.code(405).header('allow', 'POST').header('cache-control', 'no-store')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST each message.' }, id: null });
      }
      const server = mcpServer({ name: app.config.serviceName, version: CONTRACT_VERSION, tools: tools(), read: readThrough(app, request.client) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
}
