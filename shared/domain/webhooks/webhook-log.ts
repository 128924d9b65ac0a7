// The read side of the webhook log: WebhookEvents and delivery attempts, newest first.

import type { TSubscribableEventType } from '#shared/schemas/vocabulary';
import { ZWebhookDeliveryListQuerySchema, ZWebhookEventListQuerySchema } from '#shared/schemas/webhook-log';
import { NotFoundError } from '../errors';
import type { TPage, TPageOf } from '../paging';
import { parseInput } from '../parse-input';
import type { TWebhookEventStore } from '../ports/webhooks';
import type { TWebhookDelivery, TWebhookEvent } from './webhook-event';

type TQuery = Record<string, string | undefined>;

/** event_type and event_type__in together: an event must match both. */
function typesOf(one: TSubscribableEventType | undefined, any: TSubscribableEventType[] | undefined) {
  if (one === undefined) return any;
  return any === undefined || any.includes(one) ? [one] : [];
}

function statusesOf(one: number | undefined, any: number[] | undefined) {
  if (one === undefined) return any;
  return any === undefined || any.includes(one) ? [one] : [];
}

/** The validated query as the Link header repeats it. */
function echo(query: TQuery, names: string[]): TQuery {
  return Object.fromEntries(names.map((n) => [n, query[n]?.trim() || undefined]));
}

export async function listWebhookEvents(
  deps: { webhookEvents: TWebhookEventStore },
  accountId: string,
  query: TQuery,
  page: TPage,
): Promise<TPageOf<TWebhookEvent> & { query: TQuery }> {
  const q = parseInput(ZWebhookEventListQuerySchema, query);
  const result = await deps.webhookEvents.listEvents(
    accountId,
    {
      webhookId: q.webhook,
      types: typesOf(q.event_type, q.event_type__in),
      statuses: statusesOf(q.status, q.status__in),
      success: q.success,
      dates: { after: q.date_after, before: q.date_before },
    },
    page,
  );
  return { ...result, query: echo(query, Object.keys(ZWebhookEventListQuerySchema.shape)) };
}

export async function listWebhookDeliveries(
  deps: { webhookEvents: TWebhookEventStore },
  accountId: string,
  query: TQuery,
  page: TPage,
): Promise<TPageOf<TWebhookDelivery> & { query: TQuery }> {
  const q = parseInput(ZWebhookDeliveryListQuerySchema, query);
  const result = await deps.webhookEvents.listDeliveries(
    accountId,
    {
      webhookId: q.webhook,
      eventId: q.webhook_event,
      types: typesOf(q.event_type, q.event_type__in),
      statuses: statusesOf(q.status, q.status__in),
      dates: { after: q.date_after, before: q.date_before },
    },
    page,
  );
  return { ...result, query: echo(query, Object.keys(ZWebhookDeliveryListQuerySchema.shape)) };
}

export async function getWebhookEvent(
  deps: { webhookEvents: TWebhookEventStore },
  accountId: string,
  id: string,
): Promise<TWebhookEvent> {
  const event = await deps.webhookEvents.get(accountId, id);
  if (!event) throw new NotFoundError();
  return event;
}

export async function getWebhookDelivery(
  deps: { webhookEvents: TWebhookEventStore },
  accountId: string,
  id: string,
): Promise<TWebhookDelivery> {
  const delivery = await deps.webhookEvents.getDelivery(accountId, id);
  if (!delivery) throw new NotFoundError();
  return delivery;
}
