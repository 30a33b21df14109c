import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BUILD_FILES, BUILD_FORMAT_VERSION, KEYED_BUILD_FILES, LEAD_ROUTING, LOCALIZED_BUILD_FILES, ManifestSchema, NDJSON_BUILD_FILES, RESEARCH_FILES, SUGGEST_FILES } from './build.ts';
import { LISTING_ORDERS, ListingColumnsHeaderSchema } from './listing-columns.ts';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const jsonSchemas = (files: Record<string, z.ZodType>) => Object.fromEntries(Object.entries(files).map(([name, schema]) => [name, jsonSchema(schema)]));

/** sha256 of the build format: its version and the JSON Schema of every build file. */
function contractHash(): string {
  return createHash('sha256').update(JSON.stringify({
    formatVersion: BUILD_FORMAT_VERSION,
    manifest: jsonSchema(ManifestSchema),
    files: jsonSchemas(BUILD_FILES),
    localized: jsonSchemas(LOCALIZED_BUILD_FILES),
    keyed: jsonSchemas(KEYED_BUILD_FILES),
    ndjson: jsonSchemas(NDJSON_BUILD_FILES),
    listingColumns: { header: jsonSchema(ListingColumnsHeaderSchema), orders: LISTING_ORDERS },
    leadRouting: jsonSchema(LEAD_ROUTING.schema),
    suggest: jsonSchema(SUGGEST_FILES.lineSchema),
    research: jsonSchemas(RESEARCH_FILES),
  })).digest('hex');
}

/**
 * The hash as the server's bundle was made with it (scripts/bundle-server.ts defines it): a bundle
 * is built from this very code, and computing the JSON Schemas costs ~40 ms of the server's
 * start-up. Undefined where the source runs.
 */
declare const BUNDLED_CONTRACT_HASH: string | undefined;

/**
 * The contract's hash (contractHash). The pipeline writes it into the manifest and the server
 * refuses a build made against another contract.
 */
export const CONTRACT_HASH = typeof BUNDLED_CONTRACT_HASH === 'string' ? BUNDLED_CONTRACT_HASH : contractHash();
