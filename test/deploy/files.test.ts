import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
// A YAML 1.2 parser already installed with Spectral (a dev dependency).
import { parse as parseYaml } from '@stoplight/yaml';
import { loadConfig } from '../../api/config.ts';
import { clientAddress, trustFunction } from '../../api/http/client-address.ts';
import { dockerStages, parseDockerfile, type Instruction } from '../support/image.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The variables api/config.ts reads: the keys of its EnvSchema. */
function configVariables(): string[] {
  const source = read('api/config.ts');
  const schema = /const EnvSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(source);
  assert.ok(schema, 'EnvSchema found in api/config.ts');
  return [...schema[1].matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]).sort();
}

/** The variables .env.example documents (each as `# NAME=…` or `NAME=…`). */
function exampleVariables(): string[] {
  return [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).sort();
}

/** `${NAME:-default}`, `${NAME:?message}` and `${NAME}` as compose substitutes them, from `env`. */
function substitute(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    if (env[name]) return env[name];
    if (op === '?') throw new Error(`compose would refuse: ${arg}`);
    return op === '-' ? arg ?? '' : '';
  });
}

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string }>;
  depends_on?: string[] | Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface Compose { services: Record<string, Service>; networks: Record<string, { ipam: { config: { subnet: string }[] } }>; volumes: Record<string, unknown> }

