// How a signer's packet ends is decided once, in their signing record: finishing writes the
// consent, declining the reason, handing on the handover. Each is one conditional write on the
// record's version, made before the bundle changes, by a call that read a record holding no
// decision. Two such calls sent at once read the same version: one write wins, the other reads
// again (changeSigner) and is refused here. So a packet is never both finished and handed on, nor
// finished and declined, and no step log says a signer consented or declined who did not. After
// the decision only the bundle change is left; repeating the same call after a failure in between
// makes it, and every other change of the signer (values, uploads, identity steps) is refused.
// A handover the bundle refused is taken back at once (reassign-packet.ts); one whose request
// died before the bundle change counts only for HANDOVER_HOLD_MS, so a crash never leaves a
// signer who can do nothing but hand on.
import { ConflictError, said } from '../errors';
import type { TSigningRecord } from './signing-record';

/** What a signer who handed the packet on (or is handing it on) is told. */
export const HANDED_ON = 'You handed these documents to someone else; this link no longer opens them.';

export type TDecision = 'signed' | 'declined' | 'handing on';

/** How long a handover asked for holds the packet: longer than any request may run (28 s). */
export const HANDOVER_HOLD_MS = 60_000;

type TDecided = { record: Pick<TSigningRecord, 'consentAt' | 'declineReason' | 'handingOn'>; now: Date };

/** The handover the signer asked for and whose request may still be at work, if any. */
export const pendingHandover = ({ record, now }: TDecided) =>
  record.handingOn && now.getTime() - Date.parse(record.handingOn.at) < HANDOVER_HOLD_MS
    ? record.handingOn
    : undefined;

/** The decision the record holds at `now`, if any (a record of an earlier signer counts as empty). */
export function decisionOf(ctx: TDecided): TDecision | undefined {
  if (ctx.record.consentAt) return 'signed';
  if (ctx.record.declineReason !== undefined) return 'declined';
  if (pendingHandover(ctx)) return 'handing on';
  return undefined;
}

/** Why a call (that would `verb`) is refused once the signer decided (409). */
export function decidedError(decision: TDecision, verb?: string): Error {
  if (decision === 'declined')
    return said(new ConflictError('You declined to sign.'), 'errors.closed.declined');
  if (decision === 'handing on') return said(new ConflictError(HANDED_ON), 'errors.handedOn');
  if (verb === 'decline')
    return said(
      new ConflictError('You have already signed, so you cannot decline. Finish again to complete.'),
      'errors.alreadySigned',
    );
  const what = verb ? `you cannot ${verb}` : 'nothing can change any more';
  return new ConflictError(
    `You have already signed, so ${what}. Finish again if the page does not say you are done.`,
  );
}

/** Refuses (409) a call that would `verb` once the record holds a decision other than `makes`. */
export function refuseDecided(ctx: TDecided, verb?: string, makes?: TDecision): void {
  const decision = decisionOf(ctx);
  if (decision && decision !== makes) throw decidedError(decision, verb);
}
