/**
 * The line index of a written NDJSON file the API holds in memory (contract/line-index.ts), made
 * from the file's bytes as written, and checked against them as the API will check it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeLineIndex, encodeLineIndex, LINE_INDEX_FILE, lineIndexOf } from '../../contract/line-index.ts';
import { BuildError } from './errors.ts';
import type { BuildWriter } from './publish.ts';

export function writeLineIndex(writer: BuildWriter, file: string): void {
  const bytes = readFileSync(path.join(writer.dir, file));
  const index = encodeLineIndex(lineIndexOf(bytes));
  try {
    decodeLineIndex(index, bytes);
  } catch (err) {
    throw new BuildError('invalid_output', `${LINE_INDEX_FILE(file)}: ${(err as Error).message}`);
  }
  writer.writeBytes(LINE_INDEX_FILE(file), index);
}
