/**
 * The benchmark's report: the issue's table (floor, goal, measured with the caches off and on),
 * as markdown to paste into docs/benchmarks.md, then the raw figures behind each ratio.
 */
import type { LoadResult } from './load.ts';
import type { PagesResult } from './pages.ts';
import type { PipelineRun } from './pipeline.ts';
import type { Row } from './traffic.ts';

export interface RowResult {
  row: Row;
  baseline: LoadResult;
  api: LoadResult;
  /** each server's CPU time per request it answered, µs: what a request costs, whatever the host's drift does to the rates */
  cpuUs: { baseline: number; api: number };
  distinct: number;
  sent: number;
}
export interface ModeResult {
  queryCache: boolean;
  /** why the server was not measured */
  failure?: string;
  /** each start's spawn → first 200, in order (the first after the pipeline comes first) */
  startupsMs?: number[];
  peakRssMb?: number;
  rows: RowResult[];
  /** the pages row, when asked for */
  pages?: PagesResult;
}
export interface Report {
  spaces: number;
  observations: number;
  listings?: number;
  pipeline?: PipelineRun;
  modes: ModeResult[];
  connections: number;
  seconds: number;
  /** the turns of each server a row's seconds are cut into */
  slices: number;
  context: string;
}

/** The issue's rows: what each measures, its floor and its goal (ratios to the bare route). */
export const TARGETS: Record<Row, { label: string; floor: number; goal: number }> = {
  'list': { label: '`GET /v1/properties?locale=…` (no seed, no filter)', floor: 0.4, goal: 0.7 },
  'list-filtered': { label: 'list with random filter mixes, random order, no seed', floor: 0.4, goal: 0.7 },
  'list-sorted': { label: 'list with filters, sorted, pages 1–5', floor: 0.4, goal: 0.7 },
  'facets': { label: 'facets with random filter mixes', floor: 0.4, goal: 0.6 },
  'detail': { label: 'detail (`/v1/properties/{slug}`)', floor: 0.6, goal: 0.9 },
  'suggest': { label: 'suggest (`/v1/search/suggest`)', floor: 0.6, goal: 0.9 },
};
const P99 = { floor: 25, goal: 5 };
const STARTUP = { floorMs: 2000, goalMs: 1000, floorMb: 1024, goalMb: 600 };
const PIPELINE = { floorS: 60, goalS: 20, floorMb: 4096 };
const TARGET_SPACES = 100_000;
/** the issue's bounds on a page: its HTML, and how long it may hold the event loop (seen as the wait of a concurrent /v1/health) */
const PAGES = { maxBytes: 2 * 1024 * 1024, maxStallMs: 50 };

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const gb = (mb: number): string => (mb >= 1024 ? `${(mb / 1024).toFixed(2)} GB` : `${mb} MB`);
/** ✓✓ goal met, ✓ floor met, ✗ below the floor */
const mark = (meetsGoal: boolean, meetsFloor: boolean): string => (meetsGoal ? '✓✓' : meetsFloor ? '✓' : '✗');

function rowCell(r: RowResult | undefined, t: { floor: number; goal: number }): string {
  if (!r) return '–';
  const ratio = r.api.rps / r.baseline.rps;
  const failures = r.api.failures > 0 ? `, **${n(r.api.failures)} failed**` : '';
  return `**${ratio.toFixed(2)}** ${mark(ratio >= t.goal, ratio >= t.floor)} (${n(r.api.rps)} req/s, p99 ${r.api.p99} ms${failures})`;
}

function p99Cell(m: ModeResult): string {
  if (m.rows.length === 0) return '–';
  const worst = m.rows.reduce((a, b) => (b.api.p99 > a.api.p99 ? b : a));
  return `worst ${worst.api.p99} ms (${worst.row}) ${mark(worst.api.p99 <= P99.goal, worst.api.p99 <= P99.floor)}`;
}

function startupCell(m: ModeResult): string {
  const starts = m.startupsMs ?? [];
  if (m.failure || starts.length === 0) return m.failure ? `failed: ${m.failure}` : '–';
  const ms = [...starts].sort((a, b) => a - b)[Math.floor((starts.length - 1) / 2)];
  const mb = m.peakRssMb ?? 0;
  const each = starts.length > 1 ? ` (median of ${starts.map((x) => (x / 1000).toFixed(2)).join(', ')})` : '';
  return `${(ms / 1000).toFixed(2)} s ${mark(ms <= STARTUP.goalMs, ms <= STARTUP.floorMs)}${each} / `
    + `${gb(mb)} ${mark(mb <= STARTUP.goalMb, mb <= STARTUP.floorMb)}`;
}

function pagesCell(m: ModeResult): string {
  if (!m.pages) return '–';
  const largest = m.pages.pages.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const stall = m.pages.worstHealthMs;
  return `${stall.toFixed(0)} ms ${stall <= PAGES.maxStallMs ? '✓' : '✗'} (during \`${m.pages.worstHealthDuring}\`; the server's loop held ≤ ${m.pages.serverLoopMaxMs.toFixed(0)} ms) / ${(largest.bytes / 1e6).toFixed(2)} MB `
    + `${largest.bytes <= PAGES.maxBytes ? '✓' : '✗'} (\`${largest.path}\`)`;
}

