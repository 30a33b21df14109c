/**
 * The hubs (KEYED_BUILD_FILES in contract/build.ts) are asked for one value at a time, so they are
 * not parsed at load: the loader holds each file's keys and record index, and a value is read from
 * disk when a request asks for it, checked against the index (api/loading/records.ts) and parsed
 * then. A file damaged after loading is refused per line (DamagedRecordError), never served.
 */
import { readRecord, recordAt, type RecordAt, type RecordFile } from './records.ts';
import { resolveSitePathsInJson } from '../catalog/text.ts';

export class KeyedRecords<T> {
  /** the keys, ascending (keyedEntries in contract/build.ts): key i is that of line i, found by a binary search */
  private readonly keyList: readonly string[];

  /** `keys[i]` is the key of line i of `lines`; site paths are resolved against siteUrl when read. */
  constructor(private readonly lines: RecordFile, keys: unknown, private readonly siteUrl: string) {
    const name = lines.name;
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) throw new Error(`the keys of ${name} are not a JSON array of strings`);
    if (keys.length !== lines.crcs.length) throw new Error(`${name} has ${lines.crcs.length} lines for ${keys.length} keys`);
    for (let i = 1; i < keys.length; i++) {
      if (!(keys[i - 1] < keys[i])) throw new Error(keys[i - 1] === keys[i] ? `the keys of ${name} repeat` : `the keys of ${name} are not in ascending order (${keys[i - 1]}, ${keys[i]})`);
    }
    this.keyList = keys as string[];
  }

  private lineOf(key: string): number | undefined {
    const keys = this.keyList;
    let lo = 0, hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < keys.length && keys[lo] === key ? lo : undefined;
  }

  has(key: string): boolean {
    return this.lineOf(key) !== undefined;
  }

  keys(): Iterable<string> {
    return this.keyList;
  }

  /** The value of `key`, or undefined for a key the file does not hold. */
  async get(key: string): Promise<T | undefined> {
    const i = this.lineOf(key);
    if (i === undefined) return undefined;
    return JSON.parse(resolveSitePathsInJson(readRecord(this.lines, i), this.siteUrl)) as T;
  }

  /** Where the line of `key` lies, for another thread to read (readRecordAt); undefined for a key the file does not hold. */
  at(key: string): RecordAt | undefined {
    const i = this.lineOf(key);
    return i === undefined ? undefined : recordAt(this.lines, i);
  }

  close(): Promise<void> {
    return this.lines.fh.close();
  }
}
