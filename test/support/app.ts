import { after, before } from 'node:test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { buildApp, type AppOptions } from '../../api/app.ts';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog, type CatalogSource } from '../../api/loading/store.ts';
import { loadConfig, type AppConfig } from '../../api/config.ts';
import { removeDir, writeBuildFixture, type Fixture, type FixtureOptions } from './build-fixture.ts';
import { validateResponses } from './openapi-validator.ts';

export const SITE = 'https://deskatlas.test';

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ SITE_URL: SITE, BASE_URL: 'https://api.deskatlas.test', BUILD_SHA: 'test123', ...env });
}

let shared: Promise<{ fixture: Fixture; build: LoadedBuild }> | undefined;

/** The default fixture build, written and loaded once per test process. */
export function sharedBuild(): Promise<{ fixture: Fixture; build: LoadedBuild }> {
  shared ??= (async () => {
    const fixture = await writeBuildFixture();
    const build = await loadBuild(fixture.dir, { siteUrl: SITE });
    return { fixture, build };
  })();
  return shared;
}

export async function fixtureBuild(opts: FixtureOptions = {}): Promise<{ fixture: Fixture; build: LoadedBuild }> {
  const fixture = await writeBuildFixture(undefined, opts);
  return { fixture, build: await loadBuild(fixture.dir, { siteUrl: SITE }) };
}

/** A fixture build of its own for one test file: written and loaded before its tests, removed after them. */
export function fixtureBuildPerFile(opts: FixtureOptions = {}): { readonly build: LoadedBuild } {
  let made: { fixture: Fixture; build: LoadedBuild } | undefined;
  before(async () => { made = await fixtureBuild(opts); });
  after(async () => {
    await made?.build.close();
    if (made) await removeDir(made.fixture.dir);
  });
  return { get build() { return made!.build; } };
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'config' | 'catalog'>> {
  env?: Record<string, string>;
  catalog?: CatalogSource;
  /** a test's own routes or hooks, registered after the app's (as if they were part of it) */
  plugins?: FastifyPluginAsync[];
}

/** The real app on the shared fixture; the rate limit is raised unless the test sets it. */
export async function testApp(opts: TestAppOptions = {}): Promise<FastifyInstance> {
  const catalog = opts.catalog ?? staticCatalog((await sharedBuild()).build);
  // Every response of a test app is checked against the published OpenAPI document.
  const app = validateResponses(await buildApp({
    ...opts,
    config: testConfig({ RATE_LIMIT_READS: '1000000', ...opts.env }),
    catalog,
    logger: opts.logger ?? false,
  }));
  for (const plugin of opts.plugins ?? []) await app.register(plugin);
  await app.ready();
  return app;
}

/** GET through inject, returning status, headers and parsed JSON body. */
export async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  let body: any;
  try { body = res.body ? JSON.parse(res.body) : undefined; } catch { body = res.body; }
  return { status: res.statusCode, headers: res.headers, body, raw: res };
}
