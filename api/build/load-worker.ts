/**
 * A thread of LoadWorkers (workers.ts): reads a file of a build into shared memory and takes its
 * sha256; for an NDJSON file held in memory, also its line index, its lines checked against it
 * (ndjson.ts). It reads synchronously: its work goes on while the loading thread is busy.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { ndjsonLines } from './ndjson.ts';
import type { FileRead, LoadJob, LoadReply } from './workers.ts';

/** A whole file in shared memory (the loading thread keeps these very bytes: nothing is copied), and its sha256. */
function readFile(path: string, keep: boolean): FileRead & { buffer: Buffer } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.from(new SharedArrayBuffer(size));
    let filled = 0;
    for (let n; filled < size && (n = readSync(fd, buffer, filled, size - filled, filled)) > 0;) filled += n;
    const bytes = filled === size ? buffer : buffer.subarray(0, filled);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: keep ? bytes : undefined, buffer: bytes };
  } finally {
    closeSync(fd);
  }
}

const transferable = (a: { buffer: ArrayBufferLike }) => a.buffer as ArrayBuffer;

parentPort!.on('message', (job: LoadJob) => {
  let reply: LoadReply;
  let transfer: ArrayBuffer[] = [];
  try {
    if (job.kind === 'read') {
      const { sha256, bytes } = readFile(job.path, job.keep);
      reply = { id: job.id, file: { sha256, bytes } };
    } else {
      const file = readFile(job.path, true), index = readFile(job.indexPath, true);
      let lines;
      let error;
      try {
        lines = ndjsonLines(file.buffer, index.buffer, job.name, job.nullable);
        transfer = [transferable(lines.starts), transferable(lines.sitePaths), transferable(lines.firstSitePath)];
      } catch (err) {
        error = (err as Error).message;
      }
      reply = {
        id: job.id, file: { sha256: file.sha256, bytes: file.bytes }, index: { sha256: index.sha256, bytes: index.bytes },
        lines: lines && { starts: lines.starts, sitePaths: lines.sitePaths, firstSitePath: lines.firstSitePath }, error,
      };
    }
  } catch (err) {
    reply = { id: job.id, failure: (err as Error).message };
  }
  parentPort!.postMessage(reply, transfer);
});
