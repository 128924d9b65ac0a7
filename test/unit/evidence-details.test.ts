// The details the evidence writes itself (authentication steps, the in-person host and device,
// the marks' labels) and the fixed words of stored step details: said in the certificate's
// language from one message each, while the English the evidence record keeps is word for word
// what it has always been.
import { describe, expect, it } from 'vitest';
import { authOf } from '#shared/domain/evidence/certificate-input';
import {
  idDetail,
  inEnglish,
  inPersonDetail,
  markLabel,
  selfieDetail,
  smsDetail,
} from '#shared/domain/evidence/evidence-details';
import { stepDetailWords } from '#shared/domain/evidence/stored-words';
import type { TInPerson } from '#shared/domain/signing/in-person';
import { emptyRecord, type TSigningRecord } from '#shared/domain/signing/signing-record';
import { catalogOf } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import type { TWords } from '#shared/pdf/evidence-types';
import { evidenceWords } from '#shared/pdf/evidence-words';
import { aPacketItem } from '../helpers/bundle-items';

const AT = '2025-03-07T14:05:09.000Z';
const say = (lang: string, words: TWords) => evidenceWords(lang).say(words);
const details = (lang: TLanguage) =>
  (catalogOf(lang).evidence as unknown as Record<'details', Record<string, string>>).details;
const fill = (message: string, values: Record<string, string | number>) =>
  message.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));

// The English these details were written in before they became messages: the evidence record's
// readers compare it, so it may not change by a byte.
const mask = (phone: string) => phone.replace(/\d(?=(?:\D*\d){4})/g, '•');
const before = {
  sms: (s: { phone: string; sentAt: string[]; wrongAttempts: number }) =>
    `code sent to ${mask(s.phone)}; ${s.sentAt.length} sent, ${s.wrongAttempts} wrong`,
  selfie: (s: { blobKeys: string[]; ip: string }) =>
    `${s.blobKeys.length} image(s) kept as evidence; from ${s.ip}`,
  id: (r: { provider: string; reference: string }, ip: string) =>
    `${r.provider} reference ${r.reference}; from ${ip}`,
  inPerson: (p: TInPerson) =>
    [
      `hosted by ${p.email ? `${p.name} (${p.email})` : p.name}`,
      `device "${(p.device ?? p.userAgent).slice(0, 200)}"`,
      `from ${p.ip}`,
      `link made with API key ${p.keyId}${p.userId ? ` of user ${p.userId}` : ''}`,
    ].join('; '),
  mark: (doc: string, f: { key: string; label: string; kind: 'sig' | 'ini' }) =>
    `${doc}: ${f.label || (f.kind === 'sig' ? 'signature' : 'initials')} (${f.key})`,
};

const sms = (sent: number, wrong: number, phone = '+1 415 555 0142') => ({
  phone,
  sentAt: Array.from({ length: sent }, () => AT),
  wrongAttempts: wrong,
});
const image = (n: number, ip = '203.0.113.24') => ({
  blobKeys: Array.from({ length: n }, (_, i) => `k${i}`),
  at: AT,
  ip,
  userAgent: 'x',
});
const host = (over: Partial<TInPerson> = {}): TInPerson => ({
  name: 'Hana Host',
  email: 'hana@example.com',
  device: 'Front desk tablet',
  keyId: 'key_123',
  userId: 'usr_9',
  madeAt: AT,
  startedAt: AT,
  ip: '198.51.100.7',
  userAgent: 'Mozilla/5.0 (iPad; CPU OS 17_3 like Mac OS X)',
  ...over,
});

