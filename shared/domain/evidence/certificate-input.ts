import { signerLanguage } from '#shared/i18n/languages';
import type { TAuditEntry, TCertificateInput, TSaid } from '#shared/pdf/evidence-types';
import type { TBundle, TBundleEvent, TDocument, TPacket } from '../bundles/bundle';
import { identityLabel } from '../bundles/lifecycle/transitions';
import { signingStepOf, type TOrderStep } from '../bundles/packet-roles';
import type { TBlobStore } from '../ports/files';
import { currentValue } from '../signing/field-access';
import { deviceLabel, hostLabel } from '../signing/in-person';
import { type TSigningRecord, type TSigningStep, valueKey } from '../signing/signing-record';
import { auditEntries } from './audit-trail';
import { idDetail, inPersonDetail, markLabel, selfieDetail, smsDetail } from './evidence-details';
import type { TFinalFile } from './evidence-files';
import { recordedWords, stepDetailWords } from './stored-words';
import { TYPED } from './values-to-stamp';

const LINK_METHOD: Record<TPacket['deliverVia'], string> = {
  email: 'signing link by email',
  phone: 'signing link by phone',
  embed: 'embedded signing link',
  kiosk: "kiosk link on the host's device",
};

/**
 * How the signer got in (and, in person, who hosted on which device), and each authentication
 * step the packet asked for, as the record holds it: method and result as the words recorded
 * (English), the detail as a message (evidence-details.ts).
 */
export function authOf(packet: TPacket, record: TSigningRecord | undefined, viewed: string | undefined) {
  const auth: { method: string; result: string; at: string; detail?: TSaid }[] = [];
  if (viewed) auth.push({ method: LINK_METHOD[packet.deliverVia], result: 'opened', at: viewed });
  if (record?.inPerson) {
    auth.push({
      method: 'in person',
      result: 'hosted',
      at: record.inPerson.startedAt,
      detail: inPersonDetail(record.inPerson),
    });
  }
  const sms = record?.auth.sms;
  if (packet.authSms || sms) {
    auth.push({
      method: 'sms code',
      result: sms?.passedAt ? 'passed' : 'not passed',
      at: sms?.passedAt ?? sms?.sentAt.at(-1) ?? '',
      ...(sms ? { detail: smsDetail(sms) } : {}),
    });
  }
  const selfie = record?.auth.selfie;
  if (packet.authSelfie || selfie) {
    auth.push({
      method: 'selfie',
      result: selfie?.passedAt ? 'collected' : 'not taken',
      at: selfie?.passedAt ?? selfie?.at ?? '',
      ...(selfie ? { detail: selfieDetail(selfie) } : {}),
    });
  }
  const id = record?.auth.id;
  if (packet.authId || id) {
    const detail = id && idDetail(id);
    auth.push({
      method: 'identity document',
      result: id?.result?.status ?? (id ? 'collected' : 'not provided'),
      at: id?.passedAt ?? id?.at ?? '',
      ...(detail ? { detail } : {}),
    });
  }
  return auth;
}

/**
 * The steps as the certificate lists them: the page saves a field as the signer types (each pause,
 * each field left), so a run of saves of the same fields from the same browser is one line, its
 * last (the value that stayed). The evidence record keeps every step.
 */
export function foldRepeatedSaves(steps: TSigningStep[]): TSigningStep[] {
  const same = (a: TSigningStep, b: TSigningStep) =>
    a.action === 'saved values' &&
    b.action === a.action &&
    b.detail === a.detail &&
    b.ip === a.ip &&
    b.userAgent === a.userAgent;
  return steps.filter((s, i) => !(i + 1 < steps.length && same(s, steps[i + 1]!)));
}

/**
 * A signer's Certificate of Evidence: who they are, how they got in and authenticated, when they
 * were sent the request, opened, consented and signed, every step with its address and browser,
 * the documents with their fingerprints before and after, their marks, and the bundle's events
 * that concern them (their own and the bundle's, not other signers'). Written in the signer's
 * language: the one they chose on the page, else the packet's, else the bundle's, else English.
 */
