/**
 * The pages' tests run on a build the pipeline makes of the committed sample (data/): every kind
 * of page has real content there (zones, operators, thin and published cities, six currencies).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parseHTML } from 'linkedom';
import { loadBuild, type LoadedBuild } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress } from '../support/pipeline-fixtures.ts';
import { SITE, testApp, type TestAppOptions } from '../support/app.ts';

export const SAMPLE_DATA = join(import.meta.dirname, '..', '..', 'data');
export const BASE = 'https://api.deskatlas.test';

export interface SampleApp {
  app: FastifyInstance;
  build: LoadedBuild;
  close(): Promise<void>;
}

/** `opts`: the app's other options (a leads service for the enquiry forms). */
export async function sampleApp(env: Record<string, string> = {}, opts: Omit<TestAppOptions, 'env' | 'catalog'> = {}): Promise<SampleApp> {
  const distDir = await mkdtemp(join(tmpdir(), 'desk-atlas-pages-'));
  const built = await runBuild({ dataDir: SAMPLE_DATA, distDir, progress: quietProgress });
  const build = await loadBuild(built.buildDir, { siteUrl: SITE });
  const app = await testApp({ ...opts, catalog: staticCatalog(build), env });
  return {
    app,
    build,
    close: async () => {
      await app.close();
      await build.close();
      await rm(distDir, { recursive: true, force: true });
    },
  };
}

/** The path (with query) of an absolute URL on the site or the API; both are served by the app. */
export function pathOf(url: string): string {
  const u = new URL(url);
  if (u.origin !== SITE && u.origin !== BASE) throw new Error(`${url} is neither on ${SITE} nor on ${BASE}`);
  return u.pathname + u.search;
}

export const html = (body: string) => parseHTML(body).document;
