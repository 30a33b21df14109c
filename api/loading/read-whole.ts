import { fstatSync, readSync } from 'node:fs';

/**
 * A whole open file read synchronously into a buffer of its own (positional reads: the
 * descriptor's position, which another reader may share, is left alone). Fewer bytes when the
 * file shrank meanwhile.
 */
export function readWhole(fd: number, allocate: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  const buffer = allocate(fstatSync(fd).size);
  let filled = 0;
  for (let n; filled < buffer.length && (n = readSync(fd, buffer, filled, buffer.length - filled, filled)) > 0;) filled += n;
  return filled === buffer.length ? buffer : buffer.subarray(0, filled);
}
