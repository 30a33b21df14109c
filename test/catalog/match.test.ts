/**
 * Every match is written into the matcher's one buffer: a set holds its own listings and none of
 * the match before it, whichever words that one filled.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as bits from '../../api/catalog/bitset.ts';
import { fixtureBuildPerFile } from '../support/app.ts';

const fixture = fixtureBuildPerFile({ extra: 300 });

interface Card { city?: { slug: string }; operator?: { slug: string } }

describe('match', () => {
  it('holds only the listings of its own filters after a wider or a disjoint match', () => {
    const { engine } = fixture.build;
    const cards = Array.from({ length: engine.n }, (_, i) => JSON.parse(engine.cardJson(i, 'en', {})) as Card);
    const cities = [...new Set(cards.map((c) => c.city?.slug).filter((s): s is string => s !== undefined))];
    const operators = [...new Set(cards.map((c) => c.operator?.slug).filter((s): s is string => s !== undefined))];
    assert.ok(cities.length > 3 && operators.length > 1, 'the fixture has several cities and operators');
    // an operator (listings across many cities), then a city, then the next operator: each set after a different one
    const queries = cities.flatMap((city, k) => [{ operator: operators[k % operators.length] }, { city }]);
    for (const f of queries) {
      const set = engine.match(f);
      const members = Array.from(bits.toIndices(set.bits));
      const expected = cards.flatMap((c, i) => (('city' in f ? c.city?.slug === f.city : c.operator?.slug === f.operator) ? [i] : []));
      assert.deepEqual(members, expected, JSON.stringify(f));
      assert.equal(set.count, expected.length, JSON.stringify(f));
    }
  });
});
