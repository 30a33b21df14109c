/**
 * Checks the NDJSON files DuckDB wrote (listing-rows.ts) on worker threads
 * (output-check-worker.ts): each file is read back once, its digests taken (sha256, xxh64), and every line parsed and
 * checked against its contract schema, while the main thread goes on with DuckDB and the hubs.
 * Nothing is published before every line was checked: a file's check answers only once every line
 * was checked, or fails with its first bad line.
 */
import type { Worker } from 'node:worker_threads';
import type { NDJSON_BUILD_FILES } from '../../contract/build.ts';
import type { FileDigests } from '../../contract/file-digests.ts';
import { startModuleWorker } from '../../contract/module-worker.ts';
import { BuildError, type BuildFailureRule } from './errors.ts';

/** Files checked at once: one worker each. Two keeps a core for DuckDB and the main thread on a small machine, and halves the wall time of the checks. */
const WORKERS = 2;

export interface FileCheckRequest {
  /** the file's name in the build (named in failures) */
  name: string;
  /** its path on disk */
  path: string;
  schema: keyof typeof NDJSON_BUILD_FILES;
  /** return the `slug` of every line, in line order */
  keepSlugs: boolean;
  /** return the record index (DETAILS_INDEX: the length and CRC-32 of every line) */
  recordIndex: boolean;
  /** return the line index (contract/line-index.ts, encoded) */
  lineIndex: boolean;
}

export interface FileCheck {
  digests: FileDigests;
  lines: number;
  slugs?: string[];
  index?: Uint8Array;
  lineIndex?: Uint8Array;
}

/** A file's first bad line: its 0-based line number and the failure. */
export interface LineFailure {
  line: number;
  rule?: BuildFailureRule;
  message: string;
}

export type CheckReply = { id: number; check: FileCheck } | { id: number; failure: LineFailure };

interface Job {
  request: FileCheckRequest;
  resolve(reply: CheckReply): void;
  reject(err: Error): void;
}

export class OutputChecker {
  private readonly idle: Worker[] = [];
  private readonly workers: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 0;
  /** a worker's uncaught error (the worker is gone): every check not yet answered, and every later one, fails with it */
  private failure: Error | null = null;

  constructor(workers = WORKERS) {
    for (let k = 0; k < workers; k++) {
      const worker = startModuleWorker(import.meta.url, 'output-check-worker');
      worker.on('message', (reply: CheckReply) => {
        const job = this.running.get(worker);
        this.running.delete(worker);
        job?.resolve(reply);
        this.idle.push(worker);
        this.dispatch();
      });
      worker.on('error', (err) => {
        this.failure ??= new Error(`checking the outputs failed: ${err.stack ?? err.message}`);
        for (const job of [...this.running.values(), ...this.queue.splice(0)]) job.reject(this.failure);
        this.running.clear();
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  private dispatch(): void {
    while (this.idle.length && this.queue.length) {
      const worker = this.idle.shift()!;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.postMessage({ ...job.request, id: this.nextId++ });
    }
  }

  /** Queues a file's check; the answer is the check, or the file's first bad line. */
  check(request: FileCheckRequest): Promise<CheckReply> {
    if (this.failure) return Promise.reject(this.failure);
    const reply = new Promise<CheckReply>((resolve, reject) => this.queue.push({ request, resolve, reject }));
    this.dispatch();
    return reply;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * The checks of files whose lines belong together (line i of each is one listing), each asked for
 * on its own (OutputChecker.check), or the first bad line among them: the lowest line number, then
 * the first file in `replies`' order (the order the pipeline reports a listing's lines in).
 */
export async function checksOf<K extends string>(replies: Record<K, Promise<CheckReply>>): Promise<Record<K, FileCheck>> {
  const names = Object.keys(replies) as K[];
  const answers = await Promise.all(names.map((k) => replies[k]));
  let first: LineFailure | undefined;
  for (const reply of answers) {
    if ('failure' in reply && (!first || reply.failure.line < first.line)) first = reply.failure;
  }
  if (first) throw first.rule ? new BuildError(first.rule, first.message) : new Error(`checking the outputs failed: ${first.message}`);
  return Object.fromEntries(names.map((k, i) => [k, (answers[i] as { check: FileCheck }).check])) as Record<K, FileCheck>;
}
