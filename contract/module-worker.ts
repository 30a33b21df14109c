/**
 * A worker thread on a module of this tree, for the pipeline's checkers and the API's loaders
 * alike: compiled (dist/app, or bundled: dist/server), the JavaScript beside the caller; from source, the TypeScript, with
 * tsx's loader registered in the thread first (a Node 20 worker does not inherit it).
 */
import { Worker } from 'node:worker_threads';

/** Starts the module `name` (no extension) beside the caller's module `callerUrl` (its import.meta.url). */
export function startModuleWorker(callerUrl: string, name: string): Worker {
  const fromSource = callerUrl.endsWith('.ts');
  const module = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, callerUrl);
  if (!fromSource) return new Worker(module);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`, { eval: true });
}
