// Where a page of a list stands, as the API says it in X-BlueInk-Pagination:
// `<page>,<total_pages>,<per_page>,<total_results>`.

export interface TPagination {
  page: number;
  pages: number;
  perPage: number;
  total: number;
}

/** The header read; a missing or malformed one reads as one page of what was shown. */
export function parsePagination(header: string | null): TPagination {
  const parts = (header ?? '').split(',').map((p) => Number.parseInt(p.trim(), 10));
  const [page, pages, perPage, total] = parts;
  if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n) || n < 0))
    return { page: 1, pages: 1, perPage: 0, total: 0 };
  return { page: page!, pages: pages!, perPage: perPage!, total: total! };
}
