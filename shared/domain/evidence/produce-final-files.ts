import { evidenceWords } from '#shared/pdf/evidence-words';
import { verifyChain } from '../bundles/audit-chain';
import type { TBundle, TDocument } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { hasSigned, isBundleComplete } from '../bundles/lifecycle/status';
import { markDocsReady } from '../bundles/lifecycle/transitions';
import { roleOf } from '../bundles/packet-roles';
import type { TJobOutcome } from '../outbox/jobs/document-jobs';
import type { TBlobStore } from '../ports/files';
import { currentValue } from '../signing/field-access';
import {
  conditionStates,
  isHiddenByCondition,
  type TFieldConditionStates,
} from '../signing/field-visibility';
import { currentRecords, type TSigningRecord, valueKey } from '../signing/signing-record';
import { auditEntries, auditPage } from './audit-trail';
import { certificateInput } from './certificate-input';
import { EvidenceInputError, type TEvidenceDeps } from './evidence-deps';
import {
  evidenceObjectKeys,
  FINAL_LEASE_SECONDS,
  type TAttachmentFile,
  type TBundleFilesRecord,
  type TCertificateFile,
  type TFileHashEntry,
  type TFinalFile,
} from './evidence-files';
import { EVIDENCE_RECORD_NAME, evidenceRecord, evidenceRecordBytes } from './evidence-record';
import { withoutDocumentJobErrors } from './fail-document-job';
import { readOriginal, sha256Hex } from './read-original';
import { valuesToStamp } from './values-to-stamp';

const PDF = 'application/pdf';

/** The attachments signers uploaded, as the fields hold them (the value that counts, see currentValue). */
export function attachmentsOf(
  b: TBundle,
  documents: TDocument[],
  records: TSigningRecord[],
  states: TFieldConditionStates,
): TAttachmentFile[] {
  const out: TAttachmentFile[] = [];
  for (const d of documents) {
    for (const f of d.fields) {
      if (f.kind !== 'att' || isHiddenByCondition(states, d.key, f)) continue;
      const current = currentValue(d.key, f, records, b.packets);
      const stored = current
        ? records.find((r) => r.packetId === current.packetId)?.values[valueKey(d.key, f.key)]
        : undefined;
      if (!current || !stored?.blobKey) continue;
      out.push({
        docKey: d.key,
        fieldKey: f.key,
        packetId: current.packetId,
        name: stored.value,
        blobKey: stored.blobKey,
        size: stored.size ?? 0,
        contentType: stored.contentType ?? 'application/octet-stream',
      });
    }
  }
  return out;
}

/** Reads of `blobs` that fetch each key at most once (for one job's marks). */
function readingOnce(blobs: Pick<TBlobStore, 'get'>): { blobs: Pick<TBlobStore, 'get'> } {
  const read = new Map<string, Promise<Buffer>>();
  return {
    blobs: {
      get(key) {
        let bytes = read.get(key);
        if (!bytes) {
          bytes = blobs.get(key);
          read.set(key, bytes);
        }
        return bytes;
      },
    },
  };
}

/**
 * A certificate says its signer signed: only a packet whose current signer's record holds their
 * consent was signed by them. A packet marked signed without it (never made by the signer calls,
 * which complete a packet only for the signer who consented; an edited table) gets no sealed
 * evidence saying otherwise: the bundle fails with the reason instead.
 */
function refuseUnconsented(b: TBundle, records: TSigningRecord[]): void {
  // A viewer consents to nothing: opening their link is their whole part, recorded by the `pv`
  // and `rd` events of the same bundle write (packet-roles.ts).
  const unconsented = b.packets.find(
    (p) =>
      hasSigned(p.status) && roleOf(p) !== 'viewer' && !records.find((r) => r.packetId === p.id)?.consentAt,
  );
  if (unconsented)
    throw new EvidenceInputError(
      'signer_without_consent',
      `${unconsented.name} is recorded as signed, but their signing record holds no consent; no final documents were sealed.`,
    );
}

/**
 * Draws, seals and stores the final set of a complete bundle: each document with its values and
 * audit page, and each signer's Certificate of Evidence.
 */
