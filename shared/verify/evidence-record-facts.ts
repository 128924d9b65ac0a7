// The evidence record a final document carries (docs/evidence-record.md), as the verifier reports
// it: found or not, of our format or not, its hash chain intact and its head matching, and, for
// originals the person verifying passes, whether their SHA-256 is the one the record names.
import { createHash } from 'node:crypto';
import {
  checkEvidenceRecord,
  EVIDENCE_RECORD_NAME,
  parseEvidenceRecord,
} from '#shared/domain/evidence/evidence-record';
import { readAttachments } from '#shared/pdf/read-attachment';
import { PdfTooComplexError } from '#shared/pdf/untrusted-limits';
import { words } from './check-words';
import { check, type TCheck, type TEvidenceRecordFacts } from './report';

const K = 'verify.checks.';

export async function evidenceRecordFacts(
  pdf: Uint8Array,
  originals: Uint8Array[] = [],
): Promise<{ facts: TEvidenceRecordFacts; checks: TCheck[] }> {
  let attachments: Awaited<ReturnType<typeof readAttachments>>;
  try {
    attachments = await readAttachments(pdf);
  } catch (err) {
    // Too costly to read is the answer for the whole file, not "no evidence record".
    if (err instanceof PdfTooComplexError) throw err;
    attachments = [];
  }
  const records = attachments.filter((a) => a.name === EVIDENCE_RECORD_NAME);
  if (records.length > 1) {
    return {
      facts: { status: 'unreadable' },
      checks: [
        check(
          'evidence-record',
          'fail',
          words(`${K}evidenceRecords`, { count: records.length, file: EVIDENCE_RECORD_NAME }),
          words(`${K}askSealedFile`),
        ),
      ],
    };
  }
  const attached = records[0];
  if (!attached) {
    return {
      facts: { status: 'none embedded' },
      checks: [check('evidence-record', 'info', words(`${K}evidenceNone`))],
    };
  }
  const record = parseEvidenceRecord(attached.bytes);
  if (!record) {
    return {
      facts: { status: 'unreadable' },
      checks: [
        check('evidence-record', 'fail', words(`${K}evidenceUnknown`, { file: EVIDENCE_RECORD_NAME })),
      ],
    };
  }
  // An original is matched to the record's documents by its hash: the person need not know keys.
  const given = originals.map((o) => createHash('sha256').update(o).digest('hex'));
  const byHash = new Map(record.documents.map((d) => [d.original_sha256, d.key]));
  const held = checkEvidenceRecord(record);
  const facts: TEvidenceRecordFacts = {
    status: 'embedded',
    associated: attached.associated && attached.relationship === 'Data',
    document: record.document.key,
    events: record.audit_trail.events.length,
    head: record.audit_trail.head,
    chainIntact: held.chainIntact,
    headMatches: held.headMatches,
    ...(held.brokenAt !== undefined ? { brokenAt: held.brokenAt } : {}),
    signers: record.signers.map((s) => ({
      status: s.status,
      authentication: s.authentication.length,
    })),
    originals: given.map((sha256) => ({ sha256, document: byHash.get(sha256) ?? null })),
  };
  const checks: TCheck[] = [
    held.chainIntact && held.headMatches
      ? check(
          'evidence-record.chain',
          'pass',
          words(`${K}evidenceIntact`, { count: facts.events, head: facts.head.slice(0, 16) }),
        )
      : check(
          'evidence-record.chain',
          'fail',
          words(`${K}evidenceBroken`, { problems: held.problems.join('; ') }),
          words(`${K}evidenceBrokenNext`),
        ),
    ...facts.originals.map(
      (o, i): TCheck =>
        o.document
          ? check(
              `evidence-record.original-${i + 1}`,
              'pass',
              words(`${K}originalMatches`, {
                index: i + 1,
                document: o.document,
                sha256: o.sha256.slice(0, 16),
              }),
            )
          : check(
              `evidence-record.original-${i + 1}`,
              'fail',
              words(`${K}originalUnknown`, { index: i + 1, sha256: o.sha256.slice(0, 16) }),
              words(`${K}originalUnknownNext`),
            ),
    ),
  ];
  return { facts, checks };
}
