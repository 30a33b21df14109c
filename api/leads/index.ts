/**
 * The leads service as the server opens it (api/server.ts): the lead store (SQLite, or PostgreSQL
 * when DATABASE_URL is set) and its outbox relay, from the validated config. The routes that
 * submit to it are in api/routes/leads/.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import { LeadsService, type LeadsConfig, type LeadsServiceOptions } from './service.ts';

export function leadsConfig(config: AppConfig): LeadsConfig {
  return {
    dbPath: config.leads.db,
    databaseUrl: config.leads.databaseUrl,
    mailSpoolDir: config.leads.mailSpool,
    smtpUrl: config.leads.smtpUrl || undefined,
    teamEmail: config.leads.teamEmail,
    challengeSecret: config.leads.challengeSecret || undefined,
    challengeVerifyUrl: config.leads.challengeVerifyUrl,
    nodeEnv: config.nodeEnv,
  };
}

/** Opens the service (throws, refusing to start, in production without CHALLENGE_SECRET) and says how it runs. */
export async function openLeads(config: AppConfig, log: FastifyBaseLogger, opts: Omit<LeadsServiceOptions, 'log'> = {}): Promise<LeadsService> {
  const service = await LeadsService.open(leadsConfig(config), { ...opts, log });
  if (!service.challengeEnabled) {
    log.warn('lead challenge checks are OFF: CHALLENGE_SECRET is unset (allowed outside production only)');
  }
  log.info({
    // never the URL: it carries the password
    store: service.store.kind,
    db: service.store.kind === 'sqlite' ? config.leads.db : undefined,
    transport: service.transportKind,
    spool: service.transportKind === 'spool' ? config.leads.mailSpool : undefined,
  }, 'leads ready');
  return service;
}
