import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { ConcurrentUpdateError, ConflictError } from '#shared/domain/errors';
import { inBundleOrder, type TBundleStore, type TDocumentSeen } from '#shared/domain/ports/bundles';
import { remember } from '../remember';
import { batchGet, batchWrite, getItem, queryAll, writeIf } from './batch';
import { createBundleLister } from './bundle-list';
import { bundleTerms } from './bundle-terms';
import { accountPartition } from './entities/account-partition';
import {
  bundleCreationEntity,
  bundleDocumentEntity,
  bundleEntity,
  bundleEventPageEntity,
  bundleKeys,
  bundleSatelliteItems,
  bundleTermEntity,
  creationExpiry,
  customKeyEntity,
  documentOf,
  dueRefOf,
  outboxRefOf,
  personLinkEntity,
} from './entities/bundle';
import { personKeys } from './entities/person';
import { signingRecordEntity } from './entities/signing';
import { markersSet } from './entity';
import { INDEXES } from './table';
import { putIf, putVersioned, putVersionedTogether, updateIf } from './versioned';

const EVENTS_KEPT_INLINE = 100;
/** Bundles whose documents' files one function instance remembers (documentsSeen): a few hundred kilobytes. */
const BUNDLES_SEEN = 1000;
const EVENTS_AFTER_ARCHIVING = 50;

/** Longer than any create request may run (the Lambda times out at 28 s). */
const ABANDONED_CLAIM_MS = 5 * 60_000;

