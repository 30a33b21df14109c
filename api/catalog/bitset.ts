/** Fixed-size bitsets over listing indices (one bit per listing). */
export type Bitset = Uint32Array;

export const words = (n: number) => (n + 31) >>> 5;

export function full(n: number): Bitset {
  const b = new Uint32Array(words(n)).fill(0xffffffff);
  const tail = n & 31;
  if (tail) b[b.length - 1] = (1 << tail) - 1 >>> 0;
  if (n === 0) b.fill(0);
  return b;
}

export function fromIndices(n: number, indices: ArrayLike<number>): Bitset {
  const b = new Uint32Array(words(n));
  for (let k = 0; k < indices.length; k++) b[indices[k] >>> 5] |= 1 << (indices[k] & 31);
  return b;
}

/** The words [lo, hi) of b outside which it is empty, within the words given. */
export function wordsOf(b: Bitset, lo = 0, hi = b.length): { lo: number; hi: number } {
  while (lo < hi && b[lo] === 0) lo++;
  while (hi > lo && b[hi - 1] === 0) hi--;
  return { lo, hi };
}

export const has = (b: Bitset, i: number) => (b[i >>> 5] & (1 << (i & 31))) !== 0;

/** target := target ∩ other, over the words [lo, hi) when target is empty outside them */
export function andInto(target: Bitset, other: Bitset, lo = 0, hi = target.length): void {
  for (let w = lo; w < hi; w++) target[w] &= other[w];
}

export function andNot(target: Bitset, other: Bitset): Bitset {
  const out = new Uint32Array(target.length);
  for (let w = 0; w < target.length; w++) out[w] = target[w] & ~other[w];
  return out;
}

export function pop32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** |b|, over the words [lo, hi) when b is empty outside them */
export function count(b: Bitset, lo = 0, hi = b.length): number {
  let c = 0;
  for (let w = lo; w < hi; w++) if (b[w]) c += pop32(b[w]);
  return c;
}

/** |a ∩ b|, over the words [lo, hi) when a is empty outside them */
export function countAnd(a: Bitset, b: Bitset, lo = 0, hi = a.length): number {
  let c = 0;
  for (let w = lo; w < hi; w++) {
    const x = a[w] & b[w];
    if (x) c += pop32(x);
  }
  return c;
}

/** b := b ∩ [start, end), b being empty outside the words [lo, hi) */
export function keepRange(b: Bitset, start: number, end: number, lo = 0, hi = b.length): void {
  if (start >= end) { b.fill(0, lo, hi); return; }
  const first = start >>> 5, last = (end - 1) >>> 5;
  if (first >= hi || last < lo) { b.fill(0, lo, hi); return; }
  b.fill(0, lo, first);
  b.fill(0, last + 1, hi);
  b[first] &= ~0 << (start & 31);
  b[last] &= ~0 >>> (31 - ((end - 1) & 31));
}

/** b := b ∩ {list[k] : from ≤ k < to}, b being empty outside the words [lo, hi), in O(hi − lo + to − from) */
export function keepListed(b: Bitset, list: ArrayLike<number>, from = 0, to = list.length, lo = 0, hi = b.length): void {
  const kept: number[] = [];
  for (let k = from; k < to; k++) {
    const i = list[k];
    if (has(b, i)) kept.push(i);
  }
  setOnly(b, kept, kept.length, lo, hi);
}

/** b := {listed[k] : k < count}, b being empty outside the words [lo, hi) (the listings there). */
export function setOnly(b: Bitset, listed: ArrayLike<number>, count: number, lo = 0, hi = b.length): void {
  b.fill(0, lo, hi);
  for (let k = 0; k < count; k++) b[listed[k] >>> 5] |= 1 << (listed[k] & 31);
}

/** The members of b, ascending (b having none outside the words [lo, hi)). */
export function toIndices(b: Bitset, size?: number, lo = 0, hi = b.length): Int32Array {
  const out = new Int32Array(size ?? count(b, lo, hi));
  let k = 0;
  for (let w = lo; w < hi; w++) {
    let x = b[w];
    while (x) {
      const low = x & -x;
      out[k++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  return out;
}
