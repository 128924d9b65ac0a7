import { resolveLanguage } from '#shared/i18n/languages';
import type { TAccount, TBrand } from '../accounts/account';
import type { TDocument } from '../bundles/bundle';
import { mayHandOn } from '../bundles/bundle';
import { EVENT_KINDS } from '../bundles/event-kinds';
import { hasSigned, isBundleComplete } from '../bundles/lifecycle/status';
import { fillsFields, roleOf } from '../bundles/packet-roles';
import { copiesReady, copyFiles } from '../evidence/copy-link';
import type { TEvidenceStore } from '../ports/evidence';
import { calculatedOf } from './calculated-values';
import { decisionOf } from './decision';
import { currentValue, isEditableBy, isRequiredFor, optionsOf, visibleRecords } from './field-access';
import { conditionStates } from './field-visibility';
import {
  cannotSign,
  canRead,
  documentsOf,
  recordsWith,
  type TCannotSign,
  type TSignerContext,
  type TSigningDeps,
} from './signer-context';
import { signingBrandOf } from './signing-brand';
import type { TSigningRecord } from './signing-record';

/** What the signer agrees to before finishing; recorded with the time it was given. */
export const CONSENT_TEXT =
  'I agree to sign these documents electronically. My electronic signature is the legal equivalent of my handwritten signature, and I consent to receive these documents and related notices electronically.';

/** How long the document links in a state answer work. */
const FILE_LINK_SECONDS = 15 * 60;

export type TAuthStep = 'sms' | 'selfie' | 'id';

function requiredAuth(ctx: Pick<TSignerContext, 'packet'>): TAuthStep[] {
  const p = ctx.packet;
  return [
    ...(p.authSms ? ['sms' as const] : []),
    ...(p.authSelfie ? ['selfie' as const] : []),
    ...(p.authId ? ['id' as const] : []),
  ];
}

function passedAuth(record: TSigningRecord): TAuthStep[] {
  const a = record.auth;
  return [
    ...(a.sms?.passedAt ? ['sms' as const] : []),
    ...(a.selfie?.passedAt ? ['selfie' as const] : []),
    ...(a.id?.passedAt ? ['id' as const] : []),
  ];
}

export const authComplete = (ctx: TSignerContext) => {
  const passed = passedAuth(ctx.record);
  return requiredAuth(ctx).every((s) => passed.includes(s));
};

function maskPhone(phone: string | undefined): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  return `•••• ${digits.slice(-4)}`;
}

/**
 * Where the page goes after finishing: the packet's redirect, else the signing brand's, else the
 * account's; none: the page's own done view.
 */
async function redirectOf(
  deps: TSigningDeps,
  ctx: TSignerContext,
  brand: TBrand | undefined,
  account?: Promise<TAccount | undefined>,
): Promise<string | null> {
  if (ctx.packet.signingCompleteRedirect) return ctx.packet.signingCompleteRedirect;
  if (brand?.redirectUrl) return brand.redirectUrl;
  return (await (account ?? deps.accounts.getAccount(ctx.bundle.accountId)))?.signingRedirectUrl ?? null;
}

/**
 * What a signer who has signed is told of their copies. `by_message`: a message with a link to
 * them will come when documents are ready (plan-messages.ts sends one unless the sender suppressed
 * it, to the signer's email or else phone). `copies`, for a session opened with the signer's own
 * signing link only (an embedded or kiosk device may be someone else's): `pending` while the
 * bundle, complete, is being sealed; `ready` with the files, downloaded with that link
 * (copies-page.ts); null otherwise.
 */
async function copiesView(
  deps: TSigningDeps & { evidence?: Pick<TEvidenceStore, 'get'> },
  ctx: TSignerContext,
) {
  const { bundle, packet } = ctx;
  const byMessage = !packet.suppressAll && !packet.suppressDocsReady && !!(packet.email || packet.phone);
  if (!ctx.viaSigningLink || !deps.evidence || !hasSigned(packet.status) || !isBundleComplete(bundle.status))
    return { by_message: byMessage, copies: null };
  if (!copiesReady(bundle))
    return { by_message: byMessage, copies: { status: 'pending' as const, files: [] } };
  const files = await copyFiles({ evidence: deps.evidence }, bundle, packet.id);
  return {
    by_message: byMessage,
    copies: {
      status: 'ready' as const,
      files: files.map((f) => ({ file: f.file, kind: f.kind, name: f.name, size: f.size })),
    },
  };
}

