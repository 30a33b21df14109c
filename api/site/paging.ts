/** Pages of a list that grows with the catalogue: a page number from the query, and the slice it shows. */

/** The largest page number a URL may ask for; any other `page` is not a page (404). */
const PAGE_PATTERN = /^[1-9]\d{0,5}$/;

/** The page a query asks for: 1 without `page`, undefined when `page` is not a page number. */
export function requestedPage(query: unknown): number | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.page;
  if (raw === undefined) return 1;
  return typeof raw === 'string' && PAGE_PATTERN.test(raw) ? Number(raw) : undefined;
}

export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

export interface Paged<T> {
  items: T[];
  page: number;
  pages: number;
  /** the page's links, `rel` prev and next */
  prev?: string;
  next?: string;
}

/** Page `page` of `all`, `size` a page, linked from `path`; undefined past the last page. */
export function pageOf<T>(all: readonly T[], page: number, size: number, path: string): Paged<T> | undefined {
  const pages = pageCount(all.length, size);
  if (page > pages) return undefined;
  const href = (n: number) => (n === 1 ? path : `${path}?page=${n}`);
  return {
    items: all.slice((page - 1) * size, page * size),
    page,
    pages,
    prev: page > 1 ? href(page - 1) : undefined,
    next: page < pages ? href(page + 1) : undefined,
  };
}
