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

export function fromIndices(n: number, indices: Iterable<number>): Bitset {
  const b = new Uint32Array(words(n));
  for (const i of indices) b[i >>> 5] |= 1 << (i & 31);
  return b;
}

export const has = (b: Bitset, i: number) => (b[i >>> 5] & (1 << (i & 31))) !== 0;

export function andInto(target: Bitset, other: Bitset): void {
  for (let w = 0; w < target.length; w++) target[w] &= other[w];
}

export function andNot(target: Bitset, other: Bitset): Bitset {
  const out = new Uint32Array(target.length);
  for (let w = 0; w < target.length; w++) out[w] = target[w] & ~other[w];
  return out;
}

function pop32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function count(b: Bitset): number {
  let c = 0;
  for (let w = 0; w < b.length; w++) if (b[w]) c += pop32(b[w]);
  return c;
}

export function countAnd(a: Bitset, b: Bitset): number {
  let c = 0;
  for (let w = 0; w < a.length; w++) {
    const x = a[w] & b[w];
    if (x) c += pop32(x);
  }
  return c;
}

export function toIndices(b: Bitset, size?: number): Int32Array {
  const out = new Int32Array(size ?? count(b));
  let k = 0;
  for (let w = 0; w < b.length; w++) {
    let x = b[w];
    while (x) {
      const low = x & -x;
      out[k++] = (w << 5) + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  return out;
}
