/**
 * The digests a build's manifest gives each file (contract/build.ts ManifestSchema): its sha256,
 * which copies, downloads and releases are checked against, and its xxh64, which the API checks
 * every file it holds in memory against at load (six times faster than sha256 on this hardware;
 * both detect a damaged or truncated file, and whoever could rewrite a file could rewrite the
 * manifest too, so a cryptographic hash adds nothing at load).
 */
import { createHash } from 'node:crypto';
import { Xxh64, xxh64 } from './xxhash.ts';

export interface FileDigests { sha256: string; xxh64: string }

const hex64 = (h: bigint) => h.toString(16).padStart(16, '0');

/** The xxh64 of a file's bytes, as the manifest gives it. */
export const xxh64Hex = (bytes: Uint8Array): string => hex64(xxh64(bytes));

/** The xxh64 of bytes fed in chunks, as the manifest gives it. */
export function xxh64Digester(): { update(chunk: Uint8Array): void; digest(): string } {
  const h = new Xxh64();
  return { update: (chunk) => { h.update(chunk); }, digest: () => hex64(h.digest()) };
}

/** Both digests of bytes fed in chunks. */
export function fileDigester(): { update(chunk: Uint8Array): void; digest(): FileDigests } {
  const sha256 = createHash('sha256');
  const fast = new Xxh64();
  return {
    update(chunk) {
      sha256.update(chunk);
      fast.update(chunk);
    },
    digest: () => ({ sha256: sha256.digest('hex'), xxh64: hex64(fast.digest()) }),
  };
}

/** Both digests of whole bytes. */
export const fileDigests = (bytes: Uint8Array): FileDigests => ({ sha256: createHash('sha256').update(bytes).digest('hex'), xxh64: xxh64Hex(bytes) });
