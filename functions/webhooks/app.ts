import { createSqsClient } from '#shared/adapters/aws/clients';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookSecretStore, createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSecretCipher } from '#shared/adapters/secrets/cipher';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { randomIds, systemClock } from '#shared/adapters/system';
import { functionBase, keyedApi, type TFunctionOptions } from '#shared/composition/function-base';
import type { TPage } from '#shared/domain/paging';
import { createWebhook } from '#shared/domain/webhooks/create-webhook';
import { createWebhookHeader } from '#shared/domain/webhooks/create-webhook-header';
import { deleteWebhook } from '#shared/domain/webhooks/delete-webhook';
import { deleteWebhookHeader } from '#shared/domain/webhooks/delete-webhook-header';
import { getWebhook } from '#shared/domain/webhooks/get-webhook';
import { getWebhookHeader } from '#shared/domain/webhooks/get-webhook-header';
import { listWebhookHeaders } from '#shared/domain/webhooks/list-webhook-headers';
import { listWebhooks } from '#shared/domain/webhooks/list-webhooks';
import { redeliverEvent } from '#shared/domain/webhooks/redeliver-event';
import { replaceWebhook } from '#shared/domain/webhooks/replace-webhook';
import { updateWebhook } from '#shared/domain/webhooks/update-webhook';
import { replaceWebhookHeader, updateWebhookHeader } from '#shared/domain/webhooks/update-webhook-header';
import {
  getWebhookDelivery,
  getWebhookEvent,
  listWebhookDeliveries,
  listWebhookEvents,
} from '#shared/domain/webhooks/webhook-log';
import { getWebhookSecret, regenerateWebhookSecret } from '#shared/domain/webhooks/webhook-secret';
import { createApiHandler } from '#shared/http/api-handler';
import { listRoute, type TListed } from '#shared/http/list-route';
import type { TRequest } from '#shared/http/request';
import { accountOf, answerRoute, resourceRoutes } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import { toWebhookHeaderResponse, toWebhookResponse } from '#shared/responses/webhook';
import { toWebhookDeliveryResponse, toWebhookEventResponse } from '#shared/responses/webhook-log';
import { toWebhookSecretResponse } from '#shared/responses/webhook-secret';
import { WEBHOOK_DELIVERY_LIST_PARAMS, WEBHOOK_EVENT_LIST_PARAMS } from '#shared/schemas/webhook-log';

const WEBHOOK_LIST_PARAMS = ['enabled', 'event_type', 'event_type__in'];
const HEADER_LIST_PARAMS = ['webhook', 'event_type', 'event_type__in'];

/** Composition root of the webhooks Lambda: adapters from config, routes to use cases. */
export function buildWebhooksHandler(opts: TFunctionOptions) {
  const { config, db, telemetry } = functionBase(opts);
  const deps = {
    webhooks: createWebhookStore(db, config.tableName),
    webhookSecrets: createWebhookSecretStore(db, config.tableName),
    cipher: createSecretCipher(config),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    queue: createSqsQueue(createSqsClient(config), config.queues ?? {}),
    clock: systemClock,
    ids: randomIds,
  };
  /** A list use case of the caller's account, given the named query parameters it validates. */
  const listing =
    <T>(
      list: (
        d: typeof deps,
        accountId: string,
        query: Record<string, string | undefined>,
        page: TPage,
      ) => Promise<TListed<T>>,
      names: readonly string[],
    ) =>
    (req: TRequest, page: TPage) =>
      list(deps, req.auth.accountId, Object.fromEntries(names.map((n) => [n, req.query.get(n)])), page);
  const regenerate = async (req: TRequest) =>
    toWebhookSecretResponse(await regenerateWebhookSecret(deps, req.auth.accountId));

  const routes: TRoute[] = [
    // The first read of an account's secret generates it (ARCHITECTURE.md, "Webhook secret").
    answerRoute('GET', '/webhooks/secret', 200, async (req) =>
      toWebhookSecretResponse(await getWebhookSecret(deps, req.auth.accountId)),
    ),
    // BlueInk's clients regenerate with either method; both change the secret.
    answerRoute('POST', '/webhooks/secret/regenerate', 200, regenerate),
    answerRoute('GET', '/webhooks/secret/regenerate', 200, regenerate),
    ...resourceRoutes(
      '/webhooks/events',
      'uuid',
      { deps, caller: accountOf, toBody: toWebhookEventResponse },
      { list: listing(listWebhookEvents, WEBHOOK_EVENT_LIST_PARAMS), get: getWebhookEvent },
    ),
    answerRoute('POST', '/webhooks/events/{id:uuid}/redeliver', 202, async (req) =>
      toWebhookEventResponse(await redeliverEvent(deps, req.auth.accountId, req.params.id!)),
    ),
    ...resourceRoutes(
      '/webhooks/deliveries',
      'uuid',
      { deps, caller: accountOf, toBody: toWebhookDeliveryResponse },
      { list: listing(listWebhookDeliveries, WEBHOOK_DELIVERY_LIST_PARAMS), get: getWebhookDelivery },
    ),
    listRoute('/webhooks/headers', listing(listWebhookHeaders, HEADER_LIST_PARAMS), (i) =>
      toWebhookHeaderResponse(i.webhookId, i.header),
    ),
    ...resourceRoutes(
      '/webhooks/headers',
      'uuid',
      { deps, caller: accountOf, toBody: (r) => toWebhookHeaderResponse(r.webhook.id, r.header) },
      {
        create: createWebhookHeader,
        get: getWebhookHeader,
        replace: replaceWebhookHeader,
        update: updateWebhookHeader,
        remove: deleteWebhookHeader,
      },
    ),
    ...resourceRoutes(
      '/webhooks',
      'uuid',
      { deps, caller: accountOf, toBody: toWebhookResponse },
      {
        list: listing(listWebhooks, WEBHOOK_LIST_PARAMS),
        create: createWebhook,
        get: getWebhook,
        replace: replaceWebhook,
        update: updateWebhook,
        remove: deleteWebhook,
      },
    ),
  ];

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
