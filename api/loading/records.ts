/**
 * details.<locale>.ndjson stays on disk and is read a line at a time when served: too big to hold
 * in memory, and bytes read later are not the bytes hashed at load. So every line is checked when
 * it is read, against the record index the pipeline wrote with it (DETAILS_INDEX in
 * contract/build.ts; the index itself is checked against the manifest at load): a line changed or
 * cut after loading is refused, never served.
 */
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { DETAILS_INDEX } from '../../contract/build.ts';
import type { DetailLines } from '../catalog/listing-lines.ts';

/** A details file left open, with the line starts and CRC-32s of its record index. */
export interface RecordFile {
  name: string;
  fh: FileHandle;
  /** line i is bytes [starts[i], starts[i + 1]), its newline included */
  starts: Float64Array;
  crcs: Uint32Array;
}

/** Bytes of a build file read after the load that are not the bytes the pipeline published: refused, never served. */
export class DamagedFileError extends Error {
  constructor(readonly file: string, what: string, why: string) {
    super(`${file}: ${what} is damaged (${why})`);
  }
}

/** A line whose bytes on disk are not those of the record index. */
export class DamagedRecordError extends DamagedFileError {
  constructor(file: string, readonly line: number, why: string) {
    super(file, `line ${line + 1}`, why);
  }
}

const NEWLINE = 0x0a;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Opens a details file by its record index: the file must be as long as the index says (a file
 * cut or grown is refused here; a byte changed in place, when its line is read).
 * The handle survives the build directory's removal.
 */
export async function openRecords(path: string, name: string, index: Buffer): Promise<RecordFile> {
  const size = DETAILS_INDEX.bytesPerRecord;
  if (index.length % size !== 0) throw new Error(`${name}: its index is ${index.length} bytes, not a whole number of records`);
  const count = index.length / size;
  // (length, CRC-32) pairs of little-endian uint32s, read as one array (a copy only where unaligned or on a big-endian host)
  const pairs = index.byteOffset % 4 === 0 && LITTLE_ENDIAN
    ? new Uint32Array(index.buffer, index.byteOffset, count * 2)
    : Uint32Array.from({ length: count * 2 }, (_, k) => index.readUInt32LE(k * 4));
  const starts = new Float64Array(count + 1);
  const crcs = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const length = pairs[2 * i];
    if (length < 3) throw new Error(`${name}: line ${i + 1} is ${length} bytes in its index, too short for a JSON object`);
    starts[i + 1] = starts[i] + length;
    crcs[i] = pairs[2 * i + 1];
  }
  const fh = await open(path, 'r');
  try {
    const { size: bytes } = await fh.stat();
    if (bytes !== starts[count]) throw new Error(`${name} is ${bytes} bytes, its index says ${starts[count]}`);
    return { name, fh, starts, crcs };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/**
 * Line i, checked against the record index, as bytes without its newline. Read synchronously: a
 * line the page cache holds costs a couple of µs this way, against ~30 µs of CPU for a round trip
 * through the thread pool (promise, queue, wake-up); a line it does not hold blocks the event loop
 * for one disk read.
 */
const readRecordBytes = (file: RecordFile, i: number): Buffer => readRecordAt(recordAt(file, i));

/** Where line i of a record file lies and what its index says of it: enough for another thread to read it, checked (readRecordAt). */
export interface RecordAt { name: string; fd: number; line: number; start: number; length: number; crc: number }

export const recordAt = (file: RecordFile, i: number): RecordAt => ({
  name: file.name, fd: file.fh.fd, line: i, start: file.starts[i], length: file.starts[i + 1] - file.starts[i], crc: file.crcs[i],
});

/** A line read where `at` says, checked against its index entry, as bytes without its newline. */
export function readRecordAt({ name, fd, line, start, length, crc }: RecordAt): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const bytesRead = readSync(fd, buf, 0, length, start);
  checkLine(name, line, buf, length, crc, bytesRead);
  return buf.subarray(0, length - 1);
}

/** A details file as the engine reads it: each line checked as it is read. */
export const detailLines = (file: RecordFile): DetailLines => ({ line: (i) => readRecordBytes(file, i), close: () => file.fh.close() });

/** Line i, checked against the record index, as text without its newline. */
export const readRecord = (file: RecordFile, i: number): string => readRecordBytes(file, i).toString();

const checkRecord = (file: RecordFile, i: number, bytes: Buffer, bytesRead = bytes.length): void => (
  checkLine(file.name, i, bytes, file.starts[i + 1] - file.starts[i], file.crcs[i], bytesRead));

function checkLine(name: string, i: number, bytes: Buffer, length: number, crc: number, bytesRead: number): void {
  if (bytesRead !== length) throw new DamagedRecordError(name, i, `${bytesRead} of its ${length} bytes are left`);
  if (bytes[length - 1] !== NEWLINE || crc32(bytes.subarray(0, length)) !== crc) throw new DamagedRecordError(name, i, 'its bytes differ from the record index');
}

/** Fills `buf` with the file's bytes from `position` on; the bytes read, fewer where the file ends first. */
export async function readAt(fh: FileHandle, buf: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buf.length) {
    const { bytesRead } = await fh.read(buf, filled, buf.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/** Reads the whole file and checks every line (after a damaged line was found, before trusting the file again). */
export async function checkAllRecords(file: RecordFile, chunkBytes = 8 << 20): Promise<void> {
  const n = file.crcs.length;
  for (let first = 0; first < n;) {
    let last = first + 1;
    while (last < n && file.starts[last + 1] - file.starts[first] <= chunkBytes) last++;
    const from = file.starts[first], length = file.starts[last] - from;
    const buf = Buffer.allocUnsafe(length);
    const filled = await readAt(file.fh, buf, from);
    for (let i = first; i < last; i++) {
      const s = file.starts[i] - from, e = Math.min(file.starts[i + 1] - from, filled);
      checkRecord(file, i, buf.subarray(s, Math.max(s, e)), Math.max(0, e - s));
    }
    first = last;
  }
}
