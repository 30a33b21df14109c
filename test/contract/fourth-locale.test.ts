/**
 * A fourth locale end to end. Adding a locale is one line, LOCALES in contract/common.ts, plus the
 * translations the compiler then asks for (every Record<Locale, …> table). This test does that to
 * a copy of the sources: it adds `fr` to LOCALES and gives every table keyed by the locales a
 * French entry that is FALLBACK_LOCALE's text (the stand-in for a translator's). The generator's
 * sample copy (pipeline/generate) is left without French, as a new locale's input would be: its
 * `_fr` columns are written but empty. The copy's own commands then run as an operator runs them:
 * the generator (`make generate`), the pipeline (`make data`) and the server (`make serve`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { parseHTML } from 'linkedom';
import ts from 'typescript';
import { FALLBACK_LOCALE, LOCALES } from '../../contract/common.ts';
import { INPUT_TABLES } from '../../pipeline/lib/inputs.ts';
import { closeFetchPool, ROOT } from '../support/server-process.ts';

const FOURTH = 'fr';
const SPACES = 120;

/** The copy's sources: what the generator, the pipeline and the server import. */
const SOURCES = ['contract', 'pipeline', 'api', 'package.json', 'tsconfig.json'];
/** Where the copy's translation tables get their French entry; the generator's sample copy gets none. */
const TRANSLATED = ['contract', 'pipeline/lib', 'api'];

/**
 * Gives every object literal that has a property for each of LOCALES, and none for `added`, a
 * property `added` with FALLBACK_LOCALE's value; returns the new text and how many tables it filled.
 */
