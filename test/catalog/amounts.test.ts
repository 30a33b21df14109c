import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AmountIndex, amountIndexBuffers, amountIndexData } from '../../api/catalog/amounts.ts';
import * as bits from '../../api/catalog/bitset.ts';
import { prng } from '../support/build-fixture.ts';

/** An amount column: integers like capacities, or prices with cents; some listings without one. */
function column(n: number, kind: 'capacity' | 'price', rnd: () => number): Float64Array {
  return Float64Array.from({ length: n }, () => {
    const r = rnd();
    if (r < 0.1) return Number.NaN;
    if (kind === 'capacity') return Math.floor(1 + rnd() * rnd() * 300);
    return r < 0.15 ? 0 : Math.round(rnd() * rnd() * 20_000 * 100) / 100;
  });
}

describe('AmountIndex.within', () => {
  it('is the listings with lo ≤ amount ≤ hi, whatever the bounds', () => {
    const rnd = prng(3);
    for (const n of [1, 33, 1_000, 20_000]) {
      for (const kind of ['capacity', 'price'] as const) {
        const amount = column(n, kind, rnd);
        // as a load worker hands it over: moved, not copied
        const data = amountIndexData(amount);
        const index = new AmountIndex(structuredClone(data, { transfer: amountIndexBuffers(data) }));
        assert.equal(data.members.length, 0, 'the arrays were moved');
        const bounds: [number, number][] = [[-Infinity, Infinity], [0, 0], [1, Infinity], [500, 100], [Number.NaN, 10]];
        for (let k = 0; k < 200; k++) {
          const lo = Math.round(rnd() * rnd() * 20_000);
          bounds.push([lo, rnd() < 0.3 ? Infinity : lo + Math.round(rnd() * 5_000)]);
        }
        const words = bits.words(n);
        for (const [lo, hi] of bounds) {
          const expected = bits.fromIndices(n, Array.from(amount.keys()).filter((i) => amount[i] >= lo && amount[i] <= hi));
          assert.deepEqual(index.within(lo, hi), expected, `${kind} n=${n} [${lo}, ${hi}]`);
          // within some words only (a place's range): those words as above, whatever the others hold
          for (const [from, to] of [[0, 1], [words >> 2, words >> 1], [words - 1, words]]) {
            const part = index.within(lo, hi, from, to).slice(from, to);
            assert.deepEqual(part, expected.slice(from, to), `${kind} n=${n} [${lo}, ${hi}] in words [${from}, ${to})`);
          }
        }
      }
    }
  });
});

describe('AmountIndex.extremes', () => {
  it('is the lowest and highest amount of the members, or undefined once past its budget of listings', () => {
    const rnd = prng(5);
    for (const n of [33, 2_000, 20_000]) {
      for (const kind of ['capacity', 'price'] as const) {
        const amount = column(n, kind, rnd);
        const index = new AmountIndex(amountIndexData(amount));
        // wide and narrow sets, and sets of the dearest listings only (the buckets pass most listings first)
        const sets = [1, 0.5, 0.05, 0.002].map((d) => Array.from(amount.keys()).filter(() => rnd() < d));
        sets.push(Array.from(amount.keys()).filter((i) => amount[i] > (kind === 'capacity' ? 150 : 10_000)), []);
        for (const members of sets) {
          const b = bits.fromIndices(n, members);
          const priced = members.map((i) => amount[i]).filter((a) => !Number.isNaN(a));
          const expected = { min: Math.min(Infinity, ...priced), max: Math.max(-Infinity, ...priced) };
          assert.deepEqual(index.extremes(b), expected, `${kind} n=${n}, ${members.length} members`);
          let budgetsMet = 0;
          for (const budget of [0, 1, members.length, n]) {
            const found = index.extremes(b, budget);
            if (found) { assert.deepEqual(found, expected, `${kind} n=${n}, ${members.length} members, budget ${budget}`); budgetsMet++; }
          }
          if (members.length === n) assert.ok(budgetsMet >= 2, 'every listing: the first members of the end buckets are enough');
        }
      }
    }
  });

  it('looks only at the listings in the words that hold the set (a place\'s range), within a budget of its members', () => {
    const rnd = prng(9);
    const n = 20_000;
    for (const kind of ['capacity', 'price'] as const) {
      const amount = column(n, kind, rnd);
      const index = new AmountIndex(amountIndexData(amount));
      for (const [lo, hi] of [[0, 20], [300, 320], [600, 625]]) {
        const inSpan = Array.from(amount.keys()).filter((i) => i >= lo * 32 && i < Math.min(n, hi * 32));
        for (const members of [inSpan.filter(() => rnd() < 0.5), inSpan.filter((i) => amount[i] > (kind === 'capacity' ? 150 : 10_000))]) {
          const b = bits.fromIndices(n, members);
          const priced = members.map((i) => amount[i]).filter((a) => !Number.isNaN(a));
          const expected = { min: Math.min(Infinity, ...priced), max: Math.max(-Infinity, ...priced) };
          assert.deepEqual(index.extremes(b, Infinity, lo, hi), expected, `${kind} words [${lo}, ${hi}), ${members.length} members`);
          const found = index.extremes(b, members.length, lo, hi);
          if (found) assert.deepEqual(found, expected);
        }
        // half the listings of the range: the buckets' listings elsewhere are not looked at, so the members' budget is enough
        const half = bits.fromIndices(n, inSpan.filter((_, k) => k % 2 === 0));
        assert.ok(index.extremes(half, inSpan.length / 2, lo, hi), `${kind} words [${lo}, ${hi}): found within the budget`);
      }
    }
  });
});
