/**
 * A place facet (its values ranges of listings) with more values than it lists, under a context
 * that is no tally: its values are counted one by one, in the order of their counts over every
 * listing, only until no value left can be listed (ValueCounts.countTop). The list is what
 * counting every listing says, and in a wide context most of the places are never looked at.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import * as bits from '../../api/catalog/bitset.ts';
import { byCount, type FacetLabeling } from '../../api/catalog/facet-lists.ts';
import { FacetCounter } from '../../api/catalog/facets.ts';
import { byTest, type FilterRegistry, type ValueFacet } from '../../api/catalog/filter-index.ts';
import { mix32 } from '../../contract/geo.ts';
import { KernelMemory } from '../../api/catalog/kernels.ts';
import { ListingTable } from '../../api/catalog/listings.ts';
import { Matcher } from '../../api/catalog/match.ts';
import { placeValueArrays, ValueCounts } from '../../api/catalog/value-counts.ts';
import { writeBuildFixture } from '../support/build-fixture.ts';
import { PayloadOut } from '../support/facets.ts';

const PLACES = 16000;

describe('a place with more values than it lists, under a wide context', async () => {
  const fixture = await writeBuildFixture(undefined, { extra: 30000 });
  const listings = new ListingTable(decodeListingColumns(await readFile(join(fixture.dir, LISTING_COLUMNS_FILE))));
  const { n } = listings;
  const uniform = (i: number, salt: number) => mix32(Math.imul(i + 1, 0x9e3779b1) ^ salt) / 2 ** 32;
  // places one after the other in listing order, a few large, most small (some empty)
  const weights = Array.from({ length: PLACES }, (_, v) => (uniform(v, 1) < 0.1 ? 0 : 1 / (1 + v) ** 0.8));
  const sum = weights.reduce((a, b) => a + b, 0);
  const start = new Int32Array(PLACES), end = new Int32Array(PLACES);
  let at = 0;
  weights.forEach((w, v) => { start[v] = at; at = v === PLACES - 1 ? n : Math.min(n, at + Math.round((n * w) / sum)); end[v] = at; });
  const valueIds = new Int32Array(n).fill(-1);
  for (let v = 0; v < PLACES; v++) valueIds.fill(v, start[v], end[v]);
  const byStart = Int32Array.from({ length: PLACES }, (_, v) => v).filter((v) => end[v] > start[v]);
  const values = Array.from({ length: PLACES }, (_, v) => `p${String(v).padStart(4, '0')}`);
  const labels = values.map((_, v) => `place ${String((v * 37) % PLACES).padStart(4, '0')}`);
  const totals = Int32Array.from({ length: PLACES }, (_, v) => end[v] - start[v]);
  const inShare = (i: number, share: number | undefined) => share === undefined || uniform(i, 3) < share;
  const place: ValueFacet = { kind: 'values', ignores: ['place'], values, valueIds, totals, ranges: { start, end, byStart } };
  const registry: FilterRegistry = {
    place: {
      declaration: { params: { place: { schema: z.string(), note: 'a place' } } },
      index: () => ({
        narrow: byTest(n, (b, f) => { const v = values.indexOf(f.place as string); bits.keepRange(b, start[v], end[v], 0, b.length); }),
        facets: { shows: place },
      }),
    },
    share: {
      declaration: { params: { share: { schema: z.number(), note: 'a share' } } },
      index: () => ({ narrow: byTest(n, (b, f) => { for (let i = 0; i < n; i++) if (!inShare(i, f.share as number)) b[i >>> 5] &= ~(1 << (i & 31)); }) }),
    },
  };
  const countsIn = (share: number | undefined) => {
    const counts = new Int32Array(PLACES);
    for (let i = 0; i < n; i++) if (valueIds[i] >= 0 && inShare(i, share)) counts[valueIds[i]]++;
    return counts;
  };

  it('lists the highest counts, ties by label, and a selected place beyond them, as counting every listing says', () => {
    const matcher = new Matcher(registry, { listings, geo: {} as never });
    const counter = new FacetCounter(matcher, listings.all, n);
    const byLabel = values.map((_, v) => v).sort((a, b) => (labels[a] < labels[b] ? -1 : 1));
    const rank = new Map(byLabel.map((v, k) => [values[v], k]));
    const labeling: FacetLabeling = {
      locale: 'en', key: (facet) => facet, value: (_facet, value) => labels[values.indexOf(value)],
      compare: (a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0), rank: (_facet, value) => rank.get(value),
    };
    counter.orderByLabels(labeling);
    for (const share of [0.95, 0.7, 0.4, 0.1, 0.02]) {
      for (const selected of [undefined, values[PLACES - 2]]) {
        const out = new PayloadOut();
        const truncated = counter.facets({ share, ...(selected && { place: selected }) }, labeling, out);
        const counts = countsIn(share);
        const counted = values.map((_, v) => v).filter((v) => counts[v] > 0);
        counted.sort((a, b) => counts[b] - counts[a] || (labels[a] < labels[b] ? -1 : 1));
        const expected = counted.slice(0, MAX_FACET_VALUES).map((v) => ({ value: values[v], label: labels[v], count: counts[v] }));
        if (selected && !expected.some((e) => e.value === selected)) {
          const v = values.indexOf(selected);
          expected.push({ value: selected, label: labels[v], count: counts[v] });
        }
        assert.deepEqual(out.payload.facets.find((x) => (x.key as string) === 'place')?.values, expected, `share ${share}, place ${selected}`);
        assert.equal(truncated, counted.length > MAX_FACET_VALUES);
      }
    }
  });

  it('counts only the places that may be listed in a wide context, and none in a narrow one', () => {
    const memory = new KernelMemory();
    const words = listings.all.length;
    const arrays = placeValueArrays(memory, [place], n, words);
    const valueCounts = new ValueCounts(arrays, memory.open(), words);
    const overall = byCount(totals, byStart);
    const contextOf = (share: number) => {
      const b = new Uint32Array(bits.words(n));
      for (let i = 0; i < n; i++) if (inShare(i, share)) b[i >>> 5] |= 1 << (i & 31);
      return { bits: b, count: bits.count(b), ...bits.wordsOf(b) };
    };
    const chosen = PLACES - 2;
    const wide = valueCounts.countTop(contextOf(0.9), place, overall, [chosen]);
    assert.ok(wide, 'a wide context is counted by its places');
    const counts = countsIn(0.9);
    const t = valueCounts.countsOf(place);
    assert.ok(wide.length > MAX_FACET_VALUES && wide.length < byStart.length / 2, `${wide.length} of ${byStart.length} places counted`);
    for (const id of wide) assert.equal(t[id], counts[id], `place ${id}`);
    assert.ok(wide.includes(chosen) === counts[chosen] > 0, 'the selected place is counted');
    // every place counted less than the cap's count is among those left out
    const cap = [...counts].sort((a, b) => b - a)[MAX_FACET_VALUES - 1];
    for (let v = 0; v < PLACES; v++) if (counts[v] >= cap) assert.ok(wide.includes(v), `place ${v} (${counts[v]}) counted`);
    valueCounts.clear(place, wide);
    assert.equal(valueCounts.countTop(contextOf(0.002), place, overall, []), undefined, 'a narrow context is counted as before');
  });
});
