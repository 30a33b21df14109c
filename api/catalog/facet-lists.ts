/**
 * Which values a facet lists, from its counts: by count, then label, at most MAX_FACET_VALUES
 * (the highest counts, ties by label), then the selected values beyond them and those at 0. The
 * values' label order is computed once per build and locale; a request sorts only what it lists.
 */
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import * as bits from './bitset.ts';
import { labelledValueSets, type FacetsOut, type LabelledValues } from './facet-payload.ts';
import type { CountedFacet, ValueFacet } from './filter-index.ts';
import type { IndexedFilter } from './match.ts';

export interface FacetLabeling {
  /** the locale of the labels (a facet's values are listed in its label order) */
  locale: string;
  key(facet: string): string;
  value(facet: string, value: string): string;
  /** orders two values by their labels, then by value */
  compare(a: { value: string; label: string }, b: { value: string; label: string }): number;
  /** a labelled value's place in that order (precomputed), undefined for a value without a label */
  rank(facet: string, value: string): number | undefined;
}

/** A facet in one locale: its values labelled, their ids in the order of their labels, and each id's place in that order. */
export interface InLocale {
  readonly labelled: LabelledValues;
  readonly order: Int32Array;
  readonly place: Int32Array;
}

/** Value ids by their counts in a set of listings, highest first, and those counts. */
export interface ByCount {
  readonly ids: Int32Array;
  readonly counts: Int32Array;
}

/** ids by their counts in t, highest first (ties in the order given): a counting sort, the counts being at most the listings */
export function byCount(t: Int32Array, ids: Iterable<number>): ByCount {
  const from = Int32Array.from(ids);
  let max = 0;
  for (let k = 0; k < from.length; k++) if (t[from[k]] > max) max = t[from[k]];
  // the place of the first id with each count, highest first
  const place = new Int32Array(max + 2);
  for (let k = 0; k < from.length; k++) place[max - t[from[k]] + 1]++;
  for (let c = 0; c <= max; c++) place[c + 1] += place[c];
  const sorted = new Int32Array(from.length), counts = new Int32Array(from.length);
  for (let k = 0; k < from.length; k++) {
    const at = place[max - t[from[k]]]++;
    sorted[at] = from[k];
    counts[at] = t[from[k]];
  }
  return { ids: sorted, counts };
}

/** Two labelled values in the order of their labels: by their places among the labels, else collated. */
const byLabel = (a: { value: string; label: string; rank?: number }, b: { value: string; label: string; rank?: number }, labeling: FacetLabeling) =>
  (a.rank !== undefined && b.rank !== undefined ? a.rank - b.rank : labeling.compare(a, b));

/** more than the values of any facet: a value's place in label order is a number below it */
const PLACES = 2 ** 24;
/** up to this many values are sorted by insertion */
const FEW_KEYS = 24;

type Facet = ValueFacet | CountedFacet;

export class ValueLists {
  /** each facet in each locale, by locale */
  private readonly byLocale = new Map<string, Map<Facet, InLocale>>();
  /** each facet's value ids by value */
  private readonly idOf = new Map<Facet, Map<string, number>>();
  /** the values a facet's top may list (candidates) */
  private readonly candidateIds: Int32Array;
  /** the ids of a counted facet's values counted above 0 (writeCounted) */
  private readonly positiveIds: Int32Array;
  /** how many values of one facet have each count below `big`, to find the count at the cap */
  private readonly histogram: Int32Array;
  /** a count that fewer than MAX_FACET_VALUES values of a value facet reach (its counts add up to at most n), and those values (top) */
  private readonly big: number;
  private readonly bigIds = new Int32Array(MAX_FACET_VALUES);
  /** the values listed as numbers that sort by count, then label (sortedByCountThenLabel) */
  private readonly sortKeys: Float64Array;
  /** the places in label order of the values a walk lists, a bit each (top) */
  private readonly marked: Uint32Array;

