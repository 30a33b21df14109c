/**
 * A small lead server for the kill -9 test: the API core's buildApp with the leads service,
 * configured from the environment like the real server (LEADS_DB, SMTP_URL…).
 * Prints `LISTENING <port>` once it accepts connections.
 */
import { loadConfig } from '../../api/config.ts';
import { leadsConfig } from '../../api/leads/index.ts';
import { LeadsService } from '../../api/leads/service.ts';
import { buildTestApp } from './support.ts';

const service = LeadsService.open(leadsConfig(loadConfig()), { relay: { pollMs: 50, baseDelayMs: 20, maxDelayMs: 200 } });
const app = await buildTestApp(service);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : ''}\n`);
