// A page of a list, as use cases and stores take it: which page and how many per page. The
// HTTP layer reads it from the query and writes the pagination headers (shared/http/pagination.ts).

export interface TPage {
  page: number;
  perPage: number;
}

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;

/** The items of `page` out of a whole list. */
export function sliceOf<T>(items: T[], page: TPage): T[] {
  const start = (page.page - 1) * page.perPage;
  return items.slice(start, start + page.perPage);
}

/** One page of a list and how many there are in all. */
export interface TPageOf<T> {
  items: T[];
  total: number;
}
