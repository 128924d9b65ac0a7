import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TPageOf } from '#shared/domain/paging';
import { sliceOf, type TPage } from '#shared/domain/paging';
import type { TPerson, TPersonFilter } from '#shared/domain/persons/person';
import { normalizeEmail, normalizePhone } from '#shared/domain/ports/contact-keys';
import type { TPersonStore } from '#shared/domain/ports/persons';
import { batchGet, batchWrite, getItem, queryAll, queryListOrder } from './batch';
import {
  personEntity,
  personKeys,
  personMatches,
  personTermEntity,
  personTerms,
  searchWords,
} from './entities/person';
import { deleteVersioned, putVersioned } from './versioned';

interface TRef {
  id: string;
  created: string;
}

const byNewest = (a: TRef, b: TRef) =>
  a.created === b.created ? b.id.localeCompare(a.id) : b.created.localeCompare(a.created);

export function createPersonStore(db: DynamoDBDocumentClient, table: string): TPersonStore {
  const termItem = (p: TPerson, term: string) =>
    personTermEntity.toItem({ accountId: p.accountId, term, id: p.id, created: p.created });

  /** Ids of the persons having a term that starts with `prefix` (exact terms end with '#'). */
  async function refsByTerm(accountId: string, prefix: string): Promise<TRef[]> {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': personKeys.termPartition(accountId), ':prefix': prefix },
      ProjectionExpression: 'id, created',
    });
    return items.map((i) => ({ id: i.id as string, created: i.created as string }));
  }

  async function allRefs(accountId: string): Promise<TRef[]> {
    const items = await queryListOrder(db, table, personKeys.listPartition(accountId));
    return items.map((i) => {
      const lsk = i.lsk as string;
      const cut = lsk.lastIndexOf('#');
      return { created: lsk.slice(0, cut), id: lsk.slice(cut + 1) };
    });
  }

  async function candidates(accountId: string, f: TPersonFilter): Promise<TRef[]> {
    const lookups: Promise<TRef[]>[] = [];
    if (f.email) lookups.push(refsByTerm(accountId, `e:${normalizeEmail(f.email)}#`));
    if (f.phone) lookups.push(refsByTerm(accountId, `p:${normalizePhone(f.phone)}#`));
    for (const w of f.search ? searchWords(f.search) : []) lookups.push(refsByTerm(accountId, `s:${w}`));
    if (lookups.length === 0) return allRefs(accountId);
    const sets = await Promise.all(lookups);
    // A person matches when every lookup found it; one person can match a prefix many times.
    let result = new Map(sets[0]!.map((r) => [r.id, r]));
    for (const set of sets.slice(1)) {
      const ids = new Set(set.map((r) => r.id));
      result = new Map([...result].filter(([id]) => ids.has(id)));
    }
    return [...result.values()].sort(byNewest);
  }

  return {
    async get(accountId, id) {
      return getItem(db, table, personKeys.item(accountId, id), personEntity.fromItem);
    },

    async save(person, previous) {
      await putVersioned(db, table, personEntity.toItem(person), previous);
      // Lookup items follow the person. Every current term is put again (idempotent), so a
      // write interrupted here is repaired by the next one; stale terms are filtered on read.
      const terms = personTerms(person);
      const gone = previous ? personTerms(previous).filter((t) => !terms.includes(t)) : [];
      await batchWrite(db, table, [
        ...terms.map((t) => ({ put: termItem(person, t) })),
        ...gone.map((t) => ({ delete: personKeys.term(person.accountId, t, person.id) })),
      ]);
    },

    async delete(person) {
      await deleteVersioned(db, table, personKeys.item(person.accountId, person.id), person.version);
      await batchWrite(
        db,
        table,
        personTerms(person).map((t) => ({ delete: personKeys.term(person.accountId, t, person.id) })),
      );
    },

    async list(accountId: string, filter: TPersonFilter, page: TPage): Promise<TPageOf<TPerson>> {
      const refs = await candidates(accountId, filter);
      const wanted = sliceOf(refs, page);
      const items = await batchGet(
        db,
        table,
        wanted.map((r) => personKeys.item(accountId, r.id)),
        (i) => String(i.sk),
      );
      const persons = items.map(personEntity.fromItem).filter((p) => personMatches(p, filter));
      return { items: persons, total: refs.length };
    },
  };
}
