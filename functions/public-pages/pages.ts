// The signing pages, the signer API's own front end: one HTML shell per link (the script in
// functions/public-pages/public/ does the rest through /sign/api/), its static files, and the
// documents' PDFs for the page's viewer.

import type { TAccount, TBrand } from '#shared/domain/accounts/account';
import { brandPalette } from '#shared/domain/accounts/brand-palette';
import type { TBundle, TPacket } from '#shared/domain/bundles/bundle';
import { NotFoundError } from '#shared/domain/errors';
import type { TSigningToken } from '#shared/domain/ports/signing';
import { cannotSign, canRead, heldBy, signerOf } from '#shared/domain/signing/signer-context';
import { authComplete } from '#shared/domain/signing/signer-state';
import { signingBrandOf } from '#shared/domain/signing/signing-brand';
import type { TSigningRecord } from '#shared/domain/signing/signing-record';
import { hashToken, isToken } from '#shared/domain/tokens';
import { errorBody } from '#shared/http/error-body';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { translator } from '#shared/i18n/catalogs';
import {
  directionOf,
  LANGUAGES,
  languageFromAcceptLanguage,
  resolveLanguage,
  signerLanguage,
  type TLanguage,
} from '#shared/i18n/languages';
import { contentTypeOf, signingAssets } from './assets';
import { copiesPageHtml, signingLinkCopies, type TCopyPageDeps } from './copies-page';
import { earlyStart } from './early-start';
import { basePathBefore, esc } from './html';
import { signingPagePreloads } from './module-preloads';
import { PAGE_SCRIPTS } from './page-bundles';
import { pageStyle } from './page-style';
import { catalogBlock } from './page-words';
import { fileNotFound, frameAncestors, logoOrigin, logoShown, securityHeaders } from './security-headers';
import { nativeName } from './visitor-language';
import { webFontLink } from './web-fonts';

export type TPageDeps = TCopyPageDeps;

/** Assets under their current version are immutable: the version is a hash of their content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The largest PDF the page gets through the API: a Lambda answer holds 6 MB, base64 included.
 * Larger documents are read from their presigned link (the bucket must answer CORS for it).
 */
export const MAX_INLINE_PDF_BYTES = 4 * 1024 * 1024;

/** The path the service is served under: '' locally, `/<stage>` on API Gateway's own URL. */
const basePath = (req: TRequest) => basePathBefore(req, '/sign/');

/** Whether the link may open the page: unknown, spent or expired links get the clear page at once. */
function usable(link: TSigningToken | undefined, now: Date): link is TSigningToken {
  if (!link || link.kind === 'session') return false;
  // A used embedded or kiosk link still serves the page: its session (kept by the page) outlives
  // the link, and the page says so itself when it has none.
  if ((link.kind === 'embed' || link.kind === 'kiosk') && link.usedAt) return true;
  return Date.parse(link.expires) > now.getTime();
}

interface TShell {
  base: string;
  version: string;
  /** The signer's language: the page's words, `lang` and `dir`, and the catalog its head carries (page-words.ts). */
  lang: TLanguage;
  title: string;
  brand?: TBrand;
  /** The page's own data for its script; absent for the clear pages. */
  app?: { embedded: boolean; kiosk?: { signer: string; host: string }; firstDocument?: string };
  message?: { title: string; text: string; note?: string };
}

const FSI = '\u2068';
const PDI = '\u2069';
/** Escaped text whose isolated parts (a sender's words in a sentence) become <bdi>. */
const isolated = (text: string) => esc(text).replaceAll(FSI, '<bdi>').replaceAll(PDI, '</bdi>');

function brandHtml(brand: TBrand | undefined, lang: TLanguage): string {
  if (!brand) return `<span class="brand-name">${esc(translator(lang)('page.title'))}</span>`;
  const logo = logoShown(brand.logoUrl)
    ? `<img class="brand-logo" src="${esc(brand.logoUrl!)}" alt="" referrerpolicy="no-referrer">`
    : '';
  return `${logo}<span class="brand-name"><bdi>${esc(brand.name)}</bdi></span>`;
}

/** The brand's colours, made readable here (brand-palette.ts), for the page's script to apply. */
function brandColors(primaryColor: string | undefined): string[] {
  const p = brandPalette(primaryColor);
  return p
    ? [`data-brand-color="${p.brand}"`, `data-on-brand="${p.onBrand}"`, `data-brand-text="${p.brandText}"`]
    : [];
}

/** What the page's script imports at run time, fetched beside it (module-preloads.ts). */
const modulePreloads = (assets: string) =>
  signingPagePreloads(signingAssets())
    .map((name) => `<link rel="modulepreload" href="${esc(assets)}/${esc(name)}">`)
    .join('\n');