describe('an authentication detail', () => {
  it('is in English word for word what the evidence record has always kept', () => {
    for (const s of [sms(1, 0), sms(2, 1), sms(3, 5, '+44 20 7946 0958'), sms(0, 0, '12')])
      expect(inEnglish(smsDetail(s))).toBe(before.sms(s));
    for (const s of [image(1), image(2, '2001:db8::1'), image(0)])
      expect(inEnglish(selfieDetail(s))).toBe(before.selfie(s));
    const result = { status: 'verified', provider: 'stub-id', reference: 'ref: 42; "x"' };
    expect(inEnglish(idDetail({ ...image(2), result })!)).toBe(before.id(result, '203.0.113.24'));
    expect(idDetail(image(2))).toBeUndefined();
    for (const p of [
      host(),
      host({ email: undefined, userId: undefined }),
      host({ device: undefined }),
      host({ device: `The "lobby" tablet; {{ip}} ${'x'.repeat(300)}` }),
      host({ name: 'Ann: {{host}} $t(evidence.common.sender)' }),
    ])
      expect(inEnglish(inPersonDetail(p))).toBe(before.inPerson(p));
  });

  it('is in the certificate’s language from its catalog, plural forms included', () => {
    const de = details('de');
    expect(say('de', smsDetail(sms(2, 1)))).toBe(
      fill(de.smsCode!, {
        phone: '+• ••• ••• 0142',
        sent: fill(de.codesSent_other!, { count: 2 }),
        wrong: fill(de.wrongCodes_one!, { count: 1 }),
      }),
    );
    expect(say('de', smsDetail(sms(2, 1)))).toBe('Code an +• ••• ••• 0142; 2-mal gesendet, 1 Fehleingabe');
    expect(say('pl', smsDetail(sms(3, 5)))).toBe(
      'kod wysłany na numer +• ••• ••• 0142; 3 wysyłki, 5 błędnych kodów',
    );
    expect(say('ar', selfieDetail(image(2)))).toBe('الصور المحفوظة دليلًا: صورتان؛ من 203.0.113.24');
    expect(say('ja', selfieDetail(image(1)))).toBe('画像 1 枚を証拠として保存、送信元 IP: 203.0.113.24');
    const ja = details('ja');
    expect(say('ja', inPersonDetail(host({ userId: undefined })))).toBe(
      fill(ja.inPerson!, {
        host: 'Hana Host (hana@example.com)',
        device: 'Front desk tablet',
        ip: '198.51.100.7',
        keyId: 'key_123',
      }),
    );
    expect(say('fr', inPersonDetail(host()))).toBe(
      'accueilli par Hana Host (hana@example.com) ; appareil « Front desk tablet » ; depuis 198.51.100.7 ; lien créé avec la clé d’API key_123 de l’utilisateur usr_9',
    );
    // Data that looks like a message's markup is printed as entered.
    expect(say('de', inPersonDetail(host({ name: 'Ann {{ip}}', email: undefined })))).toContain(
      'betreut von Ann {{ip}};',
    );
  });

  it('comes from authOf as one message each: what the record keeps and the certificate says', () => {
    const packet = aPacketItem('p1', { authSms: true, authSelfie: true, deliverVia: 'kiosk' });
    const record: TSigningRecord = {
      ...emptyRecord('a1', 'b1', 'p1'),
      inPerson: host(),
      auth: { sms: { ...sms(2, 0), passedAt: AT }, selfie: { ...image(1), passedAt: AT } },
    };
    const auth = authOf(packet, record, AT);
    expect(auth.map((a) => a.detail && inEnglish(a.detail))).toEqual([
      undefined,
      before.inPerson(host()),
      before.sms(sms(2, 0)),
      before.selfie(image(1)),
    ]);
    expect(auth.map((a) => a.detail && say('de', a.detail))).toEqual([
      undefined,
      'betreut von Hana Host (hana@example.com); Gerät „Front desk tablet“; von 198.51.100.7; Link erstellt mit API-Schlüssel key_123 des Benutzers usr_9',
      'Code an +• ••• ••• 0142; 2-mal gesendet, 0 Fehleingaben',
      '1 Bild als Nachweis gespeichert; von 203.0.113.24',
    ]);
  });
});

