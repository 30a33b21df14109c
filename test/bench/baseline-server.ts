/**
 * The benchmark's baseline: a bare Fastify route answering every GET with the bytes of a real
 * list page, so a ratio to it says how much of the machine's HTTP capacity the API keeps.
 *   node --import tsx test/bench/baseline-server.ts BODY_FILE   (PORT and HOST from the environment)
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.argv[2]);
const app = Fastify();
app.get('/*', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
