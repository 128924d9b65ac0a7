// The evidence of a bundle whose signers read Arabic, Japanese, Hindi and Chinese, made by the
// local runtime's document worker and read by poppler from outside the project: each Certificate
// of Evidence in its signer's language with their names and signatures as entered, the audit page
// in the bundle's, the Noto faces embedded, and the seals still valid. And a bundle in German: its
// audit page says the events in German while the evidence record inside keeps them as the audit
// chain hashed them, in English; its certificates (one signer with an SMS code, one in person) say
// the authentication details, the marks' labels and the in-person step in German, and seal "for"
// the German title, while the record keeps those details in English.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFHexString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { EVENT_KINDS } from '#shared/domain/bundles/event-kinds';
import {
  checkEvidenceRecord,
  EVIDENCE_RECORD_NAME,
  parseEvidenceRecord,
} from '#shared/domain/evidence/evidence-record';
import { catalogOf } from '#shared/i18n/catalogs';
import type { TLanguage } from '#shared/i18n/languages';
import { ARTIFACTS } from '../helpers/browser';
import { aPdfB64 } from '../helpers/bundles';
import { attachedFiles, fontsOf, pageTexts, pdfsig, savePagePng, textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

/** The signers: what they type, and the language their certificate must be in. */
const SIGNERS = [
  {
    key: 'layla',
    name: 'ليلى حداد',
    packetLanguage: 'ar',
    language: 'ar',
    address: 'شارع الحمراء 12، بيروت',
    font: 'NotoSansArabic',
  },
  {
    key: 'hanako',
    name: '山田 はなこ',
    packetLanguage: 'ja',
    language: 'ja',
    address: '東京都千代田区丸の内 1-2-3',
    font: 'NotoSansJP',
  },
  {
    key: 'anita',
    name: 'अनीता शर्मा',
    packetLanguage: 'hi-IN',
    language: 'hi',
    address: 'क्षेत्र 4, नई दिल्ली',
    font: 'NotoSansDevanagari',
  },
  // No language of its own: the signer chooses Chinese on the page, over the bundle's Arabic.
  {
    key: 'wang',
    name: '王小明',
    packetLanguage: undefined,
    language: 'zh-CN',
    address: '北京市朝阳区建国路 88 号',
    font: 'NotoSansSC',
  },
] as const;

const words = (lang: TLanguage) =>
  catalogOf(lang).evidence as unknown as Record<
    'certificate' | 'common' | 'audit' | 'recorded' | 'events' | 'details',
    Record<string, string>
  >;
const details = (lang: TLanguage) => words(lang).details;
const squashed = (text: string) => text.replace(/\s+/g, '');
/** A message with its placeholders filled, as i18next fills them. */
const fill = (message: string, values: Record<string, string | number>) =>
  message.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));

/**
 * Text with the Arabic vowel signs (shadda, kasra…) taken out: each is given to readers with its
 * letter, in order, but pdftotext puts it before the letter when it reads the line back.
 */
const unmarked = (text: string) => text.replace(/[\u064B-\u065F\u0670]/g, '');

const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

/**
 * Once a bundle's documents are ready: its status, its final document, and each signer's
 * certificate put into `certificates` by packet key.
 */
async function evidenceOf(bundleId: string, certificates: Map<string, Buffer>) {
  const ready = await eventually(
    async () => {
      const b = (await call('GET', `/bundles/${bundleId}/`)).body;
      return b.docs_ready || b.status === 'fa' ? b : undefined;
    },
    90_000,
    'documents ready',
  );
  const files = (await call('GET', `/bundles/${bundleId}/files/`)).body as {
    kind: string;
    doc_key: string;
    file_url: string;
  }[];
  for (const f of files.filter((f) => f.kind === 'certificate')) {
    certificates.set(f.doc_key.replace(/^coe-/, ''), await download(f.file_url));
  }
  return {
    status: ready.status as string,
    finalPdf: await download(files.find((f) => f.kind === 'final')!.file_url),
  };
}

