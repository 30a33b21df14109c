/**
 * The read-only MCP server: the tools of tools.ts, each answered by its REST operation on this
 * app (`read`), so an agent gets exactly the API's body, limits and errors. Used over Streamable
 * HTTP at /mcp (http.ts) and over stdio (api/mcp-stdio.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bindTool, type ToolBinding } from './schemas.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { COMPARE_TOOL, SEARCH_PAGE_SIZE, SEARCH_TOOL, TOOLS } from './tools.ts';
import { MAX_PAGE } from '../../contract/queries.ts';

type Json = Record<string, any>;

/** A GET of this app's REST API: its status and parsed body. */
export type Read = (url: string) => Promise<{ status: number; body: Json }>;

/** The tools bound to their operations in a published OpenAPI document. */
export function bindTools(document: Json): Map<string, ToolBinding> {
  return new Map(TOOLS.map((tool) => [tool.name, bindTool(document, tool)]));
}

class ArgumentError extends Error {}

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** A query-string value of an argument; arrays of words (amenities) are joined by commas. */
function queryValue(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  throw new ArgumentError(`Argument \`${name}\` must be a string or a number.`);
}

function urlOf(binding: ToolBinding, args: Record<string, string>): string {
  let path = binding.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (binding.location.get(name) === 'path') path = path.replace(`{${name}}`, encodeURIComponent(value));
    else query.append(name, value);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** A REST error as the tool's error: the problem's words and each offending argument by name. */
function problemText(body: Json, rename: (param: string) => string = (p) => p): string {
  const lines = [[body.title, body.detail].filter(Boolean).join(': ') || `HTTP ${body.status}`];
  for (const e of (body.errors ?? []) as { path: string; message: string }[]) lines.push(`- argument \`${rename(e.path)}\`: ${e.message}`);
  return lines.join('\n');
}

/** A few lines for a reader of the text content; the whole body is the structured content. */
function summary(toolName: string, body: Json): string {
  const { data, meta } = body;
  const lines: string[] = [];
  const label = (item: Json) => [item.title ?? item.name, item.slug && `(${item.slug})`].filter(Boolean).join(' ');
  if (Array.isArray(data)) {
    const total = meta?.pagination?.total;
    lines.push(`${toolName}: ${data.length}${total !== undefined ? ` of ${total}` : ''} results`);
    for (const item of data) lines.push(`- ${label(item as Json)}`);
  } else if (data && typeof data === 'object') {
    lines.push(`${toolName}: ${label(data) || 'result'}`);
  }
  if (meta?.nextCursor) lines.push('More: call again with `cursor` = meta.nextCursor.');
  if (meta?.citation?.text) lines.push(meta.citation.text);
  lines.push('The full result is in structuredContent.');
  return lines.join('\n');
}

const result = (toolName: string, body: Json): CallToolResult => ({
  structuredContent: body,
  content: [{ type: 'text', text: summary(toolName, body) }],
});

/** The arguments as query-string values; an argument the tool does not take is refused by name. */
function argumentsOf(binding: ToolBinding, args: Json): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (!(name in binding.inputSchema.properties)) {
      throw new ArgumentError(`Unknown argument \`${name}\`; ${binding.tool.name} takes ${Object.keys(binding.inputSchema.properties).join(', ')}.`);
    }
    out[name] = queryValue(name, value);
  }
  return out;
}

async function search(binding: ToolBinding, args: Record<string, string>, read: Read): Promise<CallToolResult> {
  const { cursor, ...given } = args;
  let position = { args: given, page: 1, seed: undefined as number | undefined };
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor);
    if (!decoded) throw new ArgumentError('Argument `cursor` is not a cursor of this server: pass meta.nextCursor of the previous call unchanged.');
    for (const [name, value] of Object.entries(given)) {
      if (decoded.args[name] !== value) throw new ArgumentError(`Argument \`${name}\` differs from the search the cursor continues: pass the cursor alone.`);
    }
    position = { ...decoded, seed: decoded.seed };
  }
  const query: Record<string, string> = { ...position.args, page: String(position.page), pageSize: String(SEARCH_PAGE_SIZE) };
  if (position.seed !== undefined) query.seed = String(position.seed);
  const { status, body } = await read(urlOf(binding, query));
  if (status !== 200) return toolError(problemText(body));
  const { page, pageSize, total } = body.meta.pagination;
  if (page * pageSize < total && page < MAX_PAGE) {
    body.meta.nextCursor = encodeCursor({ args: position.args, page: page + 1, seed: body.meta.seed });
  }
  return result(binding.tool.name, body);
}

async function compare(binding: ToolBinding, args: Json, read: Read): Promise<CallToolResult> {
  const { slugs, ...rest } = args;
  const { properties } = binding.inputSchema;
  if (!Array.isArray(slugs) || slugs.length < properties.slugs.minItems || slugs.length > properties.slugs.maxItems) {
    throw new ArgumentError(`Argument \`slugs\` must be a list of ${properties.slugs.minItems} to ${properties.slugs.maxItems} space slugs.`);
  }
  const others = argumentsOf(binding, rest);
  const spaces: Json[] = [];
  for (const [i, slug] of slugs.entries()) {
    const { status, body } = await read(urlOf(binding, { slug: queryValue(`slugs[${i}]`, slug), ...others }));
    if (status === 404) return toolError(`Argument \`slugs[${i}]\`: ${body.detail}`);
    if (status !== 200) return toolError(problemText(body, (param) => (param === 'slug' ? `slugs[${i}]` : param)));
    spaces.push(body);
  }
  return {
    structuredContent: { spaces },
    content: [{ type: 'text', text: spaces.map((body) => summary(binding.tool.name, body)).join('\n\n') }],
  };
}

async function call(binding: ToolBinding, args: Json, read: Read): Promise<CallToolResult> {
  if (binding.tool.name === COMPARE_TOOL) return compare(binding, args, read);
  const values = argumentsOf(binding, args);
  if (binding.tool.name === SEARCH_TOOL) return search(binding, values, read);
  const { status, body } = await read(urlOf(binding, values));
  return status === 200 ? result(binding.tool.name, body) : toolError(problemText(body));
}

export interface McpServerOptions {
  name: string;
  version: string;
  tools: Map<string, ToolBinding>;
  read: Read;
}

/** One MCP server: stateless, so a new one may serve each HTTP request. */
export function mcpServer({ name, version, tools, read }: McpServerOptions): Server {
  const server = new Server({ name, version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((b) => ({
      name: b.tool.name,
      description: b.description,
      inputSchema: b.inputSchema,
      outputSchema: b.outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const binding = tools.get(params.name);
    if (!binding) return toolError(`No tool named \`${params.name}\`; the tools are ${[...tools.keys()].join(', ')}.`);
    try {
      return await call(binding, params.arguments ?? {}, read);
    } catch (err) {
      if (err instanceof ArgumentError) return toolError(err.message);
      throw err;
    }
  });
  return server;
}
