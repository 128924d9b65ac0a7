// Portal smart links (`/portal/<envelope template id>`, no API key): a portal template with direct
// signing is a public form. The page asks for a name and an email (plain HTML, no script); its
// POST makes a bundle from the template for that person and answers 303 to an embedded signing
// link, so they sign at once. Abuse limits: start-portal-signing.ts (PORTAL_LIMITS).
// In the visitor's language (visitor-language.ts: their choice, the template role's language, the
// account's default, their browser's); a language they chose is the packet's too, so the signing
// page that follows speaks it. Its routes are in portal-routes.ts, which imports this file with
// the first request to /portal.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '#shared/adapters/dynamodb/envelope-template-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createPortalCounterStore } from '#shared/adapters/dynamodb/portal-counter-store';
import { randomIds } from '#shared/adapters/system';
import type { TConfig } from '#shared/config';
import type { TEnvelopeTemplate } from '#shared/domain/envelope-templates/envelope-template';
import {
  countPortalView,
  PORTAL_LIMITS,
  portalTemplate,
  startPortalSigning,
  type TPortalLimits,
} from '#shared/domain/envelope-templates/start-portal-signing';
import {
  NotFoundError,
  type ServiceError,
  type TFieldError,
  ThrottledError,
  ValidationError,
} from '#shared/domain/errors';
import type { TAccountStore, TPortalCounterStore } from '#shared/domain/ports/accounts';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TBlobStore } from '#shared/domain/ports/files';
import type { TSigningTokenStore } from '#shared/domain/ports/signing';
import type { TClock } from '#shared/domain/ports/system';
import type { TRequest, TResponse } from '#shared/http/request';
import { translator } from '#shared/i18n/catalogs';
import { signerLanguage, supportedLanguage, type TLanguage } from '#shared/i18n/languages';
import { basePathBefore, esc } from './html';
import { messagePage, plainDocument, topBar } from './message-page';
import { securityHeaders } from './security-headers';
import { languageMenuHtml, visitorLanguage } from './visitor-language';

export interface TPortalRouteDeps {
  db: DynamoDBDocumentClient;
  config: TConfig;
  bundles: TBundleStore;
  accounts: TAccountStore;
  tokens: TSigningTokenStore;
  blobs: TBlobStore;
  clock: TClock;
  /** Tests pass smaller limits (buildPublicPagesHandler's portalLimits); deployed: PORTAL_LIMITS. */
  limits?: TPortalLimits;
  counters?: TPortalCounterStore;
}

/** '' locally, `/<stage>` on API Gateway's own URL. */
const basePath = (req: TRequest) => basePathBefore(req, '/portal/');

interface TForm {
  name?: string;
  email?: string;
  errors?: TFieldError[];
  message?: string;
}

/** A field's error in the visitor's words: the form's own two fields, each with one rule. */
const FIELD_MESSAGES = { name: 'portal.nameMissing', email: 'sign.rules.email' } as const;

/** What a refused start says to the visitor, in their language when it carries its key. */
function messageOf(err: ServiceError, lang: TLanguage): string {
  return err.said ? translator(lang)(err.said.key, err.said.values) : err.message;
}

function formPage(
  base: string,
  t: TEnvelopeTemplate,
  lang: TLanguage,
  chosen: boolean,
  form: TForm = {},
): string {
  const tr = translator(lang);
  const errorOf = (field: 'name' | 'email') =>
    form.errors?.some((e) => e.field === field) ? tr(FIELD_MESSAGES[field]) : undefined;
  const input = (id: 'name' | 'email', label: string, type: string, autocomplete: string) => {
    const error = errorOf(id);
    return `<p><label class="label" for="${id}">${esc(label)}</label>
<input class="input" id="${id}" name="${id}" type="${type}" dir="auto" autocomplete="${autocomplete}" required maxlength="254" value="${esc(form[id] ?? '')}"${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${error ? `<span class="field-error" id="${id}-error">${esc(error)}</span>` : ''}</p>`;
  };
  const section = `<section class="card" aria-labelledby="title">
<h1 id="title"><bdi>${esc(t.name)}</bdi></h1>
${t.description ? `<p dir="auto">${esc(t.description)}</p>` : ''}
<p>${esc(tr('portal.intro'))}</p>
${form.message ? `<p class="verdict bad" role="alert">${esc(form.message)}</p>` : ''}
<form id="portal-form" method="post" action="${esc(`${base}/portal/${t.id}${chosen ? `?lang=${lang}` : ''}`)}">
${input('name', tr('portal.name'), 'text', 'name')}
${input('email', tr('portal.email'), 'email', 'email')}
<p><button class="btn primary" type="submit">${esc(tr('portal.continue'))}</button></p>
</form>
</section>`;
  return plainDocument(base, lang, t.name, topBar(t.name, tr('page.skip'), languageMenuHtml(lang)), section);
}

