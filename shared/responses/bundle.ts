// A bundle, its packets and its events as the API answers them (spec "Bundle", "Packet").
import type { TBundle, TBundleEvent, TPacket } from '#shared/domain/bundles/bundle';
import type { TEventActor } from '#shared/domain/bundles/event-actors';
import type {
  TBundleEventResponse,
  TBundleResponse,
  TPacketResponse,
} from '#shared/schemas/responses/bundle';

/** A Packet on the wire: the request's fields except key, plus its state (spec "Packet"). */
export function toPacketResponse(p: TPacket): TPacketResponse {
  return {
    id: p.id,
    name: p.name,
    email: p.email ?? '',
    phone: p.phone ?? '',
    auth_sms: p.authSms,
    auth_selfie: p.authSelfie,
    auth_id: p.authId,
    suppress_all: p.suppressAll,
    suppress_docs_ready: p.suppressDocsReady,
    suppress_signing: p.suppressSigning,
    suppress_reminder: p.suppressReminder,
    person_id: p.personId,
    deliver_via: p.deliverVia,
    order: p.order,
    status: p.status,
    completed_at: p.completedAt ?? null,
    last_accessed_at: p.lastAccessedAt ?? null,
    signing_complete_redirect: p.signingCompleteRedirect ?? '',
    language: p.language ?? null,
    allow_reassign: p.allowReassign ?? false,
    // Only when the request named a role: a BlueInk client sees exactly today's packet.
    ...(p.role ? { role: p.role } : {}),
  };
}

/**
 * An event on the wire: BlueInk's four fields; with `actorOf` (asked for by `include_actor=true`,
 * event-actors.ts) also who acted. A client that does not ask gets exactly BlueInk's shape.
 */
export function toEventResponse(
  e: TBundleEvent,
  actorOf?: (e: TBundleEvent) => TEventActor | null,
): TBundleEventResponse {
  return {
    kind: e.kind,
    description: e.description,
    timestamp: e.timestamp,
    packet_id: e.packetId ?? null,
    ...(actorOf ? { actor: actorOf(e) } : {}),
  };
}

export function toBundleResponse(b: TBundle): TBundleResponse {
  return {
    id: b.id,
    label: b.label,
    in_order: b.inOrder,
    email_subject: b.emailSubject,
    email_message: b.emailMessage,
    sms_message: b.smsMessage,
    requester_name: b.requesterName,
    requester_email: b.requesterEmail,
    cc_emails: b.ccEmails,
    custom_key: b.customKey ?? '',
    team: b.team ?? null,
    is_test: b.isTest,
    language: b.language ?? null,
    status: b.status,
    payment: b.payment
      ? {
          billed_to: b.payment.billedTo,
          amount_due: b.payment.amountDue,
          currency: b.payment.currency ?? null,
          payment_method_types: b.payment.paymentMethodTypes,
          status: b.payment.status ?? 'due',
          reference: b.payment.reference ?? null,
        }
      : null,
    created: b.created,
    sent: b.sent ?? null,
    completed_at: b.completedAt ?? null,
    docs_ready: b.docsReady,
    errors: b.errors,
    packets: b.packets.map(toPacketResponse),
    documents: b.documents.map((d) => ({ template_id: d.templateId ?? null, key: d.key, name: d.name })),
    tags: b.tags,
    expires: b.expires ?? null,
    cc_sender: b.ccSender,
    send_reminders: b.sendReminders,
    reminder_offset: b.reminderOffset ?? null,
    reminder_interval: b.reminderInterval ?? null,
    reminder_expires: b.reminderExpires ?? null,
    owner: b.owner ?? null,
    signing_brand: b.signingBrand ?? null,
  };
}
