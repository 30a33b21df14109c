/** Match sets: the listings that pass every filter a query sets, from the indexes of a registry. */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import type { FilterIndex, FilterRegistry, FilterValues, IndexContext } from './filters.ts';

const isSet = (x: IndexedFilter, f: FilterValues) => x.params.some((p) => f[p] !== undefined);

export interface MatchSet { bits: Bitset; count: number }

export interface IndexedFilter {
  readonly name: string;
  readonly params: readonly string[];
  readonly index: FilterIndex;
}

export class Matcher {
  /** in registry order */
  readonly declared: readonly IndexedFilter[];

  constructor(registry: FilterRegistry, private readonly ctx: IndexContext) {
    this.declared = Object.entries(registry).map(([name, e]) => ({ name, params: Object.keys(e.declaration.params), index: e.index(ctx) }));
  }

  /**
   * The listings of each filter f sets, on its own, into `buffers` (reused; grown as needed): a
   * match that ignores some filters is then the intersection of the others' sets.
   */
  ownSets(f: FilterValues, buffers: Bitset[]): Map<string, Bitset> {
    const out = new Map<string, Bitset>();
    for (const x of this.declared) {
      if (!isSet(x, f)) continue;
      const b = buffers[out.size] ??= new Uint32Array(this.ctx.listings.all.length);
      b.set(this.ctx.listings.all);
      x.index.narrow(b, f);
      out.set(x.name, b);
    }
    return out;
  }

  /** The listings matching every filter f sets. */
  match(f: FilterValues): MatchSet {
    const b = Uint32Array.from(this.ctx.listings.all);
    for (const x of this.declared) if (isSet(x, f)) x.index.narrow(b, f);
    return { bits: b, count: bits.count(b) };
  }

  /** The groups the set is listed in, one after the other: one, unless a filter set in f splits it. */
  groups(set: MatchSet, f: FilterValues): { bits: Bitset; count: number }[] {
    for (const x of this.declared) {
      if (x.index.groups && isSet(x, f)) {
        return x.index.groups(set.bits, f).map((g) => ({ bits: g, count: bits.count(g) }));
      }
    }
    return [set];
  }
}
