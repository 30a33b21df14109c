/**
 * The inner loops of facet counting as WebAssembly, for what JavaScript lacks: the processor's
 * population count and count of trailing zeros (a 32-bit popcount costs JavaScript a dozen
 * operations), and loops over typed memory without bounds checks and deoptimization. A facet over
 * twenty amenities under a wide context costs a few microseconds instead of a few hundred.
 *
 * The functions are written in WebAssembly's text format in kernels/*.wat, each file a module
 * that imports its memory as `kernel.memory`; scripts/kernels.ts assembles them at build time
 * into the .wasm beside each, read here. Each user makes an instance with a memory of its own,
 * lays its arrays out in it (KernelMemory) and passes byte offsets; every value is an i32.
 */
import { readFileSync } from 'node:fs';

/** The kernels by their module in kernels/, where each is described; every argument is an i32, most a byte offset in the memory. */
export interface Kernels {
  // bitsets.wat
  countEach(ctx: number, sets: number, count: number, stride: number, lo: number, hi: number, out: number): void;
  andInto(target: number, other: number, lo: number, hi: number): void;
  andNot(out: number, a: number, b: number, lo: number, hi: number): void;
  countBits(ctx: number, lo: number, hi: number): number;
  prefixCounts(ctx: number, lo: number, hi: number, prefix: number): void;
  // value-counts.wat
  countRanges(ctx: number, lo: number, hi: number, prefix: number, total: number, start: number, end: number, byStart: number, first: number, size: number, counts: number, touched: number): number;
  tallyMembers(ctx: number, lo: number, hi: number, valueIds: number, counts: number): void;
  countMembers(ctx: number, lo: number, hi: number, valueIds: number, counts: number, touched: number, none: number): number;
  collectTouched(counts: number, size: number, touched: number): number;
  countGroups(ctx: number, starts: number, members: number, size: number, counts: number, touched: number): number;
  // json.wat
  writeValues(fragments: number, offsets: number, ids: number, counts: number, size: number, out: number): number;
}

/** A module's binary, beside this module in the source and in the server's bundle (scripts/bundle-server.ts copies it). */
function binary(name: string): Uint8Array<ArrayBuffer> {
  const path = new URL(`./kernels/${name}.wasm`, import.meta.url);
  try {
    return new Uint8Array(readFileSync(path));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    throw new Error(`${path.pathname} is missing: run make kernels (or make build) to assemble it from ${name}.wat`);
  }
}

const MODULES = ['bitsets', 'value-counts', 'json'].map((name) => new WebAssembly.Module(binary(name)));

const PAGE = 64 * 1024;
const ARRAYS = { int32: Int32Array, uint32: Uint32Array, uint8: Uint8Array } as const;
type ArrayType = keyof typeof ARRAYS;
type View = Int32Array | Uint32Array | Uint8Array;

/** An array placed in a KernelMemory: its byte offset, for the kernels, and its view once the memory is open. */
export class Placed<T extends View> {
  view!: T;
  constructor(readonly at: number, readonly length: number, readonly type: ArrayType, readonly init?: ArrayLike<number>) {}
}

/**
 * A memory of the kernels' own, laid out once: arrays are placed (`int32`, `uint32`, `uint8`)
 * while it is planned, and have their views once `open` has made the memory. Every array starts
 * at a multiple of 8 bytes and is followed by 8 zero bytes: the bitset kernels read and write
 * whole pairs of 32-bit words, and the pair of a last word is its pad, which stays zero (what
 * andInto and andNot store there is a zero word ANDed with another).
 */
export class KernelMemory {
  private size = 0;
  private readonly placed: Placed<View>[] = [];
  private opened = false;

  int32(length: number, init?: ArrayLike<number>): Placed<Int32Array> { return this.place<Int32Array>('int32', length, init); }
  uint32(length: number, init?: ArrayLike<number>): Placed<Uint32Array> { return this.place<Uint32Array>('uint32', length, init); }
  uint8(length: number, init?: ArrayLike<number>): Placed<Uint8Array> { return this.place<Uint8Array>('uint8', length, init); }

  private place<T extends View>(type: ArrayType, length: number, init?: ArrayLike<number>): Placed<T> {
    if (this.opened) throw new Error('KernelMemory: arrays are placed before it is opened');
    const p = new Placed<T>(this.size, length, type, init);
    this.placed.push(p as Placed<View>);
    this.size += Math.ceil((ARRAYS[type].BYTES_PER_ELEMENT * length) / 8) * 8 + 8;
    return p;
  }

  /** Makes the memory, the arrays' views and the kernels' instances over it. */
  open(): Kernels {
    this.opened = true;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(this.size / PAGE)) });
    for (const p of this.placed) {
      p.view = new ARRAYS[p.type](memory.buffer, p.at, p.length) as View;
      if (p.init) p.view.set(p.init);
    }
    return Object.assign({}, ...MODULES.map((module) => new WebAssembly.Instance(module, { kernel: { memory } }).exports)) as Kernels;
  }
}
