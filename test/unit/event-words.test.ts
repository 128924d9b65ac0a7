// The audit events as the evidence pages print them: each stored English description read back
// into its kind's message and its detail's fixed words, in the page's language, with the data in
// it as stored; any shape not known printed as stored.
import { describe, expect, it } from 'vitest';
import type { TBundleEvent } from '#shared/domain/bundles/bundle';
import { EVENT_KINDS, type TEventKind } from '#shared/domain/bundles/event-kinds';
import { auditEntries } from '#shared/domain/evidence/audit-trail';
import { eventWords, recordedWords } from '#shared/domain/evidence/stored-words';
import { catalogOf } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import { evidenceWords } from '#shared/pdf/evidence-words';
import { aPacketItem } from '../helpers/bundle-items';
import { event } from '../helpers/stored-events';

const AT = '2025-03-07T14:05:09.000Z';
const KINDS = Object.keys(EVENT_KINDS) as TEventKind[];

/** How the page in `lang` prints the event. */
const printed = (lang: string, e: TBundleEvent, packet?: Parameters<typeof eventWords>[1]) =>
  evidenceWords(lang).say(eventWords(e, packet));

const catalog = (lang: TLanguage) =>
  catalogOf(lang).evidence as unknown as Record<'events' | 'eventDetails', Record<string, string>>;
const de = catalog('de');
const ja = catalog('ja');

/** Details as stored, and as the German page prints them. */
const DETAIL_CASES: [TBundleEvent, string][] = [
  [event('reminderSent', AT, 'p1', 'Ann Lee (automatic)'), 'Erinnerung gesendet: Ann Lee (automatisch)'],
  [
    event('packetUpdated', AT, 'p1', 'contact changed on the Person'),
    'Unterzeichner geändert: Kontaktdaten im Personeneintrag geändert',
  ],
  // API field names are the API's identifiers: as stored.
  [event('packetUpdated', AT, 'p1', 'email, auth_sms'), 'Unterzeichner geändert: email, auth_sms'],
  [event('tagsChanged', AT, undefined, 'added vip, q3'), 'Schlagwörter geändert: hinzugefügt: vip, q3'],
  [event('tagsChanged', AT, undefined, 'removed old'), 'Schlagwörter geändert: entfernt: old'],
  [
    event('inPerson', AT, 'p1', 'Kay Kiosk, hosted by Hana Host (hana@example.com)'),
    'Persönliche Unterzeichnung begonnen: Kay Kiosk, betreut von Hana Host (hana@example.com)',
  ],
  [
    event('docsReady', AT, undefined, '1 document(s), 3 certificate(s)'),
    'Endgültige Dokumente bereit: 1 Dokument, 3 Zertifikate',
  ],
  [
    event('messageFailed', AT, 'p1', 'email to a***@example.com (Throttling; attempt 2 of 5, will retry)'),
    'Nachricht konnte nicht gesendet werden: E-Mail an a***@example.com (Throttling; Versuch 2 von 5, wird wiederholt)',
  ],
  [
    event('messageFailed', AT, 'p1', 'SMS to ******1234 (Throttling; attempt 5 of 5)'),
    'Nachricht konnte nicht gesendet werden: SMS an ******1234 (Throttling; Versuch 5 von 5)',
  ],
  // An error's own message is free text: as stored.
  [
    event('messageFailed', AT, 'p1', 'email to a***@example.com (Mailbox unavailable)'),
    'Nachricht konnte nicht gesendet werden: E-Mail an a***@example.com (Mailbox unavailable)',
  ],
  [
    event('messageBounced', AT, 'p1', 'email to a***@example.com bounced (550 5.1.1 no such user)'),
    'Nachricht nicht zugestellt: E-Mail an a***@example.com: unzustellbar (550 5.1.1 no such user)',
  ],
  [
    event('messageBounced', AT, 'p1', 'email to a***@example.com was marked as spam by the recipient'),
    'Nachricht nicht zugestellt: E-Mail an a***@example.com: vom Empfänger als Spam gemeldet',
  ],
  [
    event('messageBounced', AT, 'p1', 'SMS to ******1234 was refused by the mail service'),
    'Nachricht nicht zugestellt: SMS an ******1234: vom Mailserver abgelehnt',
  ],
  [event('paymentFailed', AT, 'p1', 'refused (pi_123)'), 'Zahlung fehlgeschlagen: abgelehnt (pi_123)'],
  [
    event('paymentRefundFailed', AT, 'p1', 'Card expired (pi_123)'),
    'Erstattung fehlgeschlagen: Card expired (pi_123)',
  ],
  [event('paymentPaid', AT, 'p1', '12.50 EUR (pi_123)'), 'Zahlung eingegangen: 12.50 EUR (pi_123)'],
  // prefill.ts: the fields whose values the sender gave, and which of them are read-only.
  [
    event(
      'created',
      AT,
      undefined,
      'values given by the sender: order.plan, order.number; read-only: order.number',
    ),
    'Umschlag erstellt: vom Absender vorgegebene Werte: order.plan, order.number; schreibgeschützt: order.number',
  ],
  [
    event('created', AT, undefined, 'values given by the sender: order.plan'),
    'Umschlag erstellt: vom Absender vorgegebene Werte: order.plan',
  ],
  [
    event('declined', AT, 'p1', 'Ann: the amount is wrong'),
    'Unterzeichner hat die Unterschrift abgelehnt: Ann: the amount is wrong',
  ],
];

