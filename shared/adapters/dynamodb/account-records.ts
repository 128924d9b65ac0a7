// The stored items an account's export carries, read and written as they are stored (keys,
// index keys and entity markers included), so an import into another deployment restores the
// very items, ids kept, and every index finds them there. Which items: the account's partition
// but for what belongs to the old deployment alone (sealed secrets, sessions, logs, usage
// counters), its lookup partitions, and the global items that name its bundles, envelope
// templates and sealed files.
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TAccountRecords, TStoredRecord } from '#shared/domain/ports/exports';
import { batchGet, queryAll, queryListOrder, writeIf } from './batch';
import { accountPartition } from './entities/account-partition';
import { bundleEntity, bundleKeys } from './entities/bundle';
import { envelopeTemplateKeys } from './entities/envelope-template';
import { evidenceKeys, filesRecordEntity } from './entities/evidence';
import { personKeys } from './entities/person';

/**
 * Sort keys of the account's partition left out: the webhook secret (sealed by this
 * deployment's key, never written out in clear), sign-in state, logs and counters.
 */
const LEFT_OUT = [
  /^WEBHOOK_SECRET$/,
  /^SSO$/,
  /^CONSOLEUSAGEKEY$/,
  /^SECURITY#/,
  /^WHEVENT#/,
  /^WHDELIVERY#/,
  /^NOTIFY#/,
  /^USAGE#/,
  /^EXPORT$/,
];

/** A bundle's own item: `BUNDLE#<id>`, not its documents, events or records beneath it. */
const BUNDLE_ITEM = /^BUNDLE#([^#]+)$/;
const FILES_ITEM = /^BUNDLE#[^#]+#FILES$/;

/**
 * The account item without its own documents key: a KMS key of this deployment, which another
 * cannot use. Restored, the account's files go under the new deployment's documents key.
 */
function withoutDeploymentKey(item: Record<string, unknown>): Record<string, unknown> {
  if (item.sk !== 'ACCOUNT' || !('documentsKey' in item)) return item;
  const { documentsKey: _key, ...rest } = item;
  return rest;
}

const keyOf = (i: Record<string, unknown>) => `${i.pk}\n${i.sk}`;

export function createAccountRecords(db: DynamoDBDocumentClient, table: string): TAccountRecords {
  const partition = (pk: string) =>
    queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });

  return {
    async read(accountId) {
      const own = (await partition(accountPartition(accountId)))
        .filter((i) => !LEFT_OUT.some((re) => re.test(String(i.sk))))
        .map(withoutDeploymentKey);
      const lookups = (
        await Promise.all(
          [
            personKeys.termPartition(accountId),
            bundleKeys.termPartition(accountId),
            bundleKeys.personLinkPartition(accountId),
          ].map(partition),
        )
      ).flat();
      const bundleIds: string[] = [];
      const globals: { pk: string; sk: string }[] = [];
      for (const item of own) {
        const sk = String(item.sk);
        const bundle = BUNDLE_ITEM.exec(sk);
        if (bundle) {
          bundleIds.push(bundle[1]!);
          for (const p of bundleEntity.fromItem(item).packets) globals.push(bundleKeys.packet(p.id));
        } else if (FILES_ITEM.test(sk)) {
          const files = filesRecordEntity.fromItem(item);
          for (const f of [...files.finals, ...files.certificates]) {
            globals.push(evidenceKeys.hash(f.sha256, accountId));
          }
        }
      }
      // Envelope templates are global items, found through their list keys: enabled and disabled.
      for (const lpk of [
        envelopeTemplateKeys.listPartition(accountId),
        envelopeTemplateKeys.disabledPartition(accountId),
      ]) {
        for (const ref of await queryListOrder(db, table, lpk))
          globals.push({ pk: String(ref.pk), sk: String(ref.sk) });
      }
      const unique = [...new Map(globals.map((k) => [keyOf(k), k])).values()];
      const found = await batchGet(db, table, unique, keyOf);
      const records = [...own, ...lookups, ...found] as TStoredRecord[];
      return { records, bundleIds };
    },

    async stored(keys) {
      const found = await batchGet(
        db,
        table,
        keys.map((r) => ({ pk: r.pk, sk: r.sk })),
        keyOf,
      );
      const byKey = new Map(found.map((s) => [keyOf(s), s as TStoredRecord]));
      return keys.map((k) => byKey.get(keyOf(k)));
    },

    putIfAbsent: (record) =>
      writeIf(
        db.send(
          new PutCommand({ TableName: table, Item: record, ConditionExpression: 'attribute_not_exists(pk)' }),
        ),
      ),
  };
}
