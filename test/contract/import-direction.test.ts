import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The layers from the ground up: a file may import from its own layer and the ones below it,
 * never from one above (inside the API, the engine knows nothing of the loader, and neither of HTTP).
 */
const LAYERS = [['contract'], ['api/catalog'], ['api/loading'], ['api/leads'], ['api/http']];

const layerOf = (path: string) => LAYERS.findIndex((folders) => folders.some((f) => path.startsWith(`${f}/`)));

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** The repository paths a source file imports (static, re-exported and dynamic imports of relative paths). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

describe('import direction', () => {
  it('no file imports from a layer above its own', () => {
    const upward: string[] = [];
    for (const folders of LAYERS) {
      for (const file of folders.flatMap(sourcesUnder)) {
        for (const imported of importsOf(file)) {
          if (layerOf(imported) > layerOf(file)) upward.push(`${file} -> ${imported}`);
        }
      }
    }
    assert.deepEqual(upward, []);
  });

  it('the pipeline and the API meet only in the contract (and the build files)', () => {
    const across = [
      ...sourcesUnder('pipeline').flatMap((file) => importsOf(file).filter((i) => i.startsWith('api/')).map((i) => `${file} -> ${i}`)),
      ...sourcesUnder('api').flatMap((file) => importsOf(file).filter((i) => i.startsWith('pipeline/')).map((i) => `${file} -> ${i}`)),
    ];
    assert.deepEqual(across, []);
  });

  it('reads the imports it checks', () => {
    assert.ok(importsOf('api/catalog/engine.ts').includes('api/catalog/listing-lines.ts'));
    assert.ok(importsOf('api/loading/store.ts').includes('api/loading/load.ts'));
  });
});
