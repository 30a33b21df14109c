/**
 * A release file's sha256 taken on a worker thread (digest-worker.ts): at 1,000,000 spaces a
 * build's release holds ~2 GB, and its compressed siblings decode to as much again each; read,
 * decoded and hashed a chunk a turn, they took seconds of the event loop after every start, and
 * their buffers made its garbage collector run the whole time. Started when a release is first checked.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../contract/module-worker.ts';
import type { ContentEncoding } from '../../contract/research.ts';

/** `fd`: a descriptor of this process, open until the job ends; `encoding`: decoded first */
export interface DigestJob { fd: number; encoding?: ContentEncoding }
export interface Digest { hash: string; bytes: number }
export type DigestReply = { id: number; digested?: Digest; error?: string };

let worker: Worker | undefined;
let next = 0;
const pending = new Map<number, { resolve: (d: Digest) => void; reject: (e: Error) => void }>();

function started(): Worker {
  if (worker) return worker;
  const w = startModuleWorker(import.meta.url, 'digest-worker');
  w.on('message', ({ id, digested, error }: DigestReply) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) w.unref();
    if (digested) p?.resolve(digested);
    else p?.reject(new Error(error));
  });
  const fail = (err: Error) => {
    if (worker !== w) return;
    worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the digest worker stopped (exit code ${code})`)));
  return (worker = w);
}

/** The sha256 (`sha256:<hex>`) and length of the file open as `fd`, or of what it decodes to. */
export function digestOf(job: DigestJob): Promise<Digest> {
  const w = started();
  const id = next++;
  // an idle worker keeps no process alive
  w.ref();
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, job });
  });
}
