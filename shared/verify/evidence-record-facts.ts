// The evidence record a final document carries (docs/evidence-record.md), as the verifier reports
// it: found or not, of our format or not, its hash chain intact and its head matching, and, for
// originals the person verifying passes, whether their SHA-256 is the one the record names.
import { createHash } from 'node:crypto';
import {
  checkEvidenceRecord,
  EVIDENCE_RECORD_NAME,
  parseEvidenceRecord,
} from '../domain/evidence/evidence-record';
import { readAttachments } from '../pdf/read-attachment';
import type { TCheck, TEvidenceRecordFacts } from './report';

export async function evidenceRecordFacts(
  pdf: Uint8Array,
  originals: Uint8Array[] = [],
): Promise<{ facts: TEvidenceRecordFacts; checks: TCheck[] }> {
  let attachments: Awaited<ReturnType<typeof readAttachments>>;
  try {
    attachments = await readAttachments(pdf);
  } catch {
    attachments = [];
  }
  const records = attachments.filter((a) => a.name === EVIDENCE_RECORD_NAME);
  if (records.length > 1) {
    return {
      facts: { status: 'unreadable' },
      checks: [
        {
          id: 'evidence-record',
          status: 'fail',
          title: `The file carries ${records.length} files named ${EVIDENCE_RECORD_NAME}; the service attaches one.`,
          next: 'Ask the sender for the sealed file they keep.',
        },
      ],
    };
  }
  const attached = records[0];
  if (!attached) {
    return {
      facts: { status: 'none embedded' },
      checks: [{ id: 'evidence-record', status: 'info', title: 'Evidence record: none embedded.' }],
    };
  }
  const record = parseEvidenceRecord(attached.bytes);
  if (!record) {
    return {
      facts: { status: 'unreadable' },
      checks: [
        {
          id: 'evidence-record',
          status: 'fail',
          title: `The attached ${EVIDENCE_RECORD_NAME} is not an evidence record of a known version.`,
        },
      ],
    };
  }
  // An original is matched to the record's documents by its hash: the person need not know keys.
  const given = originals.map((o) => createHash('sha256').update(o).digest('hex'));
  const byHash = new Map(record.documents.map((d) => [d.original_sha256, d.key]));
  const check = checkEvidenceRecord(record);
  const facts: TEvidenceRecordFacts = {
    status: 'embedded',
    associated: attached.associated && attached.relationship === 'Data',
    document: record.document.key,
    events: record.audit_trail.events.length,
    head: record.audit_trail.head,
    chainIntact: check.chainIntact,
    headMatches: check.headMatches,
    ...(check.brokenAt !== undefined ? { brokenAt: check.brokenAt } : {}),
    signers: record.signers.map((s) => ({
      status: s.status,
      authentication: s.authentication.length,
    })),
    originals: given.map((sha256) => ({ sha256, document: byHash.get(sha256) ?? null })),
  };
  const checks: TCheck[] = [
    check.chainIntact && check.headMatches
      ? {
          id: 'evidence-record.chain',
          status: 'pass',
          title: `Evidence record: its audit trail of ${facts.events} events recomputes to its head ${facts.head.slice(0, 16)}….`,
        }
      : {
          id: 'evidence-record.chain',
          status: 'fail',
          title: `Evidence record: its audit trail does not hold (${check.problems.join('; ')}).`,
          next: 'The record was changed after it was made; ask the sender for the sealed file they keep.',
        },
    ...facts.originals.map(
      (o, i): TCheck =>
        o.document
          ? {
              id: `evidence-record.original-${i + 1}`,
              status: 'pass',
              title: `Original ${i + 1} is the document "${o.document}" the record names (SHA-256 ${o.sha256.slice(0, 16)}…).`,
            }
          : {
              id: `evidence-record.original-${i + 1}`,
              status: 'fail',
              title: `Original ${i + 1} (SHA-256 ${o.sha256.slice(0, 16)}…) is none of the documents the record names.`,
              next: 'Check that you passed the file as it was uploaded, before signing.',
            },
    ),
  ];
  return { facts, checks };
}
