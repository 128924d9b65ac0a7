// A signer hands their packet to another person, when the sender allows it (`allow_reassign`).
// The packet stays where it is in the bundle (its id, key, order and fields); only who signs it
// changes. The bundle write is the switch: it moves the packet's signer generation on, which
// ends every link and session of the earlier signer (signer-context.ts, heldBy) and makes the
// values, checks and consent they left count as empty (signing-record.ts, heldRecord), so no
// second write has to succeed for the new signer to start clean.
import * as z from 'zod';
import { optional, zText } from '#shared/schemas/common';
import { PERSON_LIMITS } from '#shared/schemas/person';
import {
  MAX_HANDOVERS,
  mayHandOn,
  type THandover,
  type TPacket,
  type TSignerIdentity,
} from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import * as lifecycle from '../bundles/lifecycle/transitions';
import { linkPerson } from '../bundles/link-person';
import {
  ConflictError,
  PermissionDeniedError,
  ServiceError,
  type TFieldError,
  ValidationError,
} from '../errors';
import { parseInput } from '../parse-input';
import type { TPersonStore } from '../ports/persons';
import type { TSigningToken } from '../ports/signing';
import type { TIds } from '../ports/system';
import { decidedError, pendingHandover } from './decision';
import { assertAuthenticated } from './save-values';
import {
  changeSigner,
  handedOnError,
  heldBy,
  refuseUnlessSigning,
  saveStep,
  type TSignerCall,
  whileSigning,
} from './signer-context';

export const REASON_MAX = 500;

/** How many refused handovers a signer's record keeps (each one needs the sender to change the bundle). */
const HANDED_BACK_KEPT = 20;

export const ZReassignSchema = z.object({
  name: zText(255).trim().min(1, 'Enter the name of the person who will sign.'),
  email: optional(z.email('Enter a valid email address.').max(254)),
  // Written internationally: the service texts it as given and never guesses a country.
  phone: optional(
    zText(PERSON_LIMITS.phone).regex(
      /^(\+|00)[1-9][0-9 ().-]{5,}$/,
      'Enter the phone number in international format, beginning with + and the country code.',
    ),
  ),
  reason: z
    .string('Say why someone else should sign.')
    .trim()
    .min(1, 'Say why someone else should sign.')
    .max(REASON_MAX, `At most ${REASON_MAX} characters.`),
});

export type TReassignDeps = { persons: TPersonStore; ids: TIds };

/** What the handing signer is told: who the packet went to. */
export interface THandedOn {
  handed_to: { name: string };
  packet_id: string;
}

const digits = (phone: string | undefined) => phone?.replace(/\D/g, '').replace(/^00/, '') ?? '';
const sameEmail = (a: string | undefined, b: string | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();
const samePhone = (a: string | undefined, b: string | undefined) => !!a && !!b && digits(a) === digits(b);

/** Who the packet names now. */
export const identityOf = (p: Pick<TPacket, 'name' | 'email' | 'phone'>): TSignerIdentity => ({
  name: p.name,
  ...(p.email ? { email: p.email } : {}),
  ...(p.phone ? { phone: p.phone } : {}),
});

/**
 * The request's checks beyond its shape: someone reachable (an email or a phone), not the signer
 * themselves, not someone who already signs this bundle (they would hold two packets, and the
 * sender chose the signers), and a phone when the packet asks for an SMS code.
 */
export function checkNewSigner(
  packets: TPacket[],
  packet: TPacket,
  to: TSignerIdentity,
  self = 'That is you: name the person who should sign instead.',
): void {
  const errors: TFieldError[] = [];
  if (!to.email && !to.phone)
    errors.push({ field: 'email', message: 'Give an email address or a phone number of the new signer.' });
  if (sameEmail(to.email, packet.email) || samePhone(to.phone, packet.phone))
    errors.push({
      field: sameEmail(to.email, packet.email) ? 'email' : 'phone',
      message: self,
    });
  const other = packets.find(
    (p) => p.id !== packet.id && (sameEmail(to.email, p.email) || samePhone(to.phone, p.phone)),
  );
  if (other)
    errors.push({
      field: sameEmail(to.email, other.email) ? 'email' : 'phone',
      message: `${other.name} already signs these documents; name someone who does not.`,
    });
  if (packet.authSms && !to.phone)
    errors.push({
      field: 'phone',
      message: 'The sender asks for a code by SMS: give the new signer’s mobile phone number.',
    });
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);
}

/** Refuses a packet the sender does not let change hands, or one that changed hands too often. */
function refuseUnlessAllowed(packet: TPacket): void {
  if (!packet.allowReassign)
    throw new PermissionDeniedError(
      'The sender does not allow these documents to be handed to someone else.',
    );
  if (!mayHandOn(packet))
    throw new ConflictError(`These documents were handed on ${MAX_HANDOVERS} times already; ask the sender.`);
}

