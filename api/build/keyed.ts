/**
 * The hubs (KEYED_BUILD_FILES in contract/build.ts) are asked for one value at a time, so they are
 * not parsed at load: the loader holds each file's keys and record index, and a value is read from
 * disk when a request asks for it, checked against the index (api/build/records.ts) and parsed
 * then. A file damaged after loading is refused per line (DamagedRecordError), never served.
 */
import { readRecord, type RecordFile } from './records.ts';
import { resolveSitePathsInJson } from '../catalog/text.ts';

export class KeyedRecords<T> {
  private readonly lineOf: Map<string, number>;

  /** `keys[i]` is the key of line i of `lines`; site paths are resolved against siteUrl when read. */
  constructor(private readonly lines: RecordFile, keys: unknown, private readonly siteUrl: string) {
    const name = lines.name;
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) throw new Error(`the keys of ${name} are not a JSON array of strings`);
    if (keys.length !== lines.crcs.length) throw new Error(`${name} has ${lines.crcs.length} lines for ${keys.length} keys`);
    this.lineOf = new Map(keys.map((k, i) => [k as string, i]));
    if (this.lineOf.size !== keys.length) throw new Error(`the keys of ${name} repeat`);
  }

  has(key: string): boolean {
    return this.lineOf.has(key);
  }

  keys(): IterableIterator<string> {
    return this.lineOf.keys();
  }

  /** The value of `key`, or undefined for a key the file does not hold. */
  async get(key: string): Promise<T | undefined> {
    const i = this.lineOf.get(key);
    if (i === undefined) return undefined;
    return JSON.parse(resolveSitePathsInJson(readRecord(this.lines, i), this.siteUrl)) as T;
  }

  close(): Promise<void> {
    return this.lines.fh.close();
  }
}
