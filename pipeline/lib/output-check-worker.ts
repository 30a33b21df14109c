/**
 * A worker thread of OutputChecker (output-check.ts): reads one NDJSON file of the build, hashes
 * it, parses every line and checks it against its contract schema; keeps the slugs and makes the
 * record index and the line index when asked (BuildWriter.addWritten fsyncs the file).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { DETAILS_INDEX, NDJSON_BUILD_FILES } from '../../contract/build.ts';
import { fileDigester } from '../../contract/file-digests.ts';
import { encodeLineIndex, sitePathOffsets } from '../../contract/line-index.ts';
import { BuildError } from './errors.ts';
import type { CheckReply, FileCheck, FileCheckRequest } from './output-check.ts';
import { lineValidator } from './validate.ts';

const READ_BYTES = 8 << 20;
const NEWLINE = 0x0a;

/** A failure at a line (0-based): checksOf (output-check.ts) reports the lowest line across a listing's files. */
class LineError extends Error {
  constructor(readonly line: number, readonly failure: unknown) {
    super(String(failure));
  }
}

function checkFile(request: FileCheckRequest): FileCheck {
  const validate = lineValidator(request.name, NDJSON_BUILD_FILES[request.schema]);
  const hash = fileDigester();
  const slugs: string[] | undefined = request.keepSlugs ? [] : undefined;
  let index = request.recordIndex ? Buffer.alloc(1 << 16) : undefined;
  /** the line index (contract/line-index.ts): where each line starts, and the site paths, as file offsets */
  const starts: number[] | undefined = request.lineIndex ? [0] : undefined;
  const sitePaths: number[] = [];
  let line = 0;
  /** the file offset of buffer[0] */
  let offset = 0;
  const fd = openSync(request.path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(READ_BYTES);
    /** bytes of buffer holding data not yet split into lines */
    let held = 0;
    for (;;) {
      if (held === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = readSync(fd, buffer, held, buffer.length - held, null);
      if (read === 0) break;
      hash.update(buffer.subarray(held, held + read));
      const end = held + read;
      let start = 0;
      for (let nl = buffer.indexOf(NEWLINE, held); nl !== -1 && nl < end; nl = buffer.indexOf(NEWLINE, start)) {
        let value: unknown;
        const text = buffer.toString('utf8', start, nl);
        try {
          value = JSON.parse(text);
        } catch (err) {
          throw new LineError(line, new BuildError('invalid_output', `${request.name}: line ${line + 1}: not JSON (${(err as Error).message})`));
        }
        try {
          validate(value, line);
        } catch (err) {
          throw new LineError(line, err);
        }
        slugs?.push((value as { slug: string }).slug);
        if (index) {
          const at = line * DETAILS_INDEX.bytesPerRecord;
          if (at + DETAILS_INDEX.bytesPerRecord > index.length) index = Buffer.concat([index, Buffer.alloc(index.length)]);
          index.writeUInt32LE(nl + 1 - start, at);
          index.writeUInt32LE(crc32(buffer.subarray(start, nl + 1)), at + 4);
        }
        line++;
        start = nl + 1;
        starts?.push(offset + start);
      }
      // the buffer's whole lines: a site path and its key are on one line
      if (starts) for (const at of sitePathOffsets(buffer.subarray(0, start))) sitePaths.push(offset + at);
      buffer.copy(buffer, 0, start, end);
      held = end - start;
      offset += start;
    }
    if (held > 0) throw new LineError(line, new BuildError('invalid_output', `${request.name}: line ${line + 1}: the last line has no newline`));
  } finally {
    closeSync(fd);
  }
  return {
    digests: hash.digest(), lines: line, slugs,
    index: index && new Uint8Array(index.buffer, index.byteOffset, line * DETAILS_INDEX.bytesPerRecord),
    lineIndex: starts && encodeLineIndex({ starts: Float64Array.from(starts), sitePaths: Float64Array.from(sitePaths) }),
  };
}

parentPort!.on('message', (request: FileCheckRequest & { id: number }) => {
  let reply: CheckReply;
  try {
    const check = checkFile(request);
    reply = { id: request.id, check };
  } catch (err) {
    const line = err instanceof LineError ? err.line : -1;
    const cause = err instanceof LineError ? err.failure : err;
    reply = cause instanceof BuildError
      ? { id: request.id, failure: { line, rule: cause.rule, message: cause.message.slice(cause.rule.length + 2) } }
      : { id: request.id, failure: { line, message: (cause as Error).stack ?? String(cause) } };
  }
  parentPort!.postMessage(reply);
});
