/** Match sets: the listings that pass every filter a query sets, from the indexes of a registry. */
import * as bits from './bitset.ts';
import type { Bitset } from './bitset.ts';
import type { FilterIndex, FilterRegistry, FilterValues, IndexContext } from './filters.ts';

/** A set to read, never to change: the match of no filter is the listing table's own set of every listing. */
export interface MatchSet { bits: Bitset; count: number }

export interface IndexedFilter {
  readonly name: string;
  readonly params: readonly string[];
  readonly index: FilterIndex;
}

export class Matcher {
  /** in registry order */
  readonly declared: readonly IndexedFilter[];
  /** each filter's place in `declared`, by its query parameters */
  private readonly placeOf = new Map<string, number>();
  private readonly everyListing: MatchSet;

  constructor(registry: FilterRegistry, private readonly ctx: IndexContext) {
    this.everyListing = { bits: ctx.listings.all, count: ctx.listings.n };
    this.declared = Object.entries(registry).map(([name, e]) => ({ name, params: Object.keys(e.declaration.params), index: e.index(ctx) }));
    this.declared.forEach((x, k) => {
      for (const p of x.params) {
        const other = this.placeOf.get(p);
        if (other !== undefined) throw new Error(`the query parameter ${p} is declared by two filters, ${this.declared[other].name} and ${x.name}`);
        this.placeOf.set(p, k);
      }
    });
  }

  /** The filters f sets, in registry order (from f's own keys: a request sets a few of many). */
  private setIn(f: FilterValues): IndexedFilter[] {
    const places: number[] = [];
    for (const p of Object.keys(f)) {
      const k = this.placeOf.get(p);
      if (k !== undefined && f[p] !== undefined && !places.includes(k)) places.push(k);
    }
    return places.sort((a, b) => a - b).map((k) => this.declared[k]);
  }

  /**
   * The listings of each filter f sets, on its own, into `buffers` (reused; grown as needed), in
   * registry order: a match that ignores some filters is then the intersection of the others' sets.
   */
  ownSets(f: FilterValues, buffers: Bitset[]): { x: IndexedFilter; bits: Bitset }[] {
    return this.setIn(f).map((x, k) => {
      const b = buffers[k] ??= new Uint32Array(this.ctx.listings.all.length);
      b.set(this.ctx.listings.all);
      x.index.narrow(b, f);
      return { x, bits: b };
    });
  }

  /** The listings matching every filter f sets. */
  match(f: FilterValues): MatchSet {
    const set = this.setIn(f);
    if (set.length === 0) return this.everyListing;
    const b = this.ctx.listings.all.slice();
    for (const x of set) x.index.narrow(b, f);
    return { bits: b, count: bits.count(b) };
  }

  /** The groups the set is listed in, one after the other: one, unless a filter set in f splits it. */
  groups(set: MatchSet, f: FilterValues): { bits: Bitset; count: number }[] {
    for (const x of this.setIn(f)) {
      if (x.index.groups) return x.index.groups(set.bits, f).map((g) => ({ bits: g, count: bits.count(g) }));
    }
    return [set];
  }
}
