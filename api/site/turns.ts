import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Items a page makes once per build from every city or path of the catalogue, taken between turns
 * of the event loop: at 1,000,000 spaces there are ~33,000 cities and ~100,000 place and operator
 * paths, and one turn over them all held every other request for 20–50 ms. A turn ends by time,
 * not by count: on a fresh server the same 2,000 paths took 5 ms or, their code not yet compiled,
 * 25–48 ms of one turn.
 */
const TURN_MS = 4;
/** Items taken between two looks at the clock. */
const ITEMS_PER_LOOK = 64;

/** Calls `each` on every item, yielding to the event loop whenever TURN_MS has passed. */
export async function eachInTurns<T>(items: Iterable<T>, each: (item: T) => void): Promise<void> {
  let n = 0;
  let turnStart = performance.now();
  for (const item of items) {
    each(item);
    if (++n % ITEMS_PER_LOOK === 0 && performance.now() - turnStart >= TURN_MS) {
      await nextTurn();
      turnStart = performance.now();
    }
  }
}