function pipelineCell(p: PipelineRun | undefined): string {
  if (!p) return 'not run (`--reuse-build`)';
  const rss = p.peakRssMb === undefined ? 'peak RSS n/a (no /usr/bin/time)' : gb(p.peakRssMb);
  if (!p.ok) return `**failed** (${p.exit}) after ${p.seconds.toFixed(1)} s, peak RSS ${rss}`;
  const rssMark = p.peakRssMb === undefined ? '' : p.peakRssMb <= PIPELINE.floorMb ? ' ✓' : ' ✗';
  return `${p.seconds.toFixed(1)} s ${mark(p.seconds <= PIPELINE.goalS, p.seconds <= PIPELINE.floorS)}, ${rss}${rssMark}`;
}

export function render(report: Report, rows: Row[]): string {
  const off = report.modes.find((m) => !m.queryCache);
  const on = report.modes.find((m) => m.queryCache);
  const cells = (f: (m: ModeResult) => string): string => `${off ? f(off) : '–'} | ${on ? f(on) : '–'}`;
  const out: string[] = [];
  out.push(`API benchmark at ${n(report.spaces)} spaces (${n(report.observations)} price observations`
    + `${report.listings === undefined ? '' : `, ${n(report.listings)} listings served`}); ${report.context}; `
    + `autocannon, ${report.connections} connections, ${report.seconds} s a row on each server, every request a freshly drawn URL; `
    + `each ratio is to a bare Fastify route returning a list page's bytes, run with the same traffic in turns with the API (${report.slices} of each, bare first).`);
  if (report.spaces !== TARGET_SPACES) out.push(`(The floors and goals are set for ${n(TARGET_SPACES)} spaces.)`);
  out.push('');
  out.push('| request | floor | goal | caches off (`QUERY_CACHE=0`) | caches on |');
  out.push('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    const t = TARGETS[row];
    out.push(`| ${t.label} | ≥ ${t.floor.toFixed(2)} | ≥ ${t.goal.toFixed(2)} | ${cells((m) => rowCell(m.rows.find((r) => r.row === row), t))} |`);
  }
  out.push(`| p99 of each, ${report.connections} connections | ≤ ${P99.floor} ms | ≤ ${P99.goal} ms | ${cells(p99Cell)} |`);
  if (report.modes.some((m) => m.pages)) {
    out.push(`| worst concurrent \`/v1/health\` while every page type is requested once per locale (a fresh server) / largest page | ≤ ${PAGES.maxStallMs} ms / ≤ 2 MB | – | ${cells(pagesCell)} |`);
  }
  out.push(`| start-up to serving (spawn → first 200) / peak RSS | ≤ ${STARTUP.floorMs / 1000} s / ≤ 1 GB | ≤ ${STARTUP.goalMs / 1000} s / ≤ ${STARTUP.goalMb} MB | ${cells(startupCell)} |`);
  out.push(`| pipeline, ${n(report.spaces)} spaces and ${n(report.observations)} observations, end to end | ≤ ${PIPELINE.floorS} s, ≤ 4 GB | ≤ ${PIPELINE.goalS} s | ${pipelineCell(report.pipeline)} | (no caches) |`);
  out.push('');
  out.push('✓✓ goal met, ✓ floor met, ✗ below the floor.');
  if (report.pipeline && !report.pipeline.ok) {
    out.push(`The pipeline failed at ${n(report.spaces)} spaces (${report.pipeline.exit}, peak RSS `
      + `${report.pipeline.peakRssMb === undefined ? 'n/a' : gb(report.pipeline.peakRssMb)}): there was no build to serve.`);
  }
  for (const m of report.modes) if (m.failure) out.push(`The server with caches ${m.queryCache ? 'on' : 'off'} was not measured: ${m.failure}.`);
  out.push('');
  out.push('| caches | request | bare route req/s | req/s | ratio | p50 ms | p99 ms | failed | distinct URLs / sent | CPU µs a request, bare route / API |');
  out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const m of report.modes) {
    for (const r of m.rows) {
      out.push(`| ${m.queryCache ? 'on' : 'off'} | ${r.row} | ${n(r.baseline.rps)} | ${n(r.api.rps)} | ${(r.api.rps / r.baseline.rps).toFixed(3)} `
        + `| ${r.api.p50} | ${r.api.p99} | ${n(r.api.failures)} | ${n(r.distinct)} / ${n(r.sent)} | ${n(r.cpuUs.baseline)} / ${n(r.cpuUs.api)} |`);
    }
  }
  for (const m of report.modes.filter((x) => x.pages)) {
    out.push('');
    out.push(`Pages, caches ${m.queryCache ? 'on' : 'off'} (${n(m.pages!.healthRequests)} \`/v1/health\` meanwhile): `
      + m.pages!.pages.map((p) => `\`${p.path}\` ${p.status} ${(p.bytes / 1e3).toFixed(0)} kB ${p.ms.toFixed(0)} ms`).join(' · '));
  }
  return out.join('\n');
}
