/**
 * `npm run openapi`: writes the committed copy of the OpenAPI description
 * (api/openapi/openapi.json). `npm run openapi -- --check` exits 1 when the copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMMITTED_PATH, generateDocument } from '../api/openapi/generate.ts';

const text = await generateDocument();
const path = fileURLToPath(COMMITTED_PATH);
let current = '';
try { current = readFileSync(path, 'utf8'); } catch { /* first run */ }
if (process.argv.includes('--check')) {
  if (current !== text) {
    console.error(`${path} is stale: run \`npm run openapi\``);
    process.exit(1);
  }
  console.log(`${path} is up to date`);
} else if (current === text) {
  console.log(`${path} unchanged`);
} else {
  writeFileSync(path, text);
  console.log(`wrote ${path} (${text.length} bytes)`);
}
