/**
 * A GET /v1/facets payload as the facet counter writes it (FacetsOut): the JSON bytes of the
 * response, written from fragments made once per build and locale (each value's
 * `{"value":…,"label":…,"count":`), so a request writes only its counts and the brackets around them.
 */
import type { FacetsPayload } from '../../contract/catalog.ts';
import { JsonBytes } from './json-bytes.ts';

export type Ranges = Omit<FacetsPayload, 'facets'>;

/** The values of a facet labelled in one locale, by value id. */
export interface LabelledValues {
  readonly values: readonly string[];
  readonly labels: readonly string[];
  /** each value's JSON up to its count, `{"value":…,"label":…,"count":` (views of one buffer) */
  readonly json: readonly Uint8Array[];
}

export function labelledValues(values: readonly string[], labels: readonly string[]): LabelledValues {
  const parts = values.map((value, k) => `{"value":${JSON.stringify(value)},"label":${JSON.stringify(labels[k])},"count":`);
  const all = Buffer.from(parts.join(''));
  let at = 0;
  const json = parts.map((p) => {
    const view = all.subarray(at, at + Buffer.byteLength(p));
    at += view.length;
    return view;
  });
  return { values, labels, json };
}

const COMMA = 0x2c, CLOSE_BRACE = 0x7d, CLOSE_BRACKET = 0x5d;

/** Writes the values `ids` of l with their counts in t, comma-separated. */
function writeListed(w: JsonBytes, l: LabelledValues, ids: ArrayLike<number>, t: Int32Array): void {
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k];
    if (k > 0) w.byte(COMMA);
    w.bytes(l.json[id]).uint(t[id]).byte(CLOSE_BRACE);
  }
}

/** The JSON BytesOut writes for the values `ids` of l counted in t: made once per build for the values a tally lists. */
export function listedJson(l: LabelledValues, ids: readonly number[], t: Int32Array): Uint8Array {
  const w = new JsonBytes(64 * ids.length + 16);
  writeListed(w, l, ids, t);
  return w.finish();
}

/** Receives a payload in its order: each facet, then its values, then the ranges. */
export interface FacetsOut {
  facet(key: string, label: string): void;
  /** the values `ids` of a labelled facet, counted in t (`json`: their JSON when made once, listedJson) */
  listed(values: LabelledValues, ids: ArrayLike<number>, t: Int32Array, json?: Uint8Array): void;
  /** a value, with its JSON up to its count when made once (`{"value":…,"label":…,"count":`) */
  value(value: string, label: string, count: number, json?: Uint8Array): void;
  end(ranges: Ranges): void;
}

/** Writes the payload as JSON, the bytes JSON.stringify makes of the payload's objects. */
export class BytesOut implements FacetsOut {
  private facets = 0;
  private values = 0;

  constructor(private readonly w: JsonBytes) {
    w.text('{"facets":[');
  }

  facet(key: string, label: string): void {
    if (this.facets++ > 0) this.w.byte(CLOSE_BRACKET).byte(CLOSE_BRACE).byte(COMMA);
    this.values = 0;
    this.w.text(`{"key":${JSON.stringify(key)},"label":${JSON.stringify(label)},"values":[`);
  }

  listed(l: LabelledValues, ids: ArrayLike<number>, t: Int32Array, json?: Uint8Array): void {
    if (ids.length === 0) return;
    if (this.values > 0) this.w.byte(COMMA);
    this.values += ids.length;
    if (json) this.w.bytes(json);
    else writeListed(this.w, l, ids, t);
  }

  value(value: string, label: string, count: number, json?: Uint8Array): void {
    if (this.values++ > 0) this.w.byte(COMMA);
    if (json) this.w.bytes(json).uint(count).byte(CLOSE_BRACE);
    else this.w.text(JSON.stringify({ value, label, count }));
  }

  end(ranges: Ranges): void {
    const { w } = this;
    if (this.facets > 0) w.byte(CLOSE_BRACKET).byte(CLOSE_BRACE);
    w.byte(CLOSE_BRACKET);
    if (ranges.priceRange) w.text(`,"priceRange":${JSON.stringify(ranges.priceRange)}`);
    if (ranges.capacityRange) w.text(`,"capacityRange":${JSON.stringify(ranges.capacityRange)}`);
    w.byte(CLOSE_BRACE);
  }
}
