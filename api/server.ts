/**
 * The process: config, logger, the build store and its hot reload, listen, signals.
 * `make serve` runs it compiled (`node dist/app/api/server.js`, built by `npm run build`);
 * `tsx api/server.ts` runs the source. SIGHUP reloads dist/current; SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests finish, then exit 0.
 */
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { CatalogStore, type CatalogSource } from './build/store.ts';
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
  // The app and the leads service are made while the build loads (this thread waits for the
  // load workers part of the time); they read the build only when a request comes.
  const opening = CatalogStore.open(config.distDir, { siteUrl: config.siteUrl, log, pollMs: config.reloadPollMs, queryCache: config.queryCache });
  opening.catch(() => undefined);
  let store: CatalogStore | undefined;
  const source: CatalogSource = {
    current: () => {
      if (!store) throw new Error('the build is not loaded yet');
      return store.current();
    },
  };
  const leads = openLeads(config, log.child({ module: 'leads' }));
  const app = await buildApp({ config, catalog: source, logger: log, leads });
  let catalog: CatalogStore;
  try {
    catalog = store = await opening;
  } catch (err) {
    log.fatal({ err }, `no loadable build at ${config.distDir}/current; run \`make data\` first`);
    process.exit(1);
  }
  const first = catalog.current().build;
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
  console.log(`Desk Atlas API listening on http://${config.host}:${port} (try http://${config.host}:${port}/v1/properties?locale=en)`);
  // The first build is served while its big files finish validating; one that fails stops the
  // process (there is no previous build to fall back to).
  // Read only now: reading `validated` starts the background verification, after start-up.
  first.validated.then(
    () => {
      log.info({ buildId: first.id, ms: Date.now() - started }, 'build fully validated');
      console.log(`Build ${first.id} fully validated after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    (err) => {
      log.fatal({ err }, 'the build failed validation');
      process.exit(1);
    },
  );
}

await main();
