import { availableParallelism } from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { LoadTask } from './load-worker.ts';

// Compiled (dist/app, `make serve`), the worker imports load-worker.js. From the TypeScript source
// (tests, tsx), it registers tsx itself first: loader hooks are per thread.
const compiled = import.meta.url.endsWith('.js');
const workerModule = JSON.stringify(new URL(compiled ? './load-worker.js' : './load-worker.ts', import.meta.url).href);
const BOOTSTRAP = compiled
  ? `import(${workerModule}).catch((err) => { console.error(err); process.exit(1); });`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((m) => { m.register(); return import(${workerModule}); })
  .catch((err) => { console.error(err); process.exit(1); });`;

type Pending = { task: LoadTask; resolve: (v: unknown) => void; reject: (e: Error) => void };
type TaskInput = LoadTask extends infer T ? (T extends LoadTask ? Omit<T, 'id'> : never) : never;

/** A few worker threads running load tasks first come, first served. */
export class LoadPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private readonly running = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(size = Math.max(1, Math.min(3, availableParallelism())), resourceLimits?: ResourceLimits) {
    for (let k = 0; k < size; k++) {
      const w = new Worker(BOOTSTRAP, { eval: true, resourceLimits });
      w.unref();
      w.on('message', (msg: { id: number; value?: unknown; error?: string }) => {
        const p = this.running.get(msg.id);
        this.running.delete(msg.id);
        this.idle.push(w);
        if (p) (msg.error ? p.reject(new Error(msg.error)) : p.resolve(msg.value));
        this.pump();
      });
      w.on('error', (err) => {
        for (const p of [...this.running.values(), ...this.queue]) p.reject(err);
        this.running.clear();
        this.queue.length = 0;
      });
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  run<T>(input: TaskInput): Promise<T> {
    if (this.closed) return Promise.reject(new Error('load pool closed'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task: { ...input, id: this.nextId++ } as LoadTask, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /**
   * Runs on the calling thread the queued tasks no worker has started yet that `pick` selects
   * (a thread that would otherwise wait for them).
   */
  async runQueuedHere(pick: (task: LoadTask) => boolean, run: (task: LoadTask) => Promise<unknown>): Promise<void> {
    for (;;) {
      const k = this.queue.findIndex((p) => pick(p.task));
      if (k < 0) return;
      const [p] = this.queue.splice(k, 1);
      await run(p.task).then(p.resolve, (err: Error) => p.reject(err));
    }
  }

  private pump() {
    while (this.idle.length && this.queue.length) {
      const w = this.idle.pop()!;
      const p = this.queue.shift()!;
      this.running.set(p.task.id, p);
      w.postMessage(p.task);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
