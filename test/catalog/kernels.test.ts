/**
 * The WebAssembly kernels of facet counting (api/catalog/kernels.ts) against plain JavaScript on
 * random bitsets of several sizes, including contexts that fill only some of their words: the
 * counter picks a kernel by cost, so every kernel is checked here whatever a fixture would pick.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BitsetCounts } from '../../api/catalog/bitset-counts.ts';
import { KernelMemory } from '../../api/catalog/kernels.ts';
import { assembleKernels, kernelSources } from '../../scripts/kernels.ts';
import { prng } from '../support/build-fixture.ts';

const rnd = prng(42);
const SIZES = [1, 31, 32, 33, 64, 65, 1000, 5003];

function randomBits(n: number, density: number, from = 0, to = n): Uint32Array {
  const b = new Uint32Array((n + 31) >>> 5);
  for (let i = from; i < to; i++) if (rnd() < density) b[i >>> 5] |= 1 << (i & 31);
  return b;
}
const members = (b: Uint32Array, n: number) => Array.from({ length: n }, (_, i) => i).filter((i) => (b[i >>> 5] >>> (i & 31)) & 1);
/** a context: members only in a run of listings, with the words [lo, hi) outside which it is empty */
function context(n: number) {
  const from = Math.floor(rnd() * n), to = from + Math.floor(rnd() * (n - from + 1));
  const bits = randomBits(n, rnd(), from, to);
  let lo = 0, hi = bits.length;
  while (lo < hi && bits[lo] === 0) lo++;
  while (hi > lo && bits[hi - 1] === 0) hi--;
  return { bits, lo, hi, count: members(bits, n).length };
}