async function produceSet(deps: TEvidenceDeps, b: TBundle, issuedAt: string): Promise<TBundleFilesRecord> {
  const [documents, records, events] = await Promise.all([
    deps.bundles.documents(b),
    // Records an earlier signer left before handing a packet on count as empty.
    deps.records.all(b.accountId, b.id).then((all) => currentRecords(all, b)),
    deps.bundles.events(b),
  ]);
  const chain = verifyChain(events, b.chainHead);
  if (!chain.intact) {
    throw new EvidenceInputError(
      'audit_trail_broken',
      `The audit trail does not verify (event ${(chain.brokenAt ?? 0) + 1}); no final documents were sealed.`,
    );
  }
  refuseUnconsented(b, records);
  const entries = auditEntries(events, b.packets, records);
  // A drawn mark goes on its document and on its signer's certificate: read each once.
  const marks = readingOnce(deps.blobs);
  const finals: TFinalFile[] = [];
  const states = conditionStates(documents, records, b.packets);
  for (const doc of documents) {
    const original = await readOriginal(deps, doc);
    const audit = auditPage(b, doc, entries, chain.head);
    const rendered = await deps.pdf.renderFinal(
      {
        original,
        fields: await valuesToStamp(marks, doc, records, b.packets, states),
        audit,
        isTest: b.isTest,
        interim: false,
        // The record says what rendering took out of the original, so it is made from that.
        attachment: (removedFromOriginal) => ({
          name: EVIDENCE_RECORD_NAME,
          bytes: evidenceRecordBytes(
            evidenceRecord({
              bundle: b,
              doc,
              documents,
              events,
              records,
              chainHead: chain.head,
              issuedAt,
              removedFromOriginal,
            }),
          ),
          mimeType: 'application/json',
          description:
            'Evidence record: audit trail with its hash chain, original SHA-256s, signer authentication',
          date: new Date(issuedAt),
        }),
      },
      b.accountId,
    );
    const sealed = await deps.pdf.seal(rendered, {
      // What a reader's signature panel says the seal is for: in the audit page's language.
      reason: evidenceWords(audit.language).t(
        b.isTest ? 'evidence.audit.sealReasonTest' : 'evidence.audit.sealReason',
      ),
      name: `${b.label} · ${doc.name}`,
      accountId: b.accountId,
    });
    const blobKey = evidenceObjectKeys.final(b.accountId, b.id, doc.key);
    await deps.blobs.put(blobKey, sealed, PDF);
    finals.push({ docKey: doc.key, name: doc.name, blobKey, sha256: sha256Hex(sealed), size: sealed.length });
  }
  const certificates: TCertificateFile[] = [];
  for (const packet of b.packets.filter((p) => hasSigned(p.status))) {
    const input = await certificateInput(marks, {
      bundle: b,
      packet,
      record: records.find((r) => r.packetId === packet.id),
      records,
      documents,
      finals,
      events,
      chainHead: chain.head,
      issuedAt,
    });
    const sealed = await deps.pdf.seal(await deps.pdf.renderCertificate(input, b.accountId), {
      // What a reader's signature panel says the seal is for: in the certificate's language.
      reason: evidenceWords(input.language).t('evidence.certificate.title'),
      name: `${packet.name} · ${b.label}`,
      accountId: b.accountId,
    });
    const blobKey = evidenceObjectKeys.certificate(b.accountId, b.id, packet.id);
    await deps.blobs.put(blobKey, sealed, PDF);
    certificates.push({
      packetId: packet.id,
      packetKey: packet.key,
      blobKey,
      sha256: sha256Hex(sealed),
      size: sealed.length,
    });
  }
  return {
    accountId: b.accountId,
    bundleId: b.id,
    finals,
    certificates,
    attachments: attachmentsOf(b, documents, records, states),
    issuedAt,
    chainHead: chain.head,
    eventCount: events.length,
  };
}

/** Every sealed file of the set by its hash, for verification. */
function hashEntries(record: TBundleFilesRecord): TFileHashEntry[] {
  const common = {
    accountId: record.accountId,
    bundleId: record.bundleId,
    issuedAt: record.issuedAt!,
    chainHead: record.chainHead!,
    eventCount: record.eventCount!,
  };
  return [
    ...record.finals.map((f) => ({ ...common, sha256: f.sha256, kind: 'final' as const, docKey: f.docKey })),
    ...record.certificates.map((c) => ({
      ...common,
      sha256: c.sha256,
      kind: 'certificate' as const,
      packetId: c.packetId,
    })),
  ];
}

/**
 * The `final` job (queued by the bundle's `co` event): the final documents and certificates,
 * then `docsReady` with its `dk` event. Safe to run any number of times, at once or after a crash
 * at any point:
 * - a lease on the files record lets one run at a time write (a second copy waits);
 * - the files go to keys derived from the bundle, so a run after a crash overwrites what the
 *   crashed one left, and the files record (with their hashes) is written once all are stored;
 * - a set once recorded is never made again: a later run only completes what follows it (the
 *   hash index, `docsReady`), and `dk` is appended only by the change that sets `docsReady`.
 */
export async function produceFinalFiles(
  deps: TEvidenceDeps,
  job: { accountId: string; bundleId: string },
): Promise<TJobOutcome> {
  const b = await deps.bundles.get(job.accountId, job.bundleId);
  if (!b) return { kind: 'done', detail: 'no such bundle' };
  if (b.docsReady) return { kind: 'done', detail: 'documents were ready already' };
  if (!isBundleComplete(b.status))
    return { kind: 'done', detail: `the bundle is "${b.status}", not complete` };

  let record = await deps.evidence.get(b.accountId, b.id);
  if (!record?.issuedAt) {
    const now = deps.clock.now();
    const lease = {
      id: deps.ids.uuid(),
      until: new Date(now.getTime() + FINAL_LEASE_SECONDS * 1000).toISOString(),
    };
    if (!(await deps.evidence.claimFinal(b.accountId, b.id, lease, now.toISOString()))) {
      const held = (await deps.evidence.get(b.accountId, b.id))?.lease;
      const seconds = held ? Math.ceil((Date.parse(held.until) - now.getTime()) / 1000) : 0;
      return { kind: 'wait', seconds: Math.max(5, seconds) };
    }
    // Read again under the lease: a run that just finished may have written the set.
    record = await deps.evidence.get(b.accountId, b.id);
    if (record?.issuedAt) {
      await deps.evidence.releaseFinal(b.accountId, b.id, lease.id);
    } else {
      try {
        record = await produceSet(deps, b, now.toISOString());
        await deps.evidence.saveFinal(record, lease.id);
      } catch (err) {
        await deps.evidence.releaseFinal(b.accountId, b.id, lease.id).catch(() => undefined);
        throw err;
      }
    }
  }
  const issued = record!;
  await Promise.all(hashEntries(issued).map((e) => deps.evidence.putHash(e)));
  const at = deps.clock.now().toISOString();
  await changeBundle(deps, b.accountId, b.id, (current) =>
    markDocsReady(
      current,
      at,
      `${issued.finals.length} document(s), ${issued.certificates.length} certificate(s)`,
      withoutDocumentJobErrors(current.errors),
    ),
  );
  return {
    kind: 'done',
    detail: `${issued.finals.length} final document(s), ${issued.certificates.length} certificate(s)`,
  };
}
