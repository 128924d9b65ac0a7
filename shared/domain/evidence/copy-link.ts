// Signers' copies of what they signed. When a bundle's documents are ready, every signer and every
// cc recipient gets a link of their own (the notifications worker makes it with the message):
// unguessable, only its hash stored, working for COPY_LINK_DAYS. A signer's link opens the final
// documents and that signer's own Certificate of Evidence; a cc recipient's opens the final
// documents only, since a certificate holds a signer's authentication details and a copy is no
// party to them. A signer's signing link, once the documents are ready, opens the same downloads.
import type { TLanguage } from '#shared/i18n/languages';
import type { TBundle } from '../bundles/bundle';
import { isBundleComplete } from '../bundles/lifecycle/status';
import { deletedAt } from '../bundles/retention';
import { GoneError, NotFoundError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TCopyLinkStore, TEvidenceStore } from '../ports/evidence';
import type { TBlobStore } from '../ports/files';
import type { TClock } from '../ports/system';
import { hashToken, isToken, newToken } from '../tokens';

/** How long a copy link works when the stage sets nothing else (COPY_LINK_DAYS). */
export const COPY_LINK_DAYS = 30;

/** How long after expiry the table keeps a link, so that it still answers "expired" (410), not "unknown". */
const EXPIRED_KEPT_DAYS = 90;

/**
 * The most a message's attached files may weigh together, before base64: 7 MiB, about 9.4 MiB
 * once encoded, under the 10 MB many receiving mail servers accept. Larger sets are sent as the
 * link alone.
 */
export const COPY_ATTACHMENT_MAX_BYTES = 7 * 1024 * 1024;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Who a copy link is for: a signer (their packet) or a cc recipient (none), and their language. */
export interface TCopyRecipient {
  packetId?: string;
  language: TLanguage;
}

export async function createCopyLink(
  deps: { copies: TCopyLinkStore; clock: TClock },
  bundle: Pick<TBundle, 'id' | 'accountId'>,
  to: TCopyRecipient,
  publicBaseUrl: string,
  days = COPY_LINK_DAYS,
): Promise<{ url: string; expires: string }> {
  const token = newToken();
  const expiresMs = deps.clock.now().getTime() + days * DAY_MS;
  const expires = new Date(expiresMs).toISOString();
  await deps.copies.create({
    hash: hashToken(token),
    accountId: bundle.accountId,
    bundleId: bundle.id,
    ...(to.packetId ? { packetId: to.packetId } : {}),
    language: to.language,
    expires,
    ttl: Math.floor((expiresMs + EXPIRED_KEPT_DAYS * DAY_MS) / 1000),
  });
  return { url: `${publicBaseUrl.replace(/\/$/, '')}/sign/copies/${token}`, expires };
}

/** One file a link opens: its name in the URL (`file`), its name shown, and where it is kept. */
export interface TCopyFile {
  file: string;
  kind: 'final' | 'certificate';
  name: string;
  blobKey: string;
  size: number;
  sha256: string;
}

/** What a copy link (or a finished signer's signing link) opens. */
export interface TCopies {
  bundle: TBundle;
  packetId?: string;
  files: TCopyFile[];
  /** Until when the link works. */
  expires: string;
}

/** A final document's name in a URL and as a file: what the sender named it, ending in .pdf. */
const pdfName = (name: string) => (/\.pdf$/i.test(name) ? name : `${name}.pdf`);

/** The sealed files of a bundle `packetId` may have: every final document and their own certificate. */
export async function copyFiles(
  deps: { evidence: Pick<TEvidenceStore, 'get'> },
  bundle: TBundle,
  packetId: string | undefined,
): Promise<TCopyFile[]> {
  const record = await deps.evidence.get(bundle.accountId, bundle.id);
  if (!record?.issuedAt) return [];
  const finals = record.finals.map(
    (f): TCopyFile => ({
      file: `document-${f.docKey}.pdf`,
      kind: 'final',
      name: pdfName(f.name),
      blobKey: f.blobKey,
      size: f.size,
      sha256: f.sha256,
    }),
  );
  const own = packetId ? record.certificates.filter((c) => c.packetId === packetId) : [];
  return [
    ...finals,
    ...own.map(
      (c): TCopyFile => ({
        file: 'certificate-of-evidence.pdf',
        kind: 'certificate',
        name: `certificate-of-evidence-${c.packetKey}.pdf`,
        blobKey: c.blobKey,
        size: c.size,
        sha256: c.sha256,
      }),
    ),
  ];
}

/** The link has expired: its page says so in the language it was sent in. */
export class CopyLinkExpiredError extends GoneError {
  constructor(
    readonly language: string,
    readonly expired: string,
    /** Set when the account's retention policy deleted the documents, rather than the link running out. */
    readonly deleted = false,
  ) {
    super(
      deleted
        ? "The signed documents of this link were deleted by the account's retention policy."
        : 'This link to the signed documents has expired.',
    );
  }
}

const ready = (b: TBundle | undefined): b is TBundle => !!b && isBundleComplete(b.status) && b.docsReady;

/**
 * What a copy link opens: 404 for a token that is none (or whose bundle is gone), 410 once it
 * expired. Everything about it is read from the stored link: the account, the bundle, the signer.
 */
export async function openCopyLink(
  deps: {
    copies: TCopyLinkStore;
    bundles: TBundleStore;
    evidence: Pick<TEvidenceStore, 'get'>;
    clock: TClock;
  },
  token: unknown,
): Promise<TCopies & { language: string }> {
  const link = isToken(token) ? await deps.copies.get(hashToken(token)) : undefined;
  if (!link) throw new NotFoundError('This link is not valid.');
  if (Date.parse(link.expires) <= deps.clock.now().getTime())
    throw new CopyLinkExpiredError(link.language, link.expires);
  const bundle = await deps.bundles.get(link.accountId, link.bundleId);
  if (!ready(bundle)) throw new NotFoundError('This link is not valid.');
  const deleted = deletedAt(bundle, 'finals');
  if (deleted) throw new CopyLinkExpiredError(link.language, deleted, true);
  return {
    bundle,
    ...(link.packetId ? { packetId: link.packetId } : {}),
    files: await copyFiles(deps, bundle, link.packetId),
    expires: link.expires,
    language: link.language,
  };
}

/** Whether a signing link's bundle is complete with its documents ready: its page offers the copies. */
export const copiesReady = ready;

/** The attachments of a copy message, or none when the set is larger than the cap. */
export async function copyAttachments(
  deps: { evidence: Pick<TEvidenceStore, 'get'>; blobs: Pick<TBlobStore, 'get'> },
  bundle: TBundle,
  packetId: string | undefined,
): Promise<{ fileName: string; contentType: string; bytes: Uint8Array }[] | undefined> {
  const files = await copyFiles(deps, bundle, packetId);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.length === 0 || total > COPY_ATTACHMENT_MAX_BYTES) return undefined;
  return Promise.all(
    files.map(async (f) => ({
      fileName: f.name,
      contentType: 'application/pdf',
      bytes: await deps.blobs.get(f.blobKey),
    })),
  );
}
