import { createSqsClient } from '#shared/adapters/aws/clients';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { randomIds, systemClock } from '#shared/adapters/system';
import {
  documentBlobs,
  functionBase,
  keyedApi,
  type TFunctionOptions,
} from '#shared/composition/function-base';
import { FILE_LINK_SECONDS } from '#shared/domain/bundles/bundle-files';
import { createDocTemplate } from '#shared/domain/templates/create-doc-template';
import { createPrepSession } from '#shared/domain/templates/create-prep-session';
import { deleteDocTemplate } from '#shared/domain/templates/delete-doc-template';
import type { TDocTemplate } from '#shared/domain/templates/doc-template';
import { getDocTemplate } from '#shared/domain/templates/get-doc-template';
import { listDocTemplates } from '#shared/domain/templates/list-doc-templates';
import {
  publishTemplateEvent,
  type TTemplateEventType,
} from '#shared/domain/templates/publish-template-event';
import { updateDocTemplate } from '#shared/domain/templates/update-doc-template';
import { createApiHandler } from '#shared/http/api-handler';
import { RawMultipart } from '#shared/http/body';
import { filesByIndex, jsonPart, parseMultipart } from '#shared/http/multipart';
import { paginationHeaders, parsePage } from '#shared/http/pagination';
import type { TRoute } from '#shared/http/router';
import { toDocTemplateResponse } from '#shared/responses/doc-template';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';

/**
 * A create request as JSON, or as multipart with the JSON in a `template_request` part and the
 * file as `files[0]` (or `file`), named by `file_index` as in a bundle request.
 */
async function templateRequestOf(body: unknown): Promise<{ request: unknown; files: Map<number, Buffer> }> {
  if (!(body instanceof RawMultipart)) return { request: body, files: new Map() };
  const parsed = await parseMultipart(body.raw, body.contentType, {
    maxFiles: 1,
    maxFileBytes: BUNDLE_LIMITS.requestBytes,
    maxFieldBytes: BUNDLE_LIMITS.requestBytes,
    maxParts: 10,
  });
  const request = jsonPart(parsed, 'template_request');
  return { request, files: new Map([...filesByIndex(parsed.files)].map(([i, f]) => [i, f.data])) };
}

/** Composition root of the document templates Lambda. */
export function buildTemplatesHandler(opts: TFunctionOptions) {
  const { config, db, log, telemetry } = functionBase(opts);
  const deps = {
    templates: createDocTemplateStore(db, config.tableName),
    sessions: createPrepSessionStore(db, config.tableName),
    accounts: createAccountStore(db, config.tableName),
    blobs: documentBlobs(config, db),
    ...createDocumentIntake(config),
    clock: systemClock,
    ids: randomIds,
  };
  const eventDeps = {
    webhooks: createWebhookStore(db, config.tableName),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    queue: createSqsQueue(createSqsClient(config), config.queues ?? {}),
    clock: systemClock,
  };
  /** Webhook events after the write, best effort: a failure is logged, never the caller's error. */
  const fire = async (t: TDocTemplate, type: TTemplateEventType) => {
    try {
      await publishTemplateEvent(eventDeps, t, type);
    } catch (err) {
      log.error('document template webhook event not published', {
        templateId: t.id,
        type,
        error: (err as Error).message,
      });
    }
    return t;
  };
  const respond = async (status: number, t: TDocTemplate) => ({
    status,
    body: toDocTemplateResponse(t, await deps.blobs.presignGet(t.document.blobKey, FILE_LINK_SECONDS)),
  });

  const routes: TRoute[] = [
    {
      method: 'GET',
      path: '/templates',
      handler: async (req) => {
        const page = parsePage(req.query);
        const result = await listDocTemplates(deps, req.auth, page);
        const body = await Promise.all(result.items.map(async (t) => (await respond(200, t)).body));
        return { status: 200, body, headers: paginationHeaders(page, result.total, req.url, {}) };
      },
    },
    {
      method: 'POST',
      path: '/templates',
      body: { accept: ['json', 'multipart'], maxBytes: BUNDLE_LIMITS.requestBytes },
      handler: async (req) => {
        const { request, files } = await templateRequestOf(req.body);
        const created = await createDocTemplate(deps, req.auth, request, files, req.retrySeed);
        return respond(201, await fire(created, 'doc_template_created'));
      },
    },
    {
      // An embedded preparation session (ARCHITECTURE.md, "Template preparation sessions").
      method: 'POST',
      path: '/templates/preparation_session',
      body: { accept: ['json', 'multipart'], maxBytes: BUNDLE_LIMITS.requestBytes },
      handler: async (req) => {
        const { request, files } = await templateRequestOf(req.body);
        const base = config.publicBaseUrl || req.url.origin;
        const s = await createPrepSession(deps, req.auth, request, files, base);
        if (s.created) await fire(s.template, 'doc_template_created');
        return {
          status: 201,
          body: { url: s.url, expires: s.expires, template_id: s.template.id },
          headers: { 'Cache-Control': 'no-store' },
        };
      },
    },
    {
      method: 'GET',
      path: '/templates/{id:uuid}',
      handler: async (req) => respond(200, await getDocTemplate(deps, req.auth, req.params.id!)),
    },
    {
      method: 'PATCH',
      path: '/templates/{id:uuid}',
      handler: async (req) => {
        const updated = await updateDocTemplate(deps, req.auth, req.params.id!, req.body);
        return respond(200, await fire(updated, 'doc_template_updated'));
      },
    },
    {
      method: 'DELETE',
      path: '/templates/{id:uuid}',
      handler: async (req) => {
        await fire(await deleteDocTemplate(deps, req.auth, req.params.id!), 'doc_template_deleted');
        return { status: 204 };
      },
    },
  ];

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
