/**
 * The Markdown twin of every public page (issue 53), at the page's path plus `.md`: the page's own
 * model (its view and frame, api/site/pages.ts) rendered by the templates under templates/md/, so
 * an agent reads the same facts, figures and citation as a person, without the markup.
 */
import { join } from 'node:path';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';
import type { Locale } from '../../contract/common.ts';
import { STRINGS } from './strings.ts';

export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** Text as Markdown shows it literally: its syntax characters escaped, its line breaks as spaces (as the HTML shows them). */
const escapeMarkdown = (value: unknown) => String(value).replace(/\s*\n\s*/g, ' ').replace(/([\\`*_[\]<>|#])/g, '\\$1');

// autoTrim off: an interpolation at a line's end keeps its newline; control tags trim theirs with -%>
const eta = new Eta({ views: join(import.meta.dirname, 'templates', 'md'), cache: true, autoEscape: true, autoTrim: false, escapeFunction: escapeMarkdown });

/** The path of a page's twin, keeping a query and a fragment: `/en/coworking/spain?page=2` → `/en/coworking/spain.md?page=2`. */
export function twinPath(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? `${path}.md` : `${path.slice(0, end)}.md${path.slice(end)}`;
}

/** What a request line may carry but a URI may not (`<`, `"`, a space …), which would end the Link's `<…>` early. */
const NOT_IN_URI = /[^!#$%&'()*+,\-./0-9:;=?@A-Z[\]_a-z~]/g;

/** The Link header field of a page asked for at `requestUrl`: its twin, as an alternate in Markdown. */
export const twinLink = (siteUrl: string, requestUrl: string) =>
  `<${siteUrl}${twinPath(requestUrl.replace(NOT_IN_URI, encodeURIComponent))}>; rel="alternate"; type="text/markdown"`;

/** Markdown whose headings move `shift` levels down (at most h6), as the page's HTML moves them (markdown.ts). */
function demote(markdown: string, shift: number): string {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) /.exec(line);
    return heading ? '#'.repeat(Math.min(6, heading[1].length + shift)) + line.slice(heading[1].length) : line;
  }).join('\n');
}

/** A page's twin from the model its HTML template is given; links to pages lead to their twins, every link absolute. */
export function renderTwin(template: string, model: Record<string, unknown>, siteUrl: string): string {
  const abs = (href: string) => (href.startsWith('/') ? siteUrl + href : href);
  const markdown = eta.render(`./${template}`, { ...model, abs, twin: (path: string) => abs(twinPath(path)), escape: escapeMarkdown, demote });
  // a section left out (an empty pager, a missing figure) leaves its blank lines behind
  return `${markdown.replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

/** The twin's answer where the page answers an error page: 404 (nothing here) or 500 (this page failed). */
export function twinError(reply: FastifyReply, locale: Locale, siteUrl: string, status: 404 | 500): FastifyReply {
  const t = STRINGS[locale];
  const [title, text] = status === 404 ? [t.notFound, t.notFoundText] : [t.serverError, t.serverErrorText];
  const reference = status === 500 ? `${t.errorReference} \`${reply.request.id}\`\n\n` : '';
  return reply.code(status).type(MARKDOWN_TYPE).send(`# ${title}\n\n${text}\n\n${reference}[${t.nav.home}](${siteUrl}${twinPath(`/${locale}`)})\n`);
}
