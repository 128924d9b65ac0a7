import * as z from 'zod';
import { changeBundle, nextVersion } from '../bundles/change-bundle';
import { hasSigned } from '../bundles/lifecycle/status';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { roleOf, type TPacketRole } from '../bundles/packet-roles';
import { ConflictError, said, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import { calculatedOf } from './calculated-values';
import { refuseDecided } from './decision';
import { currentValue, isEditor, isFilled, isRequiredFor, visibleRecords } from './field-access';
import { conditionStates, isHiddenByCondition, withoutHidden } from './field-visibility';
import { assertAuthenticated } from './save-values';
import {
  changeSigner,
  documentsOf,
  nextRecord,
  recordsWith,
  refuseUnlessHeld,
  refuseUnlessSigning,
  saveStep,
  storedRecord,
  type TSignerCall,
  type TSignerContext,
  whileSigning,
  withBundle,
} from './signer-context';
import { type TFieldValue, type TSigningRecord, valueKey } from './signing-record';

const ZComplete = z.object({
  consent: z.literal(true, 'You must agree to sign electronically.'),
});
const ZDecline = z.object({
  reason: z
    .string('Tell the sender why.')
    .trim()
    .min(1, 'Tell the sender why.')
    .max(500, 'At most 500 characters.'),
});

/**
 * Finishing: the signer agreed to sign electronically, passed every check and filled every field
 * they must (with visible content, from the values they see: their own and finished signers').
 * Signer name and signing date fields are filled for them. The record (values, consent) and the
 * bundle change completing the packet are one write, each conditional on the version the call
 * read (the bundle as its one Query read it: no second read), so no reader ever sees a consent
 * without its packet complete, and a call that lost a race to any other (a value saved, the
 * packet handed on, another signer finishing) reads afresh and checks again.
 * The consent is the signer's decision (decision.ts): once it is in the record no value of the
 * signer changes any more and they can no longer decline or hand on. A record that holds the
 * consent without its packet complete (finishes before they were one write made the change
 * after the record) gets only the bundle change when the call is repeated. The bundle change
 * completes the packet only for the signer who consented: a packet handed on meanwhile is not
 * theirs to complete.
 */
export async function completePacket(
  call: TSignerCall,
  body: unknown,
  as: 'signer' | 'approver' = 'signer',
): Promise<TSignerContext> {
  const { deps, client } = call;
  // An approver's approval is their consent: the approve button says so (docs/signer-api.md).
  if (as === 'signer') parseInput(ZComplete, body);
  const signed = await changeSigner(call, async (ctx) => {
    refuseOtherRole(ctx.packet, as);
    if (hasSigned(ctx.packet.status) || ctx.record.consentAt) return ctx;
    refuseUnlessSigning(ctx);
    refuseDecided(ctx, 'finish', 'signed');
    assertAuthenticated(ctx);
    const at = deps.clock.now().toISOString();
    // An approver fills nothing: approving is the decision, written as a signer's consent is.
    if (as === 'approver') return finishTogether(call, ctx, { consentAt: at }, 'approved', at);
    // Bundles from before payments were processed have a payment without status: not gated.
    const payment = ctx.bundle.payment;
    if (payment?.status && payment.billedTo === ctx.packet.key && payment.status !== 'paid')
      throw said(
        new ConflictError('This bundle must be paid before you finish: complete the payment step first.'),
        'errors.payFirst',
      );
    // Read side by side: neither needs the other.
    const [docs, records] = await Promise.all([documentsOf(deps, ctx), recordsWith(deps, ctx)]);
    // Only values that can no longer change under this finish count: the signer's own (this
    // record, written conditionally below) and finished signers' (frozen by their consent).
    const seen = visibleRecords(records, ctx.packet.id, ctx.bundle.packets);
    // Conditions decide from the same values: a hidden field is nobody's to fill, and a field
    // with `required_when` is required only while it holds.
    const states = conditionStates(docs, seen, ctx.bundle.packets);
    const missing: TFieldError[] = [];
    for (const d of docs) {
      for (const f of d.fields) {
        if (isHiddenByCondition(states, d.key, f)) continue;
        if (!isRequiredFor({ ...f, required: states.required(d.key, f) }, ctx.packet.key)) continue;
        const v = currentValue(d.key, f, seen, ctx.bundle.packets)?.value ?? f.initialValue ?? '';
        if (!isFilled(f, v)) {
          missing.push({
            field: `${d.key}.${f.key}`,
            message: `"${f.label || f.key}" is required.`,
            said: { key: 'errors.fieldRequired', values: { label: f.label || f.key } },
          });
        }
      }
    }
    if (missing.length > 0)
      throw said(
        new ValidationError('Some required fields are not filled.', missing),
        'errors.requiredMissing',
      );
    const values: Record<string, TFieldValue> = withoutHidden(ctx.record.values, docs, states);
    for (const d of docs) {
      // The service's own result over the values this signer signs; stamping computes it again
      // from the final values of everyone.
      const calculated = calculatedOf(d, seen, ctx.bundle.packets, states);
      for (const f of d.fields) {
        if (!isEditor(f, ctx.packet.key) || isHiddenByCondition(states, d.key, f)) continue;
        const fill = { filledAt: at, ip: client.ip, userAgent: client.userAgent };
        if (f.kind === 'snm') values[valueKey(d.key, f.key)] = { value: ctx.packet.name, ...fill };
        if (f.kind === 'sdt') values[valueKey(d.key, f.key)] = { value: at.slice(0, 10), ...fill };
        const result = calculated.get(f.key);
        if (result) values[valueKey(d.key, f.key)] = { value: result, ...fill };
        else if (result === '') delete values[valueKey(d.key, f.key)];
      }
    }
    return finishTogether(call, ctx, { values, consentAt: at }, 'consented and signed', at);
  });
  if (hasSigned(signed.packet.status)) return signed;
  const at = signed.record.consentAt ?? deps.clock.now().toISOString();
  const now = deps.clock.now();
  const bundle = await changeBundle(
    deps,
    signed.bundle.accountId,
    signed.bundle.id,
    (b) => {
      refuseUnlessHeld(b, signed);
      return lifecycle.completePacket(b, signed.packet.id, at, (packet) =>
        refuseUnlessSigning({ bundle: b, packet, now, kioskSession: signed.kioskSession }),
      );
    },
    signed.bundle,
  );
  return withBundle(signed, bundle);
}

/**
 * The signer's record with `changes` (their consent) and the bundle with their packet complete,
 * written as one: both conditional on the versions `ctx` read (a ConcurrentUpdateError, which
 * changeSigner retries on a fresh read, when either moved on).
 */
async function finishTogether(
  call: TSignerCall,
  ctx: TSignerContext,
  changes: Partial<TSigningRecord>,
  action: string,
  at: string,
): Promise<TSignerContext> {
  const record = nextRecord(call, ctx, changes, action, at);
  const b = ctx.bundle;
  const now = call.deps.clock.now();
  const changed = lifecycle.completePacket(b, ctx.packet.id, at, (packet) =>
    refuseUnlessSigning({ bundle: b, packet, now, kioskSession: ctx.kioskSession }),
  );
  const bundle = nextVersion(b, changed);
  await call.deps.bundles.save(bundle, b, { record, previous: storedRecord(ctx) });
  return withBundle({ ...ctx, record, stored: true }, bundle);
}

/** Declining with a reason ends the bundle: the packet and the bundle `ca`; the sender is told. */
export async function declinePacket(
  call: TSignerCall,
  body: unknown,
  as: 'signer' | 'approver' = 'signer',
): Promise<TSignerContext> {
  const { deps } = call;
  const { reason } = parseInput(ZDecline, body);
  const at = deps.clock.now().toISOString();
  // The reason is the signer's decision (decision.ts): a repeated decline, after a failure before
  // the bundle change, only makes that change, with the reason first recorded. An approver's
  // rejection is the same decision, told as a rejection (lifecycle/transitions.ts).
  const declined = await whileSigning(
    call,
    async (ctx) => {
      refuseOtherRole(ctx.packet, as);
      return ctx.record.declineReason !== undefined
        ? ctx
        : saveStep(
            call,
            ctx,
            { declineReason: reason },
            as === 'approver' ? 'rejected' : 'declined',
            at,
            reason,
          );
    },
    'decline',
    'declined',
  );
  const now = deps.clock.now();
  const recorded = declined.record.declineReason ?? reason;
  const bundle = await changeBundle(
    deps,
    declined.bundle.accountId,
    declined.bundle.id,
    (b) => {
      refuseUnlessHeld(b, declined);
      return lifecycle.decline(b, declined.packet.id, at, recorded, (packet) =>
        refuseUnlessSigning({ bundle: b, packet, now, kioskSession: declined.kioskSession }, 'decline'),
      );
    },
    declined.bundle,
  );
  return withBundle(declined, bundle);
}

/**
 * Refuses (409) what another role does: a signer finishes or declines, an approver approves or
 * rejects, a viewer only reads (packet-roles.ts).
 */
function refuseOtherRole(packet: TSignerContext['packet'], as: TPacketRole): void {
  const role = roleOf(packet);
  if (role === as) return;
  if (role === 'approver')
    throw said(
      new ConflictError('You are an approver: approve or reject the documents.'),
      'roles.errors.approve',
    );
  if (role === 'viewer')
    throw said(
      new ConflictError('You are a viewer: there is nothing to sign or approve.'),
      'roles.errors.view',
    );
  throw said(
    new ConflictError('Only an approver approves or rejects: sign or decline instead.'),
    'roles.errors.sign',
  );
}
