import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Items a page makes once per build from every city or path of the catalogue, taken between turns
 * of the event loop: at 1,000,000 spaces there are ~33,000 cities and ~100,000 place and operator
 * paths, and one turn over them all held every other request for 20–50 ms.
 */
const ITEMS_PER_TURN = 2_000;

/** Calls `each` on every item, ITEMS_PER_TURN of them a turn. */
export async function eachInTurns<T>(items: Iterable<T>, each: (item: T) => void): Promise<void> {
  let n = 0;
  for (const item of items) {
    each(item);
    if (++n % ITEMS_PER_TURN === 0) await nextTurn();
  }
}
