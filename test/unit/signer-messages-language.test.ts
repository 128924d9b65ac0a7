// The messages to a signer are in their language (the packet's, else the bundle's, else English):
// subject, greeting, body, button and small print of the email, and the text message. The
// sender's own texts (label, subject, message) stay as they wrote them.
import { describe, expect, it } from 'vitest';
import type { TBundle, TBundleEvent } from '#shared/domain/bundles/bundle';
import { EVENT_KINDS } from '#shared/domain/bundles/event-kinds';
import { planMessages, type TOutgoing } from '#shared/domain/notifications/plan-messages';
import type { TNotificationJob } from '#shared/domain/outbox/jobs/notifications';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';

const LINK = { url: 'https://sign.example/sign/abc', expires: '2026-12-01T10:00:00.000Z' };

function composed(bundle: TBundle, type: TNotificationJob['type'], packetId = 'ann'): TOutgoing[] {
  const job: TNotificationJob = { type, accountId: 'A1', bundleId: 'B1', packetId, seq: 1, date: '' };
  return planMessages({ job, bundle, mailFrom: 'no-reply@example.com' }).messages.map((m) => m.compose(LINK));
}

const emailOf = (out: TOutgoing) => {
  if (out.channel !== 'email') throw new Error('not an email');
  return out.message;
};

const sent = (over: Partial<TBundle>) =>
  aBundleItem({ status: 'se', requesterName: 'Maple Homes', label: 'Lease 12', ...over });