export function createBundleStore(db: DynamoDBDocumentClient, table: string): TBundleStore {
  const list = createBundleLister(db, table);
  /**
   * The documents of bundles this instance read, by account and bundle: the files a sent bundle's
   * documents name never change, so an opening can start reading its first document beside its
   * own reads (a hint, which the opening checks against the documents it reads).
   */
  const seen = new Map<string, TDocumentSeen[]>();

  /** The lookup items of `terms` of the bundle, put (idempotent). */
  const putTerms = (bundle: TBundle, terms: string[]) =>
    batchWrite(
      db,
      table,
      terms.map((term) => ({
        put: bundleTermEntity.toItem({
          accountId: bundle.accountId,
          term,
          id: bundle.id,
          created: bundle.created,
        }),
      })),
    );

  /** The lookup items of `terms`, deleted. */
  const deleteTerms = (bundle: TBundle, terms: string[]) =>
    batchWrite(
      db,
      table,
      terms.map((t) => ({ delete: bundleKeys.term(bundle.accountId, t, bundle.id) })),
    );

  /**
   * The bundle item keeps its latest events; past EVENTS_KEPT_INLINE the oldest move to an event
   * page item, written first and idempotently (keyed by the first event's sequence number), so
   * a bundle's history can grow without the item reaching DynamoDB's 400 KB limit.
   */
  async function archiveOldEvents(bundle: TBundle): Promise<TBundle> {
    if (bundle.events.length <= EVENTS_KEPT_INLINE) return bundle;
    const archived = bundle.archivedEvents ?? 0;
    const moving = bundle.events.length - EVENTS_AFTER_ARCHIVING;
    const events = bundle.events.slice(0, moving).map((e, i) => ({ ...e, seq: archived + i }));
    const page = { accountId: bundle.accountId, bundleId: bundle.id, firstSeq: archived, events };
    await db.send(new PutCommand({ TableName: table, Item: bundleEventPageEntity.toItem(page) }));
    return { ...bundle, events: bundle.events.slice(moving), archivedEvents: archived + moving };
  }

  /**
   * A Person the bundle names may be erased while it is created (persons/erase-person.ts). Its
   * links are written first; then each Person must still be there (one consistent read: an
   * erasure deletes its Persons before it reads their links, so a Person found here means that
   * erasure will find the link); then the creation item is marked confirmed, unless an erasure
   * that found a link without its bundle marked it withdrawn first: of the two conditional writes
   * one wins, so the bundle is either in the erasure's report or never written. Neither mark is
   * undone: a retry of the create under its Idempotency-Key (the same bundle) finds the first
   * run's confirmed item and confirms it again, or its withdrawn item and fails. A withdrawn item
   * past its TTL (which DynamoDB applies late) no longer counts.
   */
  async function confirmPersons({ accountId, id: bundleId, packets }: TBundle) {
    const erased = () =>
      new ConflictError(
        "A signer's contact details were erased from the account's people while this bundle was being created. Check its signers and create it again.",
      );
    const personIds = [...new Set(packets.map((p) => p.personId))];
    const found = await batchGet(
      db,
      table,
      personIds.map((personId) => personKeys.item(accountId, personId)),
      (i) => String(i.sk),
    );
    if (found.length < personIds.length) throw erased();
    const now = Date.now();
    const markers = markersSet(bundleCreationEntity);
    const confirmed = await updateIf(db, table, bundleKeys.creation(accountId, bundleId), {
      UpdateExpression: `SET confirmed = :t, accountId = :a, bundleId = :b, #ttl = :ttl, ${markers.set} REMOVE withdrawn`,
      ConditionExpression: 'attribute_not_exists(withdrawn) OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': 'ttl', ...markers.names },
      ExpressionAttributeValues: {
        ':t': true,
        ':a': accountId,
        ':b': bundleId,
        ':ttl': creationExpiry(now),
        ':now': Math.floor(now / 1000),
        ...markers.values,
      },
    });
    if (!confirmed) throw erased();
  }

  async function get(accountId: string, id: string) {
    const bundle = await getItem(db, table, bundleKeys.item(accountId, id), bundleEntity.fromItem);
    if (bundle) {
      const files = bundle.documents.map(({ key, blobKey, size }) => ({ key, blobKey, size }));
      remember(seen, `${accountId}/${id}`, files, BUNDLES_SEEN);
    }
    return bundle;
  }

  return {
    get,

    documentsSeen: (accountId, id) => seen.get(`${accountId}/${id}`),

    async create(bundle, documents) {
      // Satellites first, idempotent: until the bundle item exists nothing points at them, and
      // a request that dies half-way leaves only unreachable items behind.
      await batchWrite(
        db,
        table,
        bundleSatelliteItems(bundle, documents).map((item) => ({ put: item })),
      );
      await confirmPersons(bundle);
      await putVersioned(db, table, bundleEntity.toItem(bundle), undefined);
      await putTerms(bundle, bundleTerms(bundle));
    },

    async save(bundle, previous, alongside) {
      // Only the lookup items that change are written (most changes change none: opening,
      // finishing, reminders): a new term before the bundle names it, so every term of the
      // bundle as stored has its item (one the write then loses is stale, and harmless: lookups
      // are checked against the bundle); a term gone after the bundle no longer names it.
      const terms = bundleTerms(bundle);
      const before = new Set(bundleTerms(previous));
      const added = terms.filter((t) => !before.has(t));
      const gone = [...before].filter((t) => !terms.includes(t));
      const [head] = await Promise.all([archiveOldEvents(bundle), putTerms(bundle, added)]);
      // Status, sent and completed are index keys of the bundle item: they move in this write.
      const item = bundleEntity.toItem(head);
      if (!alongside) await putVersioned(db, table, item, previous);
      else
        await putVersionedTogether(db, table, [
          { item: signingRecordEntity.toItem(alongside.record), previous: alongside.previous },
          { item, previous },
        ]);
      await deleteTerms(bundle, gone);
    },

    async events(bundle) {
      const archived = bundle.archivedEvents ?? 0;
      if (archived === 0) return bundle.events;
      const pages = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': accountPartition(bundle.accountId),
          ':p': bundleKeys.eventPagePrefix(bundle.id),
        },
      });
      // A page written by a save that then lost its race repeats events the bundle still holds:
      // only sequence numbers below the bundle's own archived count are taken from pages.
      const older = pages
        .flatMap((p) => bundleEventPageEntity.fromItem(p).events)
        .filter((e) => e.seq < archived)
        .sort((a, b) => a.seq - b.seq);
      const unique = older.filter((e, i) => i === 0 || e.seq !== older[i - 1]!.seq);
      return [...unique.map(({ seq: _seq, ...e }) => e), ...bundle.events];
    },

    async documents(bundle) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: {
          ':pk': accountPartition(bundle.accountId),
          ':p': bundleKeys.documentPrefix(bundle.id),
        },
      });
      const stored = items.map((i) => documentOf(i));
      return bundle.documents ? inBundleOrder(bundle.documents, stored) : stored;
    },

    async putDocuments({ accountId, id: bundleId }, documents) {
      await batchWrite(
        db,
        table,
        documents.map((d) => ({ put: bundleDocumentEntity.toItem({ ...d, accountId, bundleId }) })),
      );
    },

    async deleteDocuments({ accountId, id: bundleId }, documents) {
      await batchWrite(
        db,
        table,
        documents.map((d) => ({ delete: bundleKeys.document(accountId, bundleId, d.key, d.rev) })),
      );
    },

    async linkPerson(accountId, personId, bundleId) {
      await db.send(
        new PutCommand({
          TableName: table,
          Item: personLinkEntity.toItem({ accountId, personId, bundleId }),
        }),
      );
      // The bundle exists: a Person found after the link is written means an erasure reading
      // the links after deleting it will find this bundle (confirmPersons says why).
      if (!(await getItem(db, table, personKeys.item(accountId, personId), () => true, true))) {
        throw new ConflictError(
          "The new signer's contact details were erased from the account's people meanwhile. Try again.",
        );
      }
    },

    async findPacket(packetId) {
      return getItem(db, table, bundleKeys.packet(packetId), (i) => ({
        accountId: i.accountId as string,
        bundleId: i.bundleId as string,
      }));
    },

    list,

    async allOfAccount(accountId) {
      const items = await queryAll(db, {
        TableName: table,
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        // The bundle items alone, not the documents and event pages beside them.
        FilterExpression: '#entity = :entity',
        ExpressionAttributeNames: { '#entity': 'entity' },
        ExpressionAttributeValues: {
          ':pk': accountPartition(accountId),
          ':p': 'BUNDLE#',
          ':entity': bundleEntity.name,
        },
      });
      return items.map(bundleEntity.fromItem);
    },

    async claimCustomKey(accountId, customKey, bundleId) {
      const key = bundleKeys.customKey(accountId, customKey);
      const claim = customKeyEntity.toItem({ accountId, customKey, bundleId, claimedAt: Date.now() });
      try {
        await putIf(db, table, claim, 'attribute_not_exists(pk) OR bundleId = :id', { ':id': bundleId });
        return true;
      } catch (err) {
        if (!(err instanceof ConcurrentUpdateError)) throw err;
      }
      // A claim whose bundle was never written (its request failed after claiming) is free once
      // that request must have ended; a younger one may belong to a create still under way.
      const held = await db.send(new GetCommand({ TableName: table, Key: key }));
      const holder = held.Item?.bundleId as string | undefined;
      const age = Date.now() - Number(held.Item?.claimedAt ?? 0);
      if (age < ABANDONED_CLAIM_MS || (holder && (await get(accountId, holder)))) return false;
      try {
        await putIf(db, table, claim, 'bundleId = :old', { ':old': holder });
        return true;
      } catch (err) {
        if (err instanceof ConcurrentUpdateError) return false;
        throw err;
      }
    },

    async releaseCustomKey(accountId, customKey, bundleId) {
      await writeIf(
        db.send(
          new DeleteCommand({
            TableName: table,
            Key: bundleKeys.customKey(accountId, customKey),
            ConditionExpression: 'bundleId = :id',
            ExpressionAttributeValues: { ':id': bundleId },
          }),
        ),
      );
    },

    // Marked, not deleted: a retry of the create would otherwise find no item and confirm one.
    async withdrawCreation(accountId, bundleId) {
      const ttl = creationExpiry(Date.now());
      return writeIf(
        db.send(
          new PutCommand({
            TableName: table,
            Item: bundleCreationEntity.toItem({ accountId, bundleId, ttl, withdrawn: true }),
            ConditionExpression: 'attribute_not_exists(confirmed)',
          }),
        ),
      );
    },

    async bundlesOfPerson(accountId, personId) {
      const items = await queryAll(db, {
        TableName: table,
        // Consistent: an erasure must see a link written just before it deleted the Person.
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':pk': bundleKeys.personLinkPartition(accountId), ':p': `${personId}#` },
      });
      return items.map((i) => (i.sk as string).slice(personId.length + 1));
    },

    async clearOutbox(bundle) {
      // Not a versioned write: the outbox is the publisher's to empty, and bumping the version
      // would make a concurrent change of the bundle fail for nothing. A bundle changed since it
      // was read may hold newer entries; it is left alone and published again (idempotently).
      await updateIf(db, table, bundleKeys.item(bundle.accountId, bundle.id), {
        UpdateExpression: 'REMOVE outbox, outboxPk, outboxSk',
        ConditionExpression: 'version = :v',
        ExpressionAttributeValues: { ':v': bundle.version },
      });
    },

    async withPendingOutbox(before, limit) {
      const shards = await Promise.all(
        bundleKeys.outboxPartitions().map((partition) =>
          db.send(
            new QueryCommand({
              TableName: table,
              IndexName: INDEXES.byOutbox.name,
              KeyConditionExpression: 'outboxPk = :p AND outboxSk < :before',
              ExpressionAttributeValues: { ':p': partition, ':before': before },
              Limit: limit,
            }),
          ),
        ),
      );
      return shards
        .flatMap((out) => out.Items ?? [])
        .map((i) => i.outboxSk as string)
        .sort()
        .slice(0, limit)
        .map(outboxRefOf);
    },

    async due(upTo, limit) {
      // Sort keys are `<due ISO time>#<account>#<bundle>`: `<upTo>#~` sorts after every key due
      // at upTo itself ('~' follows every character of an id).
      const shards = await Promise.all(
        bundleKeys.duePartitions().map((partition) =>
          db.send(
            new QueryCommand({
              TableName: table,
              IndexName: INDEXES.byDue.name,
              KeyConditionExpression: 'duePk = :p AND dueSk <= :upTo',
              ExpressionAttributeValues: { ':p': partition, ':upTo': `${upTo}#~` },
              Limit: limit,
            }),
          ),
        ),
      );
      return shards
        .flatMap((out) => out.Items ?? [])
        .map((i) => i.dueSk as string)
        .sort()
        .slice(0, limit)
        .map(dueRefOf);
    },
  };
}