export async function certificateInput(
  deps: { blobs: Pick<TBlobStore, 'get'> },
  input: {
    bundle: TBundle;
    packet: TPacket;
    record: TSigningRecord | undefined;
    records: TSigningRecord[];
    documents: TDocument[];
    finals: TFinalFile[];
    events: TBundleEvent[];
    chainHead: string;
    issuedAt: string;
  },
): Promise<TCertificateInput> {
  const { bundle: b, packet: p, record } = input;
  const mine = input.events.filter((e) => !e.packetId || e.packetId === p.id);
  // A packet handed on: the times are its last signer's, from the moment it reached them.
  const since = p.handovers?.at(-1)?.at ?? '';
  const first = (kinds: string[]) =>
    mine.find((e) => e.packetId === p.id && kinds.includes(e.kind) && e.timestamp >= since)?.timestamp;
  const sent = p.sentAt ?? first(['ps', 'pr']);
  const viewed = first(['pv']);
  const signatureImages: TCertificateInput['signatureImages'] = [];
  for (const d of input.documents) {
    for (const f of d.fields) {
      if (f.kind !== 'sig' && f.kind !== 'ini') continue;
      const current = currentValue(d.key, f, input.records, b.packets);
      if (current?.packetId !== p.id) continue;
      const label = markLabel(d.name, f);
      const stored = record?.values[valueKey(d.key, f.key)];
      if (stored?.blobKey) signatureImages.push({ label, image: await deps.blobs.get(stored.blobKey) });
      else
        signatureImages.push({
          label,
          typed: current.value.startsWith(TYPED) ? current.value.slice(TYPED.length) : current.value,
        });
    }
  }
  const events: TAuditEntry[] = auditEntries(mine, b.packets, input.records);
  return {
    language: signerLanguage({ chosen: record?.language, packet: p.language, bundle: b.language }),
    bundleId: b.id,
    label: b.label,
    signer: {
      name: p.name,
      ...(p.email ? { email: p.email } : {}),
      ...(p.phone ? { phone: p.phone } : {}),
      packetId: p.id,
      key: p.key,
      ...(p.role ? { role: p.role } : {}),
      ...withStep(signingStepOf(b, p.id)),
    },
    // As the evidence record keeps them (English), said in the certificate's language.
    auth: authOf(p, record, viewed).map((a) => ({
      ...a,
      method: recordedWords(a.method),
      result: recordedWords(a.result),
    })),
    ...(record?.inPerson
      ? {
          inPerson: {
            host: hostLabel(record.inPerson),
            device: deviceLabel(record.inPerson),
            at: record.inPerson.startedAt,
          },
        }
      : {}),
    times: {
      ...(sent ? { sent } : {}),
      ...(viewed ? { viewed } : {}),
      ...(record?.consentAt ? { consented: record.consentAt } : {}),
      ...(p.completedAt ? { signed: p.completedAt } : {}),
    },
    steps: foldRepeatedSaves(record?.steps ?? []).map((s) => ({
      action: recordedWords(s.action),
      ...(s.detail ? { detail: stepDetailWords(s, p, record) } : {}),
      at: s.at,
      ip: s.ip,
      userAgent: s.userAgent,
    })),
    documents: input.documents.map((d) => {
      const final = input.finals.find((f) => f.docKey === d.key);
      return {
        name: d.name,
        key: d.key,
        originalSha256: d.sha256,
        ...(final ? { finalSha256: final.sha256 } : {}),
      };
    }),
    signatureImages,
    events,
    ...(p.handovers?.length
      ? {
          handovers: p.handovers.map((h) => ({
            from: identityLabel(h.from),
            to: identityLabel(h.to),
            reason: h.reason,
            at: h.at,
          })),
        }
      : {}),
    chainHead: input.chainHead,
    isTest: b.isTest,
    issuedAt: input.issuedAt,
  };
}

const withStep = (step: TOrderStep | undefined) => (step ? { step } : {});
