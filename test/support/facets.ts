/**
 * The facets payload as objects, written through the same FacetsOut calls as the route's bytes:
 * an oracle that does not share the byte writer's code.
 */
import type { FacetsPayload } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/common.ts';
import type { Engine } from '../../api/catalog/engine.ts';
import type { FacetsOut, LabelledValues, Ranges } from '../../api/catalog/facet-payload.ts';
import type { FilterValues } from '../../api/catalog/filter-index.ts';

type FacetKey = FacetsPayload['facets'][number]['key'];
type FacetValue = FacetsPayload['facets'][number]['values'][number];

export class PayloadOut implements FacetsOut {
  readonly payload: FacetsPayload = { facets: [] };
  private values: FacetValue[] = [];

  facet(key: string, label: string): void {
    this.values = [];
    this.payload.facets.push({ key: key as FacetKey, label, values: this.values });
  }

  listed(l: LabelledValues, ids: ArrayLike<number>, t: Int32Array): void {
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      this.values.push({ value: l.values[id], label: l.labels[id], count: t[id] });
    }
  }

  value(value: string, label: string, count: number): void {
    this.values.push({ value, label, count });
  }

  end(ranges: Ranges): void {
    if (ranges.priceRange) this.payload.priceRange = ranges.priceRange;
    if (ranges.capacityRange) this.payload.capacityRange = ranges.capacityRange;
  }
}

/** The facets under f as objects, and whether a facet was cut. */
export function facetsPayload(engine: Engine, f: FilterValues, locale: Locale): { payload: FacetsPayload; truncated: boolean } {
  const out = new PayloadOut();
  const truncated = engine.facets(f, locale, out);
  return { payload: out.payload, truncated };
}
