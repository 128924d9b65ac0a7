import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitUsageFor } from '../../shared/adapters/apigateway/cached-usage-reader';
import { createDocumentClient, createS3Client, createSqsClient } from '../../shared/adapters/aws/clients';
import { createPublishingBundleStore } from '../../shared/adapters/bundle-publishing';
import { createAccountStore } from '../../shared/adapters/dynamodb/account-store';
import { createEvidenceStore } from '../../shared/adapters/dynamodb/evidence-store';
import { createPersonStore } from '../../shared/adapters/dynamodb/person-store';
import { createSigningTokenStore } from '../../shared/adapters/dynamodb/signing-token-store';
import { createBlobStore } from '../../shared/adapters/s3/blob-store';
import { createSqsQueue } from '../../shared/adapters/sqs/queue';
import { randomIds, systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import { createEmbedUrl } from '../../shared/domain/bundles/create-embed-url';
import { findPacket } from '../../shared/domain/bundles/find-packet';
import { getCoe } from '../../shared/domain/bundles/get-coe';
import { remindPacket } from '../../shared/domain/bundles/remind-packet';
import { updatePacket } from '../../shared/domain/bundles/update-packet';
import { createApiHandler } from '../../shared/http/api-handler';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';
import { toPacketResponse } from '../../shared/responses/bundle';

/** Composition root of the packets Lambda: one signer of a bundle. */
export function buildPacketsHandler(opts: { config: TConfig; db?: DynamoDBDocumentClient; log?: TLogger }) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const log = opts.log ?? createLogger(config.logLevel);
  const sqs = createSqsClient(config);
  const deps = {
    bundles: createPublishingBundleStore(config, db, log),
    accounts: createAccountStore(db, config.tableName),
    persons: createPersonStore(db, config.tableName),
    tokens: createSigningTokenStore(db, config.tableName),
    evidence: createEvidenceStore(db, config.tableName),
    blobs: createBlobStore(createS3Client(config), config.bucketName),
    queue: createSqsQueue(sqs, config.queues ?? {}),
    clock: systemClock,
    ids: randomIds,
  };

  const routes: TRoute[] = [
    {
      method: 'GET',
      path: '/packets/{id:slug}',
      handler: async (req) => ({
        status: 200,
        body: toPacketResponse((await findPacket(deps, req.auth.accountId, req.params.id!)).packet),
      }),
    },
    {
      method: 'PATCH',
      path: '/packets/{id:slug}',
      handler: async (req) => ({
        status: 200,
        body: toPacketResponse(await updatePacket(deps, req.auth.accountId, req.params.id!, req.body)),
      }),
    },
    {
      method: 'POST',
      path: '/packets/{id:slug}/embed_url',
      handler: async (req) => ({
        status: 201,
        body: await createEmbedUrl(
          deps,
          req.auth.accountId,
          req.params.id!,
          config.publicBaseUrl ?? `${req.url.origin}`,
        ),
      }),
    },
    {
      method: 'PUT',
      path: '/packets/{id:slug}/remind',
      handler: async (req) => ({
        status: 200,
        body: toPacketResponse(await remindPacket(deps, req.auth.accountId, req.params.id!)),
      }),
    },
    {
      method: 'GET',
      path: '/packets/{id:slug}/coe',
      handler: async (req) => ({ status: 200, body: await getCoe(deps, req.auth.accountId, req.params.id!) }),
    },
  ];
  return createApiHandler(routes, log, { usage: rateLimitUsageFor(config), config });
}
