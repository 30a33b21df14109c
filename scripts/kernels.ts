/**
 * `npm run kernels` (the first step of `npm run build`; `make kernels`, a prerequisite of the
 * targets that run the engine from source): assembles the engine's WebAssembly kernels,
 * api/catalog/kernels/*.wat, with WABT into the .wasm beside each, which api/catalog/kernels.ts
 * reads and the server's bundle carries. Given .wat paths, assembles only those.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import wabt from 'wabt';

const KERNELS_DIR = join(import.meta.dirname, '..', 'api', 'catalog', 'kernels');

export const kernelSources = (): string[] => readdirSync(KERNELS_DIR).filter((f) => f.endsWith('.wat')).sort().map((f) => join(KERNELS_DIR, f));

/** The binary of each .wat (validated: a fault names its file and line). */
export async function assembleKernels(paths: readonly string[]): Promise<Map<string, Uint8Array>> {
  const assembler = await wabt();
  return new Map(paths.map((path) => {
    const module = assembler.parseWat(path, readFileSync(path, 'utf8'));
    try {
      module.validate();
      return [path, module.toBinary({}).buffer];
    } finally {
      module.destroy();
    }
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const given = process.argv.slice(2);
  try {
    for (const [path, binary] of await assembleKernels(given.length ? given : kernelSources())) {
      writeFileSync(path.replace(/\.wat$/, '.wasm'), binary);
    }
  } catch (e) {
    // WABT's message names each fault's file, line and column; its stack is minified
    console.error((e as Error).message);
    process.exit(1);
  }
}
