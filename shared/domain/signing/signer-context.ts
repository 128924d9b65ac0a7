import { signerGeneration, type TBundle, type TDocument, type TPacket } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import { bundleAt } from '../bundles/expiry';
import {
  hasSigned,
  isBundleCancelled,
  isBundleComplete,
  isBundleExpired,
  isBundleFailed,
  isOut,
  isPacketCancelled,
  isPacketExpired,
  isPacketFailed,
  isPacketUp,
} from '../bundles/lifecycle/status';
import { roleOf } from '../bundles/packet-roles';
import {
  ConcurrentUpdateError,
  ConflictError,
  GoneError,
  NotFoundError,
  SigningSessionError,
  said,
} from '../errors';
import type { TAccountStore } from '../ports/accounts';
import { inBundleOrder, type TBundleStore } from '../ports/bundles';
import type { TBlobStore } from '../ports/files';
import type { TKeptSigners, TSigningRecordStore, TSigningToken, TSigningTokenStore } from '../ports/signing';
import type { TClock } from '../ports/system';
import { retryOnConflict } from '../retry-on-conflict';
import { hashToken, isToken } from '../tokens';
import { HANDED_ON, refuseDecided, type TDecision } from './decision';
import { currentRecords, emptyRecord, heldRecord, MAX_STEPS, type TSigningRecord } from './signing-record';

export type TSigningDeps = {
  bundles: TBundleStore;
  accounts: TAccountStore;
  tokens: TSigningTokenStore;
  records: TSigningRecordStore;
  blobs: TBlobStore;
  clock: TClock;
  /** What this instance kept of sessions' signers between their calls (TKeptSigners). */
  kept?: TKeptSigners<TSignerContext>;
};

/** Who is calling, as evidence. */
export interface TClient {
  ip: string;
  userAgent: string;
}

/**
 * One call of a signer: the ports (with `TMore` where a call needs more), the session's signer as
 * the call loaded it, and who is calling (kept as evidence with each step).
 */
export interface TSignerCall<TMore = unknown> {
  deps: TSigningDeps & TMore;
  signer: TSignerContext;
  client: TClient;
}

/** A session's signer with everything the signer's calls read. */
export interface TSignerContext {
  bundle: TBundle;
  packet: TPacket;
  record: TSigningRecord;
  /** Whether the record exists in the table yet (its first save creates it). */
  stored: boolean;
  /** When the call is decided, read from the clock with the bundle (expiry is decided on it). */
  now: Date;
  /**
   * The call came with a session opened by a kiosk link: once the signer cannot sign, it answers
   * 410 (the session ended for good), not 409.
   */
  kioskSession?: boolean;
  /** The call came with a session opened by the signer's own signing link (its page may offer the copies). */
  viaSigningLink?: boolean;
  /**
   * The other signers' records, once this call has read them (recordsWith): the rest of the call
   * uses them instead of reading them again.
   */
  others?: TSigningRecord[];
  /** The bundle's documents, once this call has read them (documentsOf). */
  documents?: TDocument[];
  /**
   * Taken from what the instance kept of the session's last call (TKeptSigners), not read by
   * this call: a change on it is checked by its conditional write, and a refusal it leads to is
   * decided again on a fresh read (changeSigner).
   */
  kept?: boolean;
}

export type TCannotSign =
  | 'not_your_turn'
  | 'completed'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'complete'
  | 'failed';

/**
 * Why this signer cannot sign at `now`, or undefined when they can. A bundle past its `expires`
 * is expired here already, before the scheduler's next run records it (bundles/expiry.ts).
 */
