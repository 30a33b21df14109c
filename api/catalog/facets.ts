/**
 * GET /v1/facets from the facet plans of the registry's filters. Facets are disjunctive: a facet
 * counts under every filter but the ones it ignores (its own), so its count for a value is the
 * list total with that value selected instead. The counter puts four parts together:
 * - facet-contexts.ts: the context each facet and range is counted under (its listings);
 * - facet-tallies.ts: the counts under the wide contexts most requests share, made once per build;
 * - value-counts.ts: the counts of the value facets (one value per listing) in a context, the
 *   value facets sharing a context counted together;
 * - facet-lists.ts: which values each facet lists, in which order;
 * and writes the payload's bytes (facet-payload.ts). Counted facets (option types, amenities)
 * count themselves (their FacetPlan); the ranges describe themselves.
 */
import type { Bitset } from './bitset.ts';
import { FacetContexts, placeContextBuffers, type Context } from './facet-contexts.ts';
import { ValueLists, type FacetLabeling } from './facet-lists.ts';
import { facetHead, listedJson, type FacetsOut, type LabelledValues, type Ranges } from './facet-payload.ts';
import { placeTalliedSets, Tallies } from './facet-tallies.ts';
import type { CountedFacet, FilterValues, RangeSummary, ValueFacet } from './filter-index.ts';
import { KernelMemory } from './kernels.ts';
import type { IndexedFilter, Matcher } from './match.ts';
import { placeValueArrays, ValueCounts } from './value-counts.ts';

/** The values a filter selects in f (a facet shows them even at count 0). */
function selected(x: IndexedFilter, f: FilterValues): string[] {
  const out: string[] = [];
  for (const p of x.params) {
    const v = f[p];
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) out.push(...(v as string[]));
  }
  return out;
}

export class FacetCounter {
  /** the filters shown as facets, in registry order, and the part each shows */
  private readonly shown: { x: IndexedFilter; facet: ValueFacet | CountedFacet }[] = [];
  private readonly valueFacets: { x: IndexedFilter; facet: ValueFacet }[] = [];
  private readonly countedFacets: { x: IndexedFilter; facet: CountedFacet }[] = [];
  private readonly summaries: RangeSummary[] = [];
  private readonly contexts: FacetContexts;
  private readonly tallies: Tallies;
  private readonly valueCounts: ValueCounts;
  private readonly lists: ValueLists;
  /** each counted facet's counts as the counts of a tally less those of the listings a context leaves out */
  private readonly lessCounts = new Map<CountedFacet, Int32Array>();
  /** each facet's JSON up to its values, by locale */
  private readonly heads = new Map<string, Map<IndexedFilter, Uint8Array>>();

  constructor(matcher: Matcher, all: Bitset, n: number) {
    for (const x of matcher.declared) {
      const shows = x.index.facets?.shows;
      if (!shows) continue;
      if (shows.kind === 'range') {
        this.summaries.push(shows);
        continue;
      }
      this.shown.push({ x, facet: shows });
      if (shows.kind === 'values') this.valueFacets.push({ x, facet: shows });
      else {
        this.countedFacets.push({ x, facet: shows });
        this.lessCounts.set(shows, new Int32Array(shows.values.length));
      }
    }
    const valueFacets = this.valueFacets.map((v) => v.facet);
    // every set a request counts lies in one memory of the kernels, laid out before it is opened
    const memory = new KernelMemory();
    const buffers = placeContextBuffers(memory, matcher, all.length);
    const talliedSets = placeTalliedSets(memory, matcher, all, valueFacets.length);
    const valueArrays = placeValueArrays(memory, valueFacets, n, all.length);
    const kernels = memory.open();
    this.valueCounts = new ValueCounts(valueArrays, kernels, all.length);
    this.tallies = new Tallies(talliedSets, this.valueCounts, { valueFacets, countedFacets: this.countedFacets.map((c) => c.facet), summaries: this.summaries }, n);
    this.contexts = new FacetContexts(matcher, buffers, kernels, this.tallies, all.length, n);
    this.lists = new ValueLists(this.valueFacets, this.countedFacets, n);
  }

  /**
   * Orders each facet's values by their labels in the labeling's locale and lists each tally's
   * values in it; makes each facet's JSON up to its values.
   */
  orderByLabels(labeling: FacetLabeling): void {
    const { locale } = labeling;
    this.heads.set(locale, new Map(this.shown.map(({ x }) => [x, Buffer.from(facetHead(x.name, labeling.key(x.name)))])));
    this.lists.orderByLabels(labeling);
    const tallies = this.tallies.every();
    for (const { facet } of this.valueFacets) {
      const l = this.lists.inLocale(locale, facet);
      for (const tally of tallies) {
        const { t, ids: counted } = tally.counts.get(facet)!;
        const ids = this.lists.top(t, counted, l);
        tally.listed.set(l, ids);
        tally.listedJson.set(l, listedJson(l.labelled, ids, t));
      }
    }
  }

