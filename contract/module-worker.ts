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

/**
 * A module worker that runs jobs, started on the first and again after it stops: each job is posted
 * as `{ id, job }` and settled by the reply of that id (`settle`: the job's result, or the Error it
 * fails with). `idleUnref`: an idle worker keeps no process alive.
 */
export class JobWorker<Job, Reply extends { id: number }, Result> {
  private worker: Worker | undefined;
  private next = 0;
  private readonly pending = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly callerUrl: string,
    private readonly name: string,
    private readonly settle: (reply: Reply) => Result | Error,
    private readonly opts: { idleUnref?: boolean } = {},
  ) {}

  /** 'page worker' for the module page-worker */
  private get label(): string {
    return this.name.replaceAll('-', ' ');
  }

  run(job: Job): Promise<Result> {
    const w = this.started();
    const id = this.next++;
    if (this.opts.idleUnref) w.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ id, job });
    });
  }

  /** Starts the worker now, so that its first job does not wait for it to load. */
  start(): void {
    this.started();
  }

  /** Stops the worker, refusing its jobs; a later job starts another. */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.refuseAll(new Error(`the ${this.label} was stopped`));
    await w?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = startModuleWorker(this.callerUrl, this.name);
    w.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.opts.idleUnref && this.pending.size === 0) w.unref();
      const settled = this.settle(reply);
      if (settled instanceof Error) p?.reject(settled);
      else p?.resolve(settled);
    });
    const fail = (err: Error) => {
      if (this.worker !== w) return; // stopped: its jobs were refused then
      this.worker = undefined;
      this.refuseAll(err);
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the ${this.label} stopped (exit code ${code})`)));
    return (this.worker = w);
  }

  private refuseAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
