/**
 * A release file's sha256 taken on a worker thread (digest-worker.ts): at 1,000,000 spaces a
 * build's release holds ~2 GB, and its compressed siblings decode to as much again each; read,
 * decoded and hashed a chunk a turn, they took seconds of the event loop after every start, and
 * their buffers made its garbage collector run the whole time. Started when a release is first checked.
 */
import { JobWorker } from '../../contract/module-worker.ts';
import type { ContentEncoding } from '../../contract/research.ts';

/** `fd`: a descriptor of this process, open until the job ends; `encoding`: decoded first */
export interface DigestJob { fd: number; encoding?: ContentEncoding }
export interface Digest { hash: string; bytes: number }
export type DigestReply = { id: number; digested?: Digest; error?: string };

const digests = new JobWorker<DigestJob, DigestReply, Digest>(import.meta.url, 'digest-worker', ({ digested, error }) => digested ?? new Error(error), { idleUnref: true });

/** The sha256 (`sha256:<hex>`) and length of the file open as `fd`, or of what it decodes to. */
export const digestOf = (job: DigestJob): Promise<Digest> => digests.run(job);
