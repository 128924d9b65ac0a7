import type { SQSClient } from '@aws-sdk/client-sqs';
import { usageReaderFor } from '#shared/adapters/apigateway/usage-reader';
import { createS3Client, createSqsClient } from '#shared/adapters/aws/clients';
import { createAccountSettingsStore } from '#shared/adapters/dynamodb/account-settings-store';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createBrandStore } from '#shared/adapters/dynamodb/brand-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { createExportStore } from '#shared/adapters/dynamodb/export-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createLogoReader } from '#shared/adapters/pdf/logo-reader';
import { createBlobStore } from '#shared/adapters/s3/blob-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { randomIds, systemClock } from '#shared/adapters/system';
import { functionBase, keyedApi, type TFunctionOptions } from '#shared/composition/function-base';
import { changeAccountSettings, getAccountSettings } from '#shared/domain/accounts/account-settings';
import type { TCaller } from '#shared/domain/accounts/caller';
import { createApiKey } from '#shared/domain/accounts/create-api-key';
import { listApiKeys } from '#shared/domain/accounts/list-api-keys';
import { getRetentionPolicy, setRetentionPolicy } from '#shared/domain/accounts/retention-policy';
import { revokeCallersApiKey } from '#shared/domain/accounts/revoke-api-key';
import {
  createSigningBrand,
  deleteSigningBrand,
  getSigningBrand,
  listSigningBrands,
  updateSigningBrand,
} from '#shared/domain/accounts/signing-brands';
import { getExport, startExport } from '#shared/domain/exports/start-export';
import { eraseAsAdmin } from '#shared/domain/persons/erasure-request';
import type { TUsageKeyRegistry } from '#shared/domain/ports/usage-keys';
import { createApiHandler } from '#shared/http/api-handler';
import type { TRequest } from '#shared/http/request';
import { answerRoute, resourceRoutes } from '#shared/http/resource-routes';
import type { TRoute } from '#shared/http/router';
import {
  toAccountSettingsResponse,
  toApiKeyResponse,
  toSigningBrandResponse,
} from '#shared/responses/account-settings';
import { toErasureReportResponse } from '#shared/responses/erasure';
import { toExportResponse } from '#shared/responses/exports';
import { toRetentionPolicyResponse } from '#shared/responses/retention';

const callerOf = (req: TRequest): TCaller => ({ accountId: req.auth.accountId, userId: req.auth.userId });

/**
 * Composition root of the account Lambda: the caller's own standing (rate limits), and the
 * account's settings as its users manage them: API keys, signing brands, defaults.
 */
export function buildAccountHandler(
  opts: TFunctionOptions & {
    /** On AWS: each API key made here is also an API key of API Gateway's usage plan. */
    usageKeys?: TUsageKeyRegistry;
    sqs?: SQSClient;
  },
) {
  const { config, db, telemetry } = functionBase(opts);
  // The body reads afresh; the headers (on this answer too) go through the cache as elsewhere.
  const usage = usageReaderFor(config);
  const accounts = createAccountStore(db, config.tableName);
  const deps = {
    accounts,
    keys: createApiKeyStore(db, config.tableName),
    brands: createBrandStore(db, config.tableName),
    logos: createLogoReader(),
    settings: createAccountSettingsStore(db, config.tableName),
    clock: systemClock,
    ids: randomIds,
    ...(opts.usageKeys ? { usageKeys: opts.usageKeys } : {}),
  };
  const erasure = {
    accounts,
    store: createPersonStore(db, config.tableName),
    bundles: createBundleStore(db, config.tableName),
    securityLog: createConsoleStore(db, config.tableName),
    clock: systemClock,
    ids: randomIds,
  };
  // An export is queued for the document worker, which builds its archive; the link to it is
  // presigned here (no request to S3 until the client follows it).
  const exporting = {
    accounts,
    exports: createExportStore(db, config.tableName),
    queue: createSqsQueue(opts.sqs ?? createSqsClient(config), config.queues ?? {}),
    blobs: createBlobStore(createS3Client(config), config.bucketName),
    clock: systemClock,
    ids: randomIds,
  };
  const routes: TRoute[] = [
    {
      method: 'GET',
      path: '/rate_limit',
      handler: async (req) => {
        const u = await usage.usageFor(req.auth.usageKeyId);
        return {
          status: 200,
          body: { limit: u.limit, remaining: u.remaining, reset: u.reset, window: u.window },
        };
      },
    },
    answerRoute('GET', '/account', 200, async (req) =>
      toAccountSettingsResponse(await getAccountSettings(deps, callerOf(req))),
    ),
    answerRoute('PATCH', '/account', 200, async (req) =>
      toAccountSettingsResponse(await changeAccountSettings(deps, callerOf(req), req.body)),
    ),
    // How long documents are kept after a bundle ends (shared/domain/bundles/retention.ts).
    answerRoute('GET', '/account/retention', 200, async (req) =>
      toRetentionPolicyResponse(await getRetentionPolicy(deps, callerOf(req))),
    ),
    answerRoute('PUT', '/account/retention', 200, async (req) =>
      toRetentionPolicyResponse(await setRetentionPolicy(deps, req.auth.accountId, req.body, callerOf(req))),
    ),
    // Erasure of the people the account sends to at an address (shared/domain/persons/), admins only.
    answerRoute('POST', '/account/erasures', 200, async (req) =>
      toErasureReportResponse(
        await eraseAsAdmin(
          erasure,
          { ...callerOf(req), keyId: req.auth.keyId, client: req.client },
          req.body,
        ),
      ),
    ),
    // The account's export: the latest one, admins only, like the retention policy.
    answerRoute('POST', '/account/exports', 202, async (req) =>
      toExportResponse(await startExport(exporting, callerOf(req))),
    ),
    answerRoute('GET', '/account/exports/{id:uuid}', 200, async (req) => {
      const { record, link } = await getExport(exporting, callerOf(req), req.params.id!);
      return toExportResponse(record, link);
    }),
    answerRoute('GET', '/api-keys', 200, async (req) =>
      (await listApiKeys(deps, callerOf(req))).map(toApiKeyResponse),
    ),
    // The one answer that holds the key itself: it is never stored, so never shown again (not
    // even to an Idempotency-Key retry).
    {
      ...answerRoute('POST', '/api-keys', 201, async (req) => {
        const { key, secret } = await createApiKey(deps, callerOf(req), req.body);
        return { ...toApiKeyResponse(key), key: secret };
      }),
      secretAnswer: true,
    },
    // Revoking answers the key as it now is (with its revocation time), not an empty 204.
    answerRoute('DELETE', '/api-keys/{id:uuid}', 200, async (req) =>
      toApiKeyResponse(await revokeCallersApiKey(deps, callerOf(req), req.params.id!)),
    ),
    answerRoute('GET', '/signing-brands', 200, async (req) =>
      (await listSigningBrands(deps, callerOf(req))).map(toSigningBrandResponse),
    ),
    ...resourceRoutes(
      '/signing-brands',
      'uuid',
      { deps, caller: callerOf, toBody: toSigningBrandResponse },
      {
        create: (d, caller, body) => createSigningBrand(d, caller, body),
        get: getSigningBrand,
        update: updateSigningBrand,
        remove: deleteSigningBrand,
      },
    ),
  ];
  return createApiHandler(routes, telemetry, keyedApi(config, db));
}
