import { ValidationError } from '#shared/domain/errors';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type TPage } from '#shared/domain/paging';

function positiveInt(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new ValidationError('Invalid pagination.', [{ field, message: 'A positive integer is required.' }]);
  }
  return Number(raw);
}

export function parsePage(query: { get(name: string): string | undefined }): TPage {
  const page = positiveInt(query.get('page'), 'page') ?? 1;
  const perPage = Math.min(positiveInt(query.get('per_page'), 'per_page') ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage };
}

/**
 * X-BlueInk-Pagination and Link, as docs/api-decisions.md describes them. Links carry the list's own
 * (validated) filters and nothing else the client sent, so the header stays small.
 */
export function paginationHeaders(
  page: TPage,
  total: number,
  baseUrl: URL,
  filters: Record<string, string | undefined> = {},
): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const link = (n: number, rel: string) => {
    const u = new URL(baseUrl);
    u.search = '';
    for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') u.searchParams.set(k, v);
    u.searchParams.set('page', String(n));
    u.searchParams.set('per_page', String(page.perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(Math.min(page.page - 1, totalPages), 'prev'));
  if (page.page < totalPages) links.push(link(page.page + 1, 'next'));
  links.push(link(totalPages, 'last'));
  return {
    'X-BlueInk-Pagination': `${page.page},${totalPages},${page.perPage},${total}`,
    Link: links.join(', '),
  };
}
