// A signer's (or cc recipient's) copies of a signed bundle: the page their documents-ready message
// links to (/sign/copies/<token>), and the downloads on it. A finished signer's own signing link
// opens the same page once the documents are ready (pages.ts), so its downloads take either token:
// a copy link (shared/domain/evidence/copy-link.ts) or that signing link. No script: a list of links.

import type { TConfig } from '#shared/config';
import type { TAccount } from '#shared/domain/accounts/account';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { NotFoundError } from '#shared/domain/errors';
import {
  CopyLinkExpiredError,
  copiesReady,
  copyFiles,
  openCopyLink,
  type TCopies,
} from '#shared/domain/evidence/copy-link';
import type { TCopyLinkStore, TEvidenceStore } from '#shared/domain/ports/evidence';
import type { TSigningToken } from '#shared/domain/ports/signing';
import { heldBy, type TSigningDeps } from '#shared/domain/signing/signer-context';
import type { TSigningRecord } from '#shared/domain/signing/signing-record';
import { hashToken, isToken } from '#shared/domain/tokens';
import type { TRequest, TResponse } from '#shared/http/request';
import type { TRoute } from '#shared/http/router';
import { translator } from '#shared/i18n/catalogs';
import {
  languageFromAcceptLanguage,
  resolveLanguage,
  signerLanguage,
  type TLanguage,
} from '#shared/i18n/languages';
import { basePathBefore, esc } from './html';
import { plainDocument, topBar } from './message-page';
import { securityHeaders } from './security-headers';

/** The signing pages' stores (pages.ts), the evidence record and, for copy links, their store. */
export type TCopyPageDeps = TSigningDeps & { config: TConfig; evidence: Pick<TEvidenceStore, 'get'> };
export type TCopiesDeps = TCopyPageDeps & { copies: TCopyLinkStore };

/** Files up to this size are sent by the page itself, named; larger ones through a short-lived link. */
const INLINE_BYTES = 4 * 1024 * 1024;
/** How long the storage link of a larger file works: enough to start the download. */
const REDIRECT_SECONDS = 5 * 60;

/** What a token opens, in the language its pages speak. */
type TOpened = TCopies & { language: TLanguage };

/**
 * A signing link whose signer may have their copies now: a link (not an embedded or kiosk one,
 * whose device may be someone else's), still valid, still theirs, of a bundle complete with its
 * documents ready. Undefined otherwise.
 */
export async function signingLinkCopies(
  deps: TCopyPageDeps,
  link: TSigningToken | undefined,
  acceptLanguage?: string,
  /** What the signing page read already (pages.ts): not read again. */
  read?: { bundle: TBundle | undefined; record: TSigningRecord | undefined; account: TAccount | undefined },
): Promise<TOpened | undefined> {
  if (link?.kind !== 'link' || Date.parse(link.expires) <= deps.clock.now().getTime()) return undefined;
  const bundle = read ? read.bundle : await deps.bundles.get(link.accountId, link.bundleId);
  const packet = bundle?.packets.find((p) => p.id === link.packetId);
  if (!copiesReady(bundle) || !packet || !heldBy(link, packet)) return undefined;
  const [record, account] = read
    ? [read.record, read.account]
    : await Promise.all([
        deps.records.get(link.accountId, link.bundleId, link.packetId),
        deps.accounts.getAccount(link.accountId),
      ]);
  const language = signerLanguage({
    chosen: (record?.generation ?? 0) === (link.generation ?? 0) ? record?.language : undefined,
    packet: packet.language,
    bundle: bundle.language,
    account: account?.language,
    acceptLanguage,
  });
  return {
    bundle,
    packetId: link.packetId,
    files: await copyFiles(deps, bundle, link.packetId),
    expires: link.expires,
    language,
  };
}

/** A copy link, else a finished signer's signing link; NotFoundError or CopyLinkExpiredError. */
async function opened(deps: TCopiesDeps, req: TRequest): Promise<TOpened> {
  const token = req.params.token;
  try {
    const copies = await openCopyLink(deps, token);
    return { ...copies, language: resolveLanguage(copies.language) };
  } catch (err) {
    if (!(err instanceof NotFoundError) || !isToken(token)) throw err;
  }
  const viaSigning = await signingLinkCopies(
    deps,
    await deps.tokens.get(hashToken(token)),
    req.header('accept-language'),
  );
  if (!viaSigning) throw new NotFoundError('This link is not valid.');
  return viaSigning;
}

