import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { staticCatalog } from '../../api/loading/store.ts';
import { loadBuild } from '../../api/loading/load.ts';
import { removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { quietProgress } from '../support/pipeline-fixtures.ts';
import { runBuild } from '../../pipeline/run.ts';
import { closeFetchPool, ROOT, startServer, type ServerProcess } from '../support/server-process.ts';
import { SITE, testApp } from '../support/app.ts';
import { TOOLS } from '../../api/mcp/tools.ts';

type Json = Record<string, any>;

let dist: string;
let server: ServerProcess;

before(async () => {
  dist = await mkdtemp(join(tmpdir(), 'desk-atlas-mcp-'));
  await runBuild({ dataDir: join(ROOT, 'data'), distDir: dist, progress: quietProgress });
  server = await startServer(dist);
});

after(async () => {
  server?.child.kill('SIGTERM');
  await closeFetchPool();
  await removeDir(dist);
});

const rest = async (path: string): Promise<Json> => {
  const res = await fetch(`${server.base}${path}`);
  assert.equal(res.status, 200, path);
  return res.json() as Promise<Json>;
};

const call = async (client: Client, name: string, args: Json) => (await client.callTool({ name, arguments: args })) as CallToolResult;

/** A tool's error text, asserting the call was a tool error (never a protocol error). */
async function toolError(client: Client, name: string, args: Json): Promise<string> {
  const result = await call(client, name, args);
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should be a tool error`);
  return (result.content[0] as { text: string }).text;
}

/** Every result the server gives is checked by the SDK's client against the tool's outputSchema. */
function behavesAsTheApi(connect: () => Promise<Client>) {
  let client: Client;
  before(async () => { client = await connect(); });
  after(async () => { await client?.close(); });

  it('lists the ten read tools of the reference and the price index\'s, read-only, with input and output schemas', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
    assert.equal(tools.length, 11);
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.ok(tool.outputSchema, tool.name);
      assert.match(tool.description ?? '', /Returns \(as \w+ of the REST API\)/, tool.name);
    }
    const search = tools.find((t) => t.name === 'search_coworking_spaces')!;
    assert.ok(search.inputSchema.properties!.cursor);
    for (const paging of ['page', 'pageSize', 'seed']) assert.equal(search.inputSchema.properties![paging], undefined, paging);
    // the filter registry's filters, as the list takes them
    for (const filter of ['city', 'amenities', 'minPrice', 'pricingOptionType']) assert.ok(search.inputSchema.properties![filter], filter);
  });

  it('answers each tool with its REST operation\'s body', async () => {
    const [card] = (await rest('/v1/properties?locale=en&city=berlin&sortBy=rating-desc&pageSize=1')).data as Json[];
    const slug = card.slug as string, operator = card.operator.slug as string;
    const calls: [string, Json, string][] = [
      ['list_coworking_locations', { locale: 'de' }, '/v1/geo/bootstrap?locale=de'],
      ['resolve_coworking_query', { locale: 'en', q: 'ber' }, '/v1/search/suggest?locale=en&q=ber'],
      ['get_coworking_filter_options', { locale: 'en', city: 'berlin' }, '/v1/facets?locale=en&city=berlin'],
      ['get_coworking_space', { locale: 'es', slug }, `/v1/properties/${slug}?locale=es`],
      ['get_coworking_market_rates', { locale: 'en', city: 'berlin' }, '/v1/market/rates?locale=en&city=berlin'],
      ['get_best_coworking', { locale: 'en', city: 'berlin' }, '/v1/rankings?locale=en&city=berlin'],
      ['get_coworking_operator', { locale: 'en', slug: operator }, `/v1/operators/${operator}?locale=en`],
      ['get_coworking_place_guide', { locale: 'en', kind: 'city', slug: 'berlin' }, '/v1/places/city/berlin?locale=en'],
      ['get_coworking_price_index', { locale: 'de', city: 'berlin' }, '/api/price-index/cities/berlin?locale=de'],
    ];
    for (const [name, args, path] of calls) {
      const result = await call(client, name, args);
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      assert.deepEqual(result.structuredContent, await rest(path), name);
      assert.match((result.content[0] as { text: string }).text, /structuredContent/, name);
    }
    // a price figure keeps its citation
    const rates = await call(client, 'get_coworking_market_rates', { locale: 'en', city: 'berlin' });
    assert.match((rates.content[0] as { text: string }).text, /Source: Desk Atlas/);
    assert.ok((rates.structuredContent as Json).meta.citation.url);
  });

  it('gives one city of the price index as the index and its history publish it', async () => {
    const { data } = (await call(client, 'get_coworking_price_index', { locale: 'en', city: 'berlin' })).structuredContent as Json;
    const index = (await rest('/api/price-index')).data;
    const history = (await rest('/api/price-index/history')).data;
    assert.deepEqual(data.city, index.cities.find((c: Json) => c.city.slug === 'berlin'));
    assert.deepEqual(data.history, history.cities.find((c: Json) => c.city.slug === 'berlin'));
    assert.deepEqual(data.months, history.months);
    assert.ok(data.history.points.some((p: Json) => p.index !== undefined), 'the chained index is there');
  });

  it('compares several spaces in the order given, each with its citation', async () => {
    const cards = (await rest('/v1/properties?locale=en&city=berlin&sortBy=date-desc&pageSize=3')).data as Json[];
    const slugs = cards.map((c) => c.slug);
    const result = await call(client, 'compare_coworking_spaces', { locale: 'en', slugs });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const spaces = (result.structuredContent as { spaces: Json[] }).spaces;
    assert.deepEqual(spaces.map((s) => s.data.slug), slugs);
    assert.deepEqual(spaces[1], await rest(`/v1/properties/${slugs[1]}?locale=en`));
    assert.ok(spaces.every((s) => s.meta.citation.text));
  });

  it('pages a search of a random order to its end with a cursor: the REST total, no space twice', async () => {
    const total = (await rest('/v1/properties?locale=en&city=berlin&pageSize=1')).meta.pagination.total as number;
    assert.ok(total > 40, `the sample's Berlin has more than two pages (${total})`);
    const seen: string[] = [];
    let args: Json = { locale: 'en', city: 'berlin' };
    for (let calls = 0; ; calls++) {
      assert.ok(calls < 100, 'the cursor never ends');
      const result = await call(client, 'search_coworking_spaces', args);
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const body = result.structuredContent as Json;
      seen.push(...body.data.map((card: Json) => card.slug));
      if (!body.meta.nextCursor) break;
      args = { cursor: body.meta.nextCursor };
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total);
  });

  it('refuses a bad argument as a tool error that names it', async () => {
    assert.match(await toolError(client, 'search_coworking_spaces', { locale: 'en', minPrice: 'cheap' }), /`minPrice`/);
    assert.match(await toolError(client, 'search_coworking_spaces', { locale: 'xx' }), /`locale`/);
    assert.match(await toolError(client, 'search_coworking_spaces', { locale: 'en', page: 2 }), /Unknown argument `page`/);
    assert.match(await toolError(client, 'search_coworking_spaces', { cursor: 'not-a-cursor' }), /`cursor`/);
    const first = (await call(client, 'search_coworking_spaces', { locale: 'en', city: 'berlin' })).structuredContent as Json;
    assert.match(await toolError(client, 'search_coworking_spaces', { cursor: first.meta.nextCursor, city: 'madrid' }), /`city` differs/);
    assert.match(await toolError(client, 'get_coworking_space', { locale: 'en', slug: 'no-such-space' }), /no-such-space/);
    assert.match(await toolError(client, 'get_coworking_space', { locale: 'en', slug: 'Not A Slug' }), /`slug`/);
    assert.match(await toolError(client, 'get_coworking_space', { locale: 'en', slug: { nested: true } }), /`slug` must be a string/);
    assert.match(await toolError(client, 'compare_coworking_spaces', { locale: 'en', slugs: ['no-such-space'] }), /`slugs`/);
    const [{ slug }] = (await rest('/v1/properties?locale=en&pageSize=1&sortBy=date-desc')).data as Json[];
    assert.match(await toolError(client, 'compare_coworking_spaces', { locale: 'en', slugs: [slug, 'Bad Slug'] }), /`slugs\[1\]`/);
    assert.match(await toolError(client, 'compare_coworking_spaces', { locale: 'en', slugs: [slug, 'no-such-space'] }), /`slugs\[1\]`: No space with slug "no-such-space"/);
    assert.match(await toolError(client, 'get_coworking_place_guide', { locale: 'en', kind: 'planet', slug: 'mars' }), /`kind`/);
    assert.match(await toolError(client, 'get_coworking_price_index', { city: 'atlantis' }), /atlantis/);
    assert.match(await toolError(client, 'get_coworking_price_index', { city: 'Not A Slug' }), /`city`/);
    assert.match(await toolError(client, 'no_such_tool', {}), /No tool named/);
  });
}

