/**
 * The price index recomputed in plain TypeScript from the raw fixture rows, independent of the
 * pipeline's SQL (written from the methodology): the latest observation of each offer observed
 * before `before` (ties: the higher observation_id), monthly normalisation, per desk, one value
 * per space and product (its cheapest), median/average/min/max over the spaces.
 */
import type { FixtureRow } from './pipeline-fixtures.ts';

const DESK_TYPES = ['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];
const MONTHLY: Record<string, number> = { month: 1, year: 1 / 12, week: 52 / 12 };

export interface IndependentFigures { n: number; median: number; average: number; min: number; max: number }

/** By `<city_id>|<product>` (product `all` or a desk type). */
export function independentIndex(spaces: FixtureRow[], observations: FixtureRow[], before = Infinity): Map<string, IndependentFigures> {
  const latest = new Map<string, FixtureRow>();
  for (const o of observations) {
    if (!(Date.parse(o.observed_at) < before)) continue;
    const key = `${o.space_id}|${o.offer_id}`;
    const prev = latest.get(key);
    const newer = !prev || Date.parse(o.observed_at) > Date.parse(prev.observed_at)
      || (Date.parse(o.observed_at) === Date.parse(prev.observed_at) && o.observation_id > prev.observation_id);
    if (newer) latest.set(key, o);
  }
  const cityOf = new Map(spaces.map((s) => [s.space_id, s.city_id]));
  // city -> product -> space -> cheapest monthly per desk
  const values = new Map<string, Map<string, Map<string, number>>>();
  const put = (city: string, product: string, spaceId: string, v: number) => {
    const byProduct = values.get(city) ?? new Map();
    values.set(city, byProduct);
    const bySpace = byProduct.get(product) ?? new Map();
    byProduct.set(product, bySpace);
    bySpace.set(spaceId, Math.min(bySpace.get(spaceId) ?? Infinity, v));
  };
  for (const o of latest.values()) {
    if (o.amount === '' || !DESK_TYPES.includes(o.option_type) || !(o.billing_period in MONTHLY)) continue;
    let monthly = Number(o.amount) * MONTHLY[o.billing_period];
    if (o.option_type === 'private_office' || o.option_type === 'exclusive_bereich') {
      if (o.max_capacity === '') continue;
      monthly /= Number(o.max_capacity);
    }
    const city = cityOf.get(o.space_id)!;
    put(city, o.option_type, o.space_id, monthly);
    put(city, 'all', o.space_id, monthly);
  }
  const stats = (xs: number[]): IndependentFigures => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    return { n, median, average: s.reduce((a, b) => a + b, 0) / n, min: s[0], max: s[n - 1] };
  };
  const out = new Map<string, IndependentFigures>();
  for (const [city, byProduct] of values) {
    for (const [product, bySpace] of byProduct) out.set(`${city}|${product}`, stats([...bySpace.values()]));
  }
  return out;
}
