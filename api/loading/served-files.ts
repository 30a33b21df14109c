/**
 * The files a build serves as they are, which the loader does not load (price-report.csv and its
 * history, price-history.json, methodology.md, their compressed siblings, …): each is opened and
 * hashed at load, then left on disk, open. A download streams it (checked-file.ts: its stamp
 * checked before the first byte and the last chunk); read() gives the whole file to the pages that
 * render it, checked against the manifest's xxh64 again, since bytes read later are not the bytes
 * hashed at load. A changed file is refused (DamagedFileError), never served. The handles survive
 * the build directory's removal.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { xxh64Digester, xxh64Hex } from '../../contract/file-digests.ts';
import { encodedName, PRECOMPRESSED } from '../../contract/research.ts';
import { CheckedFile, etagOfDigest, readThrough, type FileBody, type Representation } from './checked-file.ts';
import { DamagedFileError, readAt } from './records.ts';

interface Opened { fh: FileHandle; file: CheckedFile }

/** Checks a file's bytes against the manifest's xxh64 again (once its stamp changed). */
const verifier = (name: string, expected: string) => async (fh: FileHandle) => {
  const digest = xxh64Digester();
  await readThrough(fh, (chunk) => digest.update(chunk)).catch((err: Error) => {
    throw new DamagedFileError(name, 'the file', `unreadable: ${err.message}`);
  });
  if (digest.digest() !== expected) throw new DamagedFileError(name, 'the file', 'its bytes differ from the manifest');
};

export class ServedFiles {
  /** the reads under way: requests for a file while it is read share the read and its buffer */
  private readonly reading = new Map<string, Promise<Buffer | undefined>>();

  private constructor(private readonly files: Map<string, Opened>, private readonly xxh64: Record<string, string>) {}

  /**
   * Opens the named files of a build directory, each stamped before its bytes are hashed (by the
   * loader, against `xxh64`, the manifest's), so a change after the hash shows in its stamp.
   */
  static async open(dir: string, names: string[], xxh64: Record<string, string>): Promise<ServedFiles> {
    const files = new Map<string, Opened>();
    try {
      for (const name of names) {
        const fh = await open(join(dir, name), 'r');
        files.set(name, { fh, file: CheckedFile.checked(name, fh, await fh.stat(), verifier(name, xxh64[name])) });
      }
    } catch (err) {
      for (const { fh } of files.values()) await fh.close().catch(() => undefined);
      throw err;
    }
    return new ServedFiles(files, xxh64);
  }

  /** A file and its compressed siblings as a download; undefined when the build has no such file. */
  body(name: string, contentType: string, headers?: Record<string, string>): FileBody | undefined {
    const identity = this.files.get(name);
    if (!identity) return undefined;
    const etag = etagOfDigest(this.xxh64[name]);
    const representations: Representation[] = [{ etag, size: identity.file.size, open: () => identity.file.open() }];
    for (const { encoding } of PRECOMPRESSED) {
      const sibling = this.files.get(encodedName(name, encoding));
      if (sibling) representations.push({ encoding, etag: `${etag.slice(0, -1)}-${encoding}"`, size: sibling.file.size, open: () => sibling.file.open() });
    }
    return { contentType, headers, representations };
  }

  /** A file streamed from disk, with its manifest digest (xxh64). */
  checked(name: string): { file: CheckedFile; xxh64: string } | undefined {
    const opened = this.files.get(name);
    return opened && { file: opened.file, xxh64: this.xxh64[name] };
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
    const fh = this.files.get(name)?.fh;
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
    for (const { file } of this.files.values()) await file.close();
  }
}
