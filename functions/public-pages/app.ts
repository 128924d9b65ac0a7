import { createCopyLinkStore } from '#shared/adapters/dynamodb/copy-link-store';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import { createLocalIdVerifier } from '#shared/adapters/id-verifier/local-id-verifier';
import { keptSigners } from '#shared/adapters/kept-signers';
import { createPaymentProviderSource } from '#shared/adapters/payments/payment-provider';
import { createSealReader } from '#shared/adapters/pdf/seal-reader';
import { createSmsSenderOnDemand } from '#shared/adapters/sns/sms-sender-on-demand';
import { bundleAdapters, functionBase, type TFunctionOptions } from '#shared/composition/function-base';
import type { TAccount } from '#shared/domain/accounts/account';
import type { TPortalLimits } from '#shared/domain/envelope-templates/start-portal-signing';
import { chooseLanguage } from '#shared/domain/signing/choose-language';
import { completePacket, declinePacket } from '#shared/domain/signing/finish';
import { submitId, submitSelfie } from '#shared/domain/signing/image-auth';
import { openSession } from '#shared/domain/signing/open-session';
import { reassignPacket } from '#shared/domain/signing/reassign-packet';
import { saveValues } from '#shared/domain/signing/save-values';
import {
  sessionSigner,
  signerOf,
  type TSignerCall,
  type TSignerContext,
} from '#shared/domain/signing/signer-context';
import { signerState, type TStateReads } from '#shared/domain/signing/signer-state';
import { sendSmsCode, verifySmsCode } from '#shared/domain/signing/sms-auth';
import { uploadAttachment } from '#shared/domain/signing/upload-attachment';
import { hashToken } from '#shared/domain/tokens';
import { createApiHandler } from '#shared/http/api-handler';
import type { TRequest } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { bundleEditorRoutes } from './bundle-editor-page';
import { copiesRoutes } from './copies-page';
import { docsRoutes } from './docs-page';
import { localizeSignerError } from './error-language';
import { openApiRoutes } from './openapi';
import { pageRoutes } from './pages';
import { paymentRoutes } from './payments';
import { portalRoutes } from './portal-routes';
import { prepareRoutes } from './prepare-page';
import { filesOf } from './uploads';
import { verifyRoutes } from './verify-routes';
import { webFontRoutes } from './web-fonts';

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
export function buildPublicPagesHandler(
  opts: TFunctionOptions & {
    /** Tests pass smaller smart link limits; the deployed service uses PORTAL_LIMITS. */
    portalLimits?: TPortalLimits;
  },
) {
  const { config, db, log, metrics, telemetry } = functionBase(opts);
  const shared = {
    ...bundleAdapters(config, db, metrics),
    tokens: createSigningTokenStore(db, config.tableName),
    records: createSigningRecordStore(db, config.tableName),
    sms: createSmsSenderOnDemand(config),
    idVerifier: createLocalIdVerifier(),
    // A signer who hands their packet on names a Person of the account (reassign-packet.ts).
    persons: createPersonStore(db, config.tableName),
  };
  const deps = { ...shared, kept: keptSigners<TSignerContext>(shared.clock) };

  const evidence = createEvidenceStore(db, config.tableName);
  /** `withFields`: the call checks the signer's fields, so it reads the documents and records with the session. */
  const session = (req: TRequest, withFields = false) =>
    signerOf(deps, req.header('x-signing-session'), { withFields });
  const state = async (ctx: TSignerContext, status = 200, read?: TStateReads) => ({
    status,
    body: await signerState({ ...deps, evidence }, ctx, read),
    headers: { 'Cache-Control': 'no-store' },
  });
  /**
   * A signer call: the session's signer, loaded once and handed to the use case (which reads it
   * again only after losing a race), and the state after it.
   */
  const act =
    (run: (call: TSignerCall<typeof deps>, req: TRequest) => Promise<TSignerContext>, withFields = false) =>
    async (req: TRequest) => {
      const ctx = await run({ deps, signer: await session(req, withFields), client: req.client }, req);
      keepFor(req, ctx);
      return state(ctx);
    };
  /**
   * What a call ended with is kept for the session's finish when the call read everything a
   * finish reads (the documents and every record: saving values); after any other call, what
   * was kept is let go, as it may no longer be the record's latest.
   */
  const keepFor = (req: TRequest, ctx: TSignerContext) => {
    const hash = hashToken(req.header('x-signing-session') ?? '');
    if (ctx.documents && ctx.others) deps.kept.keep(hash, ctx);
    else deps.kept.forget(hash);
  };

  const routes: TRoute[] = [
    {
      method: 'POST',
      path: '/sign/api/session',
      handler: async (req) => {
        const body = req.body as { token?: unknown; state?: unknown; document?: unknown } | undefined;
        const opened = await openSession(
          { ...deps, evidence },
          body?.token,
          req.client,
          body?.state === true,
          typeof body?.document === 'string' ? body.document : undefined,
        );
        return { status: 201, body: opened, headers: { 'Cache-Control': 'no-store' } };
      },
    },
    { method: 'GET', path: '/sign/api/state', handler: async (req) => state(await session(req)) },
    {
      method: 'PUT',
      path: '/sign/api/values',
      body: { maxBytes: 2 * 1024 * 1024 },
      handler: act((call, req) => saveValues(call, req.body), true),
    },
    {
      method: 'POST',
      path: '/sign/api/attachments',
      body: { accept: [...UPLOAD_BODY.accept], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (call, req) => {
        const name = req.query.get('name') ?? req.header('x-file-name');
        const { file } = await filesOf(req.body, ['file'], name);
        return uploadAttachment(
          call,
          { docKey: req.query.get('doc_key'), fieldKey: req.query.get('field_key') },
          file ?? { bytes: Buffer.alloc(0), contentType: '', fileName: '' },
        );
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/sms/send',
      handler: act((call) => sendSmsCode(call)),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/sms/verify',
      handler: act((call, req) => verifySmsCode(call, req.body)),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/selfie',
      body: { accept: [...UPLOAD_BODY.accept], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (call, req) => {
        const { image } = await filesOf(req.body, ['image'], 'selfie');
        return submitSelfie(call, image);
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/auth/id',
      body: { accept: ['multipart'], maxBytes: UPLOAD_BODY.maxBytes },
      handler: act(async (call, req) => {
        const { front, back } = await filesOf(req.body, ['front', 'back'], undefined);
        return submitId(call, { front, back });
      }),
    },
    {
      method: 'POST',
      path: '/sign/api/complete',
      handler: async (req) => {
        // The answer names where the page goes next, which may be the account's redirect: read
        // beside the signer's own read rather than after it, where it would weigh on the write.
        let account: Promise<TAccount | undefined> | undefined;
        // From what the session's last call here ended with, when it read everything (kept-signers.ts).
        const signer = await signerOf(deps, req.header('x-signing-session'), {
          withFields: true,
          besides: (token) => {
            account = deps.accounts.getAccount(token.accountId);
            account.catch(() => undefined); // a finish refused answers its own error
          },
          fromKept: true,
        });
        // A packet's own redirect needs no account (the read is then not used).
        const read = signer.packet.signingCompleteRedirect ? {} : { account };
        return state(await completePacket({ deps, signer, client: req.client }, req.body), 200, read);
      },
    },
    {
      method: 'POST',
      path: '/sign/api/decline',
      handler: act((call, req) => declinePacket(call, req.body)),
    },
    // An approver's two answers (packet-roles.ts): the same decisions as finishing and declining.
    {
      method: 'POST',
      path: '/sign/api/approve',
      handler: act((call, req) => completePacket(call, req.body, 'approver')),
    },
    {
      method: 'POST',
      path: '/sign/api/reject',
      handler: act((call, req) => declinePacket(call, req.body, 'approver')),
    },
    {
      method: 'POST',
      path: '/sign/api/reassign',
      // Not `act`: the answer is who the packet went to, since the session ends with the handover.
      handler: async (req) => {
        const { token, signer } = await sessionSigner(deps, req.header('x-signing-session'));
        const handed = await reassignPacket({ deps, signer, client: req.client }, token, req.body);
        return { status: 200, body: handed, headers: { 'Cache-Control': 'no-store' } };
      },
    },
    {
      method: 'PUT',
      path: '/sign/api/language',
      handler: act((call, req) => chooseLanguage(call, req.body)),
    },
    // Bundle payments (ARCHITECTURE.md, "Payments"): the signer's step and the processor's webhook.
    ...paymentRoutes({ ...deps, config, payments: createPaymentProviderSource(config), session }),
    ...pageRoutes({ ...deps, config, evidence }),
    // A signed bundle's copies (ARCHITECTURE.md, "Signed copies"): /sign/copies/<token>.
    ...copiesRoutes({ ...deps, config, evidence, copies: createCopyLinkStore(db, config.tableName) }),
    // Portal smart links (ARCHITECTURE.md, "Envelope templates"): /portal/<template id>.
    ...portalRoutes({ ...deps, db, config, ...(opts.portalLimits ? { limits: opts.portalLimits } : {}) }),
    // Template preparation sessions (ARCHITECTURE.md): /prepare/<token> and its API.
    ...prepareRoutes({ db, config, accounts: deps.accounts, blobs: deps.blobs, clock: deps.clock, log }),
    ...bundleEditorRoutes({ ...deps, db, config }),
    // The API's OpenAPI description (ARCHITECTURE.md, "The API description"): /api/v2/openapi.json.
    ...openApiRoutes({ config }),
    // Its reference page (ARCHITECTURE.md, "The API description"): /docs.
    ...docsRoutes({ config }),
    // The pages' fonts for scripts a reader's system may lack (web-fonts.ts): /sign/fonts/….
    ...webFontRoutes(config),
    // The public verification page (ARCHITECTURE.md, "Evidence"): /verify.
    ...verifyRoutes({
      bundles: deps.bundles,
      evidence,
      seals: createSealReader(),
      config,
    }),
  ];

  return createApiHandler(routes, telemetry, { anonymous: true, config, localizeError: localizeSignerError });
}
