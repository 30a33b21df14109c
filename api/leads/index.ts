/**
 * The leads module as the server loads it (api/server.ts → featurePlugins): opens the lead
 * store and its outbox relay from the validated config and hands back the plugin and a closer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppPlugin } from '../app.ts';
import type { CatalogSource } from '../build/load.ts';
import type { AppConfig } from '../config.ts';
import { leadsPlugin, type LeadsPluginOptions } from './plugin.ts';
import { LeadsService, type LeadsConfig } from './service.ts';

export { leadsPlugin } from './plugin.ts';
export { LeadsService, leadsConfigFromEnv } from './service.ts';
export { assertChallengeConfig } from './challenge.ts';

export function leadsConfig(config: AppConfig): LeadsConfig {
  return {
    dbPath: config.leads.db,
    mailSpoolDir: config.leads.mailSpool,
    smtpUrl: config.leads.smtpUrl || undefined,
    teamEmail: config.leads.teamEmail,
    challengeSecret: config.leads.challengeSecret || undefined,
    challengeVerifyUrl: config.leads.challengeVerifyUrl,
    nodeEnv: config.nodeEnv,
  };
}

export async function createPlugin(ctx: { config: AppConfig; catalog: CatalogSource; log: FastifyBaseLogger }):
  Promise<AppPlugin & { close: () => Promise<void> }> {
  // Throws (refusing to start) in production without CHALLENGE_SECRET.
  const service = LeadsService.open(leadsConfig(ctx.config), { log: ctx.log });
  if (!service.challengeEnabled) {
    ctx.log.warn('lead challenge checks are OFF: CHALLENGE_SECRET is unset (allowed outside production only)');
  }
  ctx.log.info({
    db: ctx.config.leads.db,
    transport: service.transportKind,
    spool: service.transportKind === 'spool' ? ctx.config.leads.mailSpool : undefined,
  }, 'leads ready');
  const options: LeadsPluginOptions = { service, routing: () => ctx.catalog.current().leadRouting };
  return { plugin: leadsPlugin, options, close: () => service.close() };
}
