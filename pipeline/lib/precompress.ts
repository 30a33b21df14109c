/**
 * The research files' compressed siblings (contract/research.ts PRECOMPRESSED), written once per
 * build so the API sends a 60 MB download compressed without spending a second of CPU on each.
 * Each file is streamed through zlib on the thread pool (the history can hold more bytes than a
 * JavaScript string), hashed on the way, and listed in the manifest like every other file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { fileDigester } from '../../contract/file-digests.ts';
import { encodedName, PRECOMPRESSED, type ContentEncoding } from '../../contract/research.ts';
import type { BuildWriter } from './publish.ts';

/**
 * gzip at its best; brotli at 7 of 11: within 1.5× of its best size at ~35 MB/s (9 runs at
 * ~12 MB/s and 11 at ~0.1 MB/s, minutes for the history at 100,000 spaces).
 */
const ENCODERS: Record<ContentEncoding, () => Transform> = {
  gzip: () => createGzip({ level: constants.Z_BEST_COMPRESSION }),
  br: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 7 } }),
};

async function encode(writer: BuildWriter, file: string, encoding: ContentEncoding): Promise<void> {
  const name = encodedName(file, encoding);
  const digests = fileDigester();
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      digests.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(createReadStream(writer.pathOf(file)), ENCODERS[encoding](), tap, createWriteStream(writer.pathOf(name)));
  writer.addWritten(name, digests.digest());
}

/** Writes every encoding of each named file (already written in full) beside it. */
export async function precompress(writer: BuildWriter, files: readonly string[]): Promise<void> {
  await Promise.all(files.flatMap((file) => PRECOMPRESSED.map(({ encoding }) => encode(writer, file, encoding))));
}
