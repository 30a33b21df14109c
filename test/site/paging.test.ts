import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageOf } from '../../api/site/paging.ts';

describe('pages of a long list', () => {
  it('slice a list into pages linked prev and next, the first without ?page=, none past the last', () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    assert.deepEqual(pageOf(items, 1, 10, '/en/prices'), { items: items.slice(0, 10), page: 1, pageCount: 3, prev: undefined, next: '/en/prices?page=2' });
    assert.deepEqual(pageOf(items, 2, 10, '/en/prices'), { items: items.slice(10, 20), page: 2, pageCount: 3, prev: '/en/prices', next: '/en/prices?page=3' });
    assert.deepEqual(pageOf(items, 3, 10, '/en/prices')?.items, [20, 21, 22, 23, 24]);
    assert.equal(pageOf(items, 4, 10, '/en/prices'), undefined);
    assert.deepEqual(pageOf([], 1, 10, '/x'), { items: [], page: 1, pageCount: 1, prev: undefined, next: undefined });
  });
});
