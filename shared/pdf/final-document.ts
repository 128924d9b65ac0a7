// The final document of a bundle: the original without what does not belong in it (its
// signatures, scripts, embedded files), every value drawn at its place, its form flattened, the audit trail appended, and the TEST / INTERIM marks on every page when they
// apply. One pdf-lib load and one save; the result is what seal.ts seals (or, interim, not).
import { PDFDocument } from 'pdf-lib';
import { auditPageTexts, drawAuditPages } from './audit-page';
import type { TFinalInput } from './evidence-types';
import { evidenceWords } from './evidence-words';
import { flattenForm } from './flatten-form';
import { embedFonts } from './fonts';
import { interimMark, markPages, testMark } from './marks';
import { attachOwnFile } from './own-attachment';
import { A4, LETTER } from './report-layout';
import { needsScript, stampedTexts, stampFields } from './stamp-fields';
import { dropUnreachable, stripOriginal } from './strip-original';

// Objects between yields to the event loop while loading and saving; a worker does nothing else
// meanwhile, so large steps keep the cost close to a plain load and save.
const OBJECTS_PER_TICK = 10_000;

export async function renderFinalDocument(input: TFinalInput): Promise<Uint8Array> {
  const doc = await PDFDocument.load(input.original, {
    updateMetadata: false,
    parseSpeed: OBJECTS_PER_TICK,
  });
  const pages = doc.getPages();
  const fonts = await embedFonts(doc, {
    roles: ['regular', 'bold', 'mono', ...(needsScript(input.fields) ? (['script'] as const) : [])],
    texts: [...stampedTexts(input.fields, input.audit.language), ...auditPageTexts(input.audit)],
    ...(input.audit.language ? { language: input.audit.language } : {}),
  });
  // The original's signatures, usage rights, scripts, actions, embedded files and XFA do not
  // belong in the final document (strip-original.ts); the evidence record says which were there.
  const removed = stripOriginal(doc, pages);
  flattenForm(doc, pages, fonts);
  // Dates are written in the language of the audit page: the documents' language.
  await stampFields(doc, pages, fonts, input.fields, input.audit.language);
  const auditPages = drawAuditPages(doc, fonts, input.audit, {
    isTest: input.isTest,
    interim: input.interim,
    size: auditPageSize(pages.at(-1)?.getSize()),
  });
  const { t } = evidenceWords(input.audit.language);
  markPages([...pages, ...auditPages], fonts, [
    ...(input.isTest ? [testMark(t('evidence.common.testMode'))] : []),
    ...(input.interim ? [interimMark(t('evidence.common.interimMode'))] : []),
  ]);
  // The attachment travels in the document (catalog /AF and /Names /EmbeddedFiles), inside what
  // the seal covers, so it cannot be changed or removed without breaking it.
  const attachment = typeof input.attachment === 'function' ? input.attachment(removed) : input.attachment;
  if (attachment) attachOwnFile(doc, attachment);
  // What was unlinked (the original's signature dictionaries among it) is not written at all.
  dropUnreachable(doc);
  // A classic cross-reference table (no object streams): the seal is then added as an
  // incremental update to these bytes as they are, without parsing the file again (seal.ts).
  return doc.save({ useObjectStreams: false, objectsPerTick: OBJECTS_PER_TICK });
}

/** US Letter after a Letter-sized document, A4 otherwise. */
function auditPageSize(last: { width: number; height: number } | undefined): [number, number] {
  if (!last) return A4;
  const [w, h] = [Math.min(last.width, last.height), Math.max(last.width, last.height)];
  return Math.abs(w - LETTER[0]) < 6 && Math.abs(h - LETTER[1]) < 6 ? LETTER : A4;
}
