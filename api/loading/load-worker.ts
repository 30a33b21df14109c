/**
 * A thread of LoadWorkers (workers.ts): reads files of a build, takes their xxh64 and moves the
 * bytes the loading thread keeps to it (transferred, not copied); for files held in memory whose
 * structure the loader relies on, checks it too: an NDJSON file against its line index
 * (ndjson.ts), the autocomplete's files (suggest.ts), every entry of listing-columns.bin
 * (contract/listing-columns.ts). It reads synchronously: its work goes on while the loading thread
 * is busy. From listing-columns.bin it also makes the price tables (api/catalog/price-tables.ts)
 * that the engine is built with.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { xxh64Digester, xxh64Hex } from '../../contract/file-digests.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import { indexCitiesOf } from './city-texts.ts';
import { jsonFileOf } from './json-file.ts';
import { readWhole } from './read-whole.ts';
import { ndjsonLines } from './ndjson.ts';
import type { LoadJob, LoadReply, StructureCheck, Table } from './workers.ts';

/**
 * The checks of the autocomplete and of the columns' entries import the contract (zod and every
 * schema: a few hundred ms in a new thread). Their files are the last the loader waits for, so
 * they are imported while the first files are read, not before them.
 */
const contractChecks = Promise.all([import('./suggest.ts'), import('../../contract/listing-columns.ts'), import('../catalog/price-tables.ts')])
  .then(([{ checkSuggestFiles }, { decodeListingColumns }, { priceTables, priceTableBuffers }]) => ({ checkSuggestFiles, decodeListingColumns, priceTables, priceTableBuffers }));

/** the buffers readFile allocated (each file's own) */
const ownBuffers = new WeakSet<ArrayBufferLike>();

/**
 * A whole file in memory of its own, and its xxh64. Its buffer is moved to the loading thread with
 * the reply (transferred, not copied). Not shared memory: V8 copies out of a SharedArrayBuffer
 * several times slower, and every response spliced from these bytes would pay for it.
 */
function readFile(path: string): { xxh64: string; bytes: Buffer } {
  const fd = openSync(path, 'r');
  try {
    const bytes = readWhole(fd, Buffer.allocUnsafeSlow);
    ownBuffers.add(bytes.buffer);
    return { xxh64: xxh64Hex(bytes), bytes };
  } finally {
    closeSync(fd);
  }
}

/** Where a file that is only hashed is read: memory used once and then reused costs half of fresh memory to fill on this VM. */
const chunk = Buffer.allocUnsafeSlow(4 << 20);

/** A file's xxh64, its bytes read a chunk at a time and not kept. */
function hashFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const hash = xxh64Digester();
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) hash.update(chunk.subarray(0, n));
    return hash.digest();
  } finally {
    closeSync(fd);
  }
}

/** The tables a structure check makes (arrays in this thread's memory, moved to the loading thread). */
async function check(c: StructureCheck, files: Buffer[]): Promise<Table[]> {
  if (c.kind === 'suggest') return (await contractChecks).checkSuggestFiles(files[0], files.slice(1));
  const { starts, sitePaths, firstSitePath } = ndjsonLines(files[0], files[1], c.name, c.lines);
  return [starts, sitePaths, firstSitePath];
}

parentPort!.on('message', async (job: LoadJob) => {
  let reply: LoadReply;
  let transfer: ArrayBuffer[] = [];
  try {
    if (job.kind === 'read') {
      reply = { id: job.id, files: [job.keep ? readFile(job.path) : { xxh64: hashFile(job.path) }] };
    } else if (job.kind === 'columns') {
      const file = readFile(job.path);
      const { decodeListingColumns, priceTables, priceTableBuffers } = await contractChecks;
      try {
        const prices = priceTables(decodeListingColumns(file.bytes));
        transfer = priceTableBuffers(prices);
        reply = { id: job.id, files: [file], prices };
      } catch (err) {
        reply = { id: job.id, files: [file], error: (err as Error).message };
      }
    } else if (job.kind === 'json') {
      const { xxh64, bytes } = readFile(job.path);
      try {
        const { value, json } = jsonFileOf<Record<string, unknown>>(bytes, job.siteUrl);
        const cities = job.cities ? indexCitiesOf(json, value.cities as PriceIndexCity[]) : undefined;
        if (cities) transfer = [cities.spans.buffer as ArrayBuffer, cities.published.buffer as ArrayBuffer];
        reply = { id: job.id, files: [{ xxh64, bytes: json }], head: Object.fromEntries(job.head.map((k) => [k, value[k]])), cities };
      } catch (err) {
        reply = { id: job.id, files: [{ xxh64 }], error: (err as Error).message };
      }
    } else {
      const files = job.paths.map(readFile);
      try {
        const tables = await check(job.check, files.map((f) => f.bytes));
        transfer = tables.map((t) => t.buffer as ArrayBuffer);
        reply = { id: job.id, files, tables };
      } catch (err) {
        reply = { id: job.id, files, error: (err as Error).message };
      }
    }
  } catch (err) {
    reply = { id: job.id, failure: (err as Error).message };
  }
  // the bytes read are moved, not copied; a JSON file's resolved text (a new Buffer, maybe cut from the pool) is copied
  const moved = new Set(transfer);
  if ('files' in reply) for (const f of reply.files) if (f.bytes && ownBuffers.has(f.bytes.buffer)) moved.add(f.bytes.buffer as ArrayBuffer);
  parentPort!.postMessage(reply, [...moved]);
});
