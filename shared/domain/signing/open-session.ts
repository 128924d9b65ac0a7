import { bySigner } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import type { TBundle, TDocument, TPacket } from '../bundles/bundle';
import { nextVersion } from '../bundles/change-bundle';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { GoneError, NotFoundError, said, ValidationError } from '../errors';
import type { TEvidenceStore } from '../ports/evidence';
import type { TLinkTarget } from '../ports/signing';
import { retryOnConflict } from '../retry-on-conflict';
import { hashToken, newToken } from '../tokens';
import { hostLabel, type TInPerson } from './in-person';
import {
  cannotSign,
  heldBy,
  IN_PERSON_ENDED,
  loadSigner,
  nextRecord,
  storedRecord,
  type TClient,
  type TSignerContext,
  type TSigningDeps,
  withBundle,
} from './signer-context';
import { signerState, startFileLinks } from './signer-state';

/** How long a signing session lasts; the page asks the signer to open the link again after it. */
export const SESSION_TTL_MS = 2 * 60 * 60 * 1000;

/**
 * The largest document answered with the session (`document`, base64 in the JSON); a larger one
 * the page reads from GET /sign/api/documents/<key> as any other.
 */
export const SESSION_DOCUMENT_MAX_BYTES = 1024 * 1024;

/** The answer of POST /sign/api/session; with `state` (as GET /sign/api/state) when asked. */
export interface TOpened {
  session: string;
  expires: string;
  embedded: boolean;
  in_person: boolean;
  state?: Awaited<ReturnType<typeof signerState>>;
  /** The document asked for with the state, when the state shows it (GET /documents/<key>'s bytes). */
  document?: { key: string; pdf_b64: string };
}

/**
 * Exchanges a link token (emailed, texted, embedded or kiosk) for a session. An embedded or kiosk
 * URL is single use: the exchange consumes it, and a second one answers 410. Opening the page when
 * the signer may sign makes the packet `st` (and a bundle still `se`), firing packet_viewed
 * once: a later open finds the packet `st` already. A kiosk link's session carries its host, and
 * its opening is evidence: the `ki` event and the signer record's `inPerson` (host, device).
 * With the state, `documentKey` names a document whose bytes the answer carries when the state
 * shows the documents: the page's first page then waits for no request after this one.
 */
