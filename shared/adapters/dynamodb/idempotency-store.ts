import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  TIdempotencyClaim,
  TIdempotencyRecord,
  TIdempotencyStore,
} from '#shared/domain/ports/idempotency';
import { getItem, writeIf } from './batch';
import { idempotencyEntity, idempotencyKeys, type TIdempotencyItem } from './entities/idempotency';

const itemOf = (c: TIdempotencyClaim, record: TIdempotencyRecord): TIdempotencyItem => ({
  ...record,
  accountId: c.accountId,
  key: c.key,
  owner: c.owner,
  lockedUntil: c.lockedUntil.getTime(),
  ttl: Math.ceil(c.expiresAt.getTime() / 1000),
});

const NAMES = { '#ttl': 'ttl', '#state': 'state', '#lockedUntil': 'lockedUntil' };

/** Does the item still hold its key at `now`: not ended, and not a claim its request abandoned? */
const holds = (item: TIdempotencyItem, now: Date) =>
  item.ttl * 1000 > now.getTime() && (item.state === 'completed' || item.lockedUntil > now.getTime());

/**
 * The claim is one conditional Put: it succeeds only where no record holds the key (none, an
 * ended one, or a claim abandoned past its lock), so of requests arriving at once exactly one
 * wins. A lost claim reads the holder with a consistent read; if that holder went away between
 * the two (a failed request released it), the claim is tried again.
 */
export function createIdempotencyStore(db: DynamoDBDocumentClient, table: string): TIdempotencyStore {
  const put = (item: TIdempotencyItem, condition?: { expression: string; values: Record<string, unknown> }) =>
    db.send(
      new PutCommand({
        TableName: table,
        Item: idempotencyEntity.toItem(item),
        ...(condition
          ? {
              ConditionExpression: condition.expression,
              // Only the names the condition uses: DynamoDB refuses unused ones.
              ExpressionAttributeNames: Object.fromEntries(
                Object.entries(NAMES).filter(([name]) => condition.expression.includes(name)),
              ),
              ExpressionAttributeValues: condition.values,
            }
          : {}),
      }),
    );

  return {
    async claim(c, now) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed = await writeIf(
          put(itemOf(c, { state: 'in_progress', fingerprint: c.fingerprint }), {
            expression:
              'attribute_not_exists(pk) OR #ttl <= :nowSeconds OR (#state = :inProgress AND #lockedUntil <= :nowMs)',
            values: {
              ':nowSeconds': Math.floor(now.getTime() / 1000),
              ':nowMs': now.getTime(),
              ':inProgress': 'in_progress',
            },
          }),
        );
        if (claimed) return undefined;
        const held = await getItem(
          db,
          table,
          idempotencyKeys.item(c.accountId, c.key),
          (i) => idempotencyEntity.fromItem(i),
          true,
        );
        if (held && holds(held, now)) {
          return held.state === 'completed'
            ? { state: 'completed', fingerprint: held.fingerprint, answer: held.answer }
            : { state: 'in_progress', fingerprint: held.fingerprint };
        }
      }
      // Three claims lost to records that each went away at once: the key is being fought over.
      return { state: 'in_progress', fingerprint: c.fingerprint };
    },

    async complete(c, answer) {
      await writeIf(
        put(itemOf(c, { state: 'completed', fingerprint: c.fingerprint, answer }), {
          expression: 'attribute_not_exists(pk) OR #state = :inProgress',
          values: { ':inProgress': 'in_progress' },
        }),
      );
    },

    async release(c) {
      await writeIf(
        db.send(
          new DeleteCommand({
            TableName: table,
            Key: idempotencyKeys.item(c.accountId, c.key),
            ConditionExpression: '#state = :inProgress AND #owner = :owner',
            ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
            ExpressionAttributeValues: { ':inProgress': 'in_progress', ':owner': c.owner },
          }),
        ),
      );
    },
  };
}