describe('a signing request', () => {
  it('is in the packet’s language: Arabic, right to left, with the date as Arabic writes it', () => {
    const bundle = sent({ packets: [aPacketItem('ann', { status: 'se', name: 'Ann Lee', language: 'ar' })] });
    const mail = emailOf(composed(bundle, 'signing_request')[0]!);
    // The sender's and signer's words are isolated from the Arabic sentence around them.
    expect(mail.subject).toBe('يُرجى التوقيع: \u2068Lease 12\u2069');
    expect(mail.text).toContain('مرحبًا \u2068Ann Lee\u2069،');
    expect(mail.text).toContain('أرسل إليك \u2068Maple Homes\u2069 «\u2068Lease 12\u2069» لمراجعته وتوقيعه.');
    expect(mail.text).toContain('المراجعة والتوقيع: https://sign.example/sign/abc');
    expect(mail.text).toContain(
      new Intl.DateTimeFormat('ar', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(LINK.expires)),
    );
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain('إذا لم يعمل الزر، فافتح هذا الرابط:');
  });

  it('isolates every text of the sender or signer: <bdi> in the HTML part, isolates in the text part and SMS', () => {
    const FSI = '\u2068';
    const PDI = '\u2069';
    const bundle = sent({
      label: 'Lease No. 12.',
      emailMessage: 'Please sign by Friday.',
      packets: [aPacketItem('ann', { status: 'se', name: 'Ann Lee', language: 'he' })],
    });
    const mail = emailOf(composed(bundle, 'signing_request')[0]!);
    expect(mail.text).toContain(`${FSI}Please sign by Friday.${PDI}`);
    expect(mail.text).toContain(`${FSI}Ann Lee${PDI}`);
    expect(mail.subject).toContain(`${FSI}Lease No. 12.${PDI}`);
    expect(mail.html).toContain('<bdi>Please sign by Friday.</bdi>');
    expect(mail.html).toContain('<bdi>Ann Lee</bdi>');
    expect(mail.html!.slice(mail.html!.indexOf('<body'))).not.toContain(FSI);

    // In English, an Arabic name is isolated; Latin words are left as they are (SMS keeps GSM-7).
    const english = sent({
      requesterName: 'شركة مابل',
      packets: [
        aPacketItem('ann', { status: 'se', name: 'Ann Lee', phone: '+15555550100', deliverVia: 'phone' }),
      ],
    });
    const [sms] = composed(english, 'signing_request');
    if (sms!.channel !== 'sms') throw new Error('not an SMS');
    expect(sms!.text).toContain(`${FSI}شركة مابل${PDI}`);
    expect(sms!.text).not.toContain(`${FSI}Lease 12`);
  });

  it('isolates an Arabic signer’s name and reason in the English decline message to the sender', () => {
    const bundle = sent({
      requesterEmail: 'owner@example.com',
      packets: [aPacketItem('ann', { status: 'st', name: 'سارة أحمد', email: 'sara@example.com' })],
    });
    const job: TNotificationJob = {
      type: 'declined',
      accountId: 'A1',
      bundleId: 'B1',
      packetId: 'ann',
      seq: 1,
      date: '',
    };
    const jobEvent = {
      kind: EVENT_KINDS.declined.code,
      description: `${EVENT_KINDS.declined.text}: لا أوافق.`,
      timestamp: '2026-11-27T10:00:00.000Z',
      packetId: 'ann',
    } as TBundleEvent;
    const [out] = planMessages({ job, bundle, jobEvent, mailFrom: 'no-reply@example.com' }).messages.map(
      (m) => m.compose(LINK),
    );
    const mail = emailOf(out!);
    expect(mail.text).toContain('\u2068سارة أحمد\u2069 (sara@example.com) declined to sign "Lease 12".');
    expect(mail.text).toContain('Their reason:\n\u2068لا أوافق.\u2069');
    expect(mail.html).toContain('<bdi>لا أوافق.</bdi>');
  });

  it('else in the bundle’s: a Japanese reminder; the sender’s own subject stays theirs', () => {
    const bundle = sent({
      language: 'ja',
      emailSubject: 'Your lease',
      packets: [aPacketItem('ann', { status: 'se', name: 'Ann Lee' })],
    });
    const mail = emailOf(composed(bundle, 'reminder')[0]!);
    expect(mail.subject).toBe('リマインダー：Your lease');
    expect(mail.text).toContain('「Lease 12」はまだ署名をお待ちしています。');
    expect(mail.html).toContain('<html lang="ja" dir="ltr">');
  });

  it('else in English, as before', () => {
    const bundle = sent({ packets: [aPacketItem('ann', { status: 'se', name: 'Ann Lee' })] });
    const mail = emailOf(composed(bundle, 'signing_request')[0]!);
    expect(mail.subject).toBe('Please sign: Lease 12');
    expect(mail.text).toContain('Maple Homes has sent you "Lease 12" to review and sign.');
    expect(mail.text).toContain('It works until December 1, 2026.');
  });

  it('by text message: in the signer’s language', () => {
    const bundle = sent({
      packets: [
        aPacketItem('ann', { status: 'se', deliverVia: 'phone', phone: '+48 600 100 200', language: 'pl' }),
      ],
    });
    const [sms] = composed(bundle, 'reminder');
    expect(sms).toEqual({
      channel: 'sms',
      phone: '+48600100200',
      text: 'Przypomnienie – Maple Homes: Przejrzyj i podpisz „Lease 12”. https://sign.example/sign/abc',
    });
  });
});

describe('documents ready', () => {
  it('each signer in their language, copies in the bundle’s', () => {
    const bundle = sent({
      status: 'co',
      language: 'de',
      ccEmails: ['office@example.com'],
      packets: [
        aPacketItem('ann', { status: 'co', name: 'Ann Lee', language: 'fr' }),
        aPacketItem('bob', { status: 'co', name: 'Bob Roe', email: 'bob@example.com' }),
      ],
    });
    const subjects = composed(bundle, 'docs_ready').map((m) => [emailOf(m).to[0], emailOf(m).subject]);
    expect(subjects).toEqual([
      ['ann@example.com', 'Documents prêts : Lease 12'],
      ['bob@example.com', 'Dokumente fertig: Lease 12'],
      ['office@example.com', 'Dokumente fertig: Lease 12'],
    ]);
  });
});
