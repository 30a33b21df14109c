/**
 * The files a build serves as they are, which the loader does not load (price-report.csv and its
 * history, price-history.json, methodology.md, …): each is hashed at load, then left on disk,
 * open, and read whole when asked for. Bytes read later are not the bytes hashed at load, so every
 * read is checked against the manifest's xxh64 again: a file changed after the load is refused
 * (DamagedFileError), never served. The handles survive the build directory's removal.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { xxh64Hex } from '../../contract/file-digests.ts';
import { DamagedFileError, readAt } from './records.ts';

export class ServedFiles {
  /** the reads under way: requests for a file while it is read share the read and its buffer (22 MB for the report's history) */
  private readonly reading = new Map<string, Promise<Buffer | undefined>>();

  private constructor(private readonly handles: Map<string, FileHandle>, private readonly xxh64: Record<string, string>) {}

  /** Opens the named files of a build directory; `xxh64` is the manifest's. */
  static async open(dir: string, names: string[], xxh64: Record<string, string>): Promise<ServedFiles> {
    const handles = new Map<string, FileHandle>();
    try {
      for (const name of names) handles.set(name, await open(join(dir, name), 'r'));
    } catch (err) {
      for (const fh of handles.values()) await fh.close().catch(() => undefined);
      throw err;
    }
    return new ServedFiles(handles, xxh64);
  }

  /** The whole file, checked against the manifest; undefined when the build has no such file. */
  read(name: string): Promise<Buffer | undefined> {
    let read = this.reading.get(name);
    if (!read) {
      read = this.readChecked(name).finally(() => this.reading.delete(name));
      this.reading.set(name, read);
    }
    return read;
  }

  private async readChecked(name: string): Promise<Buffer | undefined> {
    const fh = this.handles.get(name);
    if (!fh) return undefined;
    let bytes: Buffer;
    try {
      bytes = Buffer.allocUnsafe((await fh.stat()).size);
      bytes = bytes.subarray(0, await readAt(fh, bytes, 0));
    } catch (err) {
      throw new DamagedFileError(name, 'the file', `unreadable: ${(err as Error).message}`);
    }
    if (xxh64Hex(bytes) !== this.xxh64[name]) throw new DamagedFileError(name, 'the file', 'its bytes differ from the manifest');
    return bytes;
  }

  async close(): Promise<void> {
    for (const fh of this.handles.values()) await fh.close().catch(() => undefined);
  }
}
