/**
 * The context each facet and range summary is counted under in a request: the listings that match
 * every filter it does not ignore (facets are disjunctive: a facet ignores its own filter). Each
 * filter of the request is matched once on its own; each distinct context is the intersection of
 * those it keeps, in a reused buffer, over the words where all of them have members. Those sets
 * live in the kernels' memory (kernels.ts), which intersects them 64 bits at a time, as do the
 * tallies' listings: a filter whose set is the intersection of tallied values (several amenities)
 * is intersected from theirs. A context that is a tally's listings is the tally's; a context inside
 * a tally's listings that holds most of them (two amenities: most listings with the first have
 * the second) carries the listings of the tally it leaves out, to be counted as the tally less those.
 */
import type { Bitset } from './bitset.ts';
import * as bits from './bitset.ts';
import type { Tallies, Tally } from './facet-tallies.ts';
import type { FilterValues } from './filter-index.ts';
import type { KernelMemory, Kernels, Placed } from './kernels.ts';
import type { IndexedFilter, Matcher } from './match.ts';
import type { CountableContext } from './value-counts.ts';

export interface Context extends CountableContext {
  /** its counts when they were counted once per build */
  tally?: Tally;
  /** else the tally with the fewest listings that holds its own (every listing, if no other does) */
  bound?: Tally;
  /** and when it leaves out fewer of that tally's listings than a pass over it would visit, those listings */
  left?: Context;
}

/** The buffers a request's contexts are made in, placed in the kernels' memory before it is opened. */
export interface ContextBuffers {
  /** a context each */
  readonly scratch: Placed<Uint32Array>[];
  /** the listings of a tally each context leaves out */
  readonly leftScratch: Placed<Uint32Array>[];
  /** each filter's set alone */
  readonly own: Placed<Uint32Array>[];
}

/** Places the buffers of the contexts of a request under the matcher's filters, each `words` long. */
export function placeContextBuffers(memory: KernelMemory, matcher: Matcher, words: number): ContextBuffers {
  // a request has at most a context per facet and range summary, and every listing's
  const contexts = 1 + matcher.declared.filter((x) => x.index.facets?.shows).length;
  return {
    scratch: Array.from({ length: contexts }, () => memory.uint32(words)),
    leftScratch: Array.from({ length: contexts }, () => memory.uint32(words)),
    own: matcher.declared.map(() => memory.uint32(words)),
  };
}

/** The bytes of the whole 64-bit words that hold the 32-bit words [lo, hi): the kernels read and write 64 bits at a time. */
const byteFrom = (lo: number) => 4 * (lo & ~1);
const byteTo = (hi: number) => 4 * (hi + (hi & 1));

export class FacetContexts {
  /** the words of each scratch buffer that may hold members (the rest are zero) */
  private readonly scratchLo: number[] = [];
  private readonly scratchHi: number[] = [];
  /** the words of each filter's own buffer that may hold members */
  private readonly ownLo: number[] = [];
  private readonly ownHi: number[] = [];
  /** a context is named by a number with a bit for each filter it keeps (the filter's place in the registry) */
  private readonly bitOf = new Map<IndexedFilter, number>();
  /** the bits of the filters a facet or range summary ignores, by its `ignores` */
  private readonly ignoredBits = new Map<readonly string[], number>();

  constructor(
    private readonly matcher: Matcher,
    private readonly buffers: ContextBuffers,
    private readonly kernels: Kernels,
    private readonly tallies: Tallies,
    private readonly words: number,
    private readonly n: number,
  ) {
    const { declared } = matcher;
    if (declared.length > 31) throw new Error(`a facet context has a bit per filter: ${declared.length} filters are more than 31`);
    declared.forEach((x, k) => this.bitOf.set(x, 1 << k));
    for (const x of declared) {
      const ignores = x.index.facets?.shows?.ignores;
      if (ignores) this.ignoredBits.set(ignores, declared.reduce((bits, y, k) => (ignores.includes(y.name) ? bits | (1 << k) : bits), 0));
    }
  }