const notFoundPage = (base: string, lang: TLanguage) => {
  const t = translator(lang);
  return messagePage(base, t('portal.notInUseTitle'), t('portal.notInUseText'), { lang });
};

/** What each route of portal-routes.ts answers. */
export type TPortalHandlers = Record<'form' | 'start', (req: TRequest) => Promise<TResponse>>;

/** The smart link's page and its form post; `deps` are the signing Lambda's stores. */
export function portalHandlers(deps: TPortalRouteDeps): TPortalHandlers {
  const { db, config } = deps;
  const portal = {
    ...deps,
    persons: createPersonStore(db, config.tableName),
    templates: createDocTemplateStore(db, config.tableName),
    envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
    counters: deps.counters ?? createPortalCounterStore(db, config.tableName),
    ...createDocumentIntake(config),
    ids: randomIds,
  };
  const html = (
    req: TRequest,
    status: number,
    text: string,
    extra: Record<string, string> = {},
  ): TResponse => ({
    status,
    text,
    headers: {
      ...securityHeaders(config, { https: req.url.protocol === 'https:' }),
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      ...extra,
    },
  });
  const templateOr404 = async (req: TRequest) => {
    try {
      return await portalTemplate(portal, req.params.id!);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  /** The visitor's language for the template's page: the role's and the account's come after their choice. */
  const languageFor = async (req: TRequest, t: TEnvelopeTemplate): Promise<TLanguage> =>
    signerLanguage({
      chosen: req.query.get('lang'),
      packet: t.signers[0]?.language,
      account: (await deps.accounts.getAccount(t.accountId))?.language,
      acceptLanguage: req.header('accept-language'),
    });
  const chosenOf = (req: TRequest) => supportedLanguage(req.query.get('lang'));

  return {
    form: async (req) => {
      const base = basePath(req);
      try {
        await countPortalView(portal, req.client.ip, deps.limits ?? PORTAL_LIMITS);
      } catch (err) {
        if (!(err instanceof ThrottledError)) throw err;
        const lang = visitorLanguage(req);
        return html(
          req,
          429,
          messagePage(base, translator(lang)('portal.tooManyTitle'), messageOf(err, lang), { lang }),
          { 'Retry-After': String(err.retryAfterSeconds) },
        );
      }
      const t = await templateOr404(req);
      if (!t) return html(req, 404, notFoundPage(base, visitorLanguage(req)));
      return html(req, 200, formPage(base, t, await languageFor(req, t), chosenOf(req) !== undefined));
    },
    start: async (req) => {
      const base = basePath(req);
      const t = await templateOr404(req);
      if (!t) return html(req, 404, notFoundPage(base, visitorLanguage(req)));
      const lang = await languageFor(req, t);
      const chosen = chosenOf(req);
      const body = (req.body ?? {}) as { name?: unknown; email?: unknown };
      const form: TForm = {
        name: typeof body.name === 'string' ? body.name : '',
        email: typeof body.email === 'string' ? body.email : '',
      };
      const page = (f: TForm) => formPage(base, t, lang, chosen !== undefined, f);
      try {
        const started = await startPortalSigning(
          portal,
          t.id,
          form,
          req.client.ip,
          config.publicBaseUrl || `${req.url.origin}${base}`,
          deps.limits ?? PORTAL_LIMITS,
          chosen,
        );
        return html(req, 303, '', { Location: started.url });
      } catch (err) {
        if (
          err instanceof ValidationError &&
          err.fieldErrors.every((f) => f.field === 'name' || f.field === 'email')
        )
          return html(req, 400, page({ ...form, errors: err.fieldErrors }));
        if (err instanceof ThrottledError)
          return html(req, 429, page({ ...form, message: messageOf(err, lang) }), {
            'Retry-After': String(err.retryAfterSeconds),
          });
        // The template no longer makes a valid bundle (a document template deleted since): the
        // visitor can do nothing about it; the account's owner sees why in the logs.
        if (err instanceof ValidationError) {
          req.log.warn('portal template makes no valid bundle', {
            templateId: t.id,
            errors: err.fieldErrors,
          });
          return html(req, 409, page({ ...form, message: translator(lang)('portal.cannotStart') }));
        }
        throw err;
      }
    },
  };
}
