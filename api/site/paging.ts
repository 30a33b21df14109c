/** Pages of a list that grows with the catalogue: the slice a page shows and its links. */

export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

export interface Paged<T> {
  items: T[];
  page: number;
  pageCount: number;
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
    pageCount: pages,
    prev: page > 1 ? href(page - 1) : undefined,
    next: page < pages ? href(page + 1) : undefined,
  };
}