/**
 * What a call read for its state answer beside its own work, rather than after it: the account (a
 * finished signer's answer names the redirect, which may be the account's), and the documents'
 * file links (each asks for the account's documents key: startFileLinks). The documents and the
 * records are the context's (a call that checks fields, or opens a session with its state, reads
 * them with the bundle), else read here.
 */
export interface TStateReads {
  account?: Promise<TAccount | undefined>;
  fileLinks?: Promise<Map<string, string>>;
}

/** The documents' file links (by blob key), started while the caller goes on with its work. */
export function startFileLinks(deps: Pick<TSigningDeps, 'blobs'>, docs: TDocument[]) {
  const links = Promise.all(
    docs.map(async (d) => [d.blobKey, await deps.blobs.presignGet(d.blobKey, FILE_LINK_SECONDS)] as const),
  ).then((pairs) => new Map(pairs));
  links.catch(() => undefined); // awaited by the answer; a call that fails first answers its own error
  return links;
}

/** The answer of GET /sign/api/state (docs/signer-api.md), with what the caller `read` already. */
export async function signerState(
  deps: TSigningDeps & { evidence?: Pick<TEvidenceStore, 'get'> },
  ctx: TSignerContext,
  read: TStateReads = {},
) {
  const { bundle, packet } = ctx;
  const reason = cannotSign(bundle, packet, ctx.now) ?? null;
  const required = requiredAuth(ctx);
  const passed = passedAuth(ctx.record);
  const showDocuments = canRead(bundle, packet, ctx.now) && required.every((s) => passed.includes(s));
  // Read side by side: the brand, the documents and the records do not need one another.
  const [brand, shown] = await Promise.all([
    signingBrandOf(deps.accounts, ctx.bundle),
    showDocuments ? Promise.all([documentsOf(deps, ctx), recordsWith(deps, ctx)]) : undefined,
  ]);
  let documents: Awaited<ReturnType<typeof documentsView>> = [];
  let fields: ReturnType<typeof fieldsView> = [];
  if (shown) {
    const [docs, records] = shown;
    documents = await documentsView(deps, docs, await read.fileLinks);
    fields = fieldsView(ctx, docs, records);
  }
  return {
    bundle: {
      id: bundle.id,
      label: bundle.label,
      status: bundle.status,
      in_order: bundle.inOrder,
      requester_name: bundle.requesterName,
      requester_email: bundle.requesterEmail,
      is_test: bundle.isTest,
      // The documents' language (the audit page's): dates on them are written in it, and the page
      // previews them so.
      language: resolveLanguage(bundle.language),
      brand: brand
        ? {
            name: brand.name,
            redirect_url: brand.redirectUrl ?? null,
            primary_color: brand.primaryColor ?? null,
            logo_url: brand.logoUrl ?? null,
          }
        : null,
    },
    packet: {
      id: packet.id,
      key: packet.key,
      name: packet.name,
      email: packet.email ?? null,
      phone: packet.phone ?? null,
      status: packet.status,
    },
    can_sign: reason === null,
    // What this person does (packet-roles.ts): the page shows approve/reject, or only the documents.
    role: roleOf(packet),
    approval: approvalView(ctx, reason),
    // The sender lets this signer hand the packet to someone else: checks passed, not signed yet.
    can_reassign: showDocuments && !!packet.allowReassign && !decisionOf(ctx) && mayHandOn(packet),
    reason,
    auth: { required, passed, sms_phone_hint: maskPhone(packet.phone) },
    documents,
    fields,
    consent_text: CONSENT_TEXT,
    payment: paymentView(bundle, packet),
    completed_at: packet.completedAt ?? null,
    redirect_url: hasSigned(packet.status) ? await redirectOf(deps, ctx, brand, read.account) : null,
    signed_copies: await copiesView(deps, ctx),
  };
}

/**
 * What an approver answered, so that opening the link again says what they did rather than why
 * they cannot sign: approved (when), or rejected (when, and the reason they gave, theirs to
 * read). Null for a signer or a viewer, and before the answer reached the bundle.
 */