export function cannotSign(stored: TBundle, storedPacket: TPacket, now: Date): TCannotSign | undefined {
  const bundle = bundleAt(stored, now);
  const packet = bundle.packets.find((p) => p.id === storedPacket.id) ?? storedPacket;
  if (hasSigned(packet.status)) return 'completed';
  if (isPacketCancelled(packet.status)) {
    const declines: string[] = [EVENT_KINDS.declined.code, EVENT_KINDS.rejected.code];
    return bundle.events.some((e) => declines.includes(e.kind) && e.packetId === packet.id)
      ? 'declined'
      : 'cancelled';
  }
  if (isBundleCancelled(bundle.status)) return 'cancelled';
  if (isBundleExpired(bundle.status) || isPacketExpired(packet.status)) return 'expired';
  if (isBundleComplete(bundle.status)) return 'complete';
  if (isBundleFailed(bundle.status) || isPacketFailed(packet.status)) return 'failed';
  if (!isOut(bundle.status) || !isPacketUp(packet.status)) return 'not_your_turn';
  return undefined;
}

/**
 * Whether the person may see the documents now: while they may sign, and a viewer also once they
 * are done (opening was their whole part, packet-roles.ts) for as long as the bundle stands.
 */
export function canRead(stored: TBundle, packet: TPacket, now: Date): boolean {
  const reason = cannotSign(stored, packet, now);
  return !reason || (roleOf(packet) === 'viewer' && (reason === 'completed' || reason === 'complete'));
}

/** What a session of a signer who handed the packet on answers (401): it opens nothing now. */
export const handedOnError = () => said(new SigningSessionError(HANDED_ON), 'errors.handedOn');

/** Why a session opened with a kiosk link answers 410 once its signer is done. */
export const IN_PERSON_ENDED = 'This in-person signing session has ended. Hand the device back to its host.';

/**
 * Whether a link or session still belongs to its packet's signer: one issued before the packet
 * was handed to another person (an earlier generation) opens nothing.
 */
export const heldBy = (token: Pick<TSigningToken, 'generation'>, packet: Pick<TPacket, 'handovers'>) =>
  (token.generation ?? 0) === signerGeneration(packet);

/** How a call reads its session's signer (sessionSigner, signerOf). */
export interface TSignerRead {
  /**
   * The call checks the signer's fields (saving, finishing) or answers them: the documents and
   * every signer's record come with the bundle, in one request (loadSigner).
   */
  withFields?: boolean;
  /** Starts what the call reads beside the signer's, once the session is known to be valid. */
  besides?: (token: TSigningToken) => void;
  /**
   * The signer as this session's last call in this function instance ended with it, when the
   * instance kept it (TKeptSigners); read as usual when it did not.
   */
  fromKept?: boolean;
}

/**
 * A session's token and its signer, whoever holds the packet now; 401 when the session is
 * unknown or over. Only a handover's retry reads a session its own handover ended.
 */
export async function sessionSigner(
  deps: TSigningDeps,
  session: string | undefined,
  { withFields = false, besides, fromKept = false }: TSignerRead = {},
): Promise<{ token: TSigningToken; signer: TSignerContext }> {
  if (!isToken(session)) throw new SigningSessionError();
  const token = await deps.tokens.get(hashToken(session));
  if (token?.kind !== 'session' || Date.parse(token.expires) <= deps.clock.now().getTime()) {
    throw new SigningSessionError();
  }
  besides?.(token);
  // Not for a session opened in person, whose end (410) is decided on the bundle as read now.
  const kept = fromKept && !token.kiosk ? deps.kept?.take(token.hash) : undefined;
  const signer = kept
    ? { ...kept, now: deps.clock.now(), kept: true }
    : await loadSigner(deps, token.accountId, token.bundleId, token.packetId, withFields);
  return {
    token,
    signer: {
      ...signer,
      ...(token.kiosk ? { kioskSession: true } : {}),
      ...(token.openedWith === 'link' ? { viaSigningLink: true } : {}),
    },
  };
}

/**
 * The signer a session belongs to; 401 when the session is unknown or over, or its signer handed
 * the packet to someone else. A session opened in person (a kiosk link) ends for good, 410, once
 * its signer can no longer sign: whoever holds the device next cannot read or change anything
 * through it.
 */
export async function signerOf(
  deps: TSigningDeps,
  session: string | undefined,
  read: TSignerRead = {},
): Promise<TSignerContext> {
  const { token, signer } = await sessionSigner(deps, session, read);
  if (!heldBy(token, signer.packet)) throw handedOnError();
  if (token.kiosk && cannotSign(signer.bundle, signer.packet, signer.now)) throw inPersonEnded();
  return signer;
}