function shell(s: TShell): string {
  const t = translator(s.lang);
  const assets = `${s.base}/sign/assets/${s.version}`;
  const data = [
    `lang="${s.lang}" dir="${directionOf(s.lang)}"`,
    `data-api="${esc(`${s.base}/sign/api`)}"`,
    `data-assets="${esc(assets)}"`,
    ...(s.brand?.name ? [`data-brand-name="${esc(s.brand.name)}"`] : []),
    ...brandColors(s.brand?.primaryColor),
    ...(s.app?.embedded ? ['data-embedded="true"'] : []),
    ...(s.app?.firstDocument ? [`data-first-document="${esc(s.app.firstDocument)}"`] : []),
    ...(s.app?.kiosk
      ? [
          'data-kiosk="true"',
          `data-kiosk-signer="${esc(s.app.kiosk.signer)}"`,
          `data-kiosk-host="${esc(s.app.kiosk.host)}"`,
        ]
      : []),
    ...(s.app ? [`data-languages="${LANGUAGES.join(' ')}"`] : []),
    // Their names for the page's menu, in their own words: in the page, each name costs the
    // browser a language's locale data before the first page.
    ...(s.app ? [`data-language-names="${esc(LANGUAGES.map(nativeName).join('|'))}"`] : []),
  ].join(' ');
  const body = s.message
    ? `<main id="main" class="main" tabindex="-1"><section class="card message" aria-labelledby="msg-title">
<h1 id="msg-title">${esc(s.message.title)}</h1><p>${isolated(s.message.text)}</p>${
        s.message.note ? `<p class="hint">${esc(s.message.note)}</p>` : ''
      }</section></main>`
    : `<main id="main" class="main" tabindex="-1"><p class="loading" role="status">${esc(t('page.loading'))}</p></main>
<noscript><p class="card message">${esc(t('page.noscript'))}</p></noscript>`;
  return `<!doctype html>
<html ${data}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, interactive-widget=resizes-content">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${esc(s.title)}</title>
${s.app ? `${earlyStart().html}\n${pageStyle().html}` : `<link rel="stylesheet" href="${esc(assets)}/app.css">`}
${webFontLink(s.base, s.lang)}
${s.app ? `<script type="module" src="${esc(assets)}/${PAGE_SCRIPTS['app.js']}"></script>\n${modulePreloads(assets)}\n${catalogBlock(s.lang)}` : ''}
</head>
<body>
<a class="skip-link" href="#main">${esc(t('page.skip'))}</a>
<header class="topbar" id="topbar"><div class="topbar-inner"><div class="brand">${brandHtml(s.brand, s.lang)}</div><div class="topbar-tools" id="tools"></div>${s.app ? '<div class="topbar-language" id="language"></div>' : ''}</div></header>
${body}
</body>
</html>
`;
}