describe('kernels', () => {
  it('countEach: what a context holds of each bitset of a group', () => {
    for (const n of SIZES) {
      const words = (n + 31) >>> 5;
      const sets = Array.from({ length: 7 }, () => randomBits(n, rnd()));
      const counts = new BitsetCounts(sets, words);
      for (let t = 0; t < 20; t++) {
        const ctx = context(n);
        const inCtx = new Set(members(ctx.bits, n));
        assert.deepEqual(Array.from(counts.of(ctx)), sets.map((s) => members(s, n).filter((i) => inCtx.has(i)).length), `n=${n}`);
      }
    }
  });

  it('counts each value of a context by ranges, by a pass over its members and by a look at each listing of a value', () => {
    for (const n of SIZES) {
      for (const placed of [true, false]) {
        const words = (n + 31) >>> 5;
        // a place: values in runs of listings; another facet: values anywhere; some listings without one
        const valueIds = new Int32Array(n).fill(-1);
        const start: number[] = [], end: number[] = [];
        for (let i = 0; i < n;) {
          const length = 1 + Math.floor(rnd() * 40);
          if (rnd() < 0.8) {
            start.push(i);
            end.push(Math.min(n, i + length));
            valueIds.fill(start.length - 1, i, Math.min(n, i + length));
          }
          i += length;
        }
        const size = start.length;
        if (!placed) for (let i = 0; i < n; i++) if (valueIds[i] >= 0) valueIds[i] = Math.floor(rnd() * size);
        const byValue = Array.from({ length: size }, (_, v) => Array.from(valueIds.keys()).filter((i) => valueIds[i] === v));
        const starts = [0];
        for (const l of byValue) starts.push(starts[starts.length - 1] + l.length);
        const memory = new KernelMemory();
        const slot = memory.uint32(words), prefix = memory.int32(words + 1);
        const ids = memory.int32(n, valueIds.map((v) => (v < 0 ? size : v)));
        const counts = memory.int32(size + 1), touched = memory.int32(size);
        const groups = { starts: memory.int32(size + 1, starts), listings: memory.int32(starts[size], byValue.flat()) };
        const ranges = { start: memory.int32(size, start), end: memory.int32(size, end), byStart: memory.int32(size, Array.from(start.keys())) };
        const k = memory.open();
        for (let t = 0; t < 20; t++) {
          const ctx = context(n);
          const expected = new Map<number, number>();
          for (const i of members(ctx.bits, n)) if (valueIds[i] >= 0) expected.set(valueIds[i], (expected.get(valueIds[i]) ?? 0) + 1);
          slot.view.set(ctx.bits);
          const found = (count: number) => {
            const got = new Map(Array.from(touched.view.subarray(0, count), (v) => [v, counts.view[v]]));
            counts.view.fill(0);
            return got;
          };
          const what = `n=${n}, ${placed ? 'a place' : 'values anywhere'}`;
          if (placed) {
            k.prefixCounts(slot.at, ctx.lo, ctx.hi, prefix.at);
            let first = 0;
            while (first < size && end[first] <= ctx.lo << 5) first++;
            assert.deepEqual(found(k.countRanges(slot.at, ctx.lo, ctx.hi, prefix.at, ctx.count, ranges.start.at, ranges.end.at, ranges.byStart.at, first, size, counts.at, touched.at)), expected, `ranges, ${what}`);
          }
          k.tallyMembers(slot.at, ctx.lo, ctx.hi, ids.at, counts.at);
          counts.view[size] = 0;
          assert.deepEqual(found(k.collectTouched(counts.at, size, touched.at)), expected, `pass, ${what}`);
          const listed = k.countMembers(slot.at, ctx.lo, ctx.hi, ids.at, counts.at, touched.at, size);
          counts.view[size] = 0;
          assert.deepEqual(found(listed), expected, `pass listing the ids, ${what}`);
          assert.deepEqual(found(k.countGroups(slot.at, groups.starts.at, groups.listings.at, size, counts.at, touched.at)), expected, `groups, ${what}`);
        }
      }
    }
  });

  it('andInto and andNot: the intersection and the difference of two bitsets over whole 64-bit words, nothing written outside them', () => {
    for (const n of SIZES) {
      const words = (n + 31) >>> 5;
      const memory = new KernelMemory();
      const target = memory.uint32(words), other = memory.uint32(words), out = memory.uint32(words), after = memory.uint32(2);
      const k = memory.open();
      for (let t = 0; t < 20; t++) {
        const a = randomBits(n, rnd()), b = randomBits(n, rnd());
        // a run of whole 64-bit words: the target keeps its words outside it
        const lo = 2 * Math.floor(rnd() * ((words + 1) >> 1)), hi = lo + 2 * Math.floor(rnd() * (((words + 1) >> 1) - (lo >> 1) + 1));
        target.view.set(a);
        other.view.set(b);
        after.view.fill(0xffffffff);
        k.andInto(target.at, other.at, 4 * lo, 4 * hi);
        assert.deepEqual(Array.from(target.view), Array.from(a, (x, w) => (w >= lo && w < hi ? (x & b[w]) >>> 0 : x)), `andInto n=${n} [${lo}, ${hi})`);
        k.andNot(out.at, target.at, other.at, 0, 4 * (words + (words & 1)));
        assert.deepEqual(Array.from(out.view), Array.from(target.view, (x, w) => (x & ~b[w]) >>> 0), `andNot n=${n}`);
        assert.deepEqual(Array.from(after.view), [0xffffffff, 0xffffffff], 'the next array is untouched');
      }
    }
  });

  it('writeValues: fragments with their counts in decimal, comma-separated', () => {
    const parts = ['{"a":', '{"bb":', '', '{"ü":'].map((s) => Buffer.from(s));
    const offsets = [0];
    for (const p of parts) offsets.push(offsets[offsets.length - 1] + p.length);
    const memory = new KernelMemory();
    const fragments = memory.uint8(offsets[4], Buffer.concat(parts)), at = memory.int32(5, offsets);
    const ids = memory.int32(4, [3, 0, 2, 1]), counts = memory.int32(4, [0, 9, 2_147_483_647, 1_000_000]);
    const out = memory.uint8(100);
    const k = memory.open();
    const length = k.writeValues(fragments.at, at.at, ids.at, counts.at, 4, out.at);
    assert.equal(Buffer.from(out.view.subarray(0, length)).toString(), '{"ü":0},{"a":9},2147483647},{"bb":1000000}');
    assert.equal(k.writeValues(fragments.at, at.at, ids.at, counts.at, 0, out.at), 0);
  });

  it('runs each module as WABT assembles it from its .wat now: no .wasm left from an older source', async () => {
    const sources = kernelSources();
    assert.ok(sources.length > 0);
    for (const [path, binary] of await assembleKernels(sources)) {
      assert.deepEqual(readFileSync(path.replace(/\.wat$/, '.wasm')), Buffer.from(binary), `${path}: run make kernels`);
    }
  });
});
