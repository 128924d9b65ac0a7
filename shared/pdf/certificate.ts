// A signer's Certificate of Evidence: who signed, how they proved who they were, from where
// and with which browser, when each step happened, the fingerprints of every document before
// and after, the signatures they made, and the bundle's audit events about them, tied to the
// audit chain's head. Written in the signer's language (evidence-words.ts), mirrored for a
// right-to-left one; ids, fingerprints and what people entered are printed as they are.
// Rendered here unsealed; seal.ts seals it like a final document.
import { PDFDocument } from 'pdf-lib';
import { auditEventsTable } from './audit-page';
import { isolated } from './bidi';
import type { TCertificateInput, TStepInOrder } from './evidence-types';
import { evidenceWords } from './evidence-words';
import { embedFonts } from './fonts';
import { markPages, testMark } from './marks';
import { A4, ReportWriter } from './report-layout';
import { embedImage } from './stamp-fields';

export async function renderCertificate(input: TCertificateInput): Promise<Uint8Array> {
  const words = evidenceWords(input.language, { isolate: true });
  const { t, time } = words;
  const doc = await PDFDocument.create();
  doc.setTitle(`${t('evidence.certificate.title')} — ${input.signer.name}`, { showInWindowTitleBar: true });
  doc.setSubject(`${t('evidence.common.bundle')} ${input.bundleId}`);
  doc.setProducer('Open eSignature service');
  doc.setCreator('Open eSignature service');
  doc.setLanguage(words.language);
  const issued = Date.parse(input.issuedAt);
  if (!Number.isNaN(issued)) {
    doc.setCreationDate(new Date(issued));
    doc.setModificationDate(new Date(issued));
  }
  const typed = input.signatureImages.some((s) => !s.image && s.typed);
  const fonts = await embedFonts(doc, {
    roles: ['regular', 'bold', 'mono', ...(typed ? (['script'] as const) : [])],
    texts: [
      JSON.stringify(t('evidence', { returnObjects: true })),
      JSON.stringify(t('roles', { returnObjects: true })),
      ...textsOf(input),
    ],
    language: words.language,
  });
  const w = new ReportWriter(doc, fonts, A4, words.direction, words.pageOf);
  const section = (key: string) => w.section(t(key), words.language);

  w.title(t('evidence.certificate.title'), t('evidence.certificate.issued', { date: time(input.issuedAt) }));
  w.paragraph(t('evidence.certificate.intro', { name: isolated(input.signer.name) }), { size: 9 });
  w.gap(4);
  w.facts([
    [t('evidence.common.bundle'), input.label || '—'],
    [t('evidence.common.bundleId'), input.bundleId, 'mono'],
    ...(input.isTest
      ? ([[t('evidence.common.mode'), t('evidence.common.testMode')]] as [string, string][])
      : []),
  ]);

  section('evidence.certificate.signer');
  w.facts([
    [t('evidence.common.name'), input.signer.name],
    [t('evidence.common.email'), input.signer.email ?? '—'],
    [t('evidence.common.phone'), input.signer.phone ?? '—'],
    [t('evidence.certificate.signerKey'), input.signer.key],
    [t('evidence.certificate.packetId'), input.signer.packetId, 'mono'],
    ...(input.signer.role
      ? ([[t('roles.role'), t(`roles.${input.signer.role}`)]] as [string, string][])
      : []),
    ...(input.signer.step
      ? ([[t('roles.step'), stepWords(t, input.signer.step)]] as [string, string][])
      : []),
  ]);
  if (input.inPerson) {
    w.paragraph(
      t('evidence.certificate.inPerson', {
        host: isolated(input.inPerson.host),
        device: isolated(input.inPerson.device),
        date: time(input.inPerson.at),
      }),
      { size: 9 },
    );
  }

  if (input.handovers?.length) {
    // The packet reached this signer from another: who handed it on, to whom and why.
    section('evidence.certificate.handedOn');
    w.table(
      [
        { title: t('evidence.certificate.handedFrom'), share: 3 },
        { title: t('evidence.certificate.handedTo'), share: 3 },
        { title: t('evidence.certificate.handedReason'), share: 3.2 },
        { title: t('evidence.common.timeUtc'), share: 2.4 },
      ],
      input.handovers.map((h) => [h.from, h.to, h.reason, time(h.at, { zone: false })]),
      '',
    );
  }

  section('evidence.certificate.timeline');
  w.facts([
    [t('evidence.certificate.sent'), time(input.times.sent)],
    [t('evidence.certificate.viewed'), time(input.times.viewed)],
    [t('evidence.certificate.consented'), time(input.times.consented)],
    [t('evidence.certificate.signed'), time(input.times.signed)],
  ]);

  section('evidence.certificate.authentication');
  w.table(
    [
      { title: t('evidence.certificate.method'), share: 2.4 },
      { title: t('evidence.certificate.result'), share: 1.8 },
      { title: t('evidence.common.timeUtc'), share: 2.4 },
      { title: t('evidence.certificate.detail'), share: 4 },
    ],
    input.auth.map((a) => [
      words.say(a.method),
      words.say(a.result),
      time(a.at, { zone: false }),
      a.detail === undefined ? '' : words.say(a.detail),
    ]),
    t('evidence.certificate.noAuth'),
  );

  section('evidence.certificate.documents');
  if (input.documents.length === 0) w.paragraph(t('evidence.certificate.noDocuments'), { size: 9 });
  for (const d of input.documents) {
    w.subheading(d.name, t('evidence.certificate.documentKey', { key: d.key }));
    w.facts([
      [t('evidence.common.originalSha'), d.originalSha256, 'mono'],
      [
        t('evidence.certificate.finalSha'),
        d.finalSha256 ?? t('evidence.certificate.notProduced'),
        d.finalSha256 ? 'mono' : 'regular',
      ],
    ]);
  }

  section('evidence.certificate.signatures');
  if (input.signatureImages.length === 0) w.paragraph(t('evidence.certificate.noSignatures'), { size: 9 });
  else {
    const items = [];
    for (const s of input.signatureImages) {
      const image = s.image ? await embedImage(doc, s.image) : undefined;
      items.push({
        label: words.say(s.label),
        ...(image ? { image } : {}),
        ...(s.typed ? { typed: s.typed } : {}),
      });
    }
    w.signatures(items, t('evidence.certificate.noImage'));
  }

  section('evidence.certificate.sessions');
  w.table(
    [
      { title: t('evidence.common.timeUtc'), share: 2.9 },
      { title: t('evidence.certificate.action'), share: 2.2 },
      { title: t('evidence.common.ip'), share: 2.7, size: 7.5 },
      { title: t('evidence.certificate.browser'), share: 4.8, size: 7.4 },
    ],
    input.steps.map((s) => [
      time(s.at, { zone: false }),
      s.detail ? `${words.say(s.action)} (${words.say(s.detail)})` : words.say(s.action),
      s.ip,
      s.userAgent,
    ]),
    t('evidence.certificate.noSteps'),
  );

  section('evidence.certificate.events');
  auditEventsTable(w, input.events, words);

  section('evidence.common.integrity');
  w.facts([[t('evidence.common.chainHead'), input.chainHead, 'mono']]);
  w.paragraph(t('evidence.certificate.chainText'), { size: 8.5 });
  w.paragraph(
    t('evidence.certificate.sealed', { sealer: input.sealedBy ?? t('evidence.common.serviceSeal') }),
    { size: 8.5 },
  );
  if (fonts.missing.size > 0) w.paragraph(t('evidence.common.missingGlyphs'), { size: 8.5 });
  w.finish(t('evidence.certificate.footer', { name: isolated(input.signer.name), id: input.bundleId }));
  markPages(w.pages, fonts, input.isTest ? [testMark(t('evidence.common.testMode'))] : []);
  return doc.save({ useObjectStreams: false });
}

/** "Step 2 of 3", with the others who share the step when there are any (packet-roles.ts). */
function stepWords(t: ReturnType<typeof evidenceWords>['t'], s: TStepInOrder): string {
  if (s.alongside.length === 0) return t('roles.stepOf', { step: s.step, steps: s.steps });
  return t('roles.stepAlongside', {
    step: s.step,
    steps: s.steps,
    names: s.alongside.map(isolated).join(', '),
  });
}

/** Every text of the input that may be drawn (for the fonts to embed). */
function textsOf(input: TCertificateInput): string[] {
  return [
    input.label,
    JSON.stringify(input.signer),
    JSON.stringify(input.auth),
    JSON.stringify(input.steps),
    JSON.stringify(input.documents),
    JSON.stringify(input.events),
    input.sealedBy ?? '',
    ...input.signatureImages.flatMap((s) => [JSON.stringify(s.label), s.typed ?? '']),
  ];
}
