// The audit trail appended to every final (and interim) document: what the document is, who
// signed it, every event of the bundle with its time in UTC, and the head of the audit chain
// that ties those events together.
import type { PDFDocument, PDFPage } from 'pdf-lib';
import type { TAuditEntry, TAuditPage } from './evidence-types';
import type { TFontSet } from './fonts';
import { ReportWriter } from './report-layout';
import { formatUtc } from './text';

export interface TAuditOptions {
  isTest: boolean;
  interim: boolean;
  size: [number, number];
}

export function drawAuditPages(
  doc: PDFDocument,
  fonts: TFontSet,
  audit: TAuditPage,
  options: TAuditOptions,
): PDFPage[] {
  const w = new ReportWriter(doc, fonts, options.size);
  const status = options.interim
    ? 'Interim copy: the values entered so far. Not final and not sealed.'
    : audit.completedAt
      ? `Completed ${formatUtc(audit.completedAt)}`
      : undefined;
  w.title(options.interim ? 'Audit Trail (interim)' : 'Audit Trail', status);

  w.facts([
    ['Bundle', audit.label || '—'],
    ['Bundle ID', audit.bundleId, 'mono'],
    ['Document', audit.documentName || '—'],
    ['Original SHA-256', audit.originalSha256, 'mono'],
    ...(options.isTest ? ([['Mode', 'TEST — not legally binding']] as [string, string][]) : []),
  ]);

  w.section('Signers');
  w.table(
    [
      { title: 'Name', share: 3 },
      { title: 'Email', share: 3.4 },
      { title: 'Phone', share: 2.2 },
      { title: 'Signed (UTC)', share: 2.9 },
    ],
    audit.signers.map((s) => [
      s.name,
      s.email ?? '—',
      s.phone ?? '—',
      s.completedAt ? formatUtc(s.completedAt, { zone: false }) : 'Not signed',
    ]),
    'No signers.',
  );

  w.section('Events');
  auditEventsTable(w, audit.events);

  w.section('Integrity');
  w.facts([['Audit chain head (SHA-256)', audit.chainHead, 'mono']]);
  w.paragraph(
    'Each event above records the SHA-256 of the event before it; the chain head is the hash of the ' +
      'latest event. Changing, removing or reordering any event changes the head.',
    { size: 8.5 },
  );
  w.paragraph(
    options.interim
      ? 'This interim copy is not sealed. The final document is sealed when every signer has finished.'
      : `This document is sealed with a PAdES digital signature (ETSI.CAdES.detached) by ${
          audit.sealedBy ?? "the service's signing certificate"
        }. Any change to the file after sealing invalidates the signature, which any PDF reader ` +
          'can check.',
    { size: 8.5 },
  );
  // The set also holds what the stamped values lacked: they are drawn before this page.
  if (fonts.missing.size > 0) {
    w.paragraph(
      'Note: some characters entered are not covered by the fonts of this file and are shown as "?". ' +
        'The values as entered are kept in the service’s records.',
      { size: 8.5 },
    );
  }
  w.finish(`Audit trail · ${audit.label || audit.bundleId} · ${audit.bundleId}`);
  return w.pages;
}

/** The audit events as a table: time in UTC, what happened, by whom, from which address. */
export function auditEventsTable(w: ReportWriter, events: readonly TAuditEntry[]): void {
  w.table(
    [
      { title: 'Time (UTC)', share: 2.9 },
      { title: 'Event', share: 4.6 },
      { title: 'By', share: 2 },
      { title: 'IP address', share: 2.7, size: 7.5 },
    ],
    events.map((e) => [formatUtc(e.timestamp, { zone: false }), e.description, e.actor ?? '—', e.ip ?? '—']),
    'No events.',
  );
}
