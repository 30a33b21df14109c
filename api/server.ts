/**
 * The process: config, logger, the build store and its hot reload, listen, signals.
 * `make serve` runs it compiled (`node dist/app/api/server.js`, built by `npm run build`);
 * `tsx api/server.ts` runs the source. SIGHUP reloads dist/current; SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests finish, then exit 0.
 */
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { CatalogStore } from './build/store.ts';
import { ConfigError, loadConfig, type AppConfig } from './config.ts';
import { openLeads } from './leads/index.ts';

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel });
  const started = Date.now();
  // The build is checked and loaded before anything listens: a server that listens serves it.
  let catalog: CatalogStore;
  try {
    catalog = await CatalogStore.open(config.distDir, { siteUrl: config.siteUrl, log, pollMs: config.reloadPollMs, queryCache: config.queryCache });
  } catch (err) {
    log.fatal({ err }, `no loadable build at ${config.distDir}/current`);
    console.error(`Cannot start: no loadable build at ${config.distDir}/current (${(err as Error).message}). Run \`make data\` to build one.`);
    process.exit(1);
  }
  const leads = await openLeads(config, log.child({ module: 'leads' }));
  const app = await buildApp({ config, catalog, logger: log, leads });
  catalog.watch();
  // Keep-alive sockets must not hold a graceful close open forever.
  app.server.keepAliveTimeout = 5_000;
  app.server.requestTimeout = 30_000;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('in-flight requests did not finish within 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    catalog.close();
    try {
      await app.close();
      await leads.close();
    } catch (err) {
      log.error({ err }, 'error while closing');
    }
    log.info('closed');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => {
    log.info('SIGHUP: reloading the current build');
    void catalog.reload(true);
  });

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ buildId: catalog.current().build.id, startupMs: Date.now() - started }, 'ready');
  // The one line a person starting the server looks for.
  console.log(`Desk Atlas API listening on http://${config.host}:${port} (try http://${config.host}:${port}/v1/properties?locale=en); build ${catalog.current().build.id} loaded, ready after ${Date.now() - started} ms`);
}

await main();
