// The audit trail appended to every final (and interim) document: what the document is, who
// signed it, every event of the bundle with its time in UTC, and the head of the audit chain
// that ties those events together. Written in the bundle's language (evidence-words.ts).
import type { PDFDocument, PDFPage } from 'pdf-lib';
import { isolated } from './bidi';
import type { TAuditEntry, TAuditPage } from './evidence-types';
import { evidenceWords, type TEvidenceWords } from './evidence-words';
import type { TFontSet } from './fonts';
import { ReportWriter } from './report-layout';

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
  const words = evidenceWords(audit.language, { isolate: true });
  const { t, time } = words;
  const w = new ReportWriter(doc, fonts, options.size, words.direction, words.pageOf);
  const section = (key: string) => w.section(t(key), words.language);
  const status = options.interim
    ? t('evidence.audit.interimStatus')
    : audit.completedAt
      ? t('evidence.audit.completed', { date: time(audit.completedAt) })
      : undefined;
  w.title(t(options.interim ? 'evidence.audit.titleInterim' : 'evidence.audit.title'), status);

  w.facts([
    [t('evidence.common.bundle'), audit.label || '—'],
    [t('evidence.common.bundleId'), audit.bundleId, 'mono'],
    [t('evidence.audit.document'), audit.documentName || '—'],
    [t('evidence.common.originalSha'), audit.originalSha256, 'mono'],
    ...(options.isTest
      ? ([[t('evidence.common.mode'), t('evidence.common.testMode')]] as [string, string][])
      : []),
  ]);

  section('evidence.audit.signers');
  w.table(
    [
      { title: t('evidence.common.name'), share: 3 },
      { title: t('evidence.common.email'), share: 3.4 },
      { title: t('evidence.common.phone'), share: 2.2 },
      { title: t('evidence.audit.signedUtc'), share: 2.9 },
    ],
    audit.signers.map((s) => [
      s.role ? t('roles.nameWithRole', { name: s.name, role: t(`roles.${s.role}`) }) : s.name,
      s.email ?? '—',
      s.phone ?? '—',
      s.completedAt ? time(s.completedAt, { zone: false }) : t('evidence.audit.notSigned'),
    ]),
    t('evidence.audit.noSigners'),
  );

  section('evidence.audit.events');
  auditEventsTable(w, audit.events, words);

  section('evidence.common.integrity');
  w.facts([[t('evidence.common.chainHead'), audit.chainHead, 'mono']]);
  w.paragraph(t('evidence.audit.chainText'), { size: 8.5 });
  w.paragraph(
    options.interim
      ? t('evidence.audit.interimNote')
      : t('evidence.audit.sealed', { sealer: audit.sealedBy ?? t('evidence.common.serviceSeal') }),
    { size: 8.5 },
  );
  // The set also holds what the stamped values lacked: they are drawn before this page.
  if (fonts.missing.size > 0) w.paragraph(t('evidence.common.missingGlyphs'), { size: 8.5 });
  w.finish(
    t('evidence.audit.footer', { label: isolated(audit.label || audit.bundleId), id: audit.bundleId }),
  );
  return w.pages;
}

/** Every text of the audit page that may be drawn (for the fonts to embed), in its language. */
export function auditPageTexts(audit: TAuditPage): string[] {
  const { t } = evidenceWords(audit.language);
  return [
    JSON.stringify(t('evidence', { returnObjects: true })),
    JSON.stringify(t('roles', { returnObjects: true })),
    audit.label,
    audit.documentName,
    JSON.stringify(audit.signers),
    JSON.stringify(audit.events),
    audit.sealedBy ?? '',
  ];
}

/** The audit events as a table: time in UTC, what happened, by whom, from which address. */
export function auditEventsTable(
  w: ReportWriter,
  events: readonly TAuditEntry[],
  words: TEvidenceWords,
): void {
  const { t, time } = words;
  w.table(
    [
      { title: t('evidence.common.timeUtc'), share: 2.9 },
      { title: t('evidence.common.event'), share: 4.6 },
      { title: t('evidence.common.by'), share: 2 },
      { title: t('evidence.common.ip'), share: 2.7, size: 7.5 },
    ],
    events.map((e) => [
      time(e.timestamp, { zone: false }),
      words.say(e.description),
      words.actor(e.actor),
      e.ip ?? '—',
    ]),
    t('evidence.common.noEvents'),
  );
}
