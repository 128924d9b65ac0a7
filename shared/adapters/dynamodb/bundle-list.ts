// List Bundles from keys and indexes only. Each filter yields the ids it matches from one index
// or from lookup items (keys only, ~100 bytes a match); the result is their intersection, in
// the requested order; only the page asked for is read in full, and each bundle on it is
// checked against the filter before it is returned, so a stale lookup item never leaks through.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TBundle } from '#shared/domain/bundles/bundle';
import type { TDayRange } from '#shared/domain/day-range';
import type { TPageOf } from '#shared/domain/paging';
import { sliceOf, type TPage } from '#shared/domain/paging';
import type { TBundleFilter } from '#shared/domain/ports/bundles';
import { batchGet, queryAll } from './batch';
import { bundleMatchesSearch, bundleSearchWords, searchTerm, tagTerm, templateTerm } from './bundle-terms';
import { bundleEntity, bundleKeys, indexSortKeyParts } from './entities/bundle';
import { INDEXES } from './table';

interface TRef {
  id: string;
  created: string;
  sent?: string;
  completed?: string;
}

type TRefs = Map<string, TRef>;

/** Sort-key bounds of whole UTC days: every ISO timestamp of `before` sorts below `<before>T~`. */
interface TBounds {
  from?: string;
  to?: string;
}

function boundsOf(range: TDayRange | undefined): TBounds | undefined {
  if (!range || (range.after === undefined && range.before === undefined)) return undefined;
  return {
    ...(range.after !== undefined ? { from: range.after } : {}),
    ...(range.before !== undefined ? { to: `${range.before}T~` } : {}),
  };
}

const isEmpty = (b: TBounds | undefined) => b?.from !== undefined && b.to !== undefined && b.from > b.to;

const within = (value: string | undefined, b: TBounds | undefined) =>
  !b ||
  (value !== undefined && (b.from === undefined || value >= b.from) && (b.to === undefined || value <= b.to));

/** The filter checked against the bundle itself. */
export function bundleMatches(b: TBundle, f: TBundleFilter): boolean {
  if (f.statuses && !f.statuses.includes(b.status)) return false;
  if (f.tags && !f.tags.every((t) => b.tags.includes(t))) return false;
  if (f.anyTags && !f.anyTags.some((t) => b.tags.includes(t))) return false;
  if (f.template && !b.documents.some((d) => d.templateId === f.template)) return false;
  if (!within(b.created, boundsOf(f.created))) return false;
  if (!within(b.sent, boundsOf(f.sent))) return false;
  if (!within(b.completedAt, boundsOf(f.completed))) return false;
  return !f.search || bundleMatchesSearch(b, f.search);
}

const mergeRef = (a: TRef | undefined, b: TRef): TRef => (a ? { ...b, ...stripUndefined(a) } : b);
const stripUndefined = (r: TRef): TRef =>
  Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as TRef;

function union(sets: TRefs[]): TRefs {
  const out: TRefs = new Map();
  for (const set of sets) for (const [id, r] of set) out.set(id, mergeRef(out.get(id), r));
  return out;
}

/** Ids in every set, smallest set first; what each set knows of a bundle is kept. */
function intersect(sets: TRefs[]): TRefs {
  const [first, ...rest] = [...sets].sort((a, b) => a.size - b.size);
  const out: TRefs = new Map();
  for (const [id, r] of first!) {
    let ref: TRef | undefined = r;
    for (const set of rest) {
      const other = set.get(id);
      if (!other) {
        ref = undefined;
        break;
      }
      ref = mergeRef(ref, other);
    }
    if (ref) out.set(id, ref);
  }
  return out;
}

type TOrderedIndex =
  | typeof INDEXES.byListOrder
  | typeof INDEXES.byStatus
  | typeof INDEXES.bySent
  | typeof INDEXES.byCompleted;

