/**
 * The reads of one build's files while it loads (load.ts). Every file held in memory is read and
 * hashed on the worker threads (workers.ts) in the order the loader asks for it, and the NDJSON
 * files held in memory are checked there against their line indexes, while the loading thread
 * parses and indexes what has arrived. A file is used once its checksum matches the manifest's;
 * files with the same digests (the markers are the same in every locale) are each read and
 * checked, and held once.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { BUILD_FILES, LOCALIZED_BUILD_FILES, type Manifest } from '../../contract/build.ts';
import { LINE_INDEX_FILE } from '../../contract/line-index.ts';
import { LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import type { NdjsonLines } from '../catalog/listing-lines.ts';
import type { PriceTables } from '../catalog/price-tables.ts';
import type { IndexCities } from './city-texts.ts';
import { jsonFileOf, type JsonFile } from './json-file.ts';
import type { LineKind } from './ndjson.ts';
import { checkAllRecords, openRecords, type RecordFile } from './records.ts';
import { ServedFiles } from './served-files.ts';
import type { LoadWorkers, StructureCheck, Table } from './workers.ts';

/** The JSON files whose schema has a site path field: only those are walked to resolve them. */
const WITH_SITE_PATHS = new Set(Object.entries({ ...BUILD_FILES, ...LOCALIZED_BUILD_FILES })
  .filter(([, schema]) => /"(url|webUrl|methodologyUrl)":/.test(JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }))))
  .map(([name]) => name));

/** A promise whose rejection is handled where it is awaited, not here. */
const awaitedLater = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

export class FileReads {
  /** each file's read and checksum, by name */
  private readonly checks = new Map<string, Promise<void>>();
  /** the bytes held, by sha256 (the manifest's) */
  private readonly held = new Map<string, Promise<Buffer>>();
  /** the NDJSON files held in memory with their line indexes, by the sha256s of both */
  private readonly lineSets = new Map<string, Promise<NdjsonLines>>();
  /** the files kept open, each from the moment its opening starts: a failed load closes every one that opened */
  private readonly opened: Promise<RecordFile>[] = [];

  /** `fail` throws the load's error (BuildLoadError) with a message. */
  constructor(
    private readonly dir: string, private readonly manifest: Manifest, private readonly workers: LoadWorkers,
    private readonly siteUrl: string, readonly fail: (msg: string) => never,
  ) {}

  private matches(name: string, xxh64: string): void {
    if (xxh64 !== this.manifest.xxh64[name]) this.fail(`${name} checksum mismatch`);
  }

  private unreadable(name: string) {
    return (err: Error): never => this.fail(`${name} unreadable: ${err.message}`);
  }

  private track(name: string, reading: Promise<unknown>): void {
    this.checks.set(name, awaitedLater(reading.then(() => undefined)));
  }

  private hold(name: string, bytes: Promise<Buffer>): void {
    awaitedLater(bytes);
    if (!this.held.has(this.manifest.files[name])) this.held.set(this.manifest.files[name], bytes);
  }

  /** A file's bytes, read and checked once (a file with the same digest as one read shares its bytes). */
  read(name: string): Promise<Buffer> {
    if (!this.checks.has(name)) {
      const keep = !this.held.has(this.manifest.files[name]);
      const reading = this.workers.read(join(this.dir, name), keep).catch(this.unreadable(name)).then(({ xxh64, bytes }) => {
        this.matches(name, xxh64);
        return bytes!;
      });
      this.track(name, reading);
      if (keep) this.hold(name, reading);
    }
    return this.held.get(this.manifest.files[name])!;
  }

  /** Files read, hashed and checked together on a worker (StructureCheck); the tables the check made. */
  checked(names: string[], check: StructureCheck): Promise<Table[]> {
    const reading = this.workers.check(names.map((name) => join(this.dir, name)), check).catch(this.unreadable(names.join(', '))).then((r) => {
      names.forEach((name, k) => this.matches(name, r.files[k].xxh64));
      return r;
    });
    names.forEach((name, k) => {
      this.track(name, reading);
      this.hold(name, reading.then((r) => r.files[k].bytes));
    });
    return awaitedLater(reading.then((r) => r.tables ?? this.fail(r.error!)));
  }

