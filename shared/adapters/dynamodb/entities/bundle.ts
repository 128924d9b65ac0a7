// Keys and entities of the Bundle aggregate and its satellite items, declared once.
import type { TBundle, TBundleEvent, TDocument } from '#shared/domain/bundles/bundle';
import { defineEntity } from '../entity';
import { DUE_SHARDS, OUTBOX_SHARDS } from '../table';
import { accountPartition } from './account-partition';

export const bundleKeys = {
  /** The bundle with its packets, tags and events: one GetItem answers a retrieve. */
  item: (accountId: string, id: string) => ({ pk: accountPartition(accountId), sk: `BUNDLE#${id}` }),
  /** by-list-order: an account's bundles, newest first when queried backwards. */
  listPartition: (accountId: string) => `${accountPartition(accountId)}#BUNDLES`,
  listOrder: (b: Pick<TBundle, 'accountId' | 'created' | 'id'>) => ({
    lpk: bundleKeys.listPartition(b.accountId),
    lsk: `${b.created}#${b.id}`,
  }),
  /** by-status: one list per status, by created. */
  statusPartition: (accountId: string, status: string) => `${accountPartition(accountId)}#BUNDLES#${status}`,
  /** by-sent and by-completed: their sort keys carry created too (`<date>#<created>#<id>`). */
  sentPartition: (accountId: string) => `${accountPartition(accountId)}#BUNDLES_SENT`,
  completedPartition: (accountId: string) => `${accountPartition(accountId)}#BUNDLES_COMPLETED`,
  /**
   * Lookup items for the tag, template and search filters, one per term (`t:<tag>`,
   * `d:<template id>`, `s:<search token>`), written after the bundle.
   */
  termPartition: (accountId: string) => `${accountPartition(accountId)}#BUNDLE_TERMS`,
  term: (accountId: string, term: string, id: string) => ({
    pk: bundleKeys.termPartition(accountId),
    sk: `${term}#${id}`,
  }),
  /**
   * One item a document: its fields can be many. They never change once sent; a draft's saved
   * fields are a new copy under its `rev`, which the bundle names (save-draft-fields.ts).
   */
  document: (accountId: string, id: string, docKey: string, rev?: string) => ({
    pk: accountPartition(accountId),
    sk: `BUNDLE#${id}#DOC#${docKey}${rev ? `#REV#${rev}` : ''}`,
  }),
  documentPrefix: (id: string) => `BUNDLE#${id}#DOC#`,
  /** Packet id → its bundle, for /packets/{id}/ (packet ids are global, like bundle ids). */
  packet: (packetId: string) => ({ pk: `PACKET#${packetId}`, sk: 'PACKET' }),
  /** custom_key → the bundle holding it, claimed with a conditional put. */
  customKey: (accountId: string, customKey: string) => ({
    pk: accountPartition(accountId),
    sk: `CUSTOMKEY#${customKey}`,
  }),
  /** Older audit events of a bundle, a page an item, keyed by the first event's sequence number. */
  eventPage: (accountId: string, id: string, firstSeq: number) => ({
    pk: accountPartition(accountId),
    sk: `BUNDLE#${id}#EVENTS#${String(firstSeq).padStart(8, '0')}`,
  }),
  eventPagePrefix: (id: string) => `BUNDLE#${id}#EVENTS#`,
  /**
   * by-outbox: set while the bundle has webhook events to publish, in one of OUTBOX_SHARDS
   * partitions (picked from the id), sorted by the oldest waiting event.
   */
  outboxKeys: (b: Pick<TBundle, 'accountId' | 'id' | 'outbox'>) => {
    const first = b.outbox?.[0];
    if (!first) return undefined;
    return {
      outboxPk: `OUTBOX#${outboxShard(b.id)}`,
      outboxSk: `${first.date}#${b.accountId}#${b.id}`,
    };
  },
  outboxPartitions: () => Array.from({ length: OUTBOX_SHARDS }, (_, i) => `OUTBOX#${i}`),
  /**
   * by-due: set while the bundle has work for the scheduler (its expiry, a signer's next automatic
   * reminder; shared/domain/scheduler/schedule.ts), in one of DUE_SHARDS partitions, sorted by
   * when it is due. Derived from the bundle in every write, so it cannot lag the bundle.
   */
  dueKeys: (b: TBundle) => {
    const due = b.dueAt;
    if (!due) return undefined;
    return { duePk: `DUE#${shardOf(b.id, DUE_SHARDS)}`, dueSk: `${due}#${b.accountId}#${b.id}` };
  },
  duePartitions: () => Array.from({ length: DUE_SHARDS }, (_, i) => `DUE#${i}`),
  /** A bundle's create under way, which an erasure may withdraw (bundleCreationEntity). */
  creation: (accountId: string, id: string) => ({
    pk: `${accountPartition(accountId)}#BUNDLE_CREATIONS`,
    sk: id,
  }),
  /** Person → bundles with a packet linked to them, so a linked Person is not deleted. */
  personLinkPartition: (accountId: string) => `${accountPartition(accountId)}#PERSON_BUNDLES`,
  personLink: (accountId: string, personId: string, bundleId: string) => ({
    pk: bundleKeys.personLinkPartition(accountId),
    sk: `${personId}#${bundleId}`,
  }),
};

