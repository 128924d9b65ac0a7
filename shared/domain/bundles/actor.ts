// Who acted: every audit event the service writes records it, when it happens, so the evidence
// says who did what from data rather than from the wording of a description.

/**
 * The party behind an audit event:
 * - `signer`: the signer of that packet, on their signing page or the signer API (by link,
 *   embedded, or in person on the host's device);
 * - `api_key`: a sender calling the API with that key (its key id, never its secret);
 * - `user`: a sender's user acting without a key of their own in the request (a bulk send the
 *   user started, going on in the background);
 * - `portal`: a visitor of an envelope template's public portal link, starting a bundle;
 * - `operator`: the service's operator, with the admin command;
 * - `scheduler`: the service's timer (automatic reminders, expiry);
 * - `system`: the service itself, as the consequence of something else (a signing request sent
 *   when a signer's turn comes, the bundle complete, a message bounced, the final documents).
 */
export type TActor =
  | { type: 'signer'; packetId: string }
  | { type: 'api_key'; keyId: string }
  | { type: 'user'; userId: string }
  | { type: 'portal'; templateId: string }
  | { type: 'operator' }
  | { type: 'scheduler' }
  | { type: 'system' };

export type TActorType = TActor['type'];

/** An account's caller with who acts: what a use case that writes audit events is given. */
export interface TActing {
  accountId: string;
  by: TActor;
}

export const OPERATOR: TActor = { type: 'operator' };
export const SCHEDULER: TActor = { type: 'scheduler' };
export const SYSTEM: TActor = { type: 'system' };
export const bySigner = (packetId: string): TActor => ({ type: 'signer', packetId });
export const byApiKey = (keyId: string): TActor => ({ type: 'api_key', keyId });

/**
 * The actor as one line of text, `type` or `type:id` (`api_key:3f…`, `signer:P7…`, `scheduler`):
 * what the audit chain hashes and the evidence record prints. Text, not the object's JSON, since
 * a stored map's keys come back in any order.
 */
export function actorCode(a: TActor): string {
  switch (a.type) {
    case 'signer':
      return `signer:${a.packetId}`;
    case 'api_key':
      return `api_key:${a.keyId}`;
    case 'user':
      return `user:${a.userId}`;
    case 'portal':
      return `portal:${a.templateId}`;
    default:
      return a.type;
  }
}

/** Whether the actor is a sender (through a key, as a user, or the sender's portal link). */
export const isSender = (a: TActor) => a.type === 'api_key' || a.type === 'user' || a.type === 'portal';
