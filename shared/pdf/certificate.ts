// A signer's Certificate of Evidence: who signed, how they proved who they were, from where
// and with which browser, when each step happened, the fingerprints of every document before
// and after, the signatures they made, and the bundle's audit events about them, tied to the
// audit chain's head. Rendered here unsealed; seal.ts seals it like a final document.
import { PDFDocument } from 'pdf-lib';
import { auditEventsTable } from './audit-page';
import type { TCertificateInput } from './evidence-types';
import { embedFonts } from './fonts';
import { markPages, TEST_MARK } from './marks';
import { A4, ReportWriter } from './report-layout';
import { embedImage } from './stamp-fields';
import { formatUtc } from './text';

export async function renderCertificate(input: TCertificateInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of Evidence — ${input.signer.name}`, { showInWindowTitleBar: true });
  doc.setSubject(`Bundle ${input.bundleId}`);
  doc.setProducer('Open eSignature service');
  doc.setCreator('Open eSignature service');
  const issued = Date.parse(input.issuedAt);
  if (!Number.isNaN(issued)) {
    doc.setCreationDate(new Date(issued));
    doc.setModificationDate(new Date(issued));
  }
  const typed = input.signatureImages.some((s) => !s.image && s.typed);
  const fonts = await embedFonts(doc, ['regular', 'bold', 'mono', ...(typed ? (['script'] as const) : [])]);
  const w = new ReportWriter(doc, fonts, A4);

  w.title('Certificate of Evidence', `Issued ${formatUtc(input.issuedAt)}`);
  w.paragraph(
    `This certificate records the evidence the service collected when ${input.signer.name} took part in ` +
      'the bundle below: how they were identified, when and from where they acted, the signatures they ' +
      'made and the fingerprints of the documents before and after signing.',
    { size: 9 },
  );
  w.gap(4);
  w.facts([
    ['Bundle', input.label || '—'],
    ['Bundle ID', input.bundleId, 'mono'],
    ...(input.isTest ? ([['Mode', 'TEST — not legally binding']] as [string, string][]) : []),
  ]);

  w.section('Signer');
  w.facts([
    ['Name', input.signer.name],
    ['Email', input.signer.email ?? '—'],
    ['Phone', input.signer.phone ?? '—'],
    ['Signer key', input.signer.key],
    ['Packet ID', input.signer.packetId, 'mono'],
  ]);
  if (input.inPerson) {
    w.paragraph(
      `Signed in person, hosted by ${input.inPerson.host}, on the host's device "${input.inPerson.device}" ` +
        `(started ${formatUtc(input.inPerson.at)}).`,
      { size: 9 },
    );
  }

  if (input.handovers?.length) {
    // The packet reached this signer from another: who handed it on, to whom and why.
    w.section('Handed on');
    w.table(
      [
        { title: 'From', share: 3 },
        { title: 'To', share: 3 },
        { title: 'Reason', share: 3.2 },
        { title: 'Time (UTC)', share: 2.4 },
      ],
      input.handovers.map((h) => [h.from, h.to, h.reason, formatUtc(h.at, { zone: false })]),
      '',
    );
  }

  w.section('Timeline (UTC)');
  w.facts([
    ['Sent', formatUtc(input.times.sent)],
    ['Viewed', formatUtc(input.times.viewed)],
    ['Consented to e-sign', formatUtc(input.times.consented)],
    ['Signed', formatUtc(input.times.signed)],
  ]);

  w.section('Authentication');
  w.table(
    [
      { title: 'Method', share: 2.4 },
      { title: 'Result', share: 1.8 },
      { title: 'Time (UTC)', share: 2.4 },
      { title: 'Detail', share: 4 },
    ],
    input.auth.map((a) => [a.method, a.result, formatUtc(a.at, { zone: false }), a.detail ?? '']),
    'No authentication beyond the signing link.',
  );

  w.section('Documents');
  if (input.documents.length === 0) w.paragraph('No documents.', { size: 9 });
  for (const d of input.documents) {
    w.subheading(d.name, `document key ${d.key}`);
    w.facts([
      ['Original SHA-256', d.originalSha256, 'mono'],
      ['Final SHA-256', d.finalSha256 ?? 'not produced yet', d.finalSha256 ? 'mono' : 'regular'],
    ]);
  }

  w.section('Signatures and initials');
  if (input.signatureImages.length === 0) w.paragraph('None were made.', { size: 9 });
  else {
    const items = [];
    for (const s of input.signatureImages) {
      const image = s.image ? await embedImage(doc, s.image) : undefined;
      items.push({ label: s.label, ...(image ? { image } : {}), ...(s.typed ? { typed: s.typed } : {}) });
    }
    w.signatures(items);
  }

  w.section('Signing sessions: addresses and browsers');
  w.table(
    [
      { title: 'Time (UTC)', share: 2.9 },
      { title: 'Action', share: 2.2 },
      { title: 'IP address', share: 2.7, size: 7.5 },
      { title: 'Browser (user agent)', share: 4.8, size: 7.4 },
    ],
    input.steps.map((s) => [formatUtc(s.at, { zone: false }), s.action, s.ip, s.userAgent]),
    'No steps recorded.',
  );

  w.section('Audit events for this signer');
  auditEventsTable(w, input.events);

  w.section('Integrity');
  w.facts([['Audit chain head (SHA-256)', input.chainHead, 'mono']]);
  w.paragraph(
    'Every audit event of the bundle records the SHA-256 of the event before it; the chain head is ' +
      'the hash of the latest event when this certificate was issued. Changing, removing or reordering ' +
      'any event changes the head. The SHA-256 values above identify each document exactly: any copy ' +
      'whose SHA-256 differs is not the document signed.',
    { size: 8.5 },
  );
  w.paragraph(
    `This certificate is sealed with a PAdES digital signature (ETSI.CAdES.detached) by ${
      input.sealedBy ?? "the service's signing certificate"
    }. Any change to the file after sealing invalidates the signature.`,
    { size: 8.5 },
  );
  if (fonts.missing.size > 0) {
    w.paragraph(
      'Note: some characters are not covered by the fonts of this file and are shown as "?". ' +
        'The values as entered are kept in the service’s records.',
      { size: 8.5 },
    );
  }
  w.finish(`Certificate of Evidence · ${input.signer.name} · ${input.bundleId}`);
  markPages(w.pages, fonts, input.isTest ? [TEST_MARK] : []);
  return doc.save({ useObjectStreams: false });
}
