/**
 * The price index recomputed in plain TypeScript from the raw fixture rows, independent of the
 * pipeline's SQL (written from the methodology): the latest observation of each offer observed
 * before `before` (ties: the higher observation_id), monthly normalisation, per desk, one value
 * per space and product (its cheapest; among equal prices the latest observed), then over the
 * spaces median/average/min/max, quartiles, the price age at `reference`, the largest operator's share.
 */
import type { FixtureRow } from './pipeline-fixtures.ts';

const DESK_TYPES = ['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
const MONTHLY: Record<string, number> = { month: 1, year: 1 / 12, week: 52 / 12 };
const DAY_MS = 86_400_000;

export interface IndependentFigures {
  n: number; median: number; average: number; min: number; max: number; p25: number; p75: number;
  medianAgeDays: number; staleShare: number; largestOperatorShare: number;
}

interface SpacePrice { price: number; observedAt: number }

/** Linear interpolation between the closest ranks, as DuckDB's quantile_cont. */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

/** By `<city_id>|<product>` (product `all` or a desk type). */
export function independentIndex(spaces: FixtureRow[], observations: FixtureRow[], before = Infinity, reference = before): Map<string, IndependentFigures> {
  const latest = new Map<string, FixtureRow>();
  for (const o of observations) {
    if (!(Date.parse(o.observed_at) < before)) continue;
    const key = `${o.space_id}|${o.offer_id}`;
    const prev = latest.get(key);
    const newer = !prev || Date.parse(o.observed_at) > Date.parse(prev.observed_at)
      || (Date.parse(o.observed_at) === Date.parse(prev.observed_at) && o.observation_id > prev.observation_id);
    if (newer) latest.set(key, o);
  }
  const spaceById = new Map(spaces.map((s) => [s.space_id, s]));
  // city -> product -> space -> cheapest monthly per desk
  const values = new Map<string, Map<string, Map<string, SpacePrice>>>();
  const put = (city: string, product: string, spaceId: string, v: SpacePrice) => {
    const byProduct = values.get(city) ?? new Map();
    values.set(city, byProduct);
    const bySpace = byProduct.get(product) ?? new Map();
    byProduct.set(product, bySpace);
    const prev = bySpace.get(spaceId);
    if (!prev || v.price < prev.price || (v.price === prev.price && v.observedAt > prev.observedAt)) bySpace.set(spaceId, v);
  };
  for (const o of latest.values()) {
    if (o.amount === '' || !DESK_TYPES.includes(o.option_type) || !(o.billing_period in MONTHLY)) continue;
    let monthly = Number(o.amount) * MONTHLY[o.billing_period];
    if (o.option_type === 'private_office' || o.option_type === 'exclusive_bereich') {
      if (o.max_capacity === '') continue;
      monthly /= Number(o.max_capacity);
    }
    const city = spaceById.get(o.space_id)!.city_id;
    const value = { price: monthly, observedAt: Date.parse(o.observed_at) };
    put(city, o.option_type, o.space_id, value);
    put(city, 'all', o.space_id, value);
  }
  const stats = (bySpace: Map<string, SpacePrice>): IndependentFigures => {
    const s = [...bySpace.values()].map((v) => v.price).sort((a, b) => a - b);
    const n = s.length;
    const ages = [...bySpace.values()].map((v) => Math.floor((reference - v.observedAt) / DAY_MS)).sort((a, b) => a - b);
    const operators = new Map<string, number>();
    for (const id of bySpace.keys()) {
      const operator = spaceById.get(id)!.operator_id || `independent ${id}`;
      operators.set(operator, (operators.get(operator) ?? 0) + 1);
    }
    return {
      n, median: quantile(s, 0.5), average: s.reduce((a, b) => a + b, 0) / n, min: s[0], max: s[n - 1],
      p25: quantile(s, 0.25), p75: quantile(s, 0.75),
      medianAgeDays: quantile(ages, 0.5), staleShare: ages.filter((a) => a > 180).length / n,
      largestOperatorShare: Math.max(...operators.values()) / n,
    };
  };
  const out = new Map<string, IndependentFigures>();
  for (const [city, byProduct] of values) {
    for (const [product, bySpace] of byProduct) out.set(`${city}|${product}`, stats(bySpace));
  }
  return out;
}

/** The flag letters of a published figure (`isBreak`: history only). */
export function independentFlags(f: IndependentFigures, isBreak = false): string {
  return [
    f.medianAgeDays > 180 ? 'a' : '', isBreak ? 'b' : '', f.largestOperatorShare >= 0.6 ? 'o' : '', f.n < 10 ? 'u' : '',
  ].join('');
}