/**
 * The signer's context. The session names all three ids, so the bundle and the signer's record
 * are read side by side; `withFields`, for a call that checks the signer's fields (saving,
 * finishing) or answers them (opening a session with its state), reads them with the documents
 * and every signer's record in one request (`withBundle`): in a function instance every request
 * costs its own time, whether it waits beside others or not.
 */
export async function loadSigner(
  deps: TSigningDeps,
  accountId: string,
  bundleId: string,
  packetId: string,
  withFields = false,
): Promise<TSignerContext> {
  const [bundle, record, documents, all] = withFields
    ? await deps.records
        .withBundle(accountId, bundleId)
        .then(
          (read) =>
            [
              read.bundle,
              read.records.find((r) => r.packetId === packetId),
              read.documents,
              read.records,
            ] as const,
        )
    : await Promise.all([
        deps.bundles.get(accountId, bundleId),
        deps.records.get(accountId, bundleId, packetId),
        undefined,
        undefined,
      ]);
  const packet = bundle?.packets.find((p) => p.id === packetId);
  if (!bundle || !packet)
    throw said(new NotFoundError('This signing link is no longer valid.'), 'errors.linkGone');
  return {
    bundle,
    packet,
    record: heldRecord(record ?? emptyRecord(accountId, bundleId, packetId), packet),
    stored: record !== undefined,
    now: deps.clock.now(),
    ...(documents ? { documents: inBundleOrder(bundle.documents, documents) } : {}),
    ...(all ? { others: currentRecords(all, bundle).filter((r) => r.packetId !== packetId) } : {}),
  };
}

/** The bundle's documents, read once per call and kept on the context. */
export async function documentsOf(deps: TSigningDeps, ctx: TSignerContext): Promise<TDocument[]> {
  ctx.documents ??= await deps.bundles.documents(ctx.bundle);
  return ctx.documents;
}

/** The record with one more step of evidence. */
function withStep(record: TSigningRecord, client: TClient, action: string, at: string, detail?: string) {
  const step = {
    action,
    at,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, 400),
    ...(detail ? { detail } : {}),
  };
  return { ...record, steps: [...record.steps, step].slice(-MAX_STEPS) };
}

/**
 * Saves one step of a signer call: the record with `changes` and the step's evidence, on the
 * version it was read at (changeSigner retries on a conflict). Answers the context with it.
 */
export async function saveStep(
  call: TSignerCall,
  ctx: TSignerContext,
  changes: Partial<TSigningRecord>,
  action: string,
  at: string,
  detail?: string,
): Promise<TSignerContext> {
  const record = nextRecord(call, ctx, changes, action, at, detail);
  await call.deps.records.save(record, storedRecord(ctx));
  return { ...ctx, record, stored: true };
}

/** The signer's record with `changes` and one more step of evidence, at the next version. */
export function nextRecord(
  call: Pick<TSignerCall, 'client'>,
  ctx: TSignerContext,
  changes: Partial<TSigningRecord>,
  action: string,
  at: string,
  detail?: string,
): TSigningRecord {
  const next = withStep({ ...ctx.record, ...changes }, call.client, action, at, detail);
  return { ...next, version: ctx.record.version + 1 };
}

/** The record as the table holds it, which a write of the next one is conditional on. */
export const storedRecord = (ctx: TSignerContext) => (ctx.stored ? ctx.record : undefined);

const inPersonEnded = () => said(new GoneError(IN_PERSON_ENDED), 'errors.inPersonEnded');

/**
 * Refuses (409, saying why) a signer who cannot sign at the context's `now`; `verb` names what. A
 * kiosk session answers 410 instead, as every call of it does once its signer is done (signerOf).
 */
