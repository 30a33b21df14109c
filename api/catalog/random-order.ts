/**
 * The random order of a seed: a keyed permutation of the listing positions 0..n-1. A small
 * Feistel network permutes the k-bit numbers (2^k the next power of two ≥ n); applied again to
 * any result ≥ n (cycle walking) it permutes 0..n-1. `at(rank)` is the listing at a rank, so a
 * page of a dense set is walked rank by rank; `rankOf(listing)` is the inverse, so a sparse set
 * is ordered by the ranks of its members. Both give the same order.
 */
import { mix32 } from '../../contract/geo.ts';

const ROUNDS = 4;

export class RandomOrder {
  private readonly lowBits: number;
  private readonly lowMask: number;
  private readonly highMask: number;
  private readonly keys = new Uint32Array(ROUNDS);

  constructor(readonly n: number, seed: number) {
    let k = 2;
    while (2 ** k < n) k++;
    this.lowBits = k >>> 1;
    this.lowMask = (1 << this.lowBits) - 1;
    this.highMask = (1 << (k - this.lowBits)) - 1;
    const base = mix32(seed >>> 0);
    for (let r = 0; r < ROUNDS; r++) this.keys[r] = mix32((base + Math.imul(r + 1, 0x9e3779b9)) >>> 0);
  }

  /** One round: the half it changes takes the XOR of a keyed hash of the other half. */
  private round(x: number, r: number): number {
    const low = x & this.lowMask, high = x >>> this.lowBits;
    if (r & 1) return (high << this.lowBits) | ((low ^ mix32((high ^ this.keys[r]) >>> 0)) & this.lowMask);
    return (((high ^ mix32((low ^ this.keys[r]) >>> 0)) & this.highMask) << this.lowBits) | low;
  }

  private forward(x: number): number {
    for (let r = 0; r < ROUNDS; r++) x = this.round(x, r);
    return x;
  }

  /** Each round is its own inverse: undone in reverse order. */
  private backward(x: number): number {
    for (let r = ROUNDS - 1; r >= 0; r--) x = this.round(x, r);
    return x;
  }

  /** The listing at a rank (0 ≤ rank < n). */
  at(rank: number): number {
    let x = this.forward(rank);
    while (x >= this.n) x = this.forward(x);
    return x;
  }

  /** The rank of a listing (0 ≤ listing < n). */
  rankOf(listing: number): number {
    let x = this.backward(listing);
    while (x >= this.n) x = this.backward(x);
    return x;
  }
}
