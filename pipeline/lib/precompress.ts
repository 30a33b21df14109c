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
 * gzip at zlib's default level and brotli at 5 of 11: at 100,000 spaces the six research and bulk
 * files (211 MB) take 6.4 s of CPU in all and 41.3 MB, where gzip 9 and brotli 7 took 14.6 s for
 * 38.6 MB (7% smaller): the encodings were a seventh of the build's CPU. Brotli 5 is still 11%
 * smaller than gzip 9.
 */
const ENCODERS: Record<ContentEncoding, () => Transform> = {
  gzip: () => createGzip({ level: 6 }),
  br: () => createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
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
