/**
 * A group of bitsets over the same listings, held in the kernels' memory (kernels.ts), and what a
 * context holds of each of them: counted with the processor's popcount, 64 bits at a time.
 */
import type { Bitset } from './bitset.ts';
import { KernelMemory, type Kernels, type Placed } from './kernels.ts';

export class BitsetCounts {
  private readonly words: number;
  private readonly size: number;
  private readonly slot: Placed<Uint32Array>;
  private readonly counts: Placed<Int32Array>;
  /** the first bitset's byte offset, and the bytes from one bitset to the next */
  private readonly sets: { at: number; stride: number };
  private readonly kernels: Kernels;

  constructor(bitsets: readonly Bitset[], words: number) {
    this.words = words;
    this.size = bitsets.length;
    const memory = new KernelMemory();
    this.slot = memory.uint32(words);
    const sets = bitsets.map((b) => memory.uint32(words, b.subarray(0, words)));
    this.counts = memory.int32(this.size);
    this.kernels = memory.open();
    // the slot and the bitsets are placed one after the other, each as long: a bitset every `stride` bytes
    const first = sets[0]?.at ?? this.counts.at;
    this.sets = { at: first, stride: first - this.slot.at };
  }

  /**
   * |ctx ∩ bitset k| for every bitset, in the order given (a view overwritten by the next call);
   * ctx is empty outside its words [lo, hi).
   */
  of(ctx: { bits: Bitset; lo: number; hi: number }): Int32Array {
    // whole 64-bit words: the pairs of 32-bit words around [lo, hi) (ctx is empty in the extra ones, the slot past its end)
    const lo = ctx.lo & ~1, hi = ctx.hi + (ctx.hi & 1);
    if (lo < hi) this.slot.view.set(ctx.bits.subarray(lo, Math.min(hi, this.words)), lo);
    this.kernels.countEach(this.slot.at, this.sets.at, this.size, this.sets.stride, 4 * lo, 4 * Math.max(lo, hi), this.counts.at);
    return this.counts.view;
  }
}
