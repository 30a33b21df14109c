/**
 * A lead server for the kill -9 and replica tests: the API core's buildApp (fixture build) with
 * the leads service, configured from the environment like the real server (LEADS_DB or
 * DATABASE_URL, SMTP_URL…). Test-only knobs: LEAD_CLAIM_LEASE_MS and RELAY_LEASE_MS shorten the
 * leases a killed process leaves behind. Prints `LISTENING <port>` once it accepts connections,
 * and `RELAY SENT <n>` after each relay pass that sent mail.
 */
import { loadConfig } from '../../api/config.ts';
import { leadsConfig } from '../../api/leads/index.ts';
import { LeadsService } from '../../api/leads/service.ts';
import { buildTestApp } from './support.ts';

const optionalMs = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const quiet = () => {};
const service = await LeadsService.open(leadsConfig(loadConfig()), {
  relay: { pollMs: 50, baseDelayMs: 20, maxDelayMs: 200, leaseMs: optionalMs('RELAY_LEASE_MS') },
  claimLeaseMs: optionalMs('LEAD_CLAIM_LEASE_MS'),
  log: {
    info: (obj, msg) => { if (msg === 'outbox pass') process.stdout.write(`RELAY SENT ${(obj as { sent: number }).sent}\n`); },
    warn: quiet,
    error: quiet,
  },
});
const app = await buildTestApp(service);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : ''}\n`);
