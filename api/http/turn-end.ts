import type { FastifyReply } from 'fastify';

/**
 * Responses made in one turn of the event loop are written together at its end (setImmediate
 * runs once the turn's I/O callbacks have). A client waiting on several connections is then woken
 * once a turn, not once a response: on loopback that wake-up is paid inside the server's write,
 * and it was the largest single cost of a facets response under load (docs/operations.md, "The API server").
 * A request alone waits one hop of the loop.
 */
const pending: { reply: FastifyReply; send: () => void }[] = [];

function sendTurn(): void {
  const sends = pending.splice(0);
  for (const { reply, send } of sends) {
    try {
      send();
    } catch (err) {
      reply.send(err);
    }
  }
}

/** Runs `send` (which sends `reply`) at the end of this turn; if it throws, the reply carries the error. */
export function sendAtTurnEnd(reply: FastifyReply, send: () => void): void {
  if (pending.push({ reply, send }) === 1) setImmediate(sendTurn);
}
