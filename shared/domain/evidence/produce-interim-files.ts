import { verifyChain } from '../bundles/audit-chain';
import { bundleAt } from '../bundles/expiry';
import { isFinished } from '../bundles/lifecycle/status';
import type { TJobOutcome } from '../outbox/jobs/document-jobs';
import { conditionStates } from '../signing/field-visibility';
import { currentRecords } from '../signing/signing-record';
import { auditEntries, auditPage } from './audit-trail';
import type { TEvidenceDeps } from './evidence-deps';
import { evidenceObjectKeys, type TInterimFile } from './evidence-files';
import { readOriginal } from './read-original';
import { valuesToStamp } from './values-to-stamp';

/**
 * The `interim` job (queued by an `if` event, PUT /bundles/{id}/files/): each document with the
 * values filled so far and its audit page, marked interim and not sealed, at its fixed key; then
 * the files record says they are ready (GET /files/ lists them until the final set exists). A
 * bundle finished meanwhile gets none: its final documents are on their way.
 */
export async function produceInterimFiles(
  deps: Pick<TEvidenceDeps, 'bundles' | 'records' | 'blobs' | 'evidence' | 'pdf' | 'clock'>,
  job: { accountId: string; bundleId: string; seq: number },
): Promise<TJobOutcome> {
  const b = await deps.bundles.get(job.accountId, job.bundleId);
  if (!b) return { kind: 'done', detail: 'no such bundle' };
  // Past its expiry the bundle is expired, whether or not the scheduler has recorded it yet.
  const status = bundleAt(b, deps.clock.now()).status;
  if (isFinished(status)) return { kind: 'done', detail: `the bundle is "${status}": no interim files` };
  const [documents, records, events] = await Promise.all([
    deps.bundles.documents(b),
    // Records an earlier signer left before handing a packet on count as empty.
    deps.records.all(b.accountId, b.id).then((all) => currentRecords(all, b)),
    deps.bundles.events(b),
  ]);
  const chain = verifyChain(events, b.chainHead);
  const entries = auditEntries(events, b.packets, records);
  const files: TInterimFile[] = [];
  const states = conditionStates(documents, records, b.packets);
  for (const doc of documents) {
    const pdf = await deps.pdf.renderFinal({
      original: await readOriginal(deps, doc),
      fields: await valuesToStamp(deps, doc, records, b.packets, states),
      audit: auditPage(b, doc, entries, chain.head),
      isTest: b.isTest,
      interim: true,
    });
    const blobKey = evidenceObjectKeys.interim(b.accountId, b.id, doc.key);
    await deps.blobs.put(blobKey, pdf, 'application/pdf');
    files.push({ docKey: doc.key, name: doc.name, blobKey, size: pdf.length });
  }
  const at = deps.clock.now().toISOString();
  await deps.evidence.saveInterim(b.accountId, b.id, { seq: job.seq, status: 'ready', at, files });
  return { kind: 'done', detail: `${files.length} interim file(s)` };
}