export async function openSession(
  deps: TSigningDeps & { evidence?: Pick<TEvidenceStore, 'get'> },
  token: unknown,
  client: TClient,
  withState = false,
  documentKey?: string,
): Promise<TOpened> {
  if (typeof token !== 'string' || !/^[0-9A-Za-z]{43}$/.test(token)) {
    throw said(
      new ValidationError('Invalid signing link.', [
        { field: 'token', message: 'Not a signing link token.', said: { key: 'errors.linkNotToken' } },
      ]),
      'errors.linkInvalid',
    );
  }
  const hash = hashToken(token);
  const now = deps.clock.now();
  const at = now.toISOString();
  // A single-use link is consumed beside the signer's read, not after it: neither needs the
  // other. One that then opens nothing (its bundle gone, its packet handed on) could never open
  // anything again either, and the answers stay in the same order: 404 before 410.
  // The page asks for its first state with the session: then the bundle, its documents and every
  // signer's record come in one read, which the opening's checks and the state both use. Not for a
  // kiosk session, which the page reads the state of through the session (signerOf's 410).
  const start = (target: TLinkTarget) => {
    const consumed =
      target.kind === 'embed' || target.kind === 'kiosk' ? deps.tokens.consume(hash, at) : undefined;
    consumed?.catch(() => undefined); // awaited below; a refused opening answers its own error
    const withFields = withState && !target.kiosk;
    const read = loadSigner(deps, target.accountId, target.bundleId, target.packetId, withFields);
    read.catch(() => undefined); // awaited below, once the link is known to be valid
    // The account too, when the document's bytes and file links will ask for its documents key:
    // the request keeps this read for them (request scope), so the bytes are read one round
    // sooner, beside the opening's writes rather than after them.
    if (withFields) deps.accounts.getAccount(target.accountId).catch(() => undefined);
    // The document's bytes too, when this instance read the bundle a moment ago (the page the
    // link opens) and so knows which file it is: not after that read. Answered only when the
    // read that follows names the same file (documentBytes).
    const early = withFields && documentKey ? earlyBytes(deps, target, documentKey) : undefined;
    return { consumed, read, withFields, early };
  };
  // When this instance read the link already (the page it opens, a moment ago), they start beside
  // the link's own read rather than after it: what a link points at never changes. The link's
  // read still decides: an unknown, expired or used link answers as before, whatever was read.
  const known = deps.tokens.targetOf(hash);
  const early = known ? start(known) : undefined;
  const link = await deps.tokens.get(hash);
  if (!link || link.kind === 'session' || Date.parse(link.expires) <= now.getTime()) {
    throw said(new NotFoundError('This signing link is not valid or has expired.'), 'errors.linkInvalid');
  }
  const { consumed, read, withFields, early: earlyRead } = early ?? start(link);
  const ctx = await read;
  // A link of a signer who handed the packet on opens nothing, as an unknown one.
  if (!heldBy(link, ctx.packet))
    throw said(new NotFoundError('This signing link is not valid or has expired.'), 'errors.linkInvalid');
  if (consumed && !(await consumed)) {
    throw link.kind === 'kiosk'
      ? said(new GoneError(IN_PERSON_ENDED), 'errors.inPersonEnded')
      : said(new GoneError('This signing link was already used. Ask for a new one.'), 'errors.linkUsed');
  }
  const session = newToken();
  const expires = new Date(
    Math.min(now.getTime() + SESSION_TTL_MS, Date.parse(link.expires) + SESSION_TTL_MS),
  ).toISOString();
  // The session is stored side by side with the opening's writes (neither needs the other); it
  // is answered only once they took, so a failed opening leaves a session nobody holds.
  const stored = deps.tokens.create({
    hash: hashToken(session),
    accountId: link.accountId,
    bundleId: link.bundleId,
    packetId: link.packetId,
    kind: 'session',
    expires,
    openedWith: link.kind,
    ...(link.kiosk ? { kiosk: link.kiosk } : {}),
    ...(link.generation ? { generation: link.generation } : {}),
  });
  stored.catch(() => undefined); // awaited below; an opening that fails first answers its own error

  // Its bytes are read beside the writes (or were already, beside the first reads: earlyBytes),
  // answered only if the state shows the documents (as GET /documents/<key> would answer them
  // only then).
  const bytes =
    withFields && ctx.documents && documentKey
      ? documentBytes(deps, ctx.documents, documentKey, earlyRead)
      : undefined;
  bytes?.catch(() => undefined);
  // So are the state's file links, which ask for the account's documents key: not after the writes.
  const fileLinks = withFields && ctx.documents ? startFileLinks(deps, ctx.documents) : undefined;
  const inPerson: TInPerson | undefined = link.kiosk
    ? { ...link.kiosk, startedAt: at, ip: client.ip, userAgent: client.userAgent.slice(0, 400) }
    : undefined;
  // The opening's bundle change and the record's step are one write, each conditional on the
  // version read above: a refused opening leaves no step, and a step never lacks its opening.
  // Read again only after a race.
  const call = { deps, signer: ctx, client };
  const action = { embed: 'opened embedded', kiosk: 'opened in person', link: 'opened link' }[link.kind];
  const detail = inPerson ? `hosted by ${hostLabel(inPerson)}` : undefined;
  let fresh: TSignerContext | undefined = ctx;
  const signer = await retryOnConflict(async () => {
    const current = fresh ?? (await loadSigner(deps, link.accountId, link.bundleId, link.packetId));
    fresh = undefined;
    const b = current.bundle;
    const packet = b.packets.find((p) => p.id === link.packetId);
    // Handed on since the link was read: its opening is not the new signer's (their `pv`).
    if (!packet || !heldBy(link, packet))
      throw said(new NotFoundError('This signing link is not valid or has expired.'), 'errors.linkInvalid');
    const record = nextRecord(call, current, inPerson ? { inPerson } : {}, action, at, detail);
    const changed = openedBundle(b, packet, link.packetId, at, now, inPerson);
    const stepped = { ...current, record, stored: true };
    // Nothing to change in the bundle (opened before, or closed): the step alone.
    if (changed === b) {
      await deps.records.save(record, storedRecord(current));
      return stepped;
    }
    const bundle = nextVersion(b, changed);
    await deps.bundles.save(bundle, b, { record, previous: storedRecord(current) });
    return withBundle(stepped, bundle);
  });
  await stored;
  const opened = { session, expires, embedded: link.kind === 'embed', in_person: inPerson !== undefined };
  if (!withFields) return opened;
  // As the session's own calls will load it (sessionSigner): opened with the signer's own link.
  const viaSigningLink = link.kind === 'link';
  const state = await signerState(deps, { ...signer, viaSigningLink }, fileLinks ? { fileLinks } : {});
  const pdf = state.documents.some((d) => d.key === documentKey)
    ? await bytes?.catch(() => undefined)
    : undefined;
  return {
    ...opened,
    state,
    ...(pdf ? { document: { key: documentKey!, pdf_b64: pdf.toString('base64') } } : {}),
  };
}

