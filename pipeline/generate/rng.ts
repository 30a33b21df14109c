/**
 * Seeded PRNG (sfc32, seeded through splitmix32). The generator never uses Math.random or
 * the wall clock, and draws only with +, *, floor: no transcendental functions whose last
 * bits could differ between runtimes, so a seed gives byte-identical files everywhere.
 */
function splitmix32(a: number): () => number {
  return () => {
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t ^= t >>> 15;
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const init = splitmix32(seed >>> 0);
    this.a = init(); this.b = init(); this.c = init(); this.d = init();
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in [min, max). */
  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }

  /** Centred, bell-shaped offset in (-spread, spread): the mean of three uniforms. */
  bell(spread: number): number {
    return ((this.next() + this.next() + this.next()) / 1.5 - 1) * spread;
  }

  /** k distinct integers from [0, n), ascending. */
  sample(n: number, k: number): number[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(k, n)) chosen.add(Math.floor(this.next() * n));
    return [...chosen].sort((x, y) => x - y);
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i]; items[i] = items[j]; items[j] = tmp;
    }
    return items;
  }

  /** An independent generator derived from this one and a label. */
  fork(label: number): Rng {
    return new Rng((this.nextUint32() ^ Math.imul(label + 1, 0x9e3779b1)) >>> 0);
  }
}