  /** An NDJSON file held in memory with its line index, read and checked once for every file with the same bytes and index. */
  lines(file: string, lines: LineKind): Promise<NdjsonLines> {
    const indexFile = LINE_INDEX_FILE(file);
    const key = `${this.manifest.files[file]} ${this.manifest.files[indexFile]}`;
    let checking = this.lineSets.get(key);
    if (!checking) {
      checking = awaitedLater(this.checked([file, indexFile], { kind: 'lines', name: file, lines }).then(async ([starts, sitePaths, firstSitePath]) => (
        { bytes: await this.read(file), starts: starts as Float64Array, sitePaths: sitePaths as Float64Array, firstSitePath: firstSitePath as Uint32Array })));
      this.lineSets.set(key, checking);
    }
    return checking;
  }

  /** listing-columns.bin, read and checked on a worker, which makes the engine's price tables from it. */
  columns(): Promise<{ bytes: Buffer; prices: PriceTables }> {
    const reading = this.workers.columns(join(this.dir, LISTING_COLUMNS_FILE)).catch(this.unreadable(LISTING_COLUMNS_FILE)).then(({ file, prices, error }) => {
      this.matches(LISTING_COLUMNS_FILE, file.xxh64);
      return { bytes: file.bytes, prices: prices ?? this.fail(error!) };
    });
    this.track(LISTING_COLUMNS_FILE, reading);
    this.hold(LISTING_COLUMNS_FILE, reading.then((c) => c.bytes));
    return awaitedLater(reading);
  }

  /**
   * A JSON file parsed on a worker (a file that is not JSON refuses the build there): its bytes as
   * served, site paths resolved, its top-level fields named in `head`, and with `cities` where
   * each of its cities lies (LoadWorkers.json).
   */
  jsonOnWorker(name: string, head: string[], cities: boolean): Promise<{ bytes: Buffer; head: Record<string, unknown>; cities?: IndexCities }> {
    const reading = this.workers.json(join(this.dir, name), WITH_SITE_PATHS.has(name) ? this.siteUrl : undefined, head, cities).catch(this.unreadable(name)).then(({ xxh64, json, error }) => {
      this.matches(name, xxh64);
      return json ?? this.fail(`${name} ${error}`);
    });
    this.track(name, reading);
    return reading;
  }

  /** A JSON file by its name (and its name in BUILD_FILES or LOCALIZED_BUILD_FILES), parsed and as served. */
  async json<T>(name: string, kind = name): Promise<JsonFile<T>> {
    const bytes = await this.read(name);
    try {
      return jsonFileOf<T>(bytes, WITH_SITE_PATHS.has(kind) ? this.siteUrl : undefined);
    } catch (err) {
      return this.fail(`${name} ${(err as Error).message}`);
    }
  }

  /** The files served as they are: opened here, and hashed once open and stamped (served-files.ts). */
  servedFiles(names: string[]): Promise<ServedFiles> {
    const opening = awaitedLater(ServedFiles.open(this.dir, names, this.manifest.xxh64).catch((err: Error) => this.fail(err.message)));
    for (const name of names) {
      this.track(name, opening.then(() => this.workers.read(join(this.dir, name), false).catch(this.unreadable(name))).then(({ xxh64 }) => this.matches(name, xxh64)));
    }
    return opening;
  }

  /** A file left on disk, opened by its record index (read first); each line checked when read, or every line now with `checkAll`. */
  async records(name: string, indexName: string, checkAll = false): Promise<RecordFile> {
    const opening = this.read(indexName).then((bytes) => openRecords(join(this.dir, name), name, bytes).catch((err: Error) => this.fail(err.message)));
    this.opened.push(opening);
    const file = await opening;
    if (checkAll) await checkAllRecords(file).catch((err: Error) => this.fail(err.message));
    return file;
  }

  /** Rejects with the first file that does not match its checksum (of those read so far). */
  async checksums(): Promise<void> {
    await Promise.all(this.checks.values());
  }

  /** Closes every file left on disk that opened (the load failed). */
  async closeOpened(): Promise<void> {
    for (const opened of await Promise.allSettled(this.opened)) if (opened.status === 'fulfilled') await opened.value.fh.close().catch(() => undefined);
  }
}