describe('deployment files', () => {
  it('.env.example documents exactly the variables api/config.ts reads', () => {
    assert.deepEqual(exampleVariables(), configVariables());
  });

  const compose = parseYaml(read('compose.yaml')) as Compose;
  const api = compose.services.api;

  it('compose.yaml: one API service to scale, PostgreSQL, Redis, a proxy and the pipeline job, each variable documented and valid', () => {
    assert.deepEqual(Object.keys(compose.services).sort(), ['api', 'pipeline', 'postgres', 'proxy', 'redis']);
    // `docker compose up --scale api=N` refuses a service with a fixed container name or host port
    assert.ok(!('container_name' in api) && !('ports' in api), 'the API service can be scaled');
    const documented = new Set(exampleVariables());
    for (const name of Object.keys(api.environment!)) {
      assert.ok(documented.has(name), `${name} is not in .env.example`);
    }
    // compose refuses to start without the challenge secret, which production requires
    assert.throws(() => substitute(api.environment!.CHALLENGE_SECRET, {}), /set CHALLENGE_SECRET/);
    assert.throws(() => substitute(api.environment!.CHALLENGE_SITE_KEY, {}), /set CHALLENGE_SITE_KEY/);
    const challenge = { CHALLENGE_SECRET: 'secret', CHALLENGE_SITE_KEY: 'site-key' };
    const env = Object.fromEntries(Object.entries(api.environment!).map(([k, v]) => [k, substitute(String(v), challenge)]));
    const config = loadConfig(env);
    assert.equal(config.production, true);
    assert.equal(config.host, '0.0.0.0');

    // the services the URLs name exist, with matching credentials
    assert.equal(new URL(config.redisUrl!).hostname, 'redis');
    const database = new URL(env.DATABASE_URL);
    assert.equal(database.hostname, 'postgres');
    const pg = compose.services.postgres.environment!;
    assert.equal(database.username, pg.POSTGRES_USER);
    assert.equal(database.pathname, `/${pg.POSTGRES_DB}`);
    assert.equal(decodeURIComponent(database.password), substitute(pg.POSTGRES_PASSWORD, {}));
  });

  it('compose.yaml: TRUST_PROXY trusts exactly the proxy, whose address is fixed on the network', () => {
    const proxyNetworks = compose.services.proxy.networks as Record<string, { ipv4_address?: string }>;
    const [[network, { ipv4_address: proxyAddress }]] = Object.entries(proxyNetworks);
    assert.ok(proxyAddress && isIP(proxyAddress) === 4);
    const [subnet] = compose.networks[network].ipam.config;
    assert.ok(subnet.subnet.startsWith(proxyAddress.split('.').slice(0, 3).join('.')), 'the address is in the subnet');
    assert.deepEqual(api.networks, [network]);
    const config = loadConfig({ TRUST_PROXY: api.environment!.TRUST_PROXY });
    assert.deepEqual(config.trustProxy, { kind: 'addresses', addresses: [proxyAddress] });
    const trust = trustFunction(config.trustProxy);
    assert.equal(clientAddress(trust, proxyAddress, '10.9.9.1, 203.0.113.5'), '203.0.113.5');
    // another container on the network (a replica, the pipeline) cannot claim an address
    assert.equal(clientAddress(trust, '172.28.0.11', '10.9.9.1'), '172.28.0.11');
  });

  it('compose.yaml: the replicas follow one build volume that the pipeline job publishes to', () => {
    const dist = api.environment!.DIST_DIR;
    assert.ok(api.volumes!.includes(`dist:${dist}:ro`), `${JSON.stringify(api.volumes)} mounts the build volume at DIST_DIR, read-only`);
    const deps = api.depends_on as Record<string, { condition: string }>;
    assert.equal(deps.pipeline.condition, 'service_completed_successfully', 'a replica starts once a build is published');
    assert.equal(deps.postgres.condition, 'service_healthy');
    const pipeline = compose.services.pipeline;
    assert.ok(pipeline.volumes!.includes(`dist:${dist}`), 'the pipeline writes the same volume');
    const command = pipeline.command!;
    assert.equal(command[command.indexOf('--dist') + 1], dist);
    assert.ok(existsSync(join(ROOT, 'data')) && command.includes('/app/data'));
    assert.equal(pipeline.image, api.image);
    assert.ok('dist' in compose.volumes);
  });

  it('compose.yaml: without SMTP_URL the replicas spool enquiry mail to one named volume, declared to the server', () => {
    const spool = api.environment!.LEADS_MAIL_SPOOL;
    const mount = api.volumes!.find((v) => v.split(':')[1] === spool);
    assert.ok(mount, `a volume is mounted at LEADS_MAIL_SPOOL (${spool})`);
    const [name, , mode] = mount.split(':');
    assert.ok(name in compose.volumes, `${name} is a named volume, not the container's own directory`);
    assert.notEqual(mode, 'ro');
    const env = Object.fromEntries(Object.entries(api.environment!).map(([k, v]) => [k, substitute(String(v), { CHALLENGE_SECRET: 'secret', CHALLENGE_SITE_KEY: 'site-key' })]));
    assert.equal(env.SMTP_URL, '', 'SMTP_URL is empty unless the operator sets it');
    assert.equal(loadConfig(env).leads.mailSpool, spool);
    // the declaration is what lets production start: without it the same settings are refused
    assert.throws(() => loadConfig({ ...env, LEADS_MAIL_SPOOL_VOLUME: '' }), /SMTP_URL is unset/);
  });

  it('deploy/Caddyfile: finds every replica of the api service by name, sets X-Forwarded-For itself', () => {
    const caddy = read('deploy/Caddyfile');
    const port = api.environment!.PORT;
    const code = caddy.replace(/#.*$/gm, '');
    assert.match(code, /reverse_proxy \{/, 'no fixed upstreams');
    assert.match(code, new RegExp(`dynamic a api ${port} \\{\\s*refresh \\d+s`), 'the service name, looked up again every few seconds');
    assert.match(code, /lb_try_duration \d+s/, 'a request that finds a replica gone is tried on another');
    assert.doesNotMatch(code, /trusted_proxies/, 'a client\'s own X-Forwarded-For is not passed on');
    const proxy = compose.services.proxy;
    assert.ok(proxy.volumes!.some((v) => v.startsWith('./deploy/Caddyfile:/etc/caddy/Caddyfile')));
  });

  it('Dockerfile: multi-stage, npm ci --omit=dev, non-root, runs the compiled server, checks readiness', () => {
    const instructions = parseDockerfile(read('Dockerfile'));
    const stages = dockerStages(instructions);
    stages.forEach((stage, i) => {
      assert.ok(stages.slice(0, i).some((s) => s.name === stage.from) || /:[\w.-]+$/.test(stage.from), `FROM ${stage.from}: a pinned base image`);
    });
    assert.ok(stages.length >= 2, 'multi-stage');
    const argLine = instructions.find((i) => i.keyword === 'ARG')!.args;
    assert.match(argLine, /=node:\d+-[\w-]+$/, 'the Node image is pinned to a major version');
    const final = stages.at(-1)!;
    const runs = (stage: { instructions: Instruction[] }) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    for (const stage of stages) {
      for (const ins of stage.instructions.filter((i) => i.keyword === 'COPY')) {
        const parts = ins.args.split(/\s+/);
        const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length);
        const sources = parts.filter((p) => !p.startsWith('--')).slice(0, -1);
        if (from) {
          const index = stages.findIndex((s) => s.name === from);
          assert.ok(index >= 0 && index < stages.indexOf(stage), `line ${ins.line}: --from=${from} is an earlier stage`);
        } else {
          for (const source of sources) assert.ok(existsSync(join(ROOT, source)), `line ${ins.line}: ${source} exists`);
        }
      }
    }
    // the runtime's node_modules come from a stage that installed without dev dependencies
    const modules = final.instructions.find((i) => i.keyword === 'COPY' && /node_modules/.test(i.args))!;
    const depsStage = stages.find((s) => s.name === /--from=(\S+)/.exec(modules.args)![1])!;
    assert.ok(runs(depsStage).some((r) => /^npm ci .*--omit=dev/.test(r)), 'npm ci --omit=dev');
    assert.ok(!runs(final).some((r) => /npm (ci|install)/.test(r)), 'nothing installed in the runtime stage');
    // the compiled server is what the build script writes
    assert.match(JSON.parse(read('package.json')).scripts.build, /tsc -p tsconfig\.build\.json.*scripts\/bundle-server\.ts/);
    assert.ok(final.instructions.some((i) => i.keyword === 'COPY' && /--from=build \/app\/dist\/app \.\/dist\/app/.test(i.args)));
    assert.ok(final.instructions.some((i) => i.keyword === 'COPY' && /--from=build \/app\/dist\/server \.\/dist\/server/.test(i.args)));
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    assert.ok(users.length && !/^(root|0)(:|$)/.test(users.at(-1)!.args), 'runs as a non-root user');
    const cmd = JSON.parse(final.instructions.filter((i) => i.keyword === 'CMD').at(-1)!.args) as string[];
    // the server as `npm run serve` (make serve) runs it, with its node flags
    assert.deepEqual(cmd, JSON.parse(read('package.json')).scripts.serve.split(' '));
    assert.equal(cmd.at(-1), 'dist/server/server.js');
    assert.match(final.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args, /\/readyz/);
    assert.ok(final.instructions.some((i) => i.keyword === 'EXPOSE' && i.args === '3000'));
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'var', '.env', '.git']) assert.ok(ignored.includes(entry), `.dockerignore has ${entry}`);
  });
});
