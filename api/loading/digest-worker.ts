/**
 * The digest worker's thread (digests.ts): the sha256 and length of a file's bytes, or of what its
 * compressed bytes decode to, read through a descriptor the loading thread holds open (positional
 * reads: the descriptor is left as it was, and open).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { ContentEncoding } from '../../contract/research.ts';
import type { DigestJob, DigestReply } from './digests.ts';

const DECODERS: Record<ContentEncoding, () => Transform> = { gzip: createGunzip, br: createBrotliDecompress };

async function digest({ fd, encoding }: DigestJob): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done();
    },
  });
  const source = createReadStream('', { fd, start: 0, autoClose: false, highWaterMark: 1 << 20 });
  await (encoding ? pipeline(source, DECODERS[encoding](), sink) : pipeline(source, sink));
  return { hash: `sha256:${hash.digest('hex')}`, bytes };
}

parentPort!.on('message', ({ id, job }: { id: number; job: DigestJob }) => {
  digest(job).then(
    (digested) => parentPort!.postMessage({ id, digested } satisfies DigestReply),
    (err: Error) => parentPort!.postMessage({ id, error: err.message } satisfies DigestReply),
  );
});