const dayIn = (lang: TLanguage, iso: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

const sizeIn = (lang: TLanguage, bytes: number) =>
  bytes < 1024 * 1024
    ? new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 }).format(
        Math.max(1, Math.round(bytes / 1024)),
      )
    : new Intl.NumberFormat(lang, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(
        bytes / (1024 * 1024),
      );

function document(base: string, lang: TLanguage, title: string, body: string): string {
  const t = translator(lang);
  return plainDocument(base, lang, title, topBar(t('page.copies.title'), t('page.skip')), body);
}

/**
 * The downloads page of `copies`, whose files are below `filesAt` (the token's own path). The
 * bundle's label is the sender's text, isolated from the page's direction.
 */
export function copiesPageHtml(base: string, copies: TOpened, filesAt: string): string {
  const lang = copies.language;
  const t = translator(lang);
  const item = (f: TCopies['files'][number]) =>
    `<li><a class="copy-file" href="${esc(`${filesAt}/${f.file}`)}" download><bdi>${esc(f.name)}</bdi></a> <span class="hint">${esc(t('page.copies.size', { size: sizeIn(lang, f.size) }))}</span></li>`;
  const finals = copies.files.filter((f) => f.kind === 'final');
  const certificate = copies.files.filter((f) => f.kind === 'certificate');
  const label = copies.bundle.label.trim() || t('message.yourDocuments');
  const body = `<section class="card copies" aria-labelledby="copies-title">
<h1 id="copies-title">${esc(t('page.copies.title'))}</h1>
<p>${esc(t('page.copies.intro', { label: '\u0000' })).replace('\u0000', `<bdi>${esc(label)}</bdi>`)}</p>
<h2>${esc(t('page.copies.documents'))}</h2>
<ul class="copies-list">${finals.map(item).join('')}</ul>
${
  certificate.length
    ? `<h2>${esc(t('page.copies.certificate'))}</h2><p>${esc(t('page.copies.certificateText'))}</p><ul class="copies-list">${certificate.map(item).join('')}</ul>`
    : ''
}
<p class="hint">${esc(t('page.copies.until', { date: dayIn(lang, copies.expires) }))}</p>
<p><a href="${esc(`${base}/verify?lang=${lang}`)}">${esc(t('page.copies.verify'))}</a></p>
</section>`;
  return document(base, lang, t('page.copies.title'), body);
}

function messageHtml(base: string, lang: TLanguage, title: string, text: string): string {
  return document(
    base,
    lang,
    title,
    `<section class="card message" aria-labelledby="msg-title"><h1 id="msg-title">${esc(title)}</h1><p>${esc(text)}</p></section>`,
  );
}

/** The copies' routes: the page and each of its files. */
export function copiesRoutes(deps: TCopiesDeps): TRoute[] {
  const base = (req: TRequest) => basePathBefore(req, '/sign/');
  const html = (req: TRequest, status: number, text: string, lang: TLanguage): TResponse => ({
    status,
    text,
    headers: {
      ...securityHeaders(deps.config, { https: req.url.protocol === 'https:' }),
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': lang,
      'Cache-Control': 'no-store',
    },
  });

  /** The page a link that does not work gets: 410 once expired (its language), 404 if unknown. */
  function refused(req: TRequest, err: unknown): TResponse {
    if (err instanceof CopyLinkExpiredError) {
      const lang = resolveLanguage(err.language);
      const t = translator(lang);
      const title = t('page.copies.expiredTitle');
      const text = err.deleted
        ? t('retention.copiesDeleted', { date: dayIn(lang, err.expired) })
        : t('page.copies.expiredText', { date: dayIn(lang, err.expired) });
      return html(req, 410, messageHtml(base(req), lang, title, text), lang);
    }
    if (!(err instanceof NotFoundError)) throw err;
    const lang = resolveLanguage(languageFromAcceptLanguage(req.header('accept-language')));
    const t = translator(lang);
    const page = messageHtml(base(req), lang, t('page.badLinkTitle'), t('page.copies.badLinkText'));
    return html(req, 404, page, lang);
  }

  async function page(req: TRequest): Promise<TResponse> {
    try {
      const copies = await opened(deps, req);
      const filesAt = `${base(req)}/sign/copies/${req.params.token}`;
      return html(req, 200, copiesPageHtml(base(req), copies, filesAt), copies.language);
    } catch (err) {
      return refused(req, err);
    }
  }

  async function file(req: TRequest): Promise<TResponse> {
    let copies: TOpened;
    try {
      copies = await opened(deps, req);
    } catch (err) {
      return refused(req, err);
    }
    // Only the files this link opens: another signer's certificate is no file of it.
    const f = copies.files.find((x) => x.file === req.params.file);
    if (!f) {
      const t = translator(copies.language);
      const page = messageHtml(
        base(req),
        copies.language,
        t('page.badLinkTitle'),
        t('page.copies.badLinkText'),
      );
      return html(req, 404, page, copies.language);
    }
    const headers = securityHeaders(deps.config, { https: req.url.protocol === 'https:' });
    if (f.size > INLINE_BYTES) {
      return {
        status: 302,
        headers: {
          ...headers,
          Location: await deps.blobs.presignGet(f.blobKey, REDIRECT_SECONDS),
          'Cache-Control': 'no-store',
        },
      };
    }
    return {
      status: 200,
      binary: await deps.blobs.get(f.blobKey),
      headers: {
        ...headers,
        'Content-Type': 'application/pdf',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        // The name as RFC 6266 allows any: ASCII fallback, and the exact name in UTF-8.
        'Content-Disposition': `attachment; filename="${f.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
      },
    };
  }

  return [
    { method: 'GET', path: '/sign/copies/{token}', handler: page },
    { method: 'GET', path: '/sign/copies/{token}/{file}', handler: file },
  ];
}
