// Template preparation pages (`/prepare/<token>`, no API key; ARCHITECTURE.md, "Template
// preparation sessions"): the link from POST /templates/preparation_session/ opens a page where the
// template's PDF is shown (pdf.js, as the signing page) and roles and fields are placed. Its script
// (functions/public-pages/public/prepare.js) reads and saves through `/prepare/api/…` with the link's
// token in the `X-Preparation-Token` header; saving goes through the same use case as PATCH
// /templates/{id}/.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSqsClient } from '#shared/adapters/aws/clients';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import type { TConfig } from '#shared/config';
import { FILE_LINK_SECONDS } from '#shared/domain/bundles/bundle-files';
import type { TAccountStore } from '#shared/domain/ports/accounts';
import type { TBlobStore } from '#shared/domain/ports/files';
import type { TClock } from '#shared/domain/ports/system';
import { publishTemplateEvent } from '#shared/domain/templates/publish-template-event';
import {
  findPrepSession,
  openFoundSession,
  openPrepSession,
  savePrepSession,
} from '#shared/domain/templates/save-prep-session';
import { errorBody } from '#shared/http/error-body';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { translator } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import type { TLogger } from '#shared/logger';
import { toDocTemplateResponse } from '#shared/responses/doc-template';
import { toPrepSessionResponse } from '#shared/responses/prep-session';
import { BUNDLE_LIMITS } from '#shared/schemas/bundle-request';
import { signingAssets } from './assets';
import { basePathBefore, esc } from './html';
import { messagePage } from './message-page';
import { PAGE_SCRIPTS } from './page-bundles';
import { MAX_INLINE_PDF_BYTES } from './pages';
import { frameAncestors, securityHeaders } from './security-headers';
import { editorLanguage, htmlLangAttrs } from './visitor-language';

export interface TPrepareRouteDeps {
  db: DynamoDBDocumentClient;
  config: TConfig;
  accounts: TAccountStore;
  blobs: TBlobStore;
  clock: TClock;
  log: TLogger;
}

const TOKEN_HEADER = 'x-preparation-token';

/** '' locally, `/<stage>` on API Gateway's own URL. */
const basePath = (req: TRequest) => basePathBefore(req, '/prepare/');

/** A draft bundle's editor (bundle-editor-page.ts): the API it calls, and the origins its parent window may have. */
export interface TEditorPageOptions {
  bundle?: { api: string; parentOrigins: string[] };
}

/**
 * The page itself, in the sender's language (`editorLanguage`): an HTML shell the script
 * (prepare.js, one editor for both) fills in with the words of that language's catalog, loaded as
 * the signing page loads its own (public/i18n.js).
 */
export function editorPage(base: string, lang: TLanguage, opts: TEditorPageOptions = {}): string {
  const t = translator(lang);
  const what = opts.bundle ? 'bundle' : 'template';
  const title = t(`editor.title.${what}`);
  const assets = `${base}/sign/assets/${signingAssets().version}`;
  const api = opts.bundle ? opts.bundle.api : `${base}/prepare/api`;
  const bundleData = opts.bundle
    ? ` data-mode="bundle" data-parent-origins="${esc(JSON.stringify(opts.bundle.parentOrigins))}"`
    : '';
  return `<!doctype html>
<html ${htmlLangAttrs(lang)} data-api="${esc(api)}" data-assets="${esc(assets)}"${bundleData}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${esc(assets)}/app.css">
<link rel="stylesheet" href="${esc(assets)}/prepare.css">
<script type="module" src="${esc(assets)}/${PAGE_SCRIPTS['prepare.js']}"></script>
<link rel="preload" as="fetch" crossorigin="anonymous" href="${esc(assets)}/locales/${lang}.json">
</head>
<body>
<a class="skip-link" href="#main">${esc(t('editor.skip'))}</a>
<header class="topbar"><div class="topbar-inner"><div class="brand"><span class="brand-name">${esc(title)}</span></div></div></header>
<main id="main" class="main prep" tabindex="-1"><p class="loading" role="status">${esc(t(`editor.loading.${what}`))}</p></main>
<noscript><p class="card message">${esc(t('editor.noscript'))}</p></noscript>
<div id="announcer" class="sr-only" role="status" aria-live="polite"></div>
</body>
</html>
`;
}

