/**
 * A group of bitsets over the same listings, held in the kernels' memory (kernels.ts), and what a
 * context holds of each of them: counted with the processor's popcount, 64 bits at a time.
 */
import type { Bitset } from './bitset.ts';
import { KernelMemory } from './kernels.ts';

export class BitsetCounts {
  private readonly words: number;
  private readonly size: number;
  private readonly slot: Uint32Array;
  private readonly counts: Int32Array;
  private readonly countEach: (ctx: number, sets: number, count: number, stride: number, lo: number, hi: number, out: number) => number;
  private readonly args: { slot: number; sets: number; stride: number; counts: number };

  constructor(bitsets: readonly Bitset[], words: number) {
    this.words = words;
    this.size = bitsets.length;
    const memory = new KernelMemory();
    const slot = memory.uint32(words);
    const sets = bitsets.map((b) => memory.uint32(words, b.subarray(0, words)));
    const counts = memory.int32(this.size);
    this.countEach = memory.open().countEach;
    this.slot = slot.view;
    this.counts = counts.view;
    // the slot and the bitsets are placed one after the other, each as long: a bitset every `stride` bytes
    const first = sets[0]?.at ?? counts.at;
    this.args = { slot: slot.at, sets: first, stride: first - slot.at, counts: counts.at };
  }

  /**
   * |ctx ∩ bitset k| for every bitset, in the order given (a view overwritten by the next call);
   * ctx is empty outside its words [lo, hi).
   */
  of(ctx: { bits: Bitset; lo: number; hi: number }): Int32Array {
    // whole 64-bit words: the pairs of 32-bit words around [lo, hi) (ctx is empty in the extra ones, the slot past its end)
    const lo = ctx.lo & ~1, hi = ctx.hi + (ctx.hi & 1);
    if (lo < hi) this.slot.set(ctx.bits.subarray(lo, Math.min(hi, this.words)), lo);
    this.countEach(this.args.slot, this.args.sets, this.size, this.args.stride, 4 * lo, 4 * Math.max(lo, hi), this.args.counts);
    return this.counts;
  }
}
