import {
  type TBundleListParam,
  type TBundleListQuery,
  ZBundleListQuerySchema,
} from '#shared/schemas/bundle-list-query';
import type { TPage, TPageOf } from '../paging';
import { parseInput } from '../parse-input';
import type { TBundleFilter, TBundleStore } from '../ports/bundles';
import type { TBundle } from './bundle';

type TParams = Partial<Record<TBundleListParam, string>>;

const range = (after?: string, before?: string) =>
  after !== undefined || before !== undefined
    ? { ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) }
    : undefined;

const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);

/** The query as the store reads it: `status` and `status__in` both given must both hold. */
function filterOf(q: TBundleListQuery): TBundleFilter {
  const anyStatus = nonEmpty(q.status__in);
  const statuses = q.status ? (anyStatus && !anyStatus.includes(q.status) ? [] : [q.status]) : anyStatus;
  const ordering = q.ordering ?? '-created';
  const by = ordering.replace(/^-/, '');
  return {
    ...(q.search ? { search: q.search } : {}),
    ...(statuses ? { statuses } : {}),
    ...(q.tag ? { tags: [q.tag] } : {}),
    ...(nonEmpty(q.tag__in) ? { anyTags: q.tag__in } : {}),
    ...(q.template ? { template: q.template } : {}),
    created: range(q.created_after, q.created_before),
    sent: range(q.sent_after, q.sent_before),
    completed: range(q.completed_after, q.completed_before),
    ordering: {
      by: by === 'completed_at' ? 'completed' : (by as 'created' | 'sent'),
      descending: ordering.startsWith('-'),
    },
  };
}

/** The validated query again, for the pagination links. */
function paramsOf(q: TBundleListQuery): TParams {
  const out: TParams = {};
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    const text = Array.isArray(v) ? v.join(',') : String(v);
    if (text !== '') out[k as TBundleListParam] = text;
  }
  return out;
}

/**
 * Bundles matching every filter given, newest created first unless `ordering` says otherwise.
 * Returns the validated parameters so the pagination links carry them.
 */
export async function listBundles(
  deps: { bundles: TBundleStore },
  accountId: string,
  query: TParams,
  page: TPage,
): Promise<TPageOf<TBundle> & { params: TParams }> {
  const q = parseInput(ZBundleListQuerySchema, query);
  return { ...(await deps.bundles.list(accountId, filterOf(q), page)), params: paramsOf(q) };
}
