import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BUILD_FILES, BUILD_FORMAT_VERSION, KEYED_BUILD_FILES, LEAD_ROUTING, LOCALIZED_BUILD_FILES, ManifestSchema, NDJSON_BUILD_FILES, RESEARCH_FILES, SUGGEST_FILES } from './build.ts';
import { LISTING_ORDERS, ListingColumnsHeaderSchema } from './listing-columns.ts';

/**
 * sha256 of the build format: its version and the JSON Schema of every build file. The pipeline
 * writes it into the manifest and the server refuses a build made against another contract.
 */
export const CONTRACT_HASH = createHash('sha256').update(JSON.stringify({
  formatVersion: BUILD_FORMAT_VERSION,
  manifest: z.toJSONSchema(ManifestSchema, { io: 'input', unrepresentable: 'any' }),
  files: Object.fromEntries(Object.entries(BUILD_FILES).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })])),
  localized: Object.fromEntries(Object.entries(LOCALIZED_BUILD_FILES).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })])),
  keyed: Object.fromEntries(Object.entries(KEYED_BUILD_FILES).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })])),
  ndjson: Object.fromEntries(Object.entries(NDJSON_BUILD_FILES).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })])),
  listingColumns: { header: z.toJSONSchema(ListingColumnsHeaderSchema, { io: 'input', unrepresentable: 'any' }), orders: LISTING_ORDERS },
  leadRouting: z.toJSONSchema(LEAD_ROUTING.schema, { io: 'input', unrepresentable: 'any' }),
  suggest: z.toJSONSchema(SUGGEST_FILES.lineSchema, { io: 'input', unrepresentable: 'any' }),
  research: Object.fromEntries(Object.entries(RESEARCH_FILES).map(([name, s]) => [name, z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })])),
})).digest('hex');
