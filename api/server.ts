/**
 * The process: config, logger, the build store and its hot reload, listen, signals.
 * `make serve` runs it bundled (`node dist/server/server.js`, built by `npm run build`: scripts/bundle-server.ts);
 * `tsx api/server.ts` runs the source. SIGHUP reloads dist/current; SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests finish, then exit 0.
 */
import { pino } from 'pino';
import { LoadWorkers } from './loading/workers.ts';
import type { CatalogSource, CatalogStore } from './loading/store.ts';
import type { AppConfig } from './config.ts';
import type { RedisCounters } from './http/rate-limit-redis.ts';

async function main() {
  const started = Date.now();
  // The first load's worker threads start before the rest of the server is imported: they boot
  // and import their checks while this thread imports the server.
  const loadWorkers = new LoadWorkers();
  const [{ BuildDownloader }, { CatalogStore }, { ConfigError, loadConfig }] = await Promise.all([
    import('./loading/download.ts'), import('./loading/store.ts'), import('./config.ts'),
  ]);
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
  // The HTTP app and the lead stores are imported while the build loads.
  const modules = Promise.all([import('./app.ts'), import('./leads/index.ts'), import('./routes/docs/reference.ts')]);
  // With BUILD_URL, builds arrive by download into DIST_DIR, checked file by file; the store then
  // loads them from there with every check of a local build.
  let downloads: NodeJS.Timeout | undefined;
  if (config.buildUrl) {
    const downloader = new BuildDownloader({ baseUrl: config.buildUrl, distDir: config.distDir, log: log.child({ module: 'build-download' }) });
    await downloader.sync();
    downloads = setInterval(() => void downloader.sync(), config.buildPollMs);
    downloads.unref();
  }
  // Leads are opened, Redis is reached and the app is built, its routes compiled, while the build
  // loads (this thread waits for the load worker's reads at the end of a load). Requests reach
  // the catalog only once it has loaded: the server listens after that.
  let catalog: CatalogStore | undefined;
  const source: CatalogSource = { current: () => catalog!.current(), damaged: (build, err) => catalog!.damaged(build, err) };
  const serving = modules.then(async ([{ buildApp }, { openLeads }, { referenceOf }]) => {
    const leads = await openLeads(config, log.child({ module: 'leads' }));
    let rateCounters: RedisCounters | undefined;
    if (config.redisUrl) {
      const { RedisCounters } = await import('./http/rate-limit-redis.ts');
      rateCounters = new RedisCounters(config.redisUrl, config.rateLimit, log.child({ module: 'rate-limit' }));
      // Without Redis the server still starts: each replica counts on its own until it connects.
      if (!await rateCounters.connected(2_000)) log.warn('rate limits: Redis not reachable at start; counting per replica until it is');
    }
    const app = await buildApp({ config, catalog: source, logger: log, leads, rateCounters });
    await app.ready();
    // /openapi.json and /docs: made now, while the build loads, not by the first request for them (~60 ms of the event loop)
    referenceOf(app.routeDefinitions, config);
    return { app, leads, rateCounters };
  });
  serving.catch(() => undefined); // awaited below; a failed load exits before that
  // The build is checked and loaded before anything listens: a server that listens serves it.
  try {
    catalog = await CatalogStore.open(config.distDir, { siteUrl: config.siteUrl, log, pollMs: config.reloadPollMs }, loadWorkers);
  } catch (err) {
    log.fatal({ err }, `no loadable build at ${config.distDir}/current`);
    console.error(`Cannot start: no loadable build at ${config.distDir}/current (${(err as Error).message}). Run \`make data\` to build one.`);
    process.exit(1);
  }
  const { app, leads, rateCounters } = await serving;
  catalog.watch();
  // Keep-alive sockets must not hold a graceful close open forever.
  app.server.keepAliveTimeout = 5_000;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Not ready from now on, so load balancers stop sending traffic; requests are still served
    // for SHUTDOWN_DRAIN_MS (long enough for them to notice), then the listener closes.
    app.lifecycle.draining = true;
    log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: not ready, finishing in-flight requests');
    const force = setTimeout(() => {
      log.error('in-flight requests did not finish within 10 s of closing; exiting');
      process.exit(1);
    }, config.shutdownDrainMs + 10_000);
    force.unref();
    clearInterval(downloads);
    try {
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await app.close();
      // the builds' files, once no request reads them
      await catalog.close();
      await leads.close();
      await rateCounters?.close();
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
