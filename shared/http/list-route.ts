import type { TPage } from '#shared/domain/paging';
import { paginationHeaders, parsePage } from './pagination';
import type { TRequest } from './request';
import type { TRoute } from './router';

/** One page of a list as a use case answers it; `query` holds the validated filters the Link header carries. */
export interface TListed<T> {
  items: T[];
  total: number;
  query?: Record<string, string | undefined>;
}

/** GET `path`: reads the page, runs `list`, answers the items in wire form with the pagination headers. */
export function listRoute<T>(
  path: string,
  list: (req: TRequest, page: TPage) => Promise<TListed<T>>,
  toBody: (item: T, req: TRequest) => unknown,
): TRoute {
  return {
    method: 'GET',
    path,
    handler: async (req) => {
      const page = parsePage(req.query);
      const result = await list(req, page);
      return {
        status: 200,
        body: result.items.map((item) => toBody(item, req)),
        headers: paginationHeaders(page, result.total, req.url, result.query),
      };
    },
  };
}