describe('a bundle signed in four scripts', () => {
  let finalPdf: Buffer;
  const certificates = new Map<string, Buffer>();

  beforeAll(async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'عقد خدمات 多言語 अनुबंध',
        language: 'ar',
        packets: SIGNERS.map((s) => ({
          key: s.key,
          name: s.name,
          email: `${s.key}@example.com`,
          deliver_via: 'embed',
          ...(s.packetLanguage ? { language: s.packetLanguage } : {}),
        })),
        documents: [
          {
            key: 'contract',
            file_b64: await aPdfB64(),
            fields: SIGNERS.flatMap((s, i) => [
              {
                key: `${s.key}_sig`,
                kind: 'sig',
                page: 1,
                x: 10,
                y: 10 + i * 20,
                w: 35,
                h: 8,
                editors: [s.key],
              },
              {
                key: `${s.key}_address`,
                kind: 'inp',
                label: 'Address',
                page: 1,
                x: 50,
                y: 10 + i * 20,
                w: 40,
                h: 5,
                editors: [s.key],
              },
            ]),
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    // Packets answer in the order sent (the wire gives no key back).
    const bundle = created.body as { id: string; packets: { id: string }[] };
    for (const [i, s] of SIGNERS.entries()) {
      const session = await openSession(sign, call, bundle.packets[i]!.id);
      if (!s.packetLanguage) {
        expect((await sign('PUT', '/language', session, { language: s.language })).status).toBe(200);
      }
      const values = await sign('PUT', '/values', session, {
        values: [
          { doc_key: 'contract', field_key: `${s.key}_sig`, value: `typed:${s.name}` },
          { doc_key: 'contract', field_key: `${s.key}_address`, value: s.address },
        ],
      });
      expect(values.status, JSON.stringify(values.body)).toBe(200);
      expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
    }
    const ready = await evidenceOf(bundle.id, certificates);
    expect(ready.status).toBe('co');
    finalPdf = ready.finalPdf;
    mkdirSync(ARTIFACTS, { recursive: true });
    savePagePng(certificates.get('layla')!, 1, join(ARTIFACTS, 'certificate-arabic-page-1.png'), 110);
    savePagePng(certificates.get('hanako')!, 1, join(ARTIFACTS, 'certificate-japanese-page-1.png'), 110);
    savePagePng(certificates.get('anita')!, 1, join(ARTIFACTS, 'certificate-hindi-page-1.png'), 110);
    savePagePng(finalPdf, 1, join(ARTIFACTS, 'final-four-scripts-page-1.png'), 110);
    savePagePng(
      finalPdf,
      pageTexts(finalPdf).length,
      join(ARTIFACTS, 'final-four-scripts-audit-page.png'),
      110,
    );
  }, 150_000);

  it.each(SIGNERS)('gives $key a certificate in $language with the name and signature as entered', (s) => {
    const pdf = certificates.get(s.key)!;
    const text = unmarked(textOf(pdf));
    const w = words(s.language);
    for (const heading of [
      w.certificate.title,
      w.certificate.intro!.split('{{')[0]!.trim(),
      w.common.integrity,
    ]) {
      expect(text, heading).toContain(unmarked(heading!));
    }
    // What the record holds in words of its own: how the signer got in, translated too.
    expect(text).toContain(unmarked(w.recorded.opened!));
    // The audit events too: the bundle's creation in the signer's words, not as stored.
    expect(text).toContain(unmarked(w.events.created!));
    expect(text).not.toContain(EVENT_KINDS.created.text);
    // The name in the signer section and the footer, and the typed signature under its label.
    expect(text.split(s.name).length - 1).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain('?');
    expect(text).not.toContain(w.common.missingGlyphs);
  });

  it.each(SIGNERS)('embeds $font in the certificate of $key and seals it', (s) => {
    const pdf = certificates.get(s.key)!;
    expect(fontsOf(pdf)).toContain(`${s.font}-Regular`);
    expect(fontsOf(pdf)).toContain('DejaVuSans');
    expect(pdfsig(pdf)).toContain('Signature is Valid.');
  });

  it('stamps every value as entered and writes the audit page in the bundle’s language, right to left', () => {
    const pages = pageTexts(finalPdf);
    const text = textOf(finalPdf);
    for (const s of SIGNERS) {
      expect(text, s.name).toContain(s.name);
      // pdftotext rebuilds a right-to-left line with numbers in it in its own order: the Arabic
      // value is checked word by word, the others whole.
      if (s.key === 'layla') for (const word of ['شارع الحمراء', '12', 'بيروت']) expect(text).toContain(word);
      else expect(text, s.address).toContain(s.address);
    }
    expect(text).not.toContain('?');
    const audit = unmarked(pages.find((p) => p.includes(words('ar').audit.title!)) ?? '');
    for (const heading of [
      words('ar').common.bundleId!,
      words('ar').audit.signers!,
      words('ar').audit.events!,
      words('ar').events.created!,
      words('ar').events.completed!,
    ]) {
      expect(audit, heading).toContain(unmarked(heading));
    }
    expect(fontsOf(finalPdf)).toEqual(
      expect.arrayContaining([
        'NotoSansArabic-Regular',
        'NotoSansJP-Regular',
        'NotoSansDevanagari-Regular',
        'NotoSansSC-Regular',
      ]),
    );
    expect(pdfsig(finalPdf)).toContain('Signature is Valid.');
  });
});

describe('a bundle in German', () => {
  let finalPdf: Buffer;
  let pdfB64: string;
  let bundleId: string;
  const certificates = new Map<string, Buffer>();
  const HOST = { host_name: 'Hana Host', host_email: 'hana@example.com', device: 'Empfangstablet' };

  /** The latest code texted to a phone, from the local mailbox. */
  async function lastCode(): Promise<string> {
    const texts = (await listMailbox(dataPaths(runtime.dataDir).mailbox))
      .filter((m) => m.kind === 'sms' && /\b\d{6}\b/.test(m.text))
      .sort((x, y) => x.time.localeCompare(y.time) || x.id.localeCompare(y.id));
    return /\b(\d{6})\b/.exec(texts.at(-1)!.text)![1]!;
  }

  beforeAll(async () => {
    pdfB64 = await aPdfB64();
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Mietvertrag',
        language: 'de',
        packets: [
          // Reached by an embedded link, with an SMS code; and in person on the host's device.
          {
            key: 'jonas',
            name: 'Jonas Weber',
            email: 'jonas@example.com',
            phone: '+49 30 1234 5678',
            deliver_via: 'embed',
            auth_sms: true,
          },
          { key: 'kay', name: 'Kay Kiosk', email: 'kay@example.com', deliver_via: 'kiosk' },
        ],
        documents: [
          {
            key: 'lease',
            file_b64: pdfB64,
            fields: [
              { key: 'sig', kind: 'sig', page: 1, x: 10, y: 10, w: 35, h: 8, editors: ['jonas'] },
              { key: 'kay_ini', kind: 'ini', page: 1, x: 10, y: 30, w: 10, h: 8, editors: ['kay'] },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const bundle = created.body as { id: string; packets: { id: string }[] };
    bundleId = bundle.id;
    const session = await openSession(sign, call, bundle.packets[0]!.id);
    expect((await sign('POST', '/auth/sms/send', session)).status).toBe(200);
    const code = await lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await sign('POST', '/auth/sms/verify', session, { code: wrong })).status).toBe(400);
    expect((await sign('POST', '/auth/sms/verify', session, { code })).status).toBe(200);
    const values = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'sig', value: 'typed:Jonas Weber' }],
    });
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);

    const kiosk = await call('POST', `/packets/${bundle.packets[1]!.id}/kiosk_url/`, { json: HOST });
    expect(kiosk.status, kiosk.text).toBe(201);
    const token = new URL(kiosk.body.url).pathname.split('/').pop()!;
    const opened = await sign('POST', '/session', undefined, { token });
    expect(opened.status).toBe(201);
    const kay = opened.body.session as string;
    const initials = await sign('PUT', '/values', kay, {
      values: [{ doc_key: 'lease', field_key: 'kay_ini', value: 'typed:KK' }],
    });
    expect(initials.status, JSON.stringify(initials.body)).toBe(200);
    expect((await sign('POST', '/complete', kay, { consent: true })).status).toBe(200);

    finalPdf = (await evidenceOf(bundle.id, certificates)).finalPdf;
  }, 120_000);

  it('prints the events of its audit page in German', () => {
    const audit = pageTexts(finalPdf).find((p) => p.includes(words('de').audit.title!))!;
    expect(audit).toBeDefined();
    const text = audit.replace(/\s+/g, ' ');
    const de = words('de').events;
    for (const kind of ['created', 'sent', 'completed'] as const) {
      expect(text, kind).toContain(de[kind]!);
      expect(text, kind).not.toContain(EVENT_KINDS[kind].text);
    }
    // A signer's event: the kind in German, the name (data) as entered.
    expect(text).toContain(`${de.viewed}: Jonas Weber`);
  });

  it('keeps the English descriptions in its evidence record, and their chain verifies', () => {
    const record = parseEvidenceRecord(attachedFiles(finalPdf).get(EVIDENCE_RECORD_NAME)!);
    expect(record, 'a record of this format').toBeDefined();
    const descriptions = record!.audit_trail.events.map((e) => e.description);
    expect(descriptions).toEqual(
      expect.arrayContaining([
        EVENT_KINDS.created.text,
        EVENT_KINDS.sent.text,
        `${EVENT_KINDS.viewed.text}: Jonas Weber`,
        EVENT_KINDS.completed.text,
      ]),
    );
    expect(
      checkEvidenceRecord(record!, {
        originalSha256s: { lease: createHash('sha256').update(Buffer.from(pdfB64, 'base64')).digest('hex') },
      }),
    ).toEqual({ chainIntact: true, headMatches: true, originals: { lease: true }, problems: [] });
  });

  it('says each certificate’s details in German, and its evidence record keeps them in English', () => {
    const record = parseEvidenceRecord(attachedFiles(finalPdf).get(EVIDENCE_RECORD_NAME)!)!;
    const signer = (key: string) => record.signers.find((s) => s.key === key)!;
    const d = details('de');
    const recorded = words('de').recorded;

    // The SMS code: in the record as it has always been written, on the certificate in German.
    const sms = signer('jonas').authentication.find((a) => a.method === 'sms code')!;
    const m = /^code sent to (\S.*\d{4}); 1 sent, 1 wrong$/.exec(sms.detail ?? '');
    expect(m, sms.detail ?? 'no detail').not.toBeNull();
    const jonas = textOf(certificates.get('jonas')!);
    expect(jonas).toContain(
      fill(d.smsCode!, {
        phone: m![1]!,
        sent: fill(d.codesSent_one!, { count: 1 }),
        wrong: fill(d.wrongCodes_one!, { count: 1 }),
      }),
    );
    // The mark of a field without a label of its own: the kind in German.
    expect(jonas).toContain(`: ${d.signature} (sig)`);

    // In person: the host and device in the record in English, on the certificate in German, and
    // the opening step's "hosted by" too.
    const inPerson = signer('kay').authentication.find((a) => a.method === 'in person')!;
    expect(inPerson.detail).toMatch(
      /^hosted by Hana Host \(hana@example\.com\); device "Empfangstablet"; from \S+; link made with API key \S+ of user \S+$/,
    );
    const kay = textOf(certificates.get('kay')!);
    const hostedBy = fill(d.hostedBy!, { host: 'Hana Host (hana@example.com)' });
    expect(kay).toContain(`${hostedBy}; Gerät „Empfangstablet“;`);
    // A narrow column breaks lines inside words: compared without the spaces.
    expect(squashed(kay)).toContain(squashed(`${recorded.openedInPerson} (${hostedBy})`));
    expect(kay).toContain(`: ${d.initials} (kay_ini)`);

    for (const text of [jonas, kay]) {
      for (const english of ['code sent to', ' sent, ', 'kept as evidence', 'hosted by', 'link made with'])
        expect(text).not.toContain(english);
      expect(text).not.toMatch(/: (signature|initials) \(/);
    }
  });

  it('gives the final document’s seal reason in German, and its seal holds', () => {
    expect(finalPdf.toString('latin1')).toContain(
      `/Reason ${PDFHexString.fromText(words('de').audit.sealReason!).toString()}`,
    );
    expect(pdfsig(finalPdf)).toContain('Signature is Valid.');
  });

  it('gives each certificate’s seal reason and properties in German', async () => {
    const de = words('de');
    expect(certificates.size).toBe(2);
    for (const pdf of certificates.values()) {
      // What a reader's signature panel shows the seal is for.
      expect(pdf.toString('latin1')).toContain(
        `/Reason ${PDFHexString.fromText(de.certificate.title!).toString()}`,
      );
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      expect(doc.getSubject()).toBe(`${de.common.bundle} ${bundleId}`);
      expect(pdfsig(pdf)).toContain('Signature is Valid.');
    }
  });
});
