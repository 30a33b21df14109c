/**
 * The tools' JSON schemas, read from the OpenAPI document this app publishes (made from the
 * routes' zod schemas): a tool's arguments are its operation's parameters, its output the
 * operation's 200 body, with the document's references written out so the schema stands alone.
 */
import { COMPARE_MAX, COMPARE_MIN, COMPARE_TOOL, SEARCH_TOOL, type ToolDefinition } from './tools.ts';

type Json = Record<string, any>;

/** How a tool reaches its operation: the path template and where each argument goes. */
export interface ToolBinding {
  tool: ToolDefinition;
  /** the OpenAPI path, e.g. /v1/places/{kind}/{slug} */
  path: string;
  location: Map<string, 'path' | 'query'>;
  inputSchema: Json;
  outputSchema: Json;
  description: string;
}

function operationOf(doc: Json, operationId: string): { path: string; operation: Json } {
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    const operation = (item as Json).get;
    if (operation?.operationId === operationId) return { path, operation };
  }
  throw new Error(`the OpenAPI document has no GET operation ${operationId}`);
}

/** The schema with every `$ref` into the document replaced by what it names. */
function standAlone(doc: Json, node: unknown): any {
  if (Array.isArray(node)) return node.map((n) => standAlone(doc, n));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Json;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, standAlone(doc, v)]));
  if (typeof $ref !== 'string') return own;
  const target = $ref.replace(/^#\//, '').split('/').reduce((o: Json, key) => o[key], doc);
  return { ...standAlone(doc, target), ...own };
}

const CURSOR = {
  type: 'string',
  description: 'meta.nextCursor of the previous call: the next page of the same search. Pass it alone (the filters and order travel in it).',
};

export function bindTool(doc: Json, tool: ToolDefinition): ToolBinding {
  const { path, operation } = operationOf(doc, tool.operationId);
  const location = new Map<string, 'path' | 'query'>();
  const properties: Json = {};
  const required: string[] = [];
  for (const param of (operation.parameters ?? []) as Json[]) {
    if (param.in !== 'path' && param.in !== 'query') continue;
    if (tool.omit?.includes(param.name)) continue;
    location.set(param.name, param.in);
    properties[param.name] = standAlone(doc, { ...param.schema, ...(param.description ? { description: param.description } : {}) });
    if (param.required) required.push(param.name);
  }
  const body = standAlone(doc, operation.responses['200'].content['application/json'].schema);
  let inputSchema: Json = { type: 'object', properties, required, additionalProperties: false };
  let outputSchema: Json = body;
  if (tool.name === SEARCH_TOOL) {
    inputSchema.properties = { ...properties, cursor: CURSOR };
    body.properties.meta.properties.nextCursor = { type: 'string', description: 'Pass it as `cursor` for the next page; absent on the last one.' };
  } else if (tool.name === COMPARE_TOOL) {
    const { slug, ...others } = properties;
    inputSchema = {
      ...inputSchema,
      properties: { slugs: { type: 'array', items: slug, minItems: COMPARE_MIN, maxItems: COMPARE_MAX, description: 'The spaces to compare, by slug.' }, ...others },
      required: ['slugs', ...required.filter((name) => name !== 'slug')],
    };
    outputSchema = { type: 'object', properties: { spaces: { type: 'array', items: body } }, required: ['spaces'], additionalProperties: false };
  }
  const returns = [operation.summary, operation.description].filter(Boolean).join('. ');
  return { tool, path, location, inputSchema, outputSchema, description: `${tool.use}\n\nReturns (as ${tool.operationId} of the REST API): ${returns}` };
}
