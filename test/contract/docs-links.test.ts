/**
 * The repository documents itself: every relative link of its Markdown leads to a file (and
 * heading) in it, and no file cites a document kept outside it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** build output, installed packages, local state and test output: not the repository's own text */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', 'bench-data', 'var', 'output']);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : files(path);
    return entry.isFile() ? [path] : [];
  });
}

const textOf = (file: string): string | undefined => {
  const bytes = readFileSync(file);
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
};

/** Markdown without its code: fenced blocks and inline code spans hold examples, not links. */
const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of each heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const markdownFiles = files(ROOT).filter((f) => f.endsWith('.md'));

describe('the repository\'s documents', () => {
  it('link only to files and headings that exist in the repository', () => {
    const broken: string[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(file, 'utf8');
      for (const [, target] of withoutCode(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)}: ${target}`;
        if (!linked.startsWith(ROOT + '/') && linked !== ROOT) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(linked)) broken.push(`${where} (no such file)`);
        else if (anchor && linked.endsWith('.md') && statSync(linked).isFile() && !anchors(readFileSync(linked, 'utf8')).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(markdownFiles.some((f) => relative(ROOT, f) === 'docs/design.md'), 'docs/design.md is found');
  });

  it('cite no document kept outside the repository', () => {
    // spelt in parts, so this file does not cite them itself
    const outside = [['DESIGN', '.md'], ['DESIGN', ' §'], ['../', 'shared/'], ['api-', 'spec']].map((parts) => parts.join(''));
    const citing: string[] = [];
    for (const file of files(ROOT)) {
      const text = textOf(file);
      if (text === undefined) continue;
      for (const name of outside) if (text.includes(name)) citing.push(`${relative(ROOT, file)}: ${name}`);
    }
    assert.deepEqual(citing, []);
  });
});
