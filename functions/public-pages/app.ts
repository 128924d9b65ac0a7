import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createS3Client, createSnsClient } from '../../shared/adapters/aws/clients';
import { createPublishingBundleStore } from '../../shared/adapters/bundle-publishing';
import { createAccountStore } from '../../shared/adapters/dynamodb/account-store';
import { createEvidenceStore } from '../../shared/adapters/dynamodb/evidence-store';
import { createSigningRecordStore } from '../../shared/adapters/dynamodb/signing-record-store';
import { createSigningTokenStore } from '../../shared/adapters/dynamodb/signing-token-store';
import { createLocalIdVerifier } from '../../shared/adapters/id-verifier/local-id-verifier';
import { createPaymentProviderSource } from '../../shared/adapters/payments/payment-provider';
import { createSealReader } from '../../shared/adapters/pdf/seal-reader';
import { createBlobStore } from '../../shared/adapters/s3/blob-store';
import { createSnsSmsSender } from '../../shared/adapters/sns/sns-sms-sender';
import { systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import type { TPortalLimits } from '../../shared/domain/envelope-templates/start-portal-signing';
import { completePacket, declinePacket } from '../../shared/domain/signing/finish';
import { submitId, submitSelfie } from '../../shared/domain/signing/image-auth';
import { openSession } from '../../shared/domain/signing/open-session';
import { saveValues } from '../../shared/domain/signing/save-values';
import { signerOf, type TSignerContext } from '../../shared/domain/signing/signer-context';
import { signerState } from '../../shared/domain/signing/signer-state';
import { sendSmsCode, verifySmsCode } from '../../shared/domain/signing/sms-auth';
import { uploadAttachment } from '../../shared/domain/signing/upload-attachment';
import { createApiHandler } from '../../shared/http/api-handler';
import type { TRequest } from '../../shared/http/request';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';
import { openApiRoutes } from './openapi';
import { pageRoutes } from './pages';
import { paymentRoutes } from './payments';
import { portalRoutes } from './portal-page';
import { prepareRoutes } from './prepare-page';
import { filesOf } from './uploads';
import { verifyRoutes } from './verify-page';

/** Uploads (attachments, ID images) come as the body; the gateway's 10 MB limit applies too. */
const UPLOAD_BODY = {
  accept: ['json', 'multipart', 'upload'] as const,
  maxBytes: 10 * 1024 * 1024 + 64 * 1024,
};

/**
 * Composition root of the public pages Lambda, none behind an API key: the signer's pages and the
 * signer API under /sign (docs/signer-api.md; link and session tokens authenticate, and every answer
 * is about the one packet a session is bound to), template preparation (/prepare), smart links
 * (/portal), the verify page (/verify) and the payment processor's webhook (/payments).
 */
export function buildPublicPagesHandler(opts: {
  config: TConfig;
  db?: DynamoDBDocumentClient;
  log?: TLogger;
  /** Tests pass smaller smart link limits; the deployed service uses PORTAL_LIMITS. */
  portalLimits?: TPortalLimits;
}) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const log = opts.log ?? createLogger(config.logLevel);
  const deps = {
    bundles: createPublishingBundleStore(config, db, log),
    accounts: createAccountStore(db, config.tableName),
    tokens: createSigningTokenStore(db, config.tableName),
    records: createSigningRecordStore(db, config.tableName),
    blobs: createBlobStore(createS3Client(config), config.bucketName),
    sms: createSnsSmsSender(createSnsClient(config)),
    idVerifier: createLocalIdVerifier(),
    clock: systemClock,
  };

  const session = (req: TRequest) => signerOf(deps, req.header('x-signing-session'));
  const state = async (ctx: TSignerContext, status = 200) => ({
    status,
    body: await signerState(deps, ctx),
    headers: { 'Cache-Control': 'no-store' },
  });
  /**
   * A signer call: the session's signer, loaded once and handed to the use case (which reads it
   * again only after losing a race), and the state after it.
   */
  const act =
    (run: (signer: TSignerContext, req: TRequest) => Promise<TSignerContext>) => async (req: TRequest) =>
      state(await run(await session(req), req));

  const routes: TRoute[] = [
    {
      method: 'POST',
      path: '/sign/api/session',
      handler: async (req) => {
        const token = (req.body as { token?: unknown } | undefined)?.token;
        const opened = await openSession(deps, token, req.client);
        return { status: 201, body: opened, headers: { 'Cache-Control': 'no-store' } };
      },
    },
    { method: 'GET', path: '/sign/api/state', handler: async (req) => state(await session(req)) },
    {
      method: 'PUT',
      path: '/sign/api/values',
      body: { maxBytes: 2 * 1024 * 1024 },
      handler: act((s, req) => saveValues(deps, s, req.body, req.client)),
    },
    {
      method: 'POST',
      path: '/sign/api/attachments',
      body: { accept: [...UPLOAD_BODY.accept], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (s, req) => {
        const name = req.query.get('name') ?? req.header('x-file-name');
        const { file } = await filesOf(req.body, ['file'], name);
        return uploadAttachment(
          deps,
          s,
          { docKey: req.query.get('doc_key'), fieldKey: req.query.get('field_key') },
          file ?? { bytes: Buffer.alloc(0), contentType: '', fileName: '' },
          req.client,
        );
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/sms/send',
      handler: act((s, req) => sendSmsCode(deps, s, req.client)),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/sms/verify',
      handler: act((s, req) => verifySmsCode(deps, s, req.body, req.client)),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/selfie',
      body: { accept: [...UPLOAD_BODY.accept], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (s, req) => {
        const { image } = await filesOf(req.body, ['image'], 'selfie');
        return submitSelfie(deps, s, image, req.client);
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/id',
      body: { accept: ['multipart'], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (s, req) => {
        const { front, back } = await filesOf(req.body, ['front', 'back'], undefined);
        return submitId(deps, s, { front, back }, req.client);
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/complete',
      handler: act((s, req) => completePacket(deps, s, req.body, req.client)),
    },
    {
      method: 'POST',
      path: '/sign/api/decline',
      handler: act((s, req) => declinePacket(deps, s, req.body, req.client)),
    },
    // Bundle payments (ARCHITECTURE.md, "Payments"): the signer's step and the processor's webhook.
    ...paymentRoutes({ ...deps, config, payments: createPaymentProviderSource(config), session }),
    ...pageRoutes({ ...deps, config }),
    // Portal smart links (ARCHITECTURE.md, "Envelope templates"): /portal/<template id>.
    ...portalRoutes({ ...deps, db, config, ...(opts.portalLimits ? { limits: opts.portalLimits } : {}) }),
    // Template preparation sessions (ARCHITECTURE.md): /prepare/<token> and its API.
    ...prepareRoutes({ db, config, accounts: deps.accounts, blobs: deps.blobs, clock: deps.clock, log }),
    // The API's OpenAPI description (ARCHITECTURE.md, "The API description"): /api/v2/openapi.json.
    ...openApiRoutes({ config }),
    // The public verification page (ARCHITECTURE.md, "Evidence"): /verify.
    ...verifyRoutes({
      bundles: deps.bundles,
      evidence: createEvidenceStore(db, config.tableName),
      seals: createSealReader(),
      config,
    }),
  ];

  return createApiHandler(routes, log, { anonymous: true, config });
}
