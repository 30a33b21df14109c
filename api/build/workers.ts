/**
 * The loader's worker threads: they read the files a build holds in memory into shared memory
 * (SharedArrayBuffer: the loading thread keeps the very bytes a worker read and hashed, nothing is
 * copied), take each file's sha256, and check each NDJSON file held in memory against its line
 * index (ndjson.ts). They read synchronously, so the reading goes on while the loading thread
 * builds the engine: read on the thread pool, each step of a read waited for the loading thread
 * to take the step before it.
 */
import { Worker } from 'node:worker_threads';
import type { NdjsonLines } from './ndjson.ts';

/** The line tables of an NDJSON file (NdjsonLines without its bytes). */
export type LineTables = Omit<NdjsonLines, 'bytes'>;

/** A file read by a worker: its sha256, and its bytes when they were asked for. */
export interface FileRead { sha256: string; bytes?: Uint8Array }

type Job =
  | { kind: 'read'; path: string; keep: boolean }
  | { kind: 'ndjson'; path: string; indexPath: string; name: string; nullable: boolean };
export type LoadJob = Job & { id: number };
export type LoadReply = { id: number } & (
  | { file: FileRead }
  | { file: FileRead; index: FileRead; lines?: LineTables; error?: string }
  | { failure: string }
);

/** An NDJSON file and its line index as a worker read them: their sha256, their bytes, and the lines unless they do not fit (`error`). */
export interface NdjsonRead { file: { sha256: string; bytes: Buffer }; index: { sha256: string; bytes: Buffer }; lines?: NdjsonLines; error?: string }

// compiled, the worker is JavaScript beside this module; from source (tsx), TypeScript that tsx loads
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './load-worker.ts' : './load-worker.js', import.meta.url);

function startWorker(): Worker {
  if (!WORKER.pathname.endsWith('.ts')) return new Worker(WORKER);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER.href)}); })`, { eval: true });
}

const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

type Pending = { resolve: (reply: LoadReply) => void; reject: (err: Error) => void };

export class LoadWorkers {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private next = 0;

  constructor(count: number) {
    this.workers = Array.from({ length: count }, () => {
      const w = startWorker();
      w.on('message', (reply: LoadReply) => {
        this.pending.get(reply.id)?.resolve(reply);
        this.pending.delete(reply.id);
      });
      w.on('error', (err) => {
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
      return w;
    });
  }

  /** Jobs go to the workers in turn, each worker's in the order given. */
  private async run(job: Job): Promise<LoadReply> {
    const id = this.next++;
    const reply = await new Promise<LoadReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[id % this.workers.length].postMessage({ ...job, id });
    });
    if ('failure' in reply) throw new Error(reply.failure);
    return reply;
  }

  /** A file's sha256, and its bytes (in shared memory) with `keep`. */
  async read(path: string, keep: boolean): Promise<{ sha256: string; bytes?: Buffer }> {
    const { file } = await this.run({ kind: 'read', path, keep }) as { file: FileRead };
    return { sha256: file.sha256, bytes: file.bytes && asBuffer(file.bytes) };
  }

  /** An NDJSON file and its line index, read and hashed, and its lines checked against the index (ndjsonLines). */
  async ndjson(path: string, indexPath: string, name: string, nullable: boolean): Promise<NdjsonRead> {
    const r = await this.run({ kind: 'ndjson', path, indexPath, name, nullable }) as { file: FileRead; index: FileRead; lines?: LineTables; error?: string };
    const bytes = asBuffer(r.file.bytes!);
    return {
      file: { sha256: r.file.sha256, bytes }, index: { sha256: r.index.sha256, bytes: asBuffer(r.index.bytes!) },
      lines: r.lines && { bytes, ...r.lines }, error: r.error,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
