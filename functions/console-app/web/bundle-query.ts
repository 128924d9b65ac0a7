// What the bundle list asks the API for: List Bundles' own parameters (shared/schemas/
// bundle-list-query.ts), so what the console can filter and sort by is what integrators can.

/** The bundle statuses, as the API names them. */
export const BUNDLE_STATUSES = ['dr', 'pe', 'se', 'st', 'co', 'ca', 'ex', 'fa'] as const;

/** The orders the API allows: newest first by default. */
export const ORDERINGS = ['-created', 'created', '-sent', '-completed_at'] as const;

export type TOrdering = (typeof ORDERINGS)[number];

export interface TBundleQuery {
  page: number;
  perPage: number;
  search: string;
  /** A status, or '' for all. */
  status: string;
  ordering: TOrdering;
}

export const FIRST_QUERY: TBundleQuery = {
  page: 1,
  perPage: 25,
  search: '',
  status: '',
  ordering: '-created',
};

/** The query string of List Bundles; empty filters are left out. */
export function bundleSearch(q: TBundleQuery): string {
  const params = new URLSearchParams({
    page: String(q.page),
    per_page: String(q.perPage),
    ordering: q.ordering,
  });
  const search = q.search.trim();
  if (search) params.set('search', search.slice(0, 200));
  if (q.status) params.set('status', q.status);
  return params.toString();
}
