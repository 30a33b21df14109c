/**
 * The loader's worker threads: they read the files a build holds in memory and move them to the
 * loading thread (transferred: it keeps the very bytes a worker read and hashed, nothing is
 * copied), take each file's xxh64 (contract/file-digests.ts), and check the structure of the files the loader relies on
 * (each NDJSON file held in memory against its line index, the autocomplete's files, every entry
 * of listing-columns.bin, from which they also make the engine's price tables). They
 * read synchronously, so the reading goes on while the loading thread builds the engine: read on
 * the thread pool, each step of a read waited for the loading thread to take the step before it.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../contract/module-worker.ts';
import type { PriceTables } from '../catalog/price-tables.ts';
import type { IndexCities } from './city-texts.ts';
import type { LineKind } from './ndjson.ts';

/**
 * How many: one core is left to the loading thread, which is the longest part of a load (on two
 * cores one worker serves ~0.2 s sooner than two, which took CPU from it); a second one runs only
 * where a core is left for it.
 */
const WORKERS = Math.min(2, Math.max(1, availableParallelism() - 1));

/** A file read by a worker: its xxh64, and its bytes (moved to this thread) when they were asked for. */
export interface FileRead { xxh64: string; bytes?: Uint8Array }

/** What a worker checks of files it read: an NDJSON file and its line index (ndjsonLines), or the autocomplete's index and lines (checkSuggestFiles). */
export type StructureCheck = { kind: 'lines'; name: string; lines: LineKind } | { kind: 'suggest' };
export type Table = Float64Array | Uint32Array;

type Job =
  | { kind: 'read'; path: string; keep: boolean }
  | { kind: 'check'; paths: string[]; check: StructureCheck }
  | { kind: 'columns'; path: string }
  | { kind: 'json'; path: string; siteUrl?: string; head: string[]; cities: boolean };
export type LoadJob = Job & { id: number };
/** What a job gave: the files read, and what a check made of them (tables, prices, the `head` fields and the cities of a JSON file), or why they fail it (`error`). */
type JobResult = { files: FileRead[]; tables?: Table[]; prices?: PriceTables; head?: Record<string, unknown>; cities?: IndexCities; error?: string };
export type LoadReply = { id: number } & (JobResult | { failure: string });

/** Files a worker read and checked: their xxh64 and bytes, and the tables the check made, or why it failed (`error`). */
export interface CheckedFiles { files: { xxh64: string; bytes: Buffer }[]; tables?: Table[]; error?: string }

const asBuffer = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

type Pending = { resolve: (reply: LoadReply) => void; reject: (err: Error) => void };

export class LoadWorkers {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  /** why no job can be done any more: a worker failed or stopped, or the workers were closed */
  private gone?: Error;

  constructor(count = WORKERS) {
    this.workers = Array.from({ length: count }, () => {
      const w = startModuleWorker(import.meta.url, 'load-worker');
      w.on('message', (reply: LoadReply) => {
        this.pending.get(reply.id)?.resolve(reply);
        this.pending.delete(reply.id);
      });
      w.on('error', (err) => this.stop(err));
      // a worker that stops (terminated, out of memory, exited) answers nothing more: its jobs and every later one are refused, not left waiting
      w.on('exit', (code) => this.stop(new Error(`a load worker stopped (exit code ${code})`)));
      return w;
    });
  }

  /** Refuses the jobs waiting and every later one, with the first reason given. */
  private stop(reason: Error): void {
    this.gone ??= reason;
    for (const p of this.pending.values()) p.reject(this.gone);
    this.pending.clear();
  }

  /** Jobs go to the workers in turn, each worker's in the order given. */
  private async run(job: Job): Promise<JobResult> {
    if (this.gone) throw this.gone;
    const id = this.next++;
    const reply = await new Promise<LoadReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[id % this.workers.length].postMessage({ ...job, id });
    });
    if ('failure' in reply) throw new Error(reply.failure);
    return reply;
  }

  /** A file's xxh64, and its bytes with `keep`. */
  async read(path: string, keep: boolean): Promise<{ xxh64: string; bytes?: Buffer }> {
    const [file] = (await this.run({ kind: 'read', path, keep })).files;
    return { xxh64: file.xxh64, bytes: file.bytes && asBuffer(file.bytes) };
  }

  /** Files read and hashed, and checked together (StructureCheck). */
  async check(paths: string[], check: StructureCheck): Promise<CheckedFiles> {
    const r = await this.run({ kind: 'check', paths, check });
    return { files: r.files.map((f) => ({ xxh64: f.xxh64, bytes: asBuffer(f.bytes!) })), tables: r.tables, error: r.error };
  }

  /**
   * listing-columns.bin read and hashed, every entry checked (decodeListingColumns), and the price
   * tables made from it; or why its entries fail the checks (`error`).
   */
  async columns(path: string): Promise<{ file: { xxh64: string; bytes: Buffer }; prices?: PriceTables; error?: string }> {
    const r = await this.run({ kind: 'columns', path });
    return { file: { xxh64: r.files[0].xxh64, bytes: asBuffer(r.files[0].bytes!) }, prices: r.prices, error: r.error };
  }

  /**
   * A JSON file read and hashed and taken as a JsonFile (json-file.ts, its site paths resolved
   * against siteUrl when given): its xxh64, its bytes as served, the top-level fields named in
   * `head` and, with `cities`, where each of its cities lies in those bytes (price-index.json:
   * indexCitiesOf); or why it is not such a JSON object (`error`).
   */
  async json(path: string, siteUrl: string | undefined, head: string[], cities: boolean): Promise<{ xxh64: string; json?: { bytes: Buffer; head: Record<string, unknown>; cities?: IndexCities }; error?: string }> {
    const r = await this.run({ kind: 'json', path, siteUrl, head, cities });
    const [{ xxh64, bytes }] = r.files;
    return { xxh64, json: bytes && { bytes: asBuffer(bytes), head: r.head!, cities: r.cities }, error: r.error };
  }

  async close(): Promise<void> {
    this.stop(new Error('the load workers are closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
