import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitUsageFor } from '../../shared/adapters/apigateway/cached-usage-reader';
import { createDocumentClient, createSqsClient } from '../../shared/adapters/aws/clients';
import { createWebhookEventStore } from '../../shared/adapters/dynamodb/webhook-event-store';
import { createWebhookSecretStore, createWebhookStore } from '../../shared/adapters/dynamodb/webhook-store';
import { createSecretCipher } from '../../shared/adapters/secrets/cipher';
import { createSqsQueue } from '../../shared/adapters/sqs/queue';
import { randomIds, systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import { createWebhook } from '../../shared/domain/webhooks/create-webhook';
import { createWebhookHeader } from '../../shared/domain/webhooks/create-webhook-header';
import { deleteWebhook } from '../../shared/domain/webhooks/delete-webhook';
import { deleteWebhookHeader } from '../../shared/domain/webhooks/delete-webhook-header';
import { getWebhook } from '../../shared/domain/webhooks/get-webhook';
import { getWebhookHeader } from '../../shared/domain/webhooks/get-webhook-header';
import { listWebhookHeaders } from '../../shared/domain/webhooks/list-webhook-headers';
import { listWebhooks } from '../../shared/domain/webhooks/list-webhooks';
import { redeliverEvent } from '../../shared/domain/webhooks/redeliver-event';
import { replaceWebhook } from '../../shared/domain/webhooks/replace-webhook';
import { updateWebhook } from '../../shared/domain/webhooks/update-webhook';
import {
  replaceWebhookHeader,
  updateWebhookHeader,
} from '../../shared/domain/webhooks/update-webhook-header';
import {
  getWebhookDelivery,
  getWebhookEvent,
  listWebhookDeliveries,
  listWebhookEvents,
} from '../../shared/domain/webhooks/webhook-log';
import { getWebhookSecret, regenerateWebhookSecret } from '../../shared/domain/webhooks/webhook-secret';
import { createApiHandler } from '../../shared/http/api-handler';
import { listRoute } from '../../shared/http/list-route';
import type { TRequest } from '../../shared/http/request';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';
import { toWebhookHeaderResponse, toWebhookResponse } from '../../shared/responses/webhook';
import { toWebhookDeliveryResponse, toWebhookEventResponse } from '../../shared/responses/webhook-log';
import { toWebhookSecretResponse } from '../../shared/responses/webhook-secret';
import { WEBHOOK_DELIVERY_LIST_PARAMS, WEBHOOK_EVENT_LIST_PARAMS } from '../../shared/schemas/webhook-log';

const WEBHOOK_LIST_PARAMS = ['enabled', 'event_type', 'event_type__in'];
const HEADER_LIST_PARAMS = ['webhook', 'event_type', 'event_type__in'];
/** The named query parameters of a list, as its use case takes them. */
function queryOf(req: TRequest, names: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((n) => [n, req.query.get(n)]));
}

/** Composition root of the webhooks Lambda: adapters from config, routes to use cases. */
export function buildWebhooksHandler(opts: { config: TConfig; db?: DynamoDBDocumentClient; log?: TLogger }) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const deps = {
    webhooks: createWebhookStore(db, opts.config.tableName),
    webhookSecrets: createWebhookSecretStore(db, opts.config.tableName),
    cipher: createSecretCipher(opts.config),
    webhookEvents: createWebhookEventStore(db, opts.config.tableName),
    queue: createSqsQueue(createSqsClient(opts.config), opts.config.queues ?? {}),
    clock: systemClock,
    ids: randomIds,
  };
  const header = (r: { webhook: { id: string }; header: Parameters<typeof toWebhookHeaderResponse>[1] }) =>
    toWebhookHeaderResponse(r.webhook.id, r.header);

  const regenerate = async (req: TRequest) => ({
    status: 200,
    body: toWebhookSecretResponse(await regenerateWebhookSecret(deps, req.auth.accountId)),
  });

  const routes: TRoute[] = [
    // The shared secret and extra headers first: see webhookId above. The first read of an
    // account's secret generates it (ARCHITECTURE.md, "Webhook secret").
    {
      method: 'GET',
      path: '/webhooks/secret',
      handler: async (req) => ({
        status: 200,
        body: toWebhookSecretResponse(await getWebhookSecret(deps, req.auth.accountId)),
      }),
    },
    // BlueInk's clients regenerate with either method; both change the secret.
    { method: 'POST', path: '/webhooks/secret/regenerate', handler: regenerate },
    { method: 'GET', path: '/webhooks/secret/regenerate', handler: regenerate },
    listRoute(
      '/webhooks/events',
      (req, page) =>
        listWebhookEvents(deps, req.auth.accountId, queryOf(req, WEBHOOK_EVENT_LIST_PARAMS), page),
      toWebhookEventResponse,
    ),
    {
      method: 'GET',
      path: '/webhooks/events/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toWebhookEventResponse(await getWebhookEvent(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'POST',
      path: '/webhooks/events/{id:uuid}/redeliver',
      handler: async (req) => ({
        status: 202,
        body: toWebhookEventResponse(await redeliverEvent(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    listRoute(
      '/webhooks/deliveries',
      (req, page) =>
        listWebhookDeliveries(deps, req.auth.accountId, queryOf(req, WEBHOOK_DELIVERY_LIST_PARAMS), page),
      toWebhookDeliveryResponse,
    ),
    {
      method: 'GET',
      path: '/webhooks/deliveries/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toWebhookDeliveryResponse(await getWebhookDelivery(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    listRoute(
      '/webhooks/headers',
      (req, page) => listWebhookHeaders(deps, req.auth.accountId, queryOf(req, HEADER_LIST_PARAMS), page),
      (i) => toWebhookHeaderResponse(i.webhookId, i.header),
    ),
    {
      method: 'POST',
      path: '/webhooks/headers',
      handler: async (req) => ({
        status: 201,
        body: header(await createWebhookHeader(deps, req.auth.accountId, req.body)),
      }),
    },
    {
      method: 'GET',
      path: '/webhooks/headers/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: header(await getWebhookHeader(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'PUT',
      path: '/webhooks/headers/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: header(await replaceWebhookHeader(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'PATCH',
      path: '/webhooks/headers/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: header(await updateWebhookHeader(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/webhooks/headers/{id:uuid}',
      handler: async (req) => {
        await deleteWebhookHeader(deps, req.auth.accountId, req.params.id!);
        return { status: 204 };
      },
    },
    listRoute(
      '/webhooks',
      (req, page) => listWebhooks(deps, req.auth.accountId, queryOf(req, WEBHOOK_LIST_PARAMS), page),
      toWebhookResponse,
    ),
    {
      method: 'POST',
      path: '/webhooks',
      handler: async (req) => ({
        status: 201,
        body: toWebhookResponse(await createWebhook(deps, req.auth.accountId, req.body)),
      }),
    },
    {
      method: 'GET',
      path: '/webhooks/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toWebhookResponse(await getWebhook(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'PUT',
      path: '/webhooks/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toWebhookResponse(await replaceWebhook(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'PATCH',
      path: '/webhooks/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toWebhookResponse(await updateWebhook(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'DELETE',
      path: '/webhooks/{id:uuid}',
      handler: async (req) => {
        await deleteWebhook(deps, req.auth.accountId, req.params.id!);
        return { status: 204 };
      },
    },
  ];

  return createApiHandler(routes, opts.log ?? createLogger(opts.config.logLevel), {
    usage: rateLimitUsageFor(opts.config),
    config: opts.config,
  });
}