describe('a mark’s label', () => {
  it('names the kind in the certificate’s language when the field has no label of its own', () => {
    for (const f of [
      { key: 'sig1', label: '', kind: 'sig' as const },
      { key: 'ini1', label: '', kind: 'ini' as const },
      { key: 'buyer', label: 'Buyer: signs here', kind: 'sig' as const },
    ])
      expect(say('en', markLabel('contract.pdf', f))).toBe(before.mark('contract.pdf', f));
    expect(say('de', markLabel('Vertrag.pdf', { key: 's', label: '', kind: 'sig' }))).toBe(
      'Vertrag.pdf: Unterschrift (s)',
    );
    expect(say('zh-CN', markLabel('合同.pdf', { key: 'i', label: '', kind: 'ini' }))).toBe(
      `合同.pdf：${details('zh-CN').initials}（i）`,
    );
    // A label is the sender's words: as entered.
    expect(say('de', markLabel('Vertrag.pdf', { key: 'b', label: 'Käufer', kind: 'sig' }))).toBe(
      'Vertrag.pdf: Käufer (b)',
    );
  });
});

describe('a signing step’s detail', () => {
  it('says the in-person opening’s fixed words, the host as stored', () => {
    const step = { action: 'opened in person', at: AT, detail: 'hosted by Hana Host (hana@example.com)' };
    expect(say('en', stepDetailWords(step))).toBe(step.detail);
    expect(say('de', stepDetailWords(step))).toBe('betreut von Hana Host (hana@example.com)');
    expect(say('hi', stepDetailWords(step))).toBe(
      fill(details('hi').hostedBy!, { host: 'Hana Host (hana@example.com)' }),
    );
  });

  it('reads a handover by the packet’s record of it, names and reasons holding ": " or " to " included', () => {
    const handover = {
      from: { name: 'Ann', email: 'ann@example.com' },
      to: { name: 'Bob: to Jr' },
      reason: 'on leave: back in May',
      at: AT,
    };
    const packet = aPacketItem('p1', { handovers: [handover] });
    const step = { action: 'handed on', at: AT, detail: 'to Bob: to Jr: on leave: back in May' };
    expect(say('en', stepDetailWords(step, packet))).toBe(step.detail);
    expect(say('de', stepDetailWords(step, packet))).toBe('an Bob: to Jr: on leave: back in May');
    expect(say('tr', stepDetailWords(step, packet))).toBe(
      'devralan: Bob: to Jr; gerekçe: on leave: back in May',
    );
    // Without the record, or at another time: as stored.
    expect(stepDetailWords(step)).toBe(step.detail);
    expect(stepDetailWords({ ...step, at: '2025-03-08T00:00:00.000Z' }, packet)).toBe(step.detail);
  });

  it('reads a handover the bundle refused, or one still pending, by the signer’s record of it', () => {
    const handover = { from: { name: 'Ann' }, to: { name: 'Bob: Jr' }, reason: 'away: till May', at: AT };
    const step = { action: 'handed on', at: AT, detail: 'to Bob: Jr: away: till May' };
    const packet = aPacketItem('p1');
    for (const record of [{ handedBack: [handover] }, { handingOn: handover }]) {
      expect(say('en', stepDetailWords(step, packet, record))).toBe(step.detail);
      expect(say('de', stepDetailWords(step, packet, record))).toBe('an Bob: Jr: away: till May');
      expect(say('tr', stepDetailWords(step, packet, record))).toBe(
        'devralan: Bob: Jr; gerekçe: away: till May',
      );
    }
    // Another handover of the record (another time) says nothing of this step.
    expect(
      stepDetailWords(step, packet, { handedBack: [{ ...handover, at: '2025-03-08T00:00:00.000Z' }] }),
    ).toBe(step.detail);
  });

  it('keeps data as stored, and a shape it does not know', () => {
    const steps = [
      { action: 'saved values', at: AT, detail: 'contract.sig, contract.name' },
      { action: 'uploaded attachment', at: AT, detail: 'signing/b1/p1/att/id.pdf' },
      { action: 'language', at: AT, detail: 'de' },
      { action: 'id check verified', at: AT, detail: 'stub-id' },
      { action: 'declined', at: AT, detail: 'hosted by nobody' },
      { action: 'opened in person', at: AT, detail: 'an older detail' },
      { action: 'handed on', at: AT, detail: 'to Bob: whatever' },
    ];
    for (const s of steps) expect(say('de', stepDetailWords(s))).toBe(s.detail);
  });
});
