import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
// A YAML 1.2 parser already installed with Spectral (a dev dependency).
import { parse as parseYaml } from '@stoplight/yaml';
import { TestVerifier, contactBody, waitFor } from '../leads/support.ts';
import { buildContext, ImageBuilder, type Image } from '../support/image.ts';
import { closeFetchPool } from '../support/server-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// each stage's filesystem (~0.8 GB in all) and the volumes; removed after the tests
const SCRATCH = mkdtempSync(join(tmpdir(), 'da-image-'));

interface Service { command?: string[]; environment?: Record<string, string>; volumes?: string[] }
const compose = parseYaml(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as { services: Record<string, Service> };

/** A compose service's named volumes, each a directory under SCRATCH that starts as Docker starts one: empty, owned like the image's directory there. */
function volumes(image: Image, service: Service) {
  return service.volumes!.filter((v) => !v.startsWith('.')).map((v) => {
    const [name, target, mode] = v.split(':');
    const source = join(SCRATCH, 'volumes', name);
    mkdirSync(source, { recursive: true });
    const owner = statSync(join(image.root, target));
    chownSync(source, owner.uid, owner.gid);
    return { source, target, readOnly: mode === 'ro' };
  });
}

/** Output of a process started in the image, and its exit. */
function watch(child: ChildProcess) {
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { output: () => output, exited };
}

/** SIGTERM to the process group (unshare, the chroot and what runs in it); SIGKILL if it lingers. */
async function stop(child: ChildProcess): Promise<void> {
  const alive = () => { try { process.kill(-child.pid!, 0); return true; } catch { return false; } };
  if (!alive()) return;
  process.kill(-child.pid!, 'SIGTERM');
  try { await waitFor(() => !alive(), 20_000, 'the image process to stop'); } catch { process.kill(-child.pid!, 'SIGKILL'); }
}

describe('the Docker image, built from the Dockerfile without a daemon', () => {
  let builder: ImageBuilder;
  let image: Image;

  before(async () => {
    builder = new ImageBuilder(ROOT, SCRATCH);
    image = await builder.build(join(ROOT, 'Dockerfile'));
  });
  after(async () => {
    await closeFetchPool();
    rmSync(SCRATCH, { recursive: true, force: true });
  });

  it('has a small build context: sources, lockfile and sample data, nothing installed, built or run', () => {
    const context = buildContext(ROOT);
    for (const path of ['package.json', 'package-lock.json', 'scripts/bundle-server.ts', 'api/server.ts', 'data']) {
      assert.ok(context.some((f) => f === path || f.startsWith(`${path}/`)), `${path} is in the context`);
    }
    for (const dir of ['node_modules', 'dist', 'var', 'bench-data', 'test', '.git']) {
      assert.ok(!context.some((f) => f === dir || f.startsWith(`${dir}/`)), `${dir} is not in the context`);
    }
    assert.ok(!context.some((f) => f.endsWith('.wasm')), 'the kernels are assembled in the image, from their .wat');
    const bytes = context.reduce((sum, f) => sum + statSync(join(ROOT, f)).size, 0);
    assert.ok(bytes < 32e6, `the context is ${(bytes / 1e6).toFixed(1)} MB`);
  });

  it('runs the pipeline job as compose does: it builds data/ into the dist volume', async () => {
    const job = compose.services.pipeline;
    const run = watch(builder.run(image, job.command!, { env: { BUILD_SHA: 'image-test' }, volumes: volumes(image, job) }));
    assert.equal(await run.exited, 0, run.output());
    const dist = join(SCRATCH, 'volumes', 'dist');
    const current = readlinkSync(join(dist, 'current'));
    assert.ok(readdirSync(join(dist, current)).includes('manifest.json'), `${current} holds a build`);
  });

  it('refuses to start in production with the mail spool not declared a volume', async () => {
    const run = watch(builder.run(image, image.cmd, { env: { CHALLENGE_SECRET: 'secret', CHALLENGE_SITE_KEY: 'site-key', HOST: '127.0.0.1', PORT: '0' } }));
    assert.equal(await run.exited, 1, run.output());
    assert.match(run.output(), /SMTP_URL is unset, so enquiry mail is written as \.eml files to LEADS_MAIL_SPOOL \(\/srv\/mail\)/);
  });

  it('starts the server as its CMD with compose\'s volumes: /v1/health answers 200, an enquiry\'s mail lands on the mail volume, the leads CLI lists it', async (t) => {
    const verifier = await new TestVerifier().start();
    t.after(() => verifier.stop());
    const api = compose.services.api;
    const env = {
      CHALLENGE_SECRET: verifier.secret, CHALLENGE_SITE_KEY: 'site-key', CHALLENGE_VERIFY_URL: verifier.url, BUILD_SHA: 'image-test',
      LEADS_MAIL_SPOOL_VOLUME: api.environment!.LEADS_MAIL_SPOOL_VOLUME, LEADS_MAIL_SPOOL: api.environment!.LEADS_MAIL_SPOOL,
      // the host's network: loopback and a free port instead of the container's 0.0.0.0:3000
      HOST: '127.0.0.1', PORT: '0',
    };
    const child = builder.run(image, image.cmd, { env, volumes: volumes(image, api) });
    t.after(() => stop(child));
    const run = watch(child);
    let base = '';
    await waitFor(() => {
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output());
      assert.doesNotMatch(run.output(), /"level":(50|60)/, 'no error logged at start');
      base = listening?.[1] ?? '';
      return Boolean(base);
    }, 60_000, `the server to listen:\n${run.output()}`);

    const health = await fetch(`${base}/v1/health`);
    assert.equal(health.status, 200);
    const { data } = await health.json() as { data: { sha: string; buildId: string } };
    assert.equal(data.sha, 'image-test');
    assert.equal(`builds/${data.buildId}`, readlinkSync(join(SCRATCH, 'volumes', 'dist', 'current')));
    assert.equal((await fetch(`${base}/docs`)).status, 200, 'a page rendered from the templates beside the bundle');

    const enquiry = await fetch(`${base}/v1/leads/contact`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(contactBody({ challengeToken: verifier.issue() })),
    });
    assert.equal(enquiry.status, 200, await enquiry.clone().text());
    const { data: { reference } } = await enquiry.json() as { data: { reference: string } };
    const mail = join(SCRATCH, 'volumes', 'mail');
    await waitFor(() => readdirSync(mail).some((f) => f.startsWith(reference) && f.endsWith('.eml')), 20_000, 'the enquiry\'s .eml on the mail volume');

    // docs/operations.md's `docker compose exec api node dist/app/api/leads/cli.js list`
    const cli = watch(builder.run(image, ['node', 'dist/app/api/leads/cli.js', 'list'], { env }));
    assert.equal(await cli.exited, 0, cli.output());
    assert.match(cli.output(), new RegExp(reference));
  });
});