function approvalView(ctx: TSignerContext, reason: TCannotSign | null) {
  const { bundle, packet, record } = ctx;
  if (roleOf(packet) !== 'approver') return null;
  if (reason === 'completed')
    return { answer: 'approved' as const, at: packet.completedAt ?? record.consentAt ?? null, reason: null };
  if (reason !== 'declined') return null;
  // The `rj` event is what made the packet `declined` (cannotSign); the step log keeps the same time.
  const event = bundle.events.find((e) => e.kind === EVENT_KINDS.rejected.code && e.packetId === packet.id);
  const step = record.steps.findLast((s) => s.action === 'rejected');
  return {
    answer: 'rejected' as const,
    at: event?.timestamp ?? step?.at ?? null,
    reason: record.declineReason ?? null,
  };
}

/** The bundle's payment, for the billed signer only (the others never see it). */
function paymentView(bundle: TSignerContext['bundle'], packet: TSignerContext['packet']) {
  const p = bundle.payment;
  if (!p?.status || p.billedTo !== packet.key) return null;
  return {
    required: p.status !== 'paid',
    status: p.status,
    amount_due: p.amountDue,
    currency: p.currency ?? '',
  };
}

async function documentsView(deps: TSigningDeps, docs: TDocument[], started?: Map<string, string>) {
  return Promise.all(
    docs.map(async (d) => ({
      key: d.key,
      name: d.name,
      pages: d.pages.map((p) => ({ width: p.width, height: p.height })),
      file_url: started?.get(d.blobKey) ?? (await deps.blobs.presignGet(d.blobKey, FILE_LINK_SECONDS)),
    })),
  );
}

/**
 * The fields with the values this signer may see: their own and those of signers who finished.
 * A field another signer has filled but not yet signed shows as nobody had filled it (its
 * initial value, else empty), so nobody reads another's values in progress.
 */
function fieldsView(ctx: TSignerContext, docs: TDocument[], all: TSigningRecord[]) {
  const { packet, bundle } = ctx;
  const records = visibleRecords(all, packet.id, bundle.packets);
  // Decided (signed, declined, handing on): the values are frozen while the bundle change is
  // still to come (decision.ts).
  const frozen = decisionOf(ctx) !== undefined;
  const byId = new Map(bundle.packets.map((p) => [p.id, p]));
  // The page decides visibility live; the totals it is given start from the same decision.
  const states = conditionStates(docs, records, bundle.packets);
  return docs.flatMap((d) => {
    const calculated = calculatedOf(d, records, bundle.packets, states);
    return d.fields.map((f) => {
      const current = currentValue(d.key, f, records, bundle.packets);
      return {
        doc_key: d.key,
        key: f.key,
        kind: f.kind,
        label: f.label,
        page: f.page ?? null,
        x: f.x,
        y: f.y,
        w: f.w,
        h: f.h,
        format: f.format,
        options: optionsOf(f),
        editable: !frozen && isEditableBy(d.key, f, packet, records, bundle.packets),
        // With `required_when`: whether the signer must fill it while the condition holds; the
        // page decides whether it holds (and whether the field shows) from the values it has,
        // with the service's own rules (shared/text/field-conditions.js). Approvers and viewers
        // fill nothing (packet-roles.ts).
        required:
          fillsFields(packet) && isRequiredFor(f.requiredWhen ? { ...f, required: true } : f, packet.key),
        ...(f.visibleWhen ? { visible_when: f.visibleWhen } : {}),
        ...(f.requiredWhen ? { required_when: f.requiredWhen } : {}),
        v_pattern: f.vPattern ?? null,
        v_min: f.vMin ?? null,
        v_max: f.vMax ?? null,
        v_regex: f.vRegex ?? null,
        v_regex_msg: f.vRegexMsg ?? null,
        v_attachment_types: f.vAttachmentTypes ?? null,
        value: calculated.get(f.key) ?? current?.value ?? f.initialValue ?? '',
        filled_by: current ? (byId.get(current.packetId)?.key ?? null) : null,
        has_image: current?.hasImage ?? false,
        ...(f.readOnly ? { read_only: true } : {}),
        ...(f.formula !== undefined ? { formula: f.formula } : {}),
      };
    });
  });
}