/** A link's own message (not valid, expired, sent) in the editor's language, as the editor's top bar names it. */
export function editorMessagePage(base: string, lang: TLanguage, what: 'template' | 'bundle', text: string) {
  const t = translator(lang);
  return messagePage(base, t('editor.linkBroken'), text, {
    header: t(`editor.title.${what}`),
    lang,
    skip: t('editor.skip'),
  });
}

export function prepareRoutes(deps: TPrepareRouteDeps): TRoute[] {
  const { config, db } = deps;
  const sessionDeps = {
    sessions: createPrepSessionStore(db, config.tableName),
    templates: createDocTemplateStore(db, config.tableName),
    accounts: deps.accounts,
    clock: deps.clock,
    pdf: createDocumentIntake(config).pdf,
  };
  const eventDeps = {
    webhooks: createWebhookStore(db, config.tableName),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    queue: createSqsQueue(createSqsClient(config), config.queues ?? {}),
    clock: deps.clock,
  };
  const headers = (req: TRequest) => ({
    ...securityHeaders(config, { https: req.url.protocol === 'https:' }),
    'Cache-Control': 'no-store',
  });
  const html = (req: TRequest, status: number, text: string, frameAncestors?: string[]): TResponse => ({
    status,
    text,
    headers: {
      ...securityHeaders(config, {
        https: req.url.protocol === 'https:',
        ...(frameAncestors ? { frameAncestors } : {}),
      }),
      'Cache-Control': 'no-store',
      'Content-Type': 'text/html; charset=utf-8',
    },
  });
  const open = (req: TRequest) => openPrepSession(sessionDeps, req.header(TOKEN_HEADER));

  async function page(req: TRequest): Promise<TResponse> {
    const base = basePath(req);
    // A session's own messages (expired, saved, template gone) show in the frame too; an unknown
    // link's never do.
    // Framed like an embedded signing session: by the origins the session's account lists.
    const found = await findPrepSession(sessionDeps, req.params.token);
    const account = found ? await deps.accounts.getAccount(found.accountId) : undefined;
    const ancestors = frameAncestors(account);
    const lang = editorLanguage(req, account?.language);
    try {
      await openFoundSession(sessionDeps, found);
    } catch (err) {
      const name = (err as Error).name;
      if (name !== 'NotFoundError' && name !== 'GoneError') throw err;
      const gone = name === 'GoneError';
      const text = gone ? (err as Error).message : translator(lang)('editor.invalidTemplateLink');
      return html(req, gone ? 410 : 404, editorMessagePage(base, lang, 'template', text), ancestors);
    }
    return html(req, 200, editorPage(base, lang), ancestors);
  }

  return [
    { method: 'GET', path: '/prepare/{token}', handler: page },
    {
      method: 'GET',
      path: '/prepare/api/session',
      handler: async (req) => {
        const { session, template } = await open(req);
        const body = toPrepSessionResponse(session, template);
        // Small files come through this API (same origin); larger ones from their presigned link.
        const inline = template.document.size <= MAX_INLINE_PDF_BYTES;
        const fileUrl = inline
          ? null
          : await deps.blobs.presignGet(template.document.blobKey, FILE_LINK_SECONDS);
        return { status: 200, body: { ...body, file_url: fileUrl }, headers: headers(req) };
      },
    },
    {
      method: 'GET',
      path: '/prepare/api/document',
      handler: async (req) => {
        const { template } = await open(req);
        if (template.document.size > MAX_INLINE_PDF_BYTES)
          return {
            status: 413,
            body: errorBody('invalid', 'This document is too large to send here; read it from its file_url.'),
            headers: headers(req),
          };
        return {
          status: 200,
          binary: await deps.blobs.get(template.document.blobKey),
          headers: { ...headers(req), 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline' },
        };
      },
    },
    {
      method: 'PUT',
      path: '/prepare/api/template',
      body: { maxBytes: BUNDLE_LIMITS.requestBytes },
      handler: async (req) => {
        const saved = await savePrepSession(sessionDeps, req.header(TOKEN_HEADER), req.body);
        try {
          await publishTemplateEvent(eventDeps, saved.template, 'doc_template_updated');
        } catch (err) {
          deps.log.error('document template webhook event not published', {
            templateId: saved.template.id,
            error: (err as Error).message,
          });
        }
        const { file_url: _f, ...template } = toDocTemplateResponse(saved.template, '');
        return {
          status: 200,
          body: { template, redirect_url: saved.redirectUrl ?? null },
          headers: headers(req),
        };
      },
    },
  ];
}
