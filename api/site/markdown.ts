/**
 * Markdown of the pages (the methodology, the problem pages) as HTML. Headings move down a level
 * below the page's own and get ids, so a section can be linked (`#median`).
 */
import { Marked } from 'marked';

export const headingId = (text: string) =>
  text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/<[^>]*>/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Markdown as HTML, its headings `shift` levels lower (at most h6). */
export function markdownToHtml(markdown: string, shift = 1): string {
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const level = Math.min(6, depth + shift);
        return `<h${level} id="${headingId(inner)}">${inner}</h${level}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
