/**
 * `npm run openapi`: collects the examples from a fresh build of the committed sample
 * (api/openapi/examples.json, scripts/openapi-examples.ts), then writes the committed copy of
 * the OpenAPI description (api/openapi/openapi.json). `npm run openapi -- --check` exits 1 when
 * either copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXAMPLES_PATH, type Examples } from '../api/openapi/examples.ts';
import { COMMITTED_PATH, generateDocument } from './openapi-document.ts';
import { collectExamples, sampleApp, stableExamples } from './openapi-examples.ts';

const check = process.argv.includes('--check');
let stale = false;
let written: Examples;

function update(url: URL, text: string) {
  const path = fileURLToPath(url);
  let current = '';
  try { current = readFileSync(path, 'utf8'); } catch { /* first run */ }
  if (current === text) console.log(`${path} ${check ? 'is up to date' : 'unchanged'}`);
  else if (check) { console.error(`${path} is stale: run \`npm run openapi\``); stale = true; }
  else { writeFileSync(path, text); console.log(`wrote ${path} (${text.length} bytes)`); }
}

const sample = await sampleApp();
try {
  const examples = await collectExamples(sample);
  let committed: Examples | undefined;
  try { committed = JSON.parse(readFileSync(EXAMPLES_PATH, 'utf8')) as Examples; } catch { /* first run */ }
  // a request id or an enquiry reference alone is no change: keep the committed copy then
  const same = committed && JSON.stringify(stableExamples(committed)) === JSON.stringify(stableExamples(examples));
  written = same ? committed! : examples;
  update(EXAMPLES_PATH, `${JSON.stringify(written, null, 2)}\n`);
} finally {
  await sample.close();
}
// the document takes the examples just written, not those the sample app read at its start
if (!stale) update(COMMITTED_PATH, await generateDocument(written));
if (stale) process.exit(1);