function outboxShard(id: string): number {
  return shardOf(id, OUTBOX_SHARDS);
}

function shardOf(id: string, shards: number): number {
  let sum = 0;
  for (const ch of id) sum = (sum * 31 + ch.charCodeAt(0)) >>> 0;
  return sum % shards;
}

/** `<date>#<account>#<bundle>` of the by-outbox index back to the bundle it names. */
export function outboxRefOf(sk: string): { accountId: string; id: string } {
  const [, accountId, id] = sk.split('#');
  return { accountId: accountId!, id: id! };
}

/** `<due time>#<account>#<bundle>` of the by-due index back to the bundle it names. */
export const dueRefOf = outboxRefOf;

/**
 * The bundle with its packets, tags and latest events, and every index key it may carry. They
 * live on the item itself, so a status change or a send moves the bundle between lists in the
 * same conditional write; none can lag behind.
 */
export const bundleEntity = defineEntity<TBundle>({
  name: 'bundle',
  // 2: `retention` (the retention policy, legal hold and what was deleted); a version 1 item has none and reads as it is.
  version: 2,
  key: (b) => bundleKeys.item(b.accountId, b.id),
  indexes: {
    byListOrder: bundleKeys.listOrder,
    byStatus: (b) => ({
      statusPk: bundleKeys.statusPartition(b.accountId, b.status),
      statusSk: `${b.created}#${b.id}`,
    }),
    bySent: (b) =>
      b.sent
        ? { sentPk: bundleKeys.sentPartition(b.accountId), sentSk: `${b.sent}#${b.created}#${b.id}` }
        : undefined,
    byCompleted: (b) =>
      b.completedAt
        ? {
            completedPk: bundleKeys.completedPartition(b.accountId),
            completedSk: `${b.completedAt}#${b.created}#${b.id}`,
          }
        : undefined,
    byOutbox: bundleKeys.outboxKeys,
    byDue: bundleKeys.dueKeys,
  },
});

/** A document of a bundle with its fields; it carries its account and bundle, its keys' parts. */
export type TBundleDocumentItem = TDocument & { accountId: string; bundleId: string };

export const bundleDocumentEntity = defineEntity<TBundleDocumentItem>({
  name: 'bundle-document',
  version: 1,
  key: (d) => bundleKeys.document(d.accountId, d.bundleId, d.key, d.rev),
});

/** A page of older audit events, keyed by its first event's sequence number. */
/** A document as the bundle store answers it: without the parts of its keys. */
export function documentOf(item: Record<string, unknown>): TDocument {
  const { accountId: _a, bundleId: _b, ...document } = bundleDocumentEntity.fromItem(item);
  return document;
}

