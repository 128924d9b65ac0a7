import { createSqsClient } from '#shared/adapters/aws/clients';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '#shared/adapters/dynamodb/envelope-template-store';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import { createSealReader } from '#shared/adapters/pdf/seal-reader';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import {
  bundleAdapters,
  functionBase,
  keyedApi,
  type TFunctionOptions,
} from '#shared/composition/function-base';
import { getBulkBatch } from '#shared/domain/bulk/get-bulk-batch';
import { startBulkSend } from '#shared/domain/bulk/start-bulk-send';
import { bundleData } from '#shared/domain/bundles/bundle-data';
import { bundleFiles } from '#shared/domain/bundles/bundle-files';
import { cancelBundle } from '#shared/domain/bundles/cancel-bundle';
import { changeTags } from '#shared/domain/bundles/change-tags';
import { createBundle } from '#shared/domain/bundles/create-bundle';
import { createDraftPrepSession } from '#shared/domain/bundles/draft-prep-session';
import { eventActors } from '#shared/domain/bundles/event-actors';
import { getBundle } from '#shared/domain/bundles/get-bundle';
import { changeLegalHold } from '#shared/domain/bundles/legal-hold';
import { listBundles } from '#shared/domain/bundles/list-bundles';
import { requestInterimFiles } from '#shared/domain/bundles/request-interim-files';
import { sendDraft } from '#shared/domain/bundles/send-draft';
import { updateBundle } from '#shared/domain/bundles/update-bundle';
import { validateDraft } from '#shared/domain/bundles/validate-draft';
import { derivedSlug, derivedUuid } from '#shared/domain/derived-ids';
import { verifyFile } from '#shared/domain/evidence/verify-file';
import { createApiHandler } from '#shared/http/api-handler';
import { listRoute } from '#shared/http/list-route';
import type { TRequest } from '#shared/http/request';
import { actingOf, actorOf } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import { toBulkBatchResponse } from '#shared/responses/bulk';
import { toBundleResponse, toEventResponse } from '#shared/responses/bundle';
import { toBundleRetentionResponse } from '#shared/responses/retention';
import { BULK_LIMITS } from '#shared/schemas/bulk';
import { BUNDLE_LIST_PARAMS } from '#shared/schemas/bundle-list-query';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { bulkRequestOf } from './bulk-body';
import { includeExtras } from './include';
import { bundleRequestOf } from './request-body';
import { VERIFY_MAX_BYTES, verifyInputOf } from './verify-body';

/** Under an Idempotency-Key, the new bundle's id follows from the request: a retry meets it. */
const madeAs = (req: TRequest) => (req.retrySeed ? { id: derivedSlug(`bundle:${req.retrySeed}`) } : {});
/** The key's user (for the templates it may use) and the key, who its events say acted. */
const creator = (req: TRequest) => ({ userId: req.auth.userId, by: actorOf(req) });