describe('an audit event on the evidence pages', () => {
  it.each(KINDS)('%s: its kind in the page’s language, with and without a detail of data', (kind) => {
    const bare = event(kind, AT);
    expect(printed('en', bare)).toBe(EVENT_KINDS[kind].text);
    expect(printed('de', bare)).toBe(de.events[kind]);
    expect(printed('de', bare)).not.toBe(EVENT_KINDS[kind].text);
    // A name (or a reference, a reason) is data: as stored, after the kind's words.
    const named = event(kind, AT, 'p1', 'Jürgen Groß');
    expect(printed('en', named)).toBe(named.description);
    expect(printed('de', named)).toBe(`${de.events[kind]}: Jürgen Groß`);
  });

  it('tells the two `pr` events apart by their stored text', () => {
    const embed = event('packetReady', AT, 'p1', 'Ann');
    const kiosk = event('packetReadyInPerson', AT, 'p1', 'Ann');
    expect(embed.kind).toBe(kiosk.kind);
    expect(printed('ja', embed)).toBe(`${ja.events.packetReady}: Ann`);
    expect(printed('ja', kiosk)).toBe(`${ja.events.packetReadyInPerson}: Ann`);
    expect(ja.events.packetReady).not.toBe(ja.events.packetReadyInPerson);
  });

  it('says the fixed words of the details and keeps the data in them as stored', () => {
    const cases = DETAIL_CASES;
    for (const [e, german] of cases) {
      expect(printed('de', e), e.description).toBe(german);
      // The English page says what is stored, but for the counts, now said in words.
      if (e.kind !== 'dk') expect(printed('en', e), e.description).toBe(e.description);
    }
    expect(printed('en', cases.find(([e]) => e.kind === 'dk')![0])).toBe(
      'Final documents ready: 1 document, 3 certificates',
    );
    // Plural forms of the page’s language.
    const two = event('docsReady', AT, undefined, '2 document(s), 5 certificate(s)');
    expect(printed('pl', two)).toBe('Dokumenty końcowe gotowe: 2 dokumenty, 5 certyfikatów');
    expect(printed('ja', two)).toBe('最終文書の準備完了: 文書 2 件、証明書 5 件');
  });

  it('reads a handover by the packet’s record of it, names holding " to " or ": " included', () => {
    const handover = {
      from: { name: 'Ann to Be', email: 'ann@example.com' },
      to: { name: 'Bob: Jr', phone: '+15550001111' },
      reason: 'on leave: back in May',
      at: AT,
    };
    const packet = aPacketItem('p1', { handovers: [handover] });
    const e = event(
      'reassigned',
      AT,
      'p1',
      'Ann to Be <ann@example.com> to Bob: Jr (+15550001111): on leave: back in May',
    );
    expect(printed('de', e, packet)).toBe(
      'Unterzeichner hat die Unterzeichnung an eine andere Person übergeben: von Ann to Be <ann@example.com> an Bob: Jr (+15550001111): on leave: back in May',
    );
    expect(printed('en', e, packet)).toBe(e.description);
    // Without the record (or another one), the detail stays as stored.
    expect(printed('de', e)).toBe(
      `${de.events.reassigned}: ${e.description.split(': ').slice(1).join(': ')}`,
    );
    const other = aPacketItem('p1', { handovers: [{ ...handover, reason: 'other' }] });
    expect(printed('de', e, other)).toContain('Ann to Be <ann@example.com> to Bob');
  });

  it('reads a sender’s handover without a reason in the page’s words', () => {
    const handover = {
      from: { name: 'Ann Lee', email: 'ann@example.com' },
      to: { name: 'Cy', email: 'cy@example.com' },
      reason: '',
      at: AT,
    };
    const packet = aPacketItem('p1', { handovers: [handover] });
    const e = event('reassigned', AT, 'p1', 'Ann Lee <ann@example.com> to Cy <cy@example.com>');
    expect(printed('de', e, packet)).toBe(
      'Unterzeichner hat die Unterzeichnung an eine andere Person übergeben: von Ann Lee <ann@example.com> an Cy <cy@example.com>',
    );
    expect(printed('en', e, packet)).toBe(e.description);
  });

  it('prints an event it does not know as stored, and never throws', () => {
    const older: TBundleEvent[] = [
      { kind: 'zz', description: 'Something from a newer service', timestamp: AT },
      { kind: 'se', description: 'Sent by the old service', timestamp: AT },
      { kind: 'pr', description: 'Ready: Ann', timestamp: AT },
      { kind: 'rm', description: '', timestamp: AT },
    ];
    for (const e of older) expect(printed('de', e)).toBe(e.description);
    // A detail cut short (event() cuts at 300 characters) loses its shape: as stored after the kind.
    const long = event('messageFailed', AT, 'p1', `email to a***@example.com (${'x'.repeat(400)})`);
    expect(printed('de', long)).toBe(`${de.events.messageFailed}: ${long.description.slice(27)}`);
  });

  it('keeps the reminder’s actor: automatic ones are the service’s, the others the sender’s', () => {
    const packet = aPacketItem('p1', { name: 'Ann Lee' });
    const [auto, asked] = auditEntries(
      [event('reminderSent', AT, 'p1', 'Ann Lee (automatic)'), event('reminderSent', AT, 'p1', 'Ann Lee')],
      [packet],
      [],
    );
    expect(auto!.actor).toBe('service');
    expect(asked!.actor).toBe('sender');
    expect(evidenceWords('fr').say(auto!.description)).toBe('Relance envoyée : Ann Lee (automatique)');
  });

  it('says the recorded words of the certificate through the same catalogs, others as recorded', () => {
    const recorded = (catalogOf('de').evidence as Record<string, Record<string, string>>).recorded!;
    expect(evidenceWords('de').say(recordedWords('consented and signed'))).toBe(recorded.consentedSigned);
    // What certificate-input.ts records for a signer reached by SMS.
    expect(evidenceWords('de').say(recordedWords('signing link by phone'))).toBe(recorded.linkBySms);
    expect(evidenceWords('de').say(recordedWords('a newer step'))).toBe('a newer step');
  });
});
