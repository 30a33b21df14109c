/**
 * The examples of the published document: real requests and responses of a build of the
 * committed sample (data/), collected by `npm run openapi` (scripts/openapi-examples.ts) into
 * api/openapi/examples.json and placed beside the schemas they illustrate.
 */
import { readFileSync } from 'node:fs';

type Json = Record<string, any>;

export interface OperationExamples {
  /** one value per parameter of the operation (path, query and header), by name */
  parameters: Record<string, string | number>;
  /** the request the response example answers (`GET /v1/…?…`); absent when the body is not shown */
  request?: string;
  /** the request body sent (the enquiries) */
  body?: unknown;
  /** the 200 body: parsed JSON, or the text of a text body */
  response?: unknown;
  /** lists of the response cut to their first entries, text to its first lines */
  shortened?: boolean;
}

export interface Examples {
  /** by operationId */
  operations: Record<string, OperationExamples>;
  /** error responses, by the name of the response component (BadRequest, NotFound) */
  errors: Record<string, { request: string; response: unknown }>;
}

export const EXAMPLES_PATH = new URL('./examples.json', import.meta.url);

let published: Examples | undefined;
/** The committed examples, read once. */
export function publishedExamples(): Examples {
  published ??= JSON.parse(readFileSync(EXAMPLES_PATH, 'utf8')) as Examples;
  return published;
}

function sample(request: string | undefined, value: unknown, shortened?: boolean): Json {
  const summary = request ? `${request} on the sample build` : 'From the sample build';
  return { sample: shortened ? { summary, description: 'Lists cut to their first entries, text to its first lines.', value } : { summary, value } };
}

/**
 * Puts the examples into a document: `example` on each parameter, `examples.sample` on the 200
 * body (one media type), the request body and the error responses. Operations and parameters
 * the examples do not know are left as they are.
 */
export function applyExamples(doc: Json, examples: Examples): void {
  for (const item of Object.values(doc.paths as Json)) {
    for (const method of ['get', 'post']) {
      const op = item[method] as Json | undefined;
      const ex = op && examples.operations[op.operationId];
      if (!ex) continue;
      for (const param of op.parameters ?? []) {
        if (!param.$ref && param.name in ex.parameters) param.example = ex.parameters[param.name];
      }
      const content = op.responses['200']?.content as Json | undefined;
      const media = content && Object.keys(content);
      // an answer of several media types (a release's files) shows its JSON one
      const shownAs = media?.length === 1 ? media[0] : media?.find((m) => m === 'application/json' && typeof ex.response === 'object');
      if (ex.response !== undefined && shownAs) content![shownAs].examples = sample(ex.request, ex.response, ex.shortened);
      if (ex.body !== undefined && op.requestBody) op.requestBody.content['application/json'].examples = sample(undefined, ex.body);
      for (const param of op.parameters ?? []) {
        const name = param.$ref?.split('/').pop();
        const component = name && doc.components.parameters?.[name];
        if (component && name in ex.parameters) component.example = ex.parameters[name];
      }
    }
  }
  for (const [name, { request, response }] of Object.entries(examples.errors)) {
    const content = doc.components.responses[name]?.content?.['application/problem+json'];
    if (content) content.examples = sample(request, response);
  }
}
