/**
 * A facet with more values than it lists (MAX_FACET_VALUES), in contexts from nearly every listing
 * to a few: the values listed are the highest counts, ties by label, as counting every listing
 * says. In a wide context the counter looks only at the values counted highest over every listing
 * (the values whose count there can reach the cap's): a skewed facet of 700 values makes it do so.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { MAX_FACET_VALUES } from '../../contract/catalog.ts';
import { decodeListingColumns, LISTING_COLUMNS_FILE } from '../../contract/listing-columns.ts';
import { BytesOut } from '../../api/catalog/facet-payload.ts';
import type { FacetLabeling } from '../../api/catalog/facet-lists.ts';
import { FacetCounter } from '../../api/catalog/facets.ts';
import { byTest, type FilterRegistry } from '../../api/catalog/filter-index.ts';
import { mix32 } from '../../contract/geo.ts';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { ListingTable } from '../../api/catalog/listings.ts';
import { Matcher } from '../../api/catalog/match.ts';
import { writeBuildFixture } from '../support/build-fixture.ts';
import { PayloadOut } from '../support/facets.ts';

const VALUES = 700;

describe('a facet with more values than it lists', () => {
  it('lists the highest counts, ties by label, in contexts wide and narrow', async () => {
    const fixture = await writeBuildFixture(undefined, { extra: 5000 });
    const listings = new ListingTable(decodeListingColumns(await readFile(join(fixture.dir, LISTING_COLUMNS_FILE))));
    const { n } = listings;
    const uniform = (i: number, salt: number) => mix32(Math.imul(i + 1, 0x9e3779b1) ^ salt) / 2 ** 32;
    // a few values hold most listings, most hold a few (some none); some listings have no value
    const valueIds = Int32Array.from({ length: n }, (_, i) => (uniform(i, 1) < 0.05 ? -1 : Math.floor(VALUES * uniform(i, 2) ** 3)));
    const values = Array.from({ length: VALUES }, (_, v) => `v${String(v).padStart(3, '0')}`);
    // labels in an order of their own, and many equal counts: ties are broken by label
    const labels = values.map((_, v) => `label ${String((v * 37) % VALUES).padStart(3, '0')}`);
    const totals = new Int32Array(VALUES);
    for (const v of valueIds) if (v >= 0) totals[v]++;
    // `share`: the listings whose draw is below it (a share of every listing, spread over all values)
    const inShare = (i: number, share: number | undefined) => share === undefined || uniform(i, 3) < share;
    const registry: FilterRegistry = {
      spread: {
        declaration: { params: { spread: { schema: z.string(), note: 'a value' } } },
        index: () => ({
          narrow: byTest(n, (b, f) => { for (let i = 0; i < n; i++) if (valueIds[i] !== values.indexOf(f.spread as string)) b[i >>> 5] &= ~(1 << (i & 31)); }),
          facets: { shows: { kind: 'values', ignores: ['spread'], values, valueIds, totals } },
        }),
      },
      share: {
        declaration: { params: { share: { schema: z.number(), note: 'a share' } } },
        index: () => ({ narrow: byTest(n, (b, f) => { for (let i = 0; i < n; i++) if (!inShare(i, f.share as number)) b[i >>> 5] &= ~(1 << (i & 31)); }) }),
      },
    };
    const matcher = new Matcher(registry, { listings, geo: {} as never });
    const counter = new FacetCounter(matcher, listings.all, n);
    const byLabel = values.map((_, v) => v).sort((a, b) => (labels[a] < labels[b] ? -1 : 1));
    const place = new Map(byLabel.map((v, k) => [values[v], k]));
    const labelOf = (value: string) => labels[values.indexOf(value)];
    const labeling: FacetLabeling = {
      locale: 'en', key: (facet) => facet, value: (_facet, value) => labelOf(value),
      compare: (a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0), rank: (_facet, value) => place.get(value),
    };
    counter.orderByLabels(labeling);

    let cut = 0;
    // no share: the facet's context is every listing, whose values are listed once per build
    for (const share of [undefined, 1, 0.9, 0.5, 0.2, 0.05, 0.01]) {
      for (const selected of [undefined, values[VALUES - 1]]) {
        const f = { ...(share !== undefined && { share }), ...(selected && { spread: selected }) };
        const out = new PayloadOut();
        const truncated = counter.facets(f, labeling, out);
        const w = new JsonBytes(1024);
        counter.facets(f, labeling, new BytesOut(w));
        assert.deepEqual(JSON.parse(w.finish().toString()), out.payload, `the bytes, share ${share}, spread ${selected}`);
        const counts = new Int32Array(VALUES);
        for (let i = 0; i < n; i++) if (valueIds[i] >= 0 && inShare(i, share)) counts[valueIds[i]]++;
        const counted = values.map((_, v) => v).filter((v) => counts[v] > 0);
        counted.sort((a, b) => counts[b] - counts[a] || (labels[a] < labels[b] ? -1 : 1));
        const expected = counted.slice(0, MAX_FACET_VALUES).map((v) => ({ value: values[v], label: labels[v], count: counts[v] }));
        if (selected && !expected.some((e) => e.value === selected)) {
          const v = values.indexOf(selected);
          expected.push({ value: selected, label: labels[v], count: counts[v] });
        }
        assert.deepEqual(out.payload.facets.find((x) => (x.key as string) === 'spread')?.values, expected, `share ${share}, spread ${selected}`);
        assert.equal(truncated, counted.length > MAX_FACET_VALUES);
        if (truncated) cut++;
      }
    }
    assert.ok(cut >= 8, 'most contexts count more values than the facet lists');
  });
});
