/**
 * Operator CLI for enquiries: `npm run leads -- <command>` or `make leads ARGS="<command>"`.
 * Opens the store the server uses, through api/config.ts: PostgreSQL when DATABASE_URL is set,
 * else the SQLite file LEADS_DB (default var/leads.db). Redelivery only marks rows pending: a
 * running server's relay sends them at its next pass, so the CLI never sends mail itself.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.ts';
import { PostgresLeadStore } from './postgres-store.ts';
import { SqliteLeadStore } from './sqlite-store.ts';
import { StoreUnavailableError, type LeadStore, type OutboxRow } from './store.ts';

const USAGE = `usage: npm run leads -- <command>
  list [--limit N]            latest enquiries (reference, date, endpoint, spaces, delivery)
  show <reference>            one enquiry with its contact details and its emails
  outbox [pending|sent|dead]  outbox rows, newest first (or the given status)
  redeliver <outbox-id>       send that email again
  redeliver --all-dead        send every dead letter again`;

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}

function delivery(rows: OutboxRow[]): string {
  const n = (s: OutboxRow['status']) => rows.filter((r) => r.status === s).length;
  return `${n('sent')}/${rows.length} sent${n('dead') ? `, ${n('dead')} dead` : ''}`;
}

/** Where the enquiries are: DATABASE_URL, else LEADS_DB (read by api/config.ts). */
export interface CliStore { databaseUrl?: string; dbPath: string }

/** Runs one command on the lead store; returns the exit code. */
export async function runCli(argv: string[], where: CliStore, out: (s: string) => void = console.log): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') { out(USAGE); return command ? 0 : 2; }
  if (!where.databaseUrl && !existsSync(where.dbPath)) { out(`no leads database at ${where.dbPath} (set LEADS_DB or DATABASE_URL)`); return 1; }
  const store: LeadStore = where.databaseUrl ? new PostgresLeadStore(where.databaseUrl, { poolSize: 1 }) : new SqliteLeadStore(where.dbPath);
  try {
    return await runCommand(store, command, args, out);
  } catch (err) {
    if (!(err instanceof StoreUnavailableError)) throw err;
    out(`cannot reach the lead database: ${err.reason}`);
    return 1;
  } finally {
    await store.close();
  }
}

async function runCommand(store: LeadStore, command: string, args: string[], out: (s: string) => void): Promise<number> {
  switch (command) {
    case 'list': {
      const i = args.indexOf('--limit');
      const limit = i >= 0 ? Number(args[i + 1]) : 50;
      if (!Number.isInteger(limit) || limit < 1) { out('--limit needs a positive integer'); return 2; }
      const leads = await store.listLeads(limit);
      if (!leads.length) { out('no enquiries'); return 0; }
      const rows = [];
      for (const l of leads) {
        rows.push([
          l.reference, iso(l.createdAt), l.endpoint,
          String(Array.isArray(l.payload.properties) ? l.payload.properties.length : 0),
          delivery(await store.outboxForLead(l.leadId)),
        ]);
      }
      out(table([['reference', 'received', 'endpoint', 'spaces', 'delivery'], ...rows]));
      return 0;
    }
    case 'show': {
      const lead = args[0] ? await store.getLead(args[0].toUpperCase()) : undefined;
      if (!lead) { out(args[0] ? `no enquiry ${args[0]}` : USAGE); return args[0] ? 1 : 2; }
      out(`${lead.reference}  ${lead.endpoint}  received ${iso(lead.createdAt)}`);
      out(JSON.stringify(lead.payload, null, 2));
      out('');
      out(outboxTable(await store.outboxForLead(lead.leadId)));
      return 0;
    }
    case 'outbox': {
      const status = args[0] as OutboxRow['status'] | undefined;
      if (status && !['pending', 'sent', 'dead'].includes(status)) { out(USAGE); return 2; }
      const counts = await store.outboxCounts();
      out(`pending ${counts.pending}  sent ${counts.sent}  dead ${counts.dead}`);
      const rows = await store.listOutbox(status);
      if (rows.length) out(outboxTable(rows));
      return 0;
    }
    case 'redeliver': {
      if (args[0] === '--all-dead') {
        out(`${await store.redeliver('all-dead', Date.now())} dead letter(s) queued for delivery`);
        return 0;
      }
      const id = Number(args[0]);
      if (!Number.isInteger(id) || id < 1) { out(USAGE); return 2; }
      const changed = await store.redeliver({ outboxId: id }, Date.now());
      out(changed ? `outbox ${id} queued for delivery` : `no outbox row ${id}`);
      return changed ? 0 : 1;
    }
    default:
      out(USAGE);
      return 2;
  }
}

function outboxTable(rows: OutboxRow[]): string {
  return table([['id', 'reference', 'kind', 'operator', 'to', 'status', 'attempts', 'next attempt', 'sent', 'last error'], ...rows.map((r) => [
    String(r.outboxId), r.reference, r.kind, r.operatorSlug ?? '-', r.message.to, r.status, String(r.attempts),
    r.status === 'pending' ? iso(r.nextAttemptAt) : '-', iso(r.sentAt), (r.lastError ?? '').slice(0, 80),
  ])]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { leads } = loadConfig();
    process.exitCode = await runCli(process.argv.slice(2), { databaseUrl: leads.databaseUrl, dbPath: leads.db });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