  /**
   * Writes the facets under the filters f sets to `out`; returns whether a facet had more than
   * MAX_FACET_VALUES values and was cut to its highest counts (its selected values kept beyond the cap).
   */
  facets(f: FilterValues, labeling: FacetLabeling, out: FacetsOut): boolean {
    const contexts = this.contexts.of(f);
    const context = (ignores: readonly string[]) => contexts.get(ignores)!;
    const { locale } = labeling;

    const listed = new Map<IndexedFilter, { labelled: LabelledValues; t: Int32Array; ids: ArrayLike<number>; beyond: number[]; zeros: string[]; json?: Uint8Array }>();
    const countedBy = new Map<IndexedFilter, Int32Array>();
    let truncated = false;
    // value facets grouped by context: one count for each group
    const groups = new Map<Context, { x: IndexedFilter; facet: ValueFacet }[]>();
    for (const { x, facet } of this.shown) {
      const ctx = context(facet.ignores);
      if (facet.kind === 'values') {
        const g = groups.get(ctx);
        if (g) g.push({ x, facet }); else groups.set(ctx, [{ x, facet }]);
      } else countedBy.set(x, this.countOther(facet, ctx, f));
    }
    // the counters counted into for this request, zeroed once the payload is written
    const dirty: { facet: ValueFacet; touched: Int32Array }[] = [];
    for (const [ctx, all] of groups) {
      const { tally, bound, left } = ctx;
      const topped = tally ? undefined : this.countTops(ctx, all, f);
      let members = topped ? all.filter((m) => !topped.has(m.facet)) : all;
      let touched = tally ? [] : left
        ? this.valueCounts.countLess(ctx, left, members.map((m) => m.facet), members.map((m) => bound!.counts.get(m.facet)!))
        : this.valueCounts.count(ctx, members.map((m) => m.facet));
      if (topped) {
        members = [...members, ...all.filter((m) => topped.has(m.facet))];
        touched = [...touched, ...topped.values()];
      }
      members.forEach((m, k) => {
        const once = tally?.counts.get(m.facet);
        const l = this.lists.inLocale(locale, m.facet);
        const t = once ? once.t : this.valueCounts.countsOf(m.facet);
        const listedOnce = once ? tally!.listed.get(l) : undefined;
        const { ids, beyond, zeros, cut } = once
          ? this.lists.listValues(m.facet, l, t, once.ids, listedOnce, tally!.byCount.get(m.facet), selected(m.x, f))
          : this.lists.listValues(m.facet, l, t, touched[k], undefined, bound!.byCount.get(m.facet), selected(m.x, f));
        // the tally's values as they are: their JSON was made with the tally
        listed.set(m.x, { labelled: l.labelled, t, ids, beyond, zeros, json: ids === listedOnce ? tally!.listedJson.get(l) : undefined });
        truncated ||= cut;
        if (!tally) dirty.push({ facet: m.facet, touched: touched[k] });
      });
    }

    const ranges: Ranges = {};
    for (const summary of this.summaries) {
      const ctx = context(summary.ignores);
      const once = summary.contextOnly(f) ? ctx.tally?.described.get(summary) : undefined;
      if (once) Object.assign(ranges, once);
      else summary.describe(ctx, f, ranges);
    }

    const heads = this.heads.get(locale);
    for (const { x, facet } of this.shown) {
      out.facet(x.name, labeling.key(x.name), heads?.get(x));
      if (facet.kind === 'values') {
        const ready = listed.get(x)!;
        out.listed(ready.labelled, ready.ids, ready.t, ready.json);
        out.listed(ready.labelled, ready.beyond, ready.t);
        for (const s of ready.zeros) out.value(s, labeling.value(x.name, s), 0);
      } else truncated = this.lists.writeCounted(x, facet, countedBy.get(x)!, selected(x, f), labeling, out) || truncated;
    }
    out.end(ranges);
    // the next request starts from zero
    for (const { facet, touched } of dirty) this.valueCounts.clear(facet, touched);
    return truncated;
  }

  /**
   * Counts the places of a group with more values than a list holds only as far as their lists
   * need (ValueCounts.countTop), where that costs less than counting every range; returns the ids
   * each counted above 0, by facet, if any was.
   */
  private countTops(ctx: Context, group: readonly { x: IndexedFilter; facet: ValueFacet }[], f: FilterValues): Map<ValueFacet, Int32Array> | undefined {
    let topped: Map<ValueFacet, Int32Array> | undefined;
    for (const { x, facet } of group) {
      const byBound = ctx.bound!.byCount.get(facet);
      if (!byBound || this.valueCounts.topBudget(ctx, facet) === 0) continue;
      const ids = this.valueCounts.countTop(ctx, facet, byBound, this.lists.idsOf(facet, selected(x, f)));
      if (ids) (topped ??= new Map()).set(facet, ids);
    }
    return topped;
  }

  /** A counted facet's counts in ctx under f, in the order of its values (valid until it is counted again). */
  private countOther(facet: CountedFacet, ctx: Context, f: FilterValues): Int32Array {
    const once = facet.contextOnly(f) ? (ctx.tally ?? (ctx.left && ctx.bound))?.added.get(facet) : undefined;
    if (!once) return facet.count(ctx, f);
    if (ctx.tally) return once;
    // the bound's counts less those of the listings the context leaves out
    const less = facet.count(ctx.left!, f);
    const counts = this.lessCounts.get(facet)!;
    for (let id = 0; id < counts.length; id++) counts[id] = once[id] - less[id];
    return counts;
  }
}