export const bundleEventPageEntity = defineEntity<{
  accountId: string;
  bundleId: string;
  firstSeq: number;
  events: (TBundleEvent & { seq: number })[];
}>({
  name: 'bundle-events',
  version: 1,
  key: (p) => bundleKeys.eventPage(p.accountId, p.bundleId, p.firstSeq),
});

/** A lookup term of a bundle; `created` orders what a term query finds. */
export const bundleTermEntity = defineEntity<{
  accountId: string;
  term: string;
  id: string;
  created: string;
}>({
  name: 'bundle-term',
  version: 1,
  key: (t) => bundleKeys.term(t.accountId, t.term, t.id),
});

export const packetRefEntity = defineEntity<{ packetId: string; accountId: string; bundleId: string }>({
  name: 'packet-ref',
  version: 1,
  key: (r) => bundleKeys.packet(r.packetId),
});

export const personLinkEntity = defineEntity<{ accountId: string; personId: string; bundleId: string }>({
  name: 'person-link',
  version: 1,
  key: (l) => bundleKeys.personLink(l.accountId, l.personId, l.bundleId),
});

/**
 * A bundle's create and an erasure meeting on it (bundle-store.ts, confirmPersons): the create
 * marks it `confirmed` once each Person it names was found still there, unless it is `withdrawn`;
 * an erasure that finds a person link without its bundle marks it `withdrawn`, unless it is
 * `confirmed`. Neither mark is ever taken back, so every run of a create (a retry under its
 * Idempotency-Key makes the same bundle) meets the erasure's one decision. `ttl` (epoch seconds)
 * lets DynamoDB remove it a day on, long after any create has ended.
 */
export const bundleCreationEntity = defineEntity<{
  accountId: string;
  bundleId: string;
  ttl: number;
  confirmed?: boolean;
  withdrawn?: boolean;
}>({
  name: 'bundle-creation',
  // 2: an erasure leaves the item `withdrawn` instead of deleting it, and a create writes it only
  // when it confirms (no longer unconfirmed with its satellites). A version 1 item reads as it is.
  version: 2,
  key: (c) => bundleKeys.creation(c.accountId, c.bundleId),
});

/** `claimedAt` (epoch ms) lets a claim whose bundle was never written be taken over later. */
export const customKeyEntity = defineEntity<{
  accountId: string;
  customKey: string;
  bundleId: string;
  claimedAt: number;
}>({
  name: 'custom-key',
  version: 1,
  key: (c) => bundleKeys.customKey(c.accountId, c.customKey),
});

/** A day on from `at` (epoch ms), in epoch seconds: when a bundle-creation item goes (its TTL). */
export const creationExpiry = (at: number) => Math.floor(at / 1000) + 24 * 3600;

/**
 * Every item a bundle's creation writes before its creation item and the bundle itself:
 * documents, packet refs, person links.
 */
export function bundleSatelliteItems(bundle: TBundle, documents: TDocument[]): Record<string, unknown>[] {
  const { accountId, id: bundleId } = bundle;
  return [
    ...documents.map((d) => bundleDocumentEntity.toItem({ ...d, accountId, bundleId })),
    ...bundle.packets.map((p) => packetRefEntity.toItem({ packetId: p.id, accountId, bundleId })),
    ...[...new Set(bundle.packets.map((p) => p.personId))].map((personId) =>
      personLinkEntity.toItem({ accountId, personId, bundleId }),
    ),
  ];
}

/** The parts of an index sort key: `<created>#<id>`, or `<date>#<created>#<id>` (sent, completed). */
export function indexSortKeyParts(sk: string): { id: string; created: string; date?: string } {
  const parts = sk.split('#');
  const id = parts.pop()!;
  const created = parts.pop()!;
  return parts.length > 0 ? { id, created, date: parts[0] } : { id, created };
}
