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
  n: number; median: number; average: number; min: number; max: number; p25: number; p75: number; medianLow: number; medianHigh: number;
  medianAgeDays: number; staleShare: number; largestOperatorShare: number;
}

/** a space's price for a product: the amount, when it was observed, and the option type it is a price of */
interface SpacePrice { price: number; observedAt: number; type: string }

/** Linear interpolation between the closest ranks, as DuckDB's quantile_cont. */
function quantile(sorted: number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

/**
 * Each space's price by `<city_id>|<product>` (product `all` or a desk type), from the offers as they stood
 * before `before`: the unit of every sample (the median's and the chained index's).
 */
export function independentSpacePrices(spaces: FixtureRow[], observations: FixtureRow[], before = Infinity): Map<string, Map<string, SpacePrice>> {
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
    const earlierType = () => DESK_TYPES.indexOf(v.type) < DESK_TYPES.indexOf(prev!.type);
    if (!prev || v.price < prev.price || (v.price === prev.price && (v.observedAt > prev.observedAt || (v.observedAt === prev.observedAt && earlierType())))) {
      bySpace.set(spaceId, v);
    }
  };
  for (const o of latest.values()) {
    if (o.amount === '' || !DESK_TYPES.includes(o.option_type) || !(o.billing_period in MONTHLY)) continue;
    let monthly = Number(o.amount) * MONTHLY[o.billing_period];
    if (o.option_type === 'private_office' || o.option_type === 'exclusive_bereich') {
      if (o.max_capacity === '') continue;
      monthly /= Number(o.max_capacity);
    }
    const city = spaceById.get(o.space_id)!.city_id;
    const value = { price: monthly, observedAt: Date.parse(o.observed_at), type: o.option_type };
    put(city, o.option_type, o.space_id, value);
    put(city, 'all', o.space_id, value);
  }
  const out = new Map<string, Map<string, SpacePrice>>();
  for (const [city, byProduct] of values) for (const [product, bySpace] of byProduct) out.set(`${city}|${product}`, bySpace);
  return out;
}

/**
 * The ranks of the median's distribution-free 95% interval for a sample of n, in exact integers: the largest l
 * with P(B ≤ l − 1) ≤ 2.5% for B ~ Binomial(n, ½), at least 1; the interval is the l-th lowest to the l-th highest.
 */
export function medianIntervalRank(n: number): number {
  let atMost = 0n;
  let choose = 1n;
  let l = 0;
  for (let k = 0; k <= n; k++) {
    atMost += choose; // Σ C(n, i) for i ≤ k
    if (atMost * 40n > 2n ** BigInt(n)) break;
    l = k + 1;
    choose = (choose * BigInt(n - k)) / BigInt(k + 1);
  }
  return Math.max(1, l);
}

/** By `<city_id>|<product>` (product `all` or a desk type). */
export function independentIndex(spaces: FixtureRow[], observations: FixtureRow[], before = Infinity, reference = before): Map<string, IndependentFigures> {
  const spaceById = new Map(spaces.map((s) => [s.space_id, s]));
  const stats = (bySpace: Map<string, SpacePrice>): IndependentFigures => {
    const s = [...bySpace.values()].map((v) => v.price).sort((a, b) => a - b);
    const n = s.length;
    const ages = [...bySpace.values()].map((v) => Math.floor((reference - v.observedAt) / DAY_MS)).sort((a, b) => a - b);
    const operators = new Map<string, number>();
    for (const id of bySpace.keys()) {
      const operator = spaceById.get(id)!.operator_id || `independent ${id}`;
      operators.set(operator, (operators.get(operator) ?? 0) + 1);
    }
    const l = medianIntervalRank(n);
    return {
      n, median: quantile(s, 0.5), average: s.reduce((a, b) => a + b, 0) / n, min: s[0], max: s[n - 1],
      p25: quantile(s, 0.25), p75: quantile(s, 0.75), medianLow: s[l - 1], medianHigh: s[n - l],
      medianAgeDays: quantile(ages, 0.5), staleShare: ages.filter((a) => a > 180).length / n,
      largestOperatorShare: Math.max(...operators.values()) / n,
    };
  };
  const out = new Map<string, IndependentFigures>();
  for (const [key, bySpace] of independentSpacePrices(spaces, observations, before)) out.set(key, stats(bySpace));
  return out;
}

export interface IndependentIndexPoint { matched: number; index?: number; restarts: boolean }

/**
 * The chained matched-model (Jevons) index of one series, month by month: a month's link is the geometric
 * mean of the price relatives of the spaces priced at both month ends by the same option type (the same item),
 * published from 5 matched spaces;
 * 100 at the month before a segment's first link, the running product of the links after it; `restarts`
 * where a segment starts after an earlier one.
 */
export function independentChain(months: Map<string, SpacePrice>[]): IndependentIndexPoint[] {
  const links = months.map((prices, m) => {
    if (m === 0) return { matched: 0, link: undefined };
    const relatives = [...prices].filter(([id, p]) => months[m - 1].get(id)?.type === p.type).map(([id, p]) => p.price / months[m - 1].get(id)!.price);
    const link = relatives.length >= 5 ? Math.exp(relatives.reduce((a, r) => a + Math.log(r), 0) / relatives.length) : undefined;
    return { matched: relatives.length, link };
  });
  let index: number | undefined;
  let anyBefore = false;
  return links.map(({ matched, link }, m) => {
    const next = links[m + 1]?.link;
    let restarts = false;
    if (link !== undefined) index = index! * link;
    else if (next !== undefined) {
      restarts = anyBefore;
      index = 100;
    } else index = undefined;
    anyBefore ||= index !== undefined;
    return { matched, index, restarts };
  });
}

/** The flag letters of a published figure (`isBreak`: history only). */
export function independentFlags(f: IndependentFigures, isBreak = false): string {
  return [
    f.medianAgeDays > 180 ? 'a' : '', isBreak ? 'b' : '', f.largestOperatorShare >= 0.6 ? 'o' : '', f.n < 10 ? 'u' : '',
  ].join('');
}