  constructor(
    private readonly valueFacets: readonly { x: IndexedFilter; facet: ValueFacet }[],
    private readonly countedFacets: readonly { x: IndexedFilter; facet: CountedFacet }[],
    n: number,
  ) {
    this.big = Math.floor(n / MAX_FACET_VALUES) + 1;
    this.histogram = new Int32Array(this.big + 1);
    for (const { facet } of [...valueFacets, ...countedFacets]) this.idOf.set(facet, new Map(facet.values.map((v, id) => [v, id])));
    const mostValues = Math.max(0, ...valueFacets.map(({ facet }) => facet.values.length));
    this.candidateIds = new Int32Array(mostValues);
    this.marked = new Uint32Array(bits.words(mostValues));
    const mostCounted = Math.max(0, ...countedFacets.map(({ facet }) => facet.values.length));
    this.positiveIds = new Int32Array(mostCounted);
    this.sortKeys = new Float64Array(Math.max(MAX_FACET_VALUES, mostCounted));
  }

  /** Orders each facet's values by their labels in the labeling's locale (its `rank`: a value's place among the labels) and keeps the labels. */
  orderByLabels(labeling: FacetLabeling): void {
    const inLocale = new Map<Facet, InLocale>();
    this.byLocale.set(labeling.locale, inLocale);
    // every facet's values share one memory: the value facets', then the counted ones'
    const labelledSets = labelledValueSets([...this.valueFacets, ...this.countedFacets].map(({ x, facet }) => ({ values: facet.values, labels: facet.values.map((v) => labeling.value(x.name, v)) })));
    for (const [f, { x, facet }] of this.valueFacets.entries()) {
      // the labelled values by their places among the labels (a scatter, no sort), then any value without a label by value
      const places = facet.values.map((v) => labeling.rank(x.name, v));
      let labels = 0;
      for (const p of places) if (p !== undefined && p >= labels) labels = p + 1;
      const byPlace = new Int32Array(labels).fill(-1);
      const unlabelled: number[] = [];
      places.forEach((p, id) => {
        if (p === undefined) unlabelled.push(id); else byPlace[p] = id;
      });
      const order = new Int32Array(facet.values.length);
      let k = 0;
      for (const id of byPlace) if (id >= 0) order[k++] = id;
      for (const id of unlabelled.sort((a, b) => (facet.values[a] < facet.values[b] ? -1 : 1))) order[k++] = id;
      inLocale.set(facet, { labelled: labelledSets[f], order, place: placesOf(order) });
    }
    for (const [j, { x, facet }] of this.countedFacets.entries()) {
      const labelled = labelledSets[this.valueFacets.length + j];
      const values = facet.values.map((value, id) => ({ value, label: labelled.labels[id], rank: labeling.rank(x.name, value) }));
      const order = Int32Array.from(values.keys()).sort((a, b) => byLabel(values[a], values[b], labeling));
      inLocale.set(facet, { labelled, order, place: placesOf(order) });
    }
  }