/** The signing pages' routes; `deps` are the signing Lambda's. */
export function pageRoutes(deps: TPageDeps): TRoute[] {
  const { config } = deps;

  const page = (
    req: TRequest,
    status: number,
    html: string,
    lang: TLanguage,
    frameAncestors?: string[],
    logo?: string,
    scriptHashes?: string[],
    styleHashes?: string[],
  ): TResponse => ({
    status,
    text: html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': lang,
      'Cache-Control': 'no-store',
      ...securityHeaders(config, {
        ...(frameAncestors ? { frameAncestors } : {}),
        ...(logo ? { imageOrigins: [logo] } : {}),
        ...(scriptHashes ? { scriptHashes } : {}),
        ...(styleHashes ? { styleHashes } : {}),
        https: req.url.protocol === 'https:',
      }),
    },
  });

  /**
   * The language the signer reads (shared/i18n/languages.ts, signerLanguage): the one they chose
   * on the page (their signing record), the packet's, the bundle's, the account's default, else
   * their browser's.
   */
  function languageOf(
    req: TRequest,
    link: TSigningToken,
    bundle: TBundle | undefined,
    record: TSigningRecord | undefined,
    account: TAccount | undefined,
  ) {
    // The choice is the link's signer's: a record kept from before a handover is someone else's.
    const chosen = (record?.generation ?? 0) === (link.generation ?? 0) ? record?.language : undefined;
    return signerLanguage({
      chosen,
      packet: bundle?.packets.find((p) => p.id === link.packetId)?.language,
      bundle: bundle?.language,
      account: account?.language,
      acceptLanguage: req.header('accept-language'),
    });
  }

  /**
   * The first document's key when the signer will see the documents as soon as the page opens
   * (may sign now, no identity check to pass first): the page asks for it beside
   * its state. Read from the bundle already loaded; nothing more is read for it.
   */
  function firstDocumentNow(bundle: TBundle | undefined, packet: TPacket | undefined): string | undefined {
    if (!bundle || !packet || packet.authSms || packet.authSelfie || packet.authId) return undefined;
    if (!canRead(bundle, packet, deps.clock.now())) return undefined;
    return bundle.documents[0]?.key;
  }

  async function signingPage(req: TRequest): Promise<TResponse> {
    const token = req.params.token ?? '';
    const base = basePath(req);
    const { version } = signingAssets();
    const link = isToken(token) ? await deps.tokens.get(hashToken(token)) : undefined;
    if (!usable(link, deps.clock.now())) {
      // Nobody is known by a link that does not work: the browser's language.
      const lang = resolveLanguage(languageFromAcceptLanguage(req.header('accept-language')));
      const t = translator(lang);
      const message = { title: t('page.badLinkTitle'), text: t('page.badLinkText') };
      return page(req, 404, shell({ base, version, lang, title: message.title, message }), lang);
    }
    // The signer's record for the language, and the account for it and for framing: read beside the bundle.
    const [bundle, record, account] = await Promise.all([
      deps.bundles.get(link.accountId, link.bundleId),
      deps.records.get(link.accountId, link.bundleId, link.packetId),
      deps.accounts.getAccount(link.accountId),
    ]);
    const packet = bundle?.packets.find((p) => p.id === link.packetId);
    if (packet && !heldBy(link, packet)) {
      // The signer handed the packet to someone else: their link no longer opens it.
      const lang = languageOf(req, link, bundle, record, account);
      const t = translator(lang);
      const message = { title: t('page.badLinkTitle'), text: t('page.handedOnLinkText') };
      return page(req, 404, shell({ base, version, lang, title: message.title, message }), lang);
    }
    // Signed by everyone and sealed: the signer's link now opens their copies (copies-page.ts).
    const copies = await signingLinkCopies(deps, link, req.header('accept-language'), {
      bundle,
      record,
      account,
    });
    if (copies) {
      const html = copiesPageHtml(base, copies, `${base}/sign/copies/${token}`);
      return page(req, 200, html, copies.language);
    }
    const brand = bundle ? await signingBrandOf(deps.accounts, bundle) : undefined;
    // Framing: only an embedded link, and only from the origins its account allows.
    const ancestors = link.kind === 'embed' ? frameAncestors(account) : undefined;
    const lang = languageOf(req, link, bundle, record, account);
    const t = translator(lang);
    if (link.kiosk && link.usedAt && (!bundle || !packet || cannotSign(bundle, packet, deps.clock.now()))) {
      // In person and done: reloading or going back shows the hand-back screen, never the documents.
      const message = {
        title: t('sign.kiosk.handBackTitle'),
        text: t('sign.kiosk.handBackText', { host: `${FSI}${link.kiosk.name}${PDI}` }),
        note: t('sign.kiosk.locked'),
      };
      return page(req, 410, shell({ base, version, lang, title: message.title, message }), lang);
    }
    const firstDocument = firstDocumentNow(bundle, packet);
    const html = shell({
      base,
      version,
      lang,
      title: brand ? t('page.titleBrand', { brand: brand.name }) : t('page.title'),
      ...(brand ? { brand } : {}),
      app: {
        embedded: link.kind === 'embed',
        ...(link.kiosk ? { kiosk: { signer: packet?.name ?? '', host: link.kiosk.name } } : {}),
        ...(firstDocument ? { firstDocument } : {}),
      },
    });
    // The head's inline script (early-start.ts) and style sheet (page-style.ts), each allowed by its hash alone.
    return page(
      req,
      200,
      html,
      lang,
      ancestors,
      logoOrigin(brand?.logoUrl),
      [earlyStart().source],
      [pageStyle().source],
    );
  }

  function asset(req: TRequest, name: string): TResponse {
    const store = signingAssets();
    const bytes = store.read(name);
    const headers = securityHeaders(config, { https: req.url.protocol === 'https:' });
    if (!bytes) return fileNotFound(headers);
    return {
      status: 200,
      binary: bytes,
      headers: {
        ...headers,
        'Content-Type': contentTypeOf(name),
        // An old version's URL gets today's file, briefly cached: pages open across a deploy keep working.
        'Cache-Control': req.params.version === store.version ? IMMUTABLE : 'public, max-age=300',
      },
    };
  }

  /**
   * A document's PDF for the page's viewer, to a session whose signer may see the documents now
   * (as GET /sign/api/state shows them): same origin, so the bucket need not answer CORS.
   */
  async function documentPdf(req: TRequest): Promise<TResponse> {
    const ctx = await signerOf(deps, req.header('x-signing-session'));
    if (!canRead(ctx.bundle, ctx.packet, ctx.now) || !authComplete(ctx))
      throw new NotFoundError('No such document.');
    const doc = (await deps.bundles.documents(ctx.bundle)).find((d) => d.key === req.params.doc_key);
    if (!doc) throw new NotFoundError('No such document.');
    if (doc.size > MAX_INLINE_PDF_BYTES) {
      return {
        status: 413,
        body: errorBody('invalid', 'This document is too large to send here; read it from its file_url.'),
        headers: { 'Cache-Control': 'no-store' },
      };
    }
    return {
      status: 200,
      binary: await deps.blobs.get(doc.blobKey),
      headers: {
        'Content-Type': 'application/pdf',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': 'inline',
      },
    };
  }

  return [
    { method: 'GET', path: '/sign/{token}', handler: signingPage },
    {
      method: 'GET',
      path: '/sign/assets/{version}/{file}',
      handler: async (req) => asset(req, req.params.file!),
    },
    {
      method: 'GET',
      path: '/sign/assets/{version}/{folder}/{file}',
      handler: async (req) => asset(req, `${req.params.folder}/${req.params.file}`),
    },
    { method: 'GET', path: '/sign/api/documents/{doc_key}', handler: documentPdf },
  ];
}