/** Composition root of the bundles Lambda. */
export function buildBundlesHandler(opts: TFunctionOptions) {
  const { config, db, metrics, telemetry } = functionBase(opts);
  const deps = {
    ...bundleAdapters(config, db, metrics),
    records: createSigningRecordStore(db, config.tableName),
    evidence: createEvidenceStore(db, config.tableName),
    seals: createSealReader(),
    persons: createPersonStore(db, config.tableName),
    templates: createDocTemplateStore(db, config.tableName),
    envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
    ...createDocumentIntake(config),
    bulk: createBulkStore(db, config.tableName),
    queue: createSqsQueue(createSqsClient(config), config.queues ?? {}),
    sessions: createPrepSessionStore(db, config.tableName),
  };
  const bundle = (status: number, b: Parameters<typeof toBundleResponse>[0]) => ({
    status,
    body: toBundleResponse(b),
  });

  const routes: TRoute[] = [
    listRoute(
      '/bundles',
      async (req, page) => {
        const query = Object.fromEntries(BUNDLE_LIST_PARAMS.map((name) => [name, req.query.get(name)]));
        const result = await listBundles(deps, req.auth.accountId, query, page);
        return { ...result, query: result.params };
      },
      toBundleResponse,
    ),
    {
      method: 'POST',
      path: '/bundles',
      body: { accept: ['json', 'form', 'multipart'], maxBytes: BUNDLE_LIMITS.requestBytes },
      handler: async (req) => {
        const { request, files } = await bundleRequestOf(req.body);
        return bundle(
          201,
          await createBundle(deps, req.auth.accountId, request, files, creator(req), madeAs(req)),
        );
      },
    },
    {
      method: 'POST',
      path: '/bundles/create_from_envelope_template',
      handler: async (req) =>
        bundle(
          201,
          await createBundle(deps, req.auth.accountId, req.body, new Map(), creator(req), madeAs(req)),
        ),
    },
    {
      method: 'POST',
      path: '/bundles/bulk',
      body: { accept: ['json', 'multipart'], maxBytes: BULK_LIMITS.requestBytes },
      handler: async (req) => {
        const made = req.retrySeed ? { id: derivedUuid(`bulk:${req.retrySeed}`) } : {};
        const batch = await startBulkSend(deps, req.auth, await bulkRequestOf(req.body), made);
        return { status: 202, body: toBulkBatchResponse({ batch, results: [] }) };
      },
    },
    {
      method: 'GET',
      path: '/bundles/bulk/{id:uuid}',
      handler: async (req) => ({
        status: 200,
        body: toBulkBatchResponse(await getBulkBatch(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'GET',
      path: '/bundles/{id:slug}',
      handler: async (req) => {
        const b = await getBundle(deps, req.auth.accountId, req.params.id!);
        const extras = await includeExtras(deps, b, req.query.get('include'));
        return { status: 200, body: { ...toBundleResponse(b), ...extras } };
      },
    },
    {
      method: 'PATCH',
      path: '/bundles/{id:slug}',
      handler: async (req) =>
        bundle(
          200,
          await updateBundle(deps, { ...actingOf(req), userId: req.auth.userId }, req.params.id!, req.body),
        ),
    },
    {
      method: 'POST',
      path: '/bundles/{id:slug}/send',
      handler: async (req) => bundle(200, await sendDraft(deps, actingOf(req), req.params.id!)),
    },
    {
      method: 'POST',
      path: '/bundles/{id:slug}/prepare_url',
      handler: async (req) => ({
        status: 201,
        body: await createDraftPrepSession(
          deps,
          { ...actingOf(req), userId: req.auth.userId },
          req.params.id!,
          config.publicBaseUrl ?? req.url.origin,
        ),
      }),
    },
    {
      method: 'PUT',
      path: '/bundles/{id:slug}/cancel',
      handler: async (req) => bundle(200, await cancelBundle(deps, actingOf(req), req.params.id!)),
    },
    {
      method: 'GET',
      path: '/bundles/{id:slug}/events',
      handler: async (req) => {
        const b = await getBundle(deps, req.auth.accountId, req.params.id!);
        const events = await deps.bundles.events(b);
        // Who acted is this service's own, given to a client that asks (the console does).
        const actorOf =
          req.query.get('include_actor') === 'true' ? await eventActors(deps, b, events) : undefined;
        return { status: 200, body: events.map((e) => toEventResponse(e, actorOf)) };
      },
    },
    {
      method: 'GET',
      path: '/bundles/{id:slug}/data',
      handler: async (req) => ({
        status: 200,
        body: await bundleData(deps, await getBundle(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'GET',
      path: '/bundles/{id:slug}/files',
      handler: async (req) => ({
        status: 200,
        body: await bundleFiles(deps, await getBundle(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'PUT',
      path: '/bundles/{id:slug}/files',
      handler: async (req) => {
        await requestInterimFiles(deps, actingOf(req), req.params.id!);
        return { status: 202, body: { detail: 'Interim files are being prepared; poll GET files/.' } };
      },
    },
    {
      // Verification of a sealed file (ARCHITECTURE.md, "Evidence"): /api/v2/verify/.
      method: 'POST',
      path: '/verify',
      body: { accept: ['json', 'upload', 'multipart'], maxBytes: VERIFY_MAX_BYTES },
      handler: async (req) => ({
        status: 200,
        body: await verifyFile(deps, req.auth.accountId, await verifyInputOf(req.body)),
      }),
    },
    // A legal hold stops the retention policy from deleting the bundle's documents (admins).
    {
      method: 'GET',
      path: '/bundles/{id:slug}/legal_hold',
      handler: async (req) => ({
        status: 200,
        body: toBundleRetentionResponse(await getBundle(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    ...(['PUT', 'DELETE'] as const).map(
      (method): TRoute => ({
        method,
        path: '/bundles/{id:slug}/legal_hold',
        handler: async (req) => ({
          status: 200,
          body: toBundleRetentionResponse(
            await changeLegalHold(
              deps,
              { ...actingOf(req), userId: req.auth.userId },
              req.params.id!,
              method === 'PUT',
            ),
          ),
        }),
      }),
    ),
    {
      method: 'PUT',
      path: '/bundles/{id:slug}/validate',
      handler: async (req) => ({
        status: 200,
        body: await validateDraft(deps, req.auth.accountId, req.params.id!),
      }),
    },
    {
      method: 'PUT',
      path: '/bundles/{id:slug}/add_tags',
      handler: async (req) =>
        bundle(200, await changeTags(deps, actingOf(req), req.params.id!, 'add', req.body)),
    },
    {
      method: 'PUT',
      path: '/bundles/{id:slug}/remove_tags',
      handler: async (req) =>
        bundle(200, await changeTags(deps, actingOf(req), req.params.id!, 'remove', req.body)),
    },
  ];

  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
