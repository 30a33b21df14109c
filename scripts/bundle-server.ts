/**
 * The API server as `make serve` runs it: api/server.ts and the loader's, the release digests' and the pages' workers bundled by esbuild
 * into dist/server (the entry points, and a chunk for each module imported lazily), with the files
 * the server reads beside its modules copied next to them. Part of `npm run build`.
 *
 * Why a bundle: Node 20 resolves, reads and links each of the ~400 modules the server imports one by
 * one (zod alone is 94), about 0.25 s of the start-up's critical thread at 100,000 listings; a
 * bundle is a few files. Native addons, and what is resolved at run time rather than imported,
 * stay in node_modules.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CONTRACT_HASH } from '../contract/hash.ts';

const OUT = 'dist/server';

/** Files read beside the module that reads them (`new URL('./…', import.meta.url)`, import.meta.dirname): every bundled module is in OUT. */
const BESIDE_MODULES = ['api/site/auth.md', 'api/openapi/examples.json', 'api/site/templates', 'api/leads/migrations', 'api/catalog/kernels'];

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: ['api/server.ts', 'api/loading/load-worker.ts', 'api/loading/digest-worker.ts', 'api/site/page-worker.ts'],
  entryNames: '[name]',
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', '@node-rs/xxhash', 'pg-native'],
  // the CommonJS packages bundled into ES modules call require() for Node's own modules
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
  // the hash the source computes (contract/hash.ts), a constant of the bundle
  define: { BUNDLED_CONTRACT_HASH: JSON.stringify(CONTRACT_HASH) },
});
// the kernels' binaries (npm run kernels has assembled them), not their sources
for (const path of BESIDE_MODULES) cpSync(path, join(OUT, path.split('/').pop()!), { recursive: true, filter: (from) => !from.endsWith('.wat') });
