/**
 * sha256 of the files a build holds in memory, on worker threads while the loading thread parses
 * and indexes. Files are read into shared memory (SharedArrayBuffer), so a worker hashes the very
 * bytes the loader keeps: nothing is copied (Web Crypto's digest copied every file on this thread
 * before hashing it on the thread pool: half a second and the size of the build in memory at 100,000
 * listings).
 */
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

// a worker of its own code: the same under tsx and compiled
const HASHER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, bytes }) => parentPort.postMessage({ id, hex: createHash('sha256').update(bytes).digest('hex') }));
`;

export class Hashers {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (hex: string) => void; reject: (err: Error) => void }>();
  private next = 0;

  constructor(count: number) {
    this.workers = Array.from({ length: count }, () => {
      const w = new Worker(HASHER, { eval: true });
      w.on('message', ({ id, hex }: { id: number; hex: string }) => {
        this.pending.get(id)?.resolve(hex);
        this.pending.delete(id);
      });
      w.on('error', (err) => {
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
      return w;
    });
  }

  /** The sha256 (hex) of bytes in shared memory (readShared). */
  sha256(bytes: Buffer): Promise<string> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[id % this.workers.length].postMessage({ id, bytes });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** A whole file, read into shared memory with one request to the thread pool (fs.readFile reads in small steps). */
export async function readShared(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const buf = Buffer.from(new SharedArrayBuffer(size));
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await fh.read(buf, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === size ? buf : buf.subarray(0, filled);
  } finally {
    await fh.close();
  }
}

/**
 * readShared, `concurrency` files at a time in the order asked for. Asked all at once, unqueued
 * reads would arrive all together: each read's steps wait on the thread pool behind the others'.
 */
export function readInOrder(concurrency: number): (path: string) => Promise<Buffer> {
  const waiting: Array<() => void> = [];
  let running = 0;
  const done = () => {
    running--;
    waiting.shift()?.();
  };
  return async (path) => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await readShared(path);
    } finally {
      done();
    }
  };
}
