/**
 * @node-rs/xxhash (a native addon, so not bundled: scripts/bundle-server.ts), required rather than
 * imported: importing a CommonJS module from an ES module makes Node lex its source for its
 * exports first, ~30 ms of start-up on each thread that loads it.
 */
import { createRequire } from 'node:module';

export const { xxh64, Xxh64 } = createRequire(import.meta.url)('@node-rs/xxhash') as typeof import('@node-rs/xxhash');
