/**
 * A GET /v1/facets payload as the facet counter writes it (FacetsOut): the JSON bytes of the
 * response, written from fragments made once per build and locale (each value's
 * `{"value":…,"label":…,"count":`), so a request writes only its counts and the brackets around them.
 */
import type { FacetsPayload } from '../../contract/catalog.ts';
import type { Money } from '../../contract/common.ts';
import { ASCII, JsonBytes } from './json-bytes.ts';
import { KernelMemory } from './kernels.ts';

/** Room for a wide context's body (every listing at 100k: ~42 kB), so it is rarely grown. */
export const FACETS_BYTES = 48 * 1024;

export type Ranges = Omit<FacetsPayload, 'facets'>;

/** The values of a facet labelled in one locale, by value id. */
export interface LabelledValues {
  readonly values: readonly string[];
  readonly labels: readonly string[];
  /** Writes the values `ids` with their counts in t, comma-separated. */
  write(w: JsonBytes, ids: ArrayLike<number>, t: ArrayLike<number>): void;
}

/** Each value's JSON up to its count, `{"value":…,"label":…,"count":`, one after the other, and where each starts (one more: the end). */
function valueFragments(values: readonly string[], labels: readonly string[]): { bytes: Buffer; starts: Int32Array } {
  const texts = values.map((value, k) => `{"value":${JSON.stringify(value)},"label":${JSON.stringify(labels[k])},"count":`);
  const starts = new Int32Array(values.length + 1);
  texts.forEach((t, k) => { starts[k + 1] = starts[k] + Buffer.byteLength(t); });
  return { bytes: Buffer.from(texts.join('')), starts };
}

/**
 * Each set's values with the JSON of each up to its count, held in the kernels' memory, which
 * writes a list of them with their counts (kernels.ts writeValues). The sets share one memory and
 * its scratch arrays (a list is written at a time): opening a memory costs milliseconds.
 */
export function labelledValueSets(sets: readonly { values: readonly string[]; labels: readonly string[] }[]): LabelledValues[] {
  const memory = new KernelMemory();
  const placed = sets.map(({ values, labels }) => {
    const { bytes, starts } = valueFragments(values, labels);
    return { values, labels, fragments: memory.uint8(starts[values.length], bytes), offsets: memory.int32(values.length + 1, starts), bytes: starts[values.length] };
  });
  // a list holds each value at most once
  const most = Math.max(1, ...sets.map((s) => s.values.length));
  const ids = memory.int32(most), counts = memory.int32(most);
  const out = memory.uint8(Math.max(1, ...placed.map((p) => p.bytes + MAX_NUMBER_AND_SEPARATORS * p.values.length)));
  const { writeValues } = memory.open();
  return placed.map(({ values, labels, fragments, offsets }) => ({
    values, labels,
    write(w, list, t) {
      for (let from = 0; from < list.length; from += values.length) {
        const size = Math.min(values.length, list.length - from);
        for (let k = 0; k < size; k++) {
          ids.view[k] = list[from + k];
          counts.view[k] = t[list[from + k]];
        }
        if (from > 0) w.byte(ASCII.comma);
        w.bytes(out.view, 0, writeValues(fragments.at, offsets.at, ids.at, counts.at, size, out.at));
      }
    },
  }));
}

/** a count's digits (at most 10), its closing brace and the comma before the next value */
const MAX_NUMBER_AND_SEPARATORS = 12;

/** A Money object as JSON.stringify writes it (its currency is an ISO code: nothing to escape). */
function money(w: JsonBytes, m: Money): void {
  w.text('{"amount":').number(m.amount).text(',"currency":"').text(m.currency).byte(ASCII.quote).byte(ASCII.closeBrace);
}

/** A facet's JSON up to its values. */
export const facetHead = (key: string, label: string) => `{"key":${JSON.stringify(key)},"label":${JSON.stringify(label)},"values":[`;

/** The JSON BytesOut writes for the values `ids` of l counted in t: made once per build for the values a tally lists. */
export function listedJson(l: LabelledValues, ids: readonly number[], t: Int32Array): Uint8Array {
  const w = new JsonBytes(64 * ids.length + 16);
  l.write(w, ids, t);
  return w.finish();
}

/** Receives a payload in its order: each facet, then its values, then the ranges. */
export interface FacetsOut {
  /** a facet, with its JSON up to its values when made once (`{"key":…,"label":…,"values":[`, facetHead) */
  facet(key: string, label: string, json?: Uint8Array): void;
  /** the values `ids` of a labelled facet, counted in t (`json`: their JSON when made once, listedJson) */
  listed(values: LabelledValues, ids: ArrayLike<number>, t: Int32Array, json?: Uint8Array): void;
  /** a value written by itself, after the values listed (a selected value at 0) */
  value(value: string, label: string, count: number): void;
  end(ranges: Ranges): void;
}

/** Writes the payload as JSON, the bytes JSON.stringify makes of the payload's objects. */
export class BytesOut implements FacetsOut {
  private facets = 0;
  private values = 0;

  constructor(private readonly w: JsonBytes) {
    w.text('{"facets":[');
  }

  facet(key: string, label: string, json?: Uint8Array): void {
    if (this.facets++ > 0) this.w.byte(ASCII.closeBracket).byte(ASCII.closeBrace).byte(ASCII.comma);
    this.values = 0;
    if (json) this.w.bytes(json);
    else this.w.text(facetHead(key, label));
  }

  listed(l: LabelledValues, ids: ArrayLike<number>, t: Int32Array, json?: Uint8Array): void {
    if (ids.length === 0) return;
    if (this.values > 0) this.w.byte(ASCII.comma);
    this.values += ids.length;
    if (json) this.w.bytes(json);
    else l.write(this.w, ids, t);
  }

  value(value: string, label: string, count: number): void {
    if (this.values++ > 0) this.w.byte(ASCII.comma);
    this.w.text(JSON.stringify({ value, label, count }));
  }

  end(ranges: Ranges): void {
    const { w } = this;
    if (this.facets > 0) w.byte(ASCII.closeBracket).byte(ASCII.closeBrace);
    w.byte(ASCII.closeBracket);
    const { priceRange: price, capacityRange: capacity } = ranges;
    if (price) {
      w.text(',"priceRange":{"min":');
      money(w, price.min);
      w.text(',"max":');
      money(w, price.max);
      if (price.basis !== undefined) w.text(',"basis":"').text(price.basis).byte(ASCII.quote);
      w.byte(ASCII.closeBrace);
    }
    if (capacity) w.text(',"capacityRange":{"min":').number(capacity.min).text(',"max":').number(capacity.max).byte(ASCII.closeBrace);
    w.byte(ASCII.closeBrace);
  }
}
