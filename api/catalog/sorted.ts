/** The first k in [from, to) with list[k] ≥ value (list ascending there), or `to`. */
export function firstAtLeast(list: Int32Array, value: number, from = 0, to = list.length): number {
  while (from < to) { const m = (from + to) >>> 1; if (list[m] < value) from = m + 1; else to = m; }
  return from;
}