export function refuseUnlessSigning(
  ctx: Pick<TSignerContext, 'bundle' | 'packet' | 'now' | 'kioskSession'>,
  verb = 'sign',
) {
  const reason = cannotSign(ctx.bundle, ctx.packet, ctx.now);
  if (reason && ctx.kioskSession) throw inPersonEnded();
  if (reason)
    throw said(
      new ConflictError(`You cannot ${verb} now (${reason.replace(/_/g, ' ')}).`),
      `errors.closed.${reason}`,
    );
}

/**
 * Every signer's record of the bundle, with this signer's as the context holds it (it may be
 * newer than the table's). The others are read once per call and kept on the context.
 */
export async function recordsWith(deps: TSigningDeps, ctx: TSignerContext): Promise<TSigningRecord[]> {
  ctx.others ??= currentRecords(
    await deps.records.all(ctx.bundle.accountId, ctx.bundle.id),
    ctx.bundle,
  ).filter((r) => r.packetId !== ctx.packet.id);
  return [...ctx.others, ctx.record];
}

/** The context after a change of the bundle it names: the bundle as written, and this signer in it. */
export const withBundle = (ctx: TSignerContext, bundle: TBundle): TSignerContext => ({
  ...ctx,
  bundle,
  packet: bundle.packets.find((p) => p.id === ctx.packet.id) ?? ctx.packet,
});

/**
 * The session's signer read again after a lost race. The session held the packet when the call
 * began (signerOf); if the packet changed hands since, the call is the earlier signer's and
 * changes nothing: it would otherwise write into the new signer's record (401, as the session's
 * next call answers).
 */
async function reloadSigner(deps: TSigningDeps, signer: TSignerContext): Promise<TSignerContext> {
  const fresh = await loadSigner(deps, signer.bundle.accountId, signer.bundle.id, signer.packet.id);
  refuseUnlessHeld(fresh.bundle, signer);
  return {
    ...fresh,
    ...(signer.kioskSession ? { kioskSession: true } : {}),
    ...(signer.viaSigningLink ? { viaSigningLink: true } : {}),
  };
}

/**
 * Refuses (401) a change for the signer of `ctx` once the packet changed hands in `b`: what they
 * decided or wrote was decided on a record the packet's current signer does not hold.
 */
export function refuseUnlessHeld(b: TBundle, ctx: Pick<TSignerContext, 'packet'>): void {
  const packet = b.packets.find((p) => p.id === ctx.packet.id);
  if (!packet || signerGeneration(packet) !== signerGeneration(ctx.packet)) throw handedOnError();
}

/**
 * A signer call's read-modify-write: `change` runs on the context the call loaded with its
 * session (nothing is read twice), and on a freshly read one each time a conditional write in it
 * lost a race to another request (retryOnConflict). On a context the instance kept (`kept`),
 * whatever `change` refuses is decided again on a fresh read: a value saved through another
 * instance, say, is not in it.
 */
export function changeSigner<T>(
  call: Pick<TSignerCall, 'deps' | 'signer'>,
  change: (ctx: TSignerContext) => Promise<T>,
): Promise<T> {
  const { deps, signer } = call;
  let loaded: TSignerContext | undefined = signer;
  return retryOnConflict(async () => {
    const current = loaded ?? (await reloadSigner(deps, signer));
    loaded = undefined;
    if (!current.kept) return change(current);
    try {
      return await change(current);
    } catch (err) {
      if (err instanceof ConcurrentUpdateError) throw err;
      return change(await reloadSigner(deps, signer));
    }
  });
}

/**
 * The opening of a signer call that may change anything only while the signer can sign and has
 * not decided how the packet ends: changeSigner, refusing first (refuseUnlessSigning, then
 * refuseDecided, `verb` naming the call) on every context `change` would run on. A call that
 * `makes` a decision still runs on a record holding that same decision (its repeat).
 */
export function whileSigning<T>(
  call: TSignerCall,
  change: (ctx: TSignerContext) => Promise<T>,
  verb?: string,
  makes?: TDecision,
): Promise<T> {
  return changeSigner(call, async (ctx) => {
    refuseUnlessSigning(ctx, verb);
    refuseDecided(ctx, verb, makes);
    return change(ctx);
  });
}