  /**
   * The context of each facet and range summary under f, by its `ignores`: the intersection of the
   * sets of the filters it keeps, each matched alone only within the words of the contexts that
   * keep it (a place's, unless a context ignores the place). A context that is a tally's listings
   * (every listing, or one filter's tallied value) is the tally's, and not intersected.
   */
  of(f: FilterValues): Map<readonly string[], Context> {
    const set = this.matcher.setIn(f);
    let setBits = 0;
    for (const x of set) setBits |= this.bitOf.get(x)!;
    // each filter's set as the intersection of tallies, when it is one
    const exact = set.map((x) => this.tallies.exactly(x, f));
    const byKey = new Map<number, Context>();
    /** the contexts to intersect: the filters each keeps and the words of their spans */
    const pending: { key: number; kept: IndexedFilter[]; lo: number; hi: number }[] = [];
    for (const ignored of this.ignoredBits.values()) {
      const key = setBits & ~ignored;
      if (byKey.has(key) || pending.some((p) => p.key === key)) continue;
      const kept = set.filter((x) => key & this.bitOf.get(x)!);
      const alone = kept.length === 1 ? exact[set.indexOf(kept[0])] : undefined;
      const tally = kept.length === 0 ? this.tallies.whole : alone?.length === 1 ? alone[0] : undefined;
      if (tally) byKey.set(key, { bits: tally.bits, count: tally.count, lo: tally.lo, hi: tally.hi, tally });
      else pending.push({ key, kept, ...this.matcher.spanWords(kept, f) });
    }
    const { own, scratch } = this.buffers;
    // each filter's own set in the kernels' memory, within the words of the contexts that keep it
    const sets = set.map((x, j): { bits: Bitset; at: number; lo: number; hi: number } => {
      let lo = this.words, hi = 0;
      for (const p of pending) {
        if (p.kept.includes(x)) { lo = Math.min(lo, p.lo); hi = Math.max(hi, p.hi); }
      }
      const { view: b, at } = own[j];
      b.fill(0, this.ownLo[j] ?? 0, this.ownHi[j] ?? 0);
      this.ownLo[j] = this.ownHi[j] = 0;
      if (lo >= hi) return { bits: b, at, lo: 0, hi: 0 };
      const tallies = exact[j];
      if (tallies?.length === 1) return { bits: tallies[0].bits, at: tallies[0].at, ...bits.wordsOf(tallies[0].bits, lo, hi) };
      this.ownLo[j] = lo;
      this.ownHi[j] = hi;
      if (!tallies) {
        const alone = this.matcher.ownSet(x, f, b, lo, hi);
        // a set the index holds, copied in
        if (alone.bits !== b) b.set(alone.bits.subarray(alone.lo, alone.hi), alone.lo);
        return { bits: b, at, lo: alone.lo, hi: alone.hi };
      }
      // several tallied values (amenities): the intersection of their listings
      this.intersect(own[j], tallies, lo, hi);
      return { bits: b, at, ...bits.wordsOf(b, lo, hi) };
    });
    pending.forEach(({ key, kept, lo, hi }, slot) => {
      // the intersection of the kept sets, over the words where all of them have members
      const js = kept.map((x) => set.indexOf(x));
      for (const j of js) { lo = Math.max(lo, sets[j].lo); hi = Math.min(hi, sets[j].hi); }
      if (hi < lo) hi = lo;
      const { view: b, at } = scratch[slot];
      b.fill(0, this.scratchLo[slot] ?? 0, this.scratchHi[slot] ?? 0);
      this.intersect(scratch[slot], js.map((j) => sets[j]), lo, hi);
      this.scratchLo[slot] = lo;
      this.scratchHi[slot] = hi;
      const c = this.resident(b, at, lo, hi);
      // the tally holding the context with the fewest listings besides it
      const base = this.tallies.tightest(kept, f);
      if (base.count === c.count) c.tally = base;
      else {
        c.bound = base;
        if (base !== this.tallies.whole && base.count - c.count < Math.min(c.count, this.n - c.count)) c.left = this.leftOut(base, c, slot);
      }
      byKey.set(key, c);
    });
    const out = new Map<readonly string[], Context>();
    for (const [ignores, ignored] of this.ignoredBits) out.set(ignores, byKey.get(setBits & ~ignored)!);
    return out;
  }

  /**
   * Writes into `out` (empty outside the words [lo, hi)) the intersection of `sets` (sets in the
   * kernels' memory) over those words: the first one's words, then each other's ANDed in.
   */
  private intersect(out: Placed<Uint32Array>, sets: readonly { bits: Bitset; at: number }[], lo: number, hi: number): void {
    out.view.set(sets[0].bits.subarray(lo, hi), lo);
    for (let k = 1; k < sets.length; k++) this.kernels.andInto(out.at, sets[k].at, byteFrom(lo), byteTo(hi));
  }

  /** The listings of the tally that ctx leaves out, in a scratch buffer of its own (`slot`: the context's). */
  private leftOut(tally: Tally, ctx: Context & { at: number }, slot: number): Context {
    const { view: b, at } = this.buffers.leftScratch[slot];
    this.kernels.andNot(at, tally.at, ctx.at, 0, byteTo(b.length));
    return this.resident(b, at, 0, b.length);
  }

  /** A set in the kernels' memory as a context (empty outside the words [lo, hi) given), counted by popcount. */
  private resident(b: Bitset, at: number, lo: number, hi: number): Context & { at: number } {
    const w = bits.wordsOf(b, lo, hi);
    // the 32-bit words next to each end are zero (outside [lo, hi), or past the end)
    const count = this.kernels.countBits(at, byteFrom(w.lo), byteTo(w.hi));
    return { bits: b, count, lo: w.lo, hi: w.hi, at };
  }
}
