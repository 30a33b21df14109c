/**
 * The MCP server over stdio, for a local client (`make mcp`): the build in DIST_DIR/current served
 * by an app that never listens; each tool call is a read of its REST API in process. Standard
 * output carries the protocol only: the log goes to standard error.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { CatalogStore } from './loading/store.ts';
import { ConfigError, loadConfig } from './config.ts';
import { CONTRACT_VERSION } from '../contract/common.ts';
import { readThrough, toolsOf } from './mcp/http.ts';
import { mcpServer } from './mcp/server.ts';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
const log = pino({ level: config.logLevel }, pino.destination(2));
let catalog: CatalogStore;
try {
  catalog = await CatalogStore.open(config.distDir, { siteUrl: config.siteUrl, log, pollMs: config.reloadPollMs });
} catch (err) {
  console.error(`Cannot start: no loadable build at ${config.distDir}/current (${(err as Error).message}). Run \`make data\` to build one.`);
  process.exit(1);
}
catalog.watch();
const app = await buildApp({ config, catalog, logger: false });
await app.ready();
const server = mcpServer({ name: config.serviceName, version: CONTRACT_VERSION, tools: toolsOf(app)(), read: readThrough(app, '127.0.0.1') });
await server.connect(new StdioServerTransport());
log.info({ buildId: catalog.current().build.id }, 'MCP server on stdio ready');