describe('the MCP server over Streamable HTTP at /mcp of the server as make serve runs it', () => {
  behavesAsTheApi(async () => {
    const client = new Client({ name: 'desk-atlas-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
    return client;
  });

  it('answers a GET 405: it keeps no sessions and streams nothing', async () => {
    const res = await fetch(`${server.base}/mcp`, { headers: { accept: 'text/event-stream' } });
    assert.equal(res.status, 405);
  });
});

describe('the MCP server over stdio (make mcp)', () => {
  behavesAsTheApi(async () => {
    const client = new Client({ name: 'desk-atlas-test', version: '1' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(ROOT, 'api', 'mcp-stdio.ts')],
      cwd: ROOT,
      // the server's addresses (startServer's PORT=0), so both cite the same pages
      env: { ...process.env, DIST_DIR: dist, PORT: '0', LOG_LEVEL: 'warn' } as Record<string, string>,
      stderr: 'pipe',
    }));
    return client;
  });
});

describe('the reads\' rate limit', () => {
  it('counts each tool call of a client against its reads, and answers the one over the limit as a tool error', async () => {
    const fixture = await writeBuildFixture();
    const build = await loadBuild(fixture.dir, { siteUrl: SITE });
    const app = await testApp({ catalog: staticCatalog(build), env: { RATE_LIMIT_READS: '3' } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const client = new Client({ name: 'desk-atlas-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      await client.listTools(); // the protocol's own messages are not reads
      for (let i = 0; i < 3; i++) assert.notEqual((await call(client, 'list_coworking_locations', { locale: 'en' })).isError, true, `call ${i + 1}`);
      assert.match(await toolError(client, 'list_coworking_locations', { locale: 'en' }), /Too many requests/);
    } finally {
      await client.close();
      await app.close();
      await build.close();
      await removeDir(fixture.dir);
    }
  });
});