export function createBundleLister(db: DynamoDBDocumentClient, table: string) {
  /** One partition of an ordered index, within the bounds of its sort key when given. */
  async function fromIndex(
    index: TOrderedIndex,
    partition: string,
    bounds: TBounds | undefined,
    date?: 'sent' | 'completed',
  ): Promise<TRefs> {
    if (isEmpty(bounds)) return new Map();
    const pk = index.partitionKey;
    const sk = index.sortKey;
    let range = '';
    const values: Record<string, string> = { ':pk': partition };
    if (bounds?.from !== undefined && bounds.to !== undefined) {
      range = ` AND ${sk} BETWEEN :from AND :to`;
      values[':from'] = bounds.from;
      values[':to'] = bounds.to;
    } else if (bounds?.from !== undefined) {
      range = ` AND ${sk} >= :from`;
      values[':from'] = bounds.from;
    } else if (bounds?.to !== undefined) {
      range = ` AND ${sk} <= :to`;
      values[':to'] = bounds.to;
    }
    const items = await queryAll(db, {
      TableName: table,
      IndexName: index.name,
      KeyConditionExpression: `${pk} = :pk${range}`,
      ExpressionAttributeValues: values,
    });
    const out: TRefs = new Map();
    for (const item of items) {
      const { id, created, date: at } = indexSortKeyParts(item[sk] as string);
      out.set(id, date && at !== undefined ? { id, created, [date]: at } : { id, created });
    }
    return out;
  }

  /** Bundles having `term` exactly, or (`prefix`) a term that starts with it. */
  async function fromTerms(accountId: string, term: string, prefix = false): Promise<TRefs> {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: {
        ':pk': bundleKeys.termPartition(accountId),
        ':p': prefix ? term : `${term}#`,
      },
      ProjectionExpression: 'sk, id, created',
    });
    const out: TRefs = new Map();
    for (const item of items) {
      const id = item.id as string;
      // `t:a#` also finds the terms of tag "a#b"; only the exact key is the tag "a".
      if (!prefix && item.sk !== bundleKeys.term(accountId, term, id).sk) continue;
      out.set(id, { id, created: item.created as string });
    }
    return out;
  }

  /** The matching bundles' refs in list order; the first filter given drives, the rest intersect. */
  async function candidates(accountId: string, f: TBundleFilter): Promise<TRef[]> {
    const created = boundsOf(f.created);
    const sent = boundsOf(f.sent);
    const completed = boundsOf(f.completed);
    if (f.statuses?.length === 0 || isEmpty(created) || isEmpty(sent) || isEmpty(completed)) return [];
    let createdApplied = false;
    const sources: Promise<TRefs>[] = [];
    if (f.statuses) {
      // One list per status, each already cut to the created range by its sort key.
      const lists = f.statuses.map((s) =>
        fromIndex(INDEXES.byStatus, bundleKeys.statusPartition(accountId, s), created),
      );
      sources.push(Promise.all(lists).then(union));
      createdApplied = true;
    }
    if (sent) sources.push(fromIndex(INDEXES.bySent, bundleKeys.sentPartition(accountId), sent, 'sent'));
    if (completed) {
      sources.push(
        fromIndex(INDEXES.byCompleted, bundleKeys.completedPartition(accountId), completed, 'completed'),
      );
    }
    for (const tag of f.tags ?? []) sources.push(fromTerms(accountId, tagTerm(tag)));
    if (f.anyTags) {
      sources.push(Promise.all(f.anyTags.map((t) => fromTerms(accountId, tagTerm(t)))).then(union));
    }
    if (f.template) sources.push(fromTerms(accountId, templateTerm(f.template)));
    for (const forms of f.search ? bundleSearchWords(f.search) : []) {
      sources.push(Promise.all(forms.map((w) => fromTerms(accountId, searchTerm(w), true))).then(union));
    }
    if (sources.length === 0) {
      sources.push(fromIndex(INDEXES.byListOrder, bundleKeys.listPartition(accountId), created));
      createdApplied = true;
    }
    let refs = [...intersect(await Promise.all(sources)).values()];
    // Every source knows each bundle's created time, so a created range is a cut, not a query.
    if (!createdApplied) refs = refs.filter((r) => within(r.created, created));

    const ordering = f.ordering ?? { by: 'created', descending: true };
    const by = ordering.by;
    if (by !== 'created' && refs.length > 0 && !(by === 'sent' ? sent : completed)) {
      // Without a range of that date, learn it from its sparse index (only bundles that have it).
      const dated =
        by === 'sent'
          ? await fromIndex(INDEXES.bySent, bundleKeys.sentPartition(accountId), undefined, 'sent')
          : await fromIndex(
              INDEXES.byCompleted,
              bundleKeys.completedPartition(accountId),
              undefined,
              'completed',
            );
      refs = refs.map((r) => mergeRef(r, dated.get(r.id) ?? r));
    }
    return refs.sort(comparator(ordering));
  }

  return async function list(accountId: string, f: TBundleFilter, page: TPage): Promise<TPageOf<TBundle>> {
    const refs = await candidates(accountId, f);
    const wanted = sliceOf(refs, page);
    const items = await batchGet(
      db,
      table,
      wanted.map((r) => bundleKeys.item(accountId, r.id)),
      (i) => String(i.sk),
    );
    return { items: items.map(bundleEntity.fromItem).filter((b) => bundleMatches(b, f)), total: refs.length };
  };
}

/** By the date asked for, then created, then id; bundles without the date last, newest created first. */
function comparator(o: NonNullable<TBundleFilter['ordering']>) {
  const sign = o.descending ? -1 : 1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const rest = (r: TRef) => `${r.created}#${r.id}`;
  return (a: TRef, b: TRef) => {
    if (o.by === 'created') return sign * cmp(rest(a), rest(b));
    const da = o.by === 'sent' ? a.sent : a.completed;
    const db = o.by === 'sent' ? b.sent : b.completed;
    if (da === undefined || db === undefined) {
      if (da !== db) return da === undefined ? 1 : -1;
      return -cmp(rest(a), rest(b));
    }
    return sign * cmp(`${da}#${rest(a)}`, `${db}#${rest(b)}`);
  };
}
