// The draft bundle editor (`/prepare/bundle/<token>`, no API key; docs/architecture/bundle-editor.md):
// the template preparation page's editor (prepare.js) over a draft's documents, its signers and
// its fields. Its script reads, saves and sends through `/prepare/api/bundle/…` with the link's
// token in the `X-Preparation-Token` header. The page may be framed by the service's own origin
// (the console) and by the account's embed origins, no one else; the script tells its parent
// window what happened, and only a parent of those origins.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import type { TConfig } from '#shared/config';
import type { TAccount } from '#shared/domain/accounts/account';
import { FILE_LINK_SECONDS } from '#shared/domain/bundles/bundle-files';
import {
  findDraftSession,
  openDraftSession,
  sendFromEditor,
} from '#shared/domain/bundles/draft-prep-session';
import { saveDraftFields } from '#shared/domain/bundles/save-draft-fields';
import type { TAccountStore } from '#shared/domain/ports/accounts';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TBlobStore } from '#shared/domain/ports/files';
import type { TClock, TIds } from '#shared/domain/ports/system';
import { errorBody } from '#shared/http/error-body';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { translator } from '#shared/i18n/catalogs';
import { toDraftDocuments, toDraftEditorResponse } from '#shared/responses/draft-editor';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { basePathBefore } from './html';
import { MAX_INLINE_PDF_BYTES } from './pages';
import { editorMessagePage, editorPage } from './prepare-page';
import { frameAncestors, securityHeaders } from './security-headers';
import { editorLanguage } from './visitor-language';

export interface TBundleEditorRouteDeps {
  db: DynamoDBDocumentClient;
  config: TConfig;
  bundles: TBundleStore;
  accounts: TAccountStore;
  blobs: TBlobStore;
  clock: TClock;
  ids: TIds;
}

const TOKEN_HEADER = 'x-preparation-token';
/** The origins that may frame the editor: the service's own, then the account's embed origins. */
export const editorAncestors = (account: TAccount | undefined): string[] => [
  "'self'",
  ...(frameAncestors(account) ?? []),
];

export function bundleEditorRoutes(deps: TBundleEditorRouteDeps): TRoute[] {
  const { config, db } = deps;
  const sessionDeps = {
    sessions: createPrepSessionStore(db, config.tableName),
    bundles: deps.bundles,
    accounts: deps.accounts,
    clock: deps.clock,
    ids: deps.ids,
    pdf: createDocumentIntake(config).pdf,
  };
  const headers = (req: TRequest) => ({
    ...securityHeaders(config, { https: req.url.protocol === 'https:' }),
    'Cache-Control': 'no-store',
  });
  const token = (req: TRequest) => req.header(TOKEN_HEADER);

  async function page(req: TRequest): Promise<TResponse> {
    const base = basePathBefore(req, '/prepare/');
    const found = await findDraftSession(sessionDeps, req.params.token);
    // An unknown link's message is never framed; a session's own (expired, sent) is, by its account.
    const account = found ? await deps.accounts.getAccount(found.accountId) : undefined;
    const ancestors = found ? editorAncestors(account) : undefined;
    const lang = editorLanguage(req, account?.language);
    const html = (status: number, text: string): TResponse => ({
      status,
      text,
      headers: {
        ...securityHeaders(config, {
          https: req.url.protocol === 'https:',
          ...(ancestors ? { frameAncestors: ancestors } : {}),
        }),
        'Cache-Control': 'no-store',
        'Content-Type': 'text/html; charset=utf-8',
      },
    });
    try {
      await openDraftSession(sessionDeps, req.params.token);
    } catch (err) {
      const name = (err as Error).name;
      if (name !== 'NotFoundError' && name !== 'GoneError') throw err;
      const gone = name === 'GoneError';
      const text = gone ? (err as Error).message : translator(lang)('editor.invalidBundleLink');
      return html(gone ? 410 : 404, editorMessagePage(base, lang, 'bundle', text));
    }
    // The page's script may tell only these origins what happened: its own, and the embed origins.
    const parentOrigins = [req.url.origin, ...(ancestors ?? []).filter((a) => a !== "'self'")];
    if (config.publicBaseUrl) parentOrigins.push(new URL(config.publicBaseUrl).origin);
    const body = editorPage(base, lang, {
      bundle: { api: `${base}/prepare/api/bundle`, parentOrigins: [...new Set(parentOrigins)] },
    });
    return html(200, body);
  }

  return [
    { method: 'GET', path: '/prepare/bundle/{token}', handler: page },
    {
      method: 'GET',
      path: '/prepare/api/bundle/session',
      handler: async (req) => {
        const { session, bundle, documents } = await openDraftSession(sessionDeps, token(req));
        // Small files come through this API (same origin); larger ones from their presigned link.
        const fileUrls = await Promise.all(
          documents.map((d) =>
            d.size <= MAX_INLINE_PDF_BYTES ? null : deps.blobs.presignGet(d.blobKey, FILE_LINK_SECONDS),
          ),
        );
        const body = toDraftEditorResponse(session, bundle, documents, fileUrls);
        return { status: 200, body, headers: headers(req) };
      },
    },
    {
      method: 'GET',
      path: '/prepare/api/bundle/documents/{key}',
      handler: async (req) => {
        const { documents } = await openDraftSession(sessionDeps, token(req));
        const doc = documents.find((d) => d.key === req.params.key);
        if (!doc)
          return {
            status: 404,
            body: errorBody('not_found', 'The bundle has no such document.'),
            headers: headers(req),
          };
        if (doc.size > MAX_INLINE_PDF_BYTES)
          return {
            status: 413,
            body: errorBody('invalid', 'This document is too large to send here; read it from its file_url.'),
            headers: headers(req),
          };
        return {
          status: 200,
          binary: await deps.blobs.get(doc.blobKey),
          headers: { ...headers(req), 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline' },
        };
      },
    },
    {
      method: 'PUT',
      path: '/prepare/api/bundle/fields',
      body: { maxBytes: BUNDLE_LIMITS.requestBytes },
      handler: async (req) => {
        const saved = await saveDraftFields(sessionDeps, token(req), req.body);
        const body = { version: saved.bundle.version, documents: toDraftDocuments(saved.documents) };
        return { status: 200, body, headers: headers(req) };
      },
    },
    {
      method: 'POST',
      path: '/prepare/api/bundle/send',
      handler: async (req) => {
        const sent = await sendFromEditor(sessionDeps, token(req));
        return { status: 200, body: { id: sent.id, status: sent.status }, headers: headers(req) };
      },
    },
  ];
}