  /** The ids of a facet's values among `values` (those it has). */
  idsOf(facet: Facet, values: readonly string[]): number[] {
    const idOf = this.idOf.get(facet)!;
    const ids: number[] = [];
    for (const v of values) {
      const id = idOf.get(v);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }

  /** A facet in a locale its values were ordered in (orderByLabels). */
  inLocale(locale: string, facet: Facet): InLocale {
    return this.byLocale.get(locale)!.get(facet)!;
  }

  /**
   * The ids a value facet lists from its counts t (`ids`: the values counted above 0; `listedOnce`:
   * the ids listed when counted once per build; `byBound`: the ids by their counts in a context
   * that holds this one, for a facet with more values than it lists): by count, then label, at most
   * MAX_FACET_VALUES; the selected values beyond them, listed after them; and the selected values at 0.
   */
  listValues(facet: ValueFacet, l: InLocale, t: Int32Array, ids: Int32Array, listedOnce: readonly number[] | undefined, byBound: ByCount | undefined, chosen: string[]): { ids: readonly number[]; beyond: number[]; zeros: string[]; cut: boolean } {
    const cut = ids.length > MAX_FACET_VALUES;
    const listed = listedOnce ?? this.top(t, this.candidates(t, ids, byBound), l);
    if (chosen.length === 0) return { ids: listed, beyond: [], zeros: [], cut };
    const { place } = l;
    const idOf = this.idOf.get(facet)!;
    const beyond: number[] = [];
    const zeros: string[] = [];
    for (const s of chosen) {
      const id = idOf.get(s);
      if (id !== undefined && t[id] > 0) {
        if (!listed.includes(id) && !beyond.includes(id)) beyond.push(id);
      } else if (!zeros.includes(s)) zeros.push(s);
    }
    beyond.sort((a, b) => t[b] - t[a] || place[a] - place[b]);
    return { ids: listed, beyond, zeros, cut };
  }

  /**
   * The ids a value facet lists from its counts t (`ids`: the values counted above 0), by count
   * then label: every one when they are at most MAX_FACET_VALUES, else the highest counts (the
   * first in label order among those tied at the cap's count).
   */
  top(t: Int32Array, ids: Int32Array, { order, place }: InLocale): number[] {
    if (ids.length <= MAX_FACET_VALUES) return this.sortedByCountThenLabel(t, ids, place, order);
    // the counts of a value facet add up to at most n: fewer than MAX_FACET_VALUES values reach `big`,
    // so those are listed, sorted apart; the others are placed by how many values have each count
    const { big, histogram: h, bigIds, marked } = this;
    let bigs = 0, max = 0;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k], c = t[id];
      if (c >= big) { bigIds[bigs++] = id; continue; }
      h[c]++;
      if (c > max) max = c;
    }
    // listed: every count above `atCap`, and the first `ties` in label order of those equal to it
    let above = bigs, atCap = max;
    for (; above + h[atCap] < MAX_FACET_VALUES; atCap--) above += h[atCap];
    let ties = MAX_FACET_VALUES - above;
    // a bit for the place in label order of each value that may be listed: the walk below visits only these
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k], c = t[id];
      if (c < atCap || c >= big) continue;
      const p = place[id];
      marked[p >>> 5] |= 1 << (p & 31);
    }
    // h[c] becomes the place of the first value with count c (higher counts first), then the walk places each
    for (let c = max, at = bigs; c > atCap; c--) { const k = h[c]; h[c] = at; at += k; }
    const listed = this.sortedByCountThenLabel(t, bigIds.subarray(0, bigs), place, order);
    listed.length = MAX_FACET_VALUES;
    let w = 0;
    for (let tie = above, left = MAX_FACET_VALUES - bigs; left > 0; w++) {
      let x = marked[w];
      marked[w] = 0;
      while (x) {
        const low = x & -x;
        x ^= low;
        const id = order[(w << 5) + 31 - Math.clz32(low)], c = t[id];
        if (c > atCap) { listed[h[c]++] = id; left--; }
        else if (c === atCap && ties > 0) { listed[tie++] = id; ties--; left--; }
      }
    }
    marked.fill(0, w, bits.words(order.length));
    h.fill(0, 0, max + 1);
    return listed;
  }

  /**
   * The values counted above 0 (`ids`, counts t) that may be among a facet's MAX_FACET_VALUES
   * highest counts in a context that a bound context holds (`byBound`: its ids by count), where no
   * value counts more than in the bound: when the values with the highest counts there already hold
   * that many counted at least c here, a value counted below c there cannot be listed, and only the
   * values counted c or more there are looked at (a context inside an amenity's or option type's
   * listings is mostly most of them).
   */
  private candidates(t: Int32Array, ids: Int32Array, byBound: ByCount | undefined): Int32Array {
    if (ids.length <= MAX_FACET_VALUES) return ids;
    const { ids: byCounts, counts } = byBound!;
    const { big, histogram: h } = this;
    const first = Math.min(byCounts.length, 2 * MAX_FACET_VALUES);
    for (let k = 0; k < first; k++) {
      const c = t[byCounts[k]];
      if (c > 0) h[c < big ? c : big]++;
    }
    // c: the MAX_FACET_VALUES-th highest count among those first values (0: fewer are counted)
    let c = big, reached = 0;
    for (; c > 0 && (reached += h[c]) < MAX_FACET_VALUES; c--);
    h.fill(0);
    // the values counted in the bound at c or more: a prefix of byCounts
    let end = counts.length;
    if (c > 0) {
      let l = 0;
      while (l < end) { const m = (l + end) >>> 1; if (counts[m] >= c) l = m + 1; else end = m; }
    }
    if (end >= ids.length) return ids;
    const out = this.candidateIds;
    let size = 0;
    for (let k = 0; k < end; k++) if (t[byCounts[k]] > 0) out[size++] = byCounts[k];
    return out.subarray(0, size);
  }

  /**
   * Writes a counted facet's values from its counts: those above 0 by count, then label (the
   * highest MAX_FACET_VALUES and the selected ones beyond them), then the selected values at 0 by
   * label; returns whether it had more than MAX_FACET_VALUES values and was cut.
   */
  writeCounted(x: IndexedFilter, facet: CountedFacet, counts: Int32Array, chosen: string[], labeling: FacetLabeling, out: FacetsOut): boolean {
    const l = this.inLocale(labeling.locale, facet);
    const idOf = this.idOf.get(facet)!;
    const positive = this.positiveIds;
    let size = 0;
    for (let id = 0; id < counts.length; id++) if (counts[id] > 0) positive[size++] = id;
    // a counted facet has few values (option types, amenities): every one counted is sorted
    const sorted = this.sortedByCountThenLabel(counts, positive.subarray(0, size), l.place, l.order);
    const zeros: { value: string; label: string; rank?: number }[] = [];
    for (const s of chosen) {
      const id = idOf.get(s);
      if ((id === undefined || counts[id] === 0) && !zeros.some((z) => z.value === s)) zeros.push({ value: s, label: labeling.value(x.name, s), rank: labeling.rank(x.name, s) });
    }
    zeros.sort((a, b) => byLabel(a, b, labeling));
    out.listed(l.labelled, sorted.length <= MAX_FACET_VALUES ? sorted : sorted.filter((id, k) => k < MAX_FACET_VALUES || chosen.includes(facet.values[id])), counts);
    for (const z of zeros) out.value(z.value, z.label, 0);
    return size + zeros.length > MAX_FACET_VALUES;
  }

  /** The ids (at most MAX_FACET_VALUES, or a counted facet's) by count, then label: each sorted as one number. */
  private sortedByCountThenLabel(t: Int32Array, ids: Int32Array, place: Int32Array, order: Int32Array): number[] {
    const n = ids.length;
    let max = 0;
    for (let k = 0; k < n; k++) if (t[ids[k]] > max) max = t[ids[k]];
    const keys = this.sortKeys;
    for (let k = 0; k < n; k++) keys[k] = (max - t[ids[k]]) * PLACES + place[ids[k]];
    // a few keys (a counted facet's, a place's) by insertion: a call into the native sort costs more
    if (n > FEW_KEYS) keys.subarray(0, n).sort();
    else {
      for (let k = 1; k < n; k++) {
        const key = keys[k];
        let j = k - 1;
        for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
        keys[j + 1] = key;
      }
    }
    const listed = new Array<number>(n);
    // the place: the key less its count's multiple of PLACES (a power of two: exact, and no floating-point remainder)
    for (let k = 0; k < n; k++) listed[k] = order[keys[k] - Math.floor(keys[k] / PLACES) * PLACES];
    return listed;
  }
}

/** Each id's place in `order`. */
function placesOf(order: Int32Array): Int32Array {
  const place = new Int32Array(order.length);
  order.forEach((id, at) => { place[id] = at; });
  return place;
}