/** A read of a document's file started before the bundle's documents were read. */
interface TEarlyBytes {
  blobKey: string;
  bytes: Promise<Buffer>;
}

/**
 * The read of document `key`'s file, started from the documents this instance saw the bundle
 * name (documentsSeen), when it is small enough to answer with the session.
 */
function earlyBytes(
  deps: Pick<TSigningDeps, 'blobs' | 'bundles'>,
  target: TLinkTarget,
  key: string,
): TEarlyBytes | undefined {
  const doc = deps.bundles.documentsSeen?.(target.accountId, target.bundleId)?.find((d) => d.key === key);
  if (!doc || doc.size > SESSION_DOCUMENT_MAX_BYTES) return undefined;
  const bytes = deps.blobs.get(doc.blobKey);
  bytes.catch(() => undefined); // taken by documentBytes, or left when the file is another
  return { blobKey: doc.blobKey, bytes };
}

/**
 * The bytes of document `key` of `documents`, when it is small enough to answer with the
 * session; undefined otherwise (the page then asks for it as for any other). Taken from the read
 * started early when that read is of the file the documents name.
 */
export async function documentBytes(
  deps: Pick<TSigningDeps, 'blobs'>,
  documents: TDocument[],
  key: string,
  early?: TEarlyBytes,
): Promise<Buffer | undefined> {
  const doc = documents.find((d) => d.key === key);
  if (!doc || doc.size > SESSION_DOCUMENT_MAX_BYTES) return undefined;
  return early?.blobKey === doc.blobKey ? early.bytes : deps.blobs.get(doc.blobKey);
}

/**
 * The bundle with the packet opened (`st`, its `pv`; a viewer's packet done) when its signer may
 * sign, and for an in-person opening its `ki` event; `b` itself when there is nothing to change.
 */
function openedBundle(
  b: TBundle,
  packet: TPacket,
  packetId: string,
  at: string,
  now: Date,
  inPerson: TInPerson | undefined,
): TBundle {
  const opened = lifecycle.openPacket(b, packetId, at, (p) => !cannotSign(b, p, now));
  // A signer who can no longer sign starts nothing: the page shows the hand-back screen.
  if (!inPerson || cannotSign(b, packet, now)) return opened;
  const detail = `${packet.name}, hosted by ${hostLabel(inPerson)}`;
  return {
    ...opened,
    events: [...opened.events, event('inPerson', at, bySigner(packetId), packetId, detail)],
  };
}
