/**
 * The document as published: built from the routes a real app registers (buildApp without a
 * build: no route reads the catalogue while it is being registered) and the canonical
 * configuration, so the committed copy does not depend on the environment it is generated in.
 */
import { buildApp } from '../api/app.ts';
import { loadConfig } from '../api/config.ts';
import { buildOpenApiDocument, CANONICAL_ENV, serializeDocument } from '../api/openapi/document.ts';
import type { Examples } from '../api/openapi/examples.ts';

export const COMMITTED_PATH = new URL('../api/openapi/openapi.json', import.meta.url);

export async function generateDocument(examples?: Examples): Promise<string> {
  const config = loadConfig({ ...CANONICAL_ENV });
  const app = await buildApp({
    config,
    catalog: { current() { throw new Error('the OpenAPI generator reads no build'); }, damaged: () => undefined },
    logger: false,
  });
  try {
    return serializeDocument(buildOpenApiDocument({ routes: app.routeDefinitions, config, examples }));
  } finally {
    await app.close();
  }
}
