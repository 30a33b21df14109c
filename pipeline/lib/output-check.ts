/**
 * Checks the lines of the NDJSON files on a worker thread (output-check-worker.ts) while the main
 * thread goes on reading rows from DuckDB and writing them: parsing and checking every line is
 * most of the work of writing the listing files; it no longer waits for the writing nor the
 * writing for it. Nothing is published before every line was checked: `slugs` answers only once
 * every batch sent before it was checked, and fails with the first bad line.
 */
import { Worker } from 'node:worker_threads';
import type { NDJSON_BUILD_FILES } from '../../contract/build.ts';
import { BuildError, type BuildFailureRule } from './errors.ts';

/** Batches sent and not yet checked, at most: bounds the lines held in memory while the worker catches up. */
const MAX_BATCHES_IN_FLIGHT = 8;

export interface LineBatch {
  kind: 'batch';
  id: number;
  /** the 0-based line number of the batch's first line, in every file of the batch */
  first: number;
  /** the same lines of several files, checked row by row across the files */
  files: { name: string; schema: keyof typeof NDJSON_BUILD_FILES; lines: string[]; keepSlugs: boolean }[];
}
export type CheckRequest = LineBatch | { kind: 'slugs'; id: number; file: string };
export interface CheckReply {
  id: number;
  failure?: { rule?: BuildFailureRule; message: string };
  slugs?: string[];
}

/** A worker running a TypeScript module: tsx's loader is registered in its thread first (a Node 20 worker does not inherit it). */
function startWorker(module: URL): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`, { eval: true });
}

export class OutputChecker {
  private readonly worker = startWorker(new URL('./output-check-worker.ts', import.meta.url));
  private readonly waiting = new Map<number, (reply: CheckReply) => void>();
  /** replies of the batches in flight, oldest first */
  private readonly inFlight: Promise<CheckReply>[] = [];
  private nextId = 0;
  private failure: Error | null = null;

  constructor() {
    this.worker.on('message', (reply: CheckReply) => {
      if (reply.failure && !this.failure) {
        const { rule, message } = reply.failure;
        this.failure = rule ? new BuildError(rule, message) : new Error(`checking the outputs failed: ${message}`);
      }
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    this.worker.on('error', (err) => {
      this.failure ??= err;
      for (const [id, answer] of this.waiting) answer({ id });
      this.waiting.clear();
    });
  }

  private request(request: Omit<LineBatch, 'id'> | { kind: 'slugs'; file: string }): Promise<CheckReply> {
    const id = this.nextId++;
    const reply = new Promise<CheckReply>((resolve) => this.waiting.set(id, resolve));
    this.worker.postMessage({ ...request, id });
    return reply;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** Sends a batch of lines; waits while the worker is MAX_BATCHES_IN_FLIGHT batches behind. */
  async send(first: number, files: LineBatch['files']): Promise<void> {
    this.throwIfFailed();
    this.inFlight.push(this.request({ kind: 'batch', first, files }));
    while (this.inFlight.length > MAX_BATCHES_IN_FLIGHT) await this.inFlight.shift();
    this.throwIfFailed();
  }

  /** The slugs of a file's lines, in line order, once every line sent was checked (kept when the batch said keepSlugs). */
  async slugs(file: string): Promise<string[]> {
    this.throwIfFailed();
    const reply = await this.request({ kind: 'slugs', file });
    this.inFlight.length = 0;
    this.throwIfFailed();
    return reply.slugs!;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