/**
 * Hands the session's packet to another person: name, an email or a phone, and a reason. The
 * signer must be able to sign now, have passed the identity checks and not have signed; the step is kept in their record, then
 * the bundle changes (lifecycle.reassign): the packet names the new signer and their Person (found
 * by email or phone, else new, as on create), `ra` and a signing request `ps` are recorded, and
 * these fire packet_reassigned and send the new signer their link (EFFECTS). Repeating the same
 * request with the session it ended answers the same (a client's retry); any other call of that
 * session is refused.
 */
export async function reassignPacket(
  call: TSignerCall<TReassignDeps>,
  session: Pick<TSigningToken, 'generation'>,
  body: unknown,
): Promise<THandedOn> {
  const { deps } = call;
  const generation = session.generation ?? 0;
  const handedTo = (name: string): THandedOn => ({ handed_to: { name }, packet_id: call.signer.packet.id });
  if (!heldBy(session, call.signer.packet)) {
    const input = parseInput(ZReassignSchema, body);
    const done = call.signer.packet.handovers?.[generation];
    if (done && sameRequest(done, identityOf(input), input.reason)) return handedTo(done.to.name);
    throw handedOnError();
  }
  const verb = 'hand these documents on';
  const at = deps.clock.now().toISOString();
  let handover: THandover | undefined;
  // The handover is the signer's decision (decision.ts), kept in their record before the bundle
  // changes hands: a finish or decline sent at the same time loses to it, or it to them.
  const handing = await whileSigning(
    call,
    async (ctx) => {
      const asked = pendingHandover(ctx);
      if (asked) {
        // The same request again (a client's retry) goes on to the bundle change, which checks it
        // against the bundle as it is now (and takes it back if refused); another is refused.
        const input = parseInput(ZReassignSchema, body);
        if (!sameRequest(asked, identityOf(input), input.reason)) throw decidedError('handing on', verb);
        handover = asked;
        return ctx;
      }
      refuseUnlessAllowed(ctx.packet);
      // Only the signer the sender asked for, once they passed the checks, may name another:
      // else a link alone would let anyone hand the packet to themselves past an SMS code.
      assertAuthenticated(ctx);
      const input = parseInput(ZReassignSchema, body);
      const to = identityOf(input);
      checkNewSigner(ctx.bundle.packets, ctx.packet, to);
      handover = { from: identityOf(ctx.packet), to, reason: input.reason, at };
      const detail = `to ${to.name}: ${input.reason}`;
      return saveStep(call, ctx, { handingOn: handover }, 'handed on', at, detail);
    },
    verb,
    'handing on',
  );
  const { accountId, id: bundleId } = handing.bundle;
  const to = handover!.to;
  try {
    const personId = await linkPerson(deps, accountId, to, 'name');
    // The link first, as on create: a Person in a live bundle is not deleted.
    await deps.bundles.linkPerson(accountId, personId, bundleId);
    const now = deps.clock.now();
    await changeBundle(deps, accountId, bundleId, (b) =>
      lifecycle.reassign(b, handing.packet.id, generation, handover!, personId, (packet) => {
        refuseUnlessSigning({ bundle: b, packet, now, kioskSession: handing.kioskSession }, verb);
        refuseUnlessAllowed(packet);
        checkNewSigner(b.packets, packet, to);
      }),
    );
  } catch (err) {
    // Refused by the bundle as it is now (the sender changed it meanwhile): the signer has not
    // handed on after all, so the decision is taken back and they may sign, decline or ask again.
    if (err instanceof ServiceError) await withdrawHandover({ ...call, signer: handing }, handover!);
    throw err;
  }
  return handedTo(to.name);
}

const sameRequest = (asked: THandover, to: TSignerIdentity, reason: string) =>
  JSON.stringify([asked.to, asked.reason]) === JSON.stringify([to, reason]);

/**
 * Takes a handover the bundle refused out of the signer's record, if it is still there: `call`
 * holds the record as the handover wrote it (a later write makes the save read it again). Should
 * this fail, the handover lapses after HANDOVER_HOLD_MS anyway, and the signer is answered the
 * bundle's refusal, the reason that matters to them.
 */
async function withdrawHandover(call: TSignerCall<TReassignDeps>, handover: THandover): Promise<void> {
  await changeSigner(call, async (ctx) => {
    if (ctx.record.handingOn?.at !== handover.at) return ctx;
    const { handingOn: withdrawn, ...rest } = ctx.record;
    // Kept (the latest few) so the evidence can still say its `handed on` step: who and why.
    const handedBack = [...(rest.handedBack ?? []), withdrawn].slice(-HANDED_BACK_KEPT);
    const record = { ...rest, handedBack };
    return saveStep(call, { ...ctx, record }, {}, 'not handed on', call.deps.clock.now().toISOString());
  }).catch(() => undefined);
}