function addLocaleEntries(file: string, source: string, added: string): { text: string; tables: number } {
  const edits: { at: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      const byName = new Map<string, ts.ObjectLiteralElementLike>();
      for (const p of node.properties) if (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) byName.set(p.name.text, p);
      const fallback = byName.get(FALLBACK_LOCALE);
      if (fallback && LOCALES.every((l) => byName.has(l)) && !byName.has(added)) {
        const value = ts.isShorthandPropertyAssignment(fallback) ? `: ${FALLBACK_LOCALE}` : source.slice(fallback.name!.getEnd(), fallback.getEnd());
        edits.push({ at: fallback.getEnd(), text: `, ${added}${value}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  let text = source;
  for (const e of edits.sort((a, b) => b.at - a.at)) text = text.slice(0, e.at) + e.text + text.slice(e.at);
  return { text, tables: edits.length };
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

/** The copy of the sources with `added` in LOCALES and in every translation table; returns its root. */
function copyWithLocale(added: string): { root: string; tables: number } {
  const root = mkdtempSync(join(tmpdir(), 'desk-atlas-locale-'));
  for (const s of SOURCES) cpSync(join(ROOT, s), join(root, s), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(root, 'node_modules'));

  const common = join(root, 'contract', 'common.ts');
  const declaration = /^export const LOCALES = \[[^\]]*\] as const;$/m;
  const before = readFileSync(common, 'utf8');
  assert.equal(before.match(new RegExp(declaration.source, 'gm'))?.length, 1, 'LOCALES is declared on one line');
  writeFileSync(common, before.replace(declaration, `export const LOCALES = [${[...LOCALES, added].map((l) => `'${l}'`).join(', ')}] as const;`));

  let tables = 0;
  for (const file of TRANSLATED.flatMap((d) => filesUnder(join(root, d))).filter((f) => f.endsWith('.ts'))) {
    const edited = addLocaleEntries(file, readFileSync(file, 'utf8'), added);
    if (edited.tables > 0) writeFileSync(file, edited.text);
    tables += edited.tables;
  }
  return { root, tables };
}

interface Run { code: number | null; stdout: string; stderr: string }

/** One of the copy's commands, run by node with tsx, as `npm run generate` runs it. */
function runTs(root: string, script: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const readCsv = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];

describe(`a fourth locale (${FOURTH}) added to LOCALES`, () => {
  let copy: { root: string; tables: number };
  let work: string;
  let server: ReturnType<typeof spawn> | undefined;
  let base = '';
  let pipeline: Run;

  before(async () => {
    copy = copyWithLocale(FOURTH);
    work = mkdtempSync(join(tmpdir(), 'desk-atlas-locale-run-'));
    const generated = await runTs(copy.root, 'pipeline/generate/main.ts', ['--out', join(work, 'data'), '--spaces', String(SPACES)]);
    assert.equal(generated.code, 0, generated.stderr);
    pipeline = await runTs(copy.root, 'pipeline/build.ts', ['--data', join(work, 'data'), '--dist', join(work, 'dist')]);
    assert.equal(pipeline.code, 0, pipeline.stderr);

    server = spawn(process.execPath, ['--import', 'tsx', join(copy.root, 'api', 'server.ts')], {
      cwd: copy.root,
      env: {
        ...process.env, DIST_DIR: join(work, 'dist'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn',
        LEADS_DB: join(work, 'leads.db'), LEADS_MAIL_SPOOL: join(work, 'mail'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    base = await new Promise<string>((resolve, reject) => {
      server!.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      server!.stderr!.on('data', (d) => { out += d; });
      server!.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
    });
  });

  after(async () => {
    server?.kill('SIGTERM');
    await closeFetchPool();
    for (const dir of [copy?.root, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is one line of contract/common.ts plus a French entry in each translation table', () => {
    assert.ok(copy.tables > 0, 'the copy filled the translation tables');
  });

  it('keeps its columns when the generator writes the snapshot (make generate), empty where the sample has no French copy', () => {
    for (const table of Object.values(INPUT_TABLES)) {
      const header = readFileSync(join(work, 'data', table.file), 'utf8').split('\n', 1)[0].split(',');
      for (const column of header.filter((c) => c.endsWith(`_${FALLBACK_LOCALE}`))) {
        assert.ok(header.includes(`${column.slice(0, -FALLBACK_LOCALE.length)}${FOURTH}`), `${table.file} has ${column}'s ${FOURTH} column`);
      }
    }
    const spaces = readCsv(join(work, 'data', 'spaces.csv'));
    assert.equal(spaces.length, SPACES);
    assert.ok(spaces.every((s) => s[`excerpt_${FOURTH}`] === '' && s[`excerpt_${FALLBACK_LOCALE}`] !== ''));
    const countries = readCsv(join(work, 'data', 'countries.csv'));
    assert.ok(countries.every((c) => c[`name_${FOURTH}`] === ''), 'the curated country names are written in the sample\'s three languages');
  });

  it('writes every localized build file for it, and counts the texts that fell back to the fallback locale', () => {
    const files = readdirSync(join(work, 'dist', 'current'));
    const localized = files.filter((f) => f.includes(`.${FALLBACK_LOCALE}.`));
    assert.ok(localized.length > 5, files.join(' '));
    for (const f of localized) assert.ok(files.includes(f.replace(`.${FALLBACK_LOCALE}.`, `.${FOURTH}.`)), `${f} has its ${FOURTH} twin`);

    const fallbacks = pipeline.stderr.split('\n').filter((l) => l.includes('locale fallbacks'));
    assert.equal(fallbacks.length, 1, `only ${FOURTH} falls back:\n${pipeline.stderr}`);
    const counts = Object.fromEntries([...fallbacks[0].matchAll(/(\w+ \w+) (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    assert.ok(fallbacks[0].startsWith(`[pipeline] locale fallbacks ${FOURTH} → ${FALLBACK_LOCALE}: `), fallbacks[0]);
    assert.equal(counts['space excerpt'], SPACES, fallbacks[0]);
    assert.equal(counts['space description'], SPACES, fallbacks[0]);
    assert.equal(counts['country name'], readCsv(join(work, 'data', 'countries.csv')).length, fallbacks[0]);
  });

  it('is served by the API: a card in the fallback locale\'s text under its own addresses, and named in the error for an unknown locale', async () => {
    const page = async (locale: string) => (await (await fetch(`${base}/v1/properties?locale=${locale}&sortBy=date-desc&pageSize=5`)).json()) as {
      data: { slug: string; excerpt: string; city: { name: string } }[]; meta: { citation: { url: string } };
    };
    const [fourth, fallback] = [await page(FOURTH), await page(FALLBACK_LOCALE)];
    assert.equal(fourth.data.length, 5);
    assert.deepEqual(fourth.data.map((c) => [c.slug, c.excerpt]), fallback.data.map((c) => [c.slug, c.excerpt]));
    assert.match(fourth.meta.citation.url, new RegExp(`/${FOURTH}(/|$)`));

    const detail = await fetch(`${base}/v1/properties/${fourth.data[0].slug}?locale=${FOURTH}`);
    assert.equal(detail.status, 200);
    assert.match((await detail.json() as { data: { webUrl: string } }).data.webUrl, new RegExp(`/${FOURTH}/space/${fourth.data[0].slug}$`));

    const unknown = await fetch(`${base}/v1/properties?locale=xx`);
    assert.equal(unknown.status, 400);
    const problem = await unknown.json() as { errors: { path: string; message: string }[] };
    assert.deepEqual(problem.errors.map((e) => e.path), ['locale']);
    assert.ok(problem.errors[0].message.endsWith([...LOCALES, FOURTH].map((l) => `"${l}"`).join('|')), problem.errors[0].message);
  });

  it('has its pages, linked from the others, and is chosen for a French Accept-Language', async () => {
    const { data } = (await (await fetch(`${base}/v1/properties?locale=${FOURTH}&sortBy=date-desc&pageSize=1`)).json()) as { data: { slug: string }[] };
    const { data: detail } = (await (await fetch(`${base}/v1/properties/${data[0].slug}?locale=${FALLBACK_LOCALE}`)).json()) as { data: { description: string } };
    for (const path of [`/${FOURTH}`, `/${FOURTH}/space/${data[0].slug}`]) {
      const r = await fetch(`${base}${path}`);
      assert.equal(r.status, 200, path);
      const { document } = parseHTML(await r.text());
      assert.equal(document.documentElement.getAttribute('lang'), FOURTH, path);
      assert.doesNotMatch(document.body.textContent ?? '', /undefined|NaN/, path);
      if (path.includes('/space/')) assert.ok(document.body.textContent?.includes(detail.description), 'the description in the fallback locale');
    }
    const home = await (await fetch(`${base}/${FALLBACK_LOCALE}`)).text();
    assert.match(home, new RegExp(`hreflang="${FOURTH}"`));

    const chosen = await fetch(`${base}/`, { headers: { 'accept-language': `${FOURTH}-FR,${FOURTH};q=0.9` }, redirect: 'manual' });
    assert.equal(new URL(chosen.headers.get('location') ?? '/', base).pathname, `/${FOURTH}`);
  });
});
