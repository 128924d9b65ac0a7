import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TDayRange } from '#shared/domain/day-range';
import { sliceOf } from '#shared/domain/paging';
import { MAX_DELIVERIES_SHOWN, type TWebhookEventStore } from '#shared/domain/ports/webhooks';
import type { TDeliverySummary } from '#shared/domain/webhooks/webhook-event';
import { batchGet, getItem, queryAll, writeIf } from './batch';
import { webhookDeliveryEntity, webhookEventEntity, webhookEventKeys } from './entities/webhook-event';
import { INDEXES } from './table';
import { putNew } from './versioned';

interface TLogQuery {
  partition: string;
  dates?: TDayRange;
  /** Attribute → accepted values (any of them). */
  anyOf: Record<string, (string | number | boolean)[] | undefined>;
}

/**
 * The webhook log. Lists read the `by-log` index, which projects every attribute a filter names,
 * so counting the matches for the pagination header never reads the events themselves; only
 * the page is fetched in full.
 */
export function createWebhookEventStore(db: DynamoDBDocumentClient, table: string): TWebhookEventStore {
  async function listKeys(q: TLogQuery): Promise<Record<string, unknown>[]> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':p': q.partition };
    let keyCondition = 'logPk = :p';
    // Whole UTC days, both ends inclusive; `~` sorts after every `<time>#<id>` of the last day.
    const from = q.dates?.after ? `${q.dates.after}T00:00:00.000Z` : undefined;
    const to = q.dates?.before ? `${q.dates.before}T23:59:59.999Z~` : undefined;
    if (from && to) {
      keyCondition += ' AND logSk BETWEEN :from AND :to';
      Object.assign(values, { ':from': from, ':to': to });
    } else if (from) {
      keyCondition += ' AND logSk >= :from';
      values[':from'] = from;
    } else if (to) {
      keyCondition += ' AND logSk <= :to';
      values[':to'] = to;
    }
    const filters: string[] = [];
    for (const [attribute, accepted] of Object.entries(q.anyOf)) {
      if (!accepted) continue;
      if (accepted.length === 0) return [];
      const n = `#${attribute}`;
      names[n] = attribute;
      const placeholders = accepted.map((v, i) => {
        values[`:${attribute}${i}`] = v;
        return `:${attribute}${i}`;
      });
      // `=` for one value: IN is documented for strings, numbers and binaries, not booleans.
      filters.push(
        placeholders.length === 1 ? `${n} = ${placeholders[0]}` : `${n} IN (${placeholders.join(', ')})`,
      );
    }
    return queryAll(db, {
      TableName: table,
      IndexName: INDEXES.byLog.name,
      KeyConditionExpression: keyCondition,
      ...(filters.length > 0
        ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }
        : {}),
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    });
  }

  const fetchPage = (keys: Record<string, unknown>[]) =>
    batchGet(
      db,
      table,
      keys.map((k) => ({ pk: k.pk as string, sk: k.sk as string })),
      (i) => String(i.sk),
    );

  async function get(accountId: string, id: string) {
    return getItem(db, table, webhookEventKeys.event(accountId, id), webhookEventEntity.fromItem, true);
  }

  return {
    get,

    async createOnce(event) {
      const created = await writeIf(putNew(db, table, webhookEventEntity.toItem(event)));
      if (created) return { created: true, event };
      const stored = await get(event.accountId, event.id);
      if (!stored) throw new Error(`Webhook event ${event.id} exists and cannot be read`);
      return { created: false, event: stored };
    },

    async markQueued(event) {
      await db.send(
        new UpdateCommand({
          TableName: table,
          Key: webhookEventKeys.event(event.accountId, event.id),
          UpdateExpression: 'SET queued = :t',
          ExpressionAttributeValues: { ':t': true },
        }),
      );
    },

    async recordDelivery(delivery) {
      await db.send(new PutCommand({ TableName: table, Item: webhookDeliveryEntity.toItem(delivery) }));
      const summary: TDeliverySummary = {
        id: delivery.id,
        timestamp: delivery.timestamp,
        status: delivery.status,
        message: delivery.message,
      };
      // success only ever turns true: a failed redelivery does not undo an earlier success.
      const out = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: webhookEventKeys.event(delivery.accountId, delivery.eventId),
          UpdateExpression: `SET #status = :status, deliveries = list_append(if_not_exists(deliveries, :none), :d)${
            delivery.success ? ', success = :t' : ''
          }`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': delivery.status,
            ':none': [],
            ':d': [summary],
            ...(delivery.success ? { ':t': true } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const kept = (out.Attributes?.deliveries as unknown[] | undefined)?.length ?? 0;
      if (kept > MAX_DELIVERIES_SHOWN) {
        const drop = Array.from({ length: kept - MAX_DELIVERIES_SHOWN }, (_, i) => `deliveries[${i}]`);
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: webhookEventKeys.event(delivery.accountId, delivery.eventId),
            UpdateExpression: `REMOVE ${drop.join(', ')}`,
          }),
        );
      }
    },

    async getDelivery(accountId, id) {
      return getItem(
        db,
        table,
        webhookEventKeys.delivery(accountId, id),
        webhookDeliveryEntity.fromItem,
        true,
      );
    },

    async listEvents(accountId, filter, page) {
      const keys = await listKeys({
        partition: webhookEventKeys.eventLog(accountId),
        dates: filter.dates,
        anyOf: {
          webhookId: filter.webhookId === undefined ? undefined : [filter.webhookId],
          eventType: filter.types,
          status: filter.statuses,
          success: filter.success === undefined ? undefined : [filter.success],
        },
      });
      const items = await fetchPage(sliceOf(keys, page));
      return { items: items.map(webhookEventEntity.fromItem), total: keys.length };
    },

    async listDeliveries(accountId, filter, page) {
      const keys = await listKeys({
        partition: webhookEventKeys.deliveryLog(accountId),
        dates: filter.dates,
        anyOf: {
          webhookId: filter.webhookId === undefined ? undefined : [filter.webhookId],
          eventId: filter.eventId === undefined ? undefined : [filter.eventId],
          eventType: filter.types,
          status: filter.statuses,
        },
      });
      const items = await fetchPage(sliceOf(keys, page));
      return { items: items.map(webhookDeliveryEntity.fromItem), total: keys.length };
    },
  };
}
