// The Certificate of Evidence as a reader sees it (poppler's pdftotext and pdfimages).
import { describe, expect, it } from 'vitest';
import { markLabel, selfieDetail } from '#shared/domain/evidence/evidence-details';
import { recordedWords, stepDetailWords } from '#shared/domain/evidence/stored-words';
import { renderCertificate } from '#shared/pdf/certificate';
import { aCertificateInput } from '../helpers/evidence';
import { imageCount, pageTexts, textOf, wordBoxes } from '../helpers/poppler';

describe('renderCertificate', () => {
  it('states the signer, each authentication and its result, addresses, browsers and times', async () => {
    const input = aCertificateInput();
    const text = textOf(await renderCertificate(input));
    expect(text).toContain('Certificate of Evidence');
    for (const s of [input.signer.name, input.signer.email!, input.signer.phone!, input.signer.packetId])
      expect(text).toContain(s);
    expect(text).toContain('SMS code passed Mar 7, 2025, 13:59:40');
    expect(text).toContain('Selfie collected Mar 7, 2025, 14:01:02');
    expect(text).toContain('Sent Mar 7, 2025, 09:00:03 UTC');
    expect(text).toContain('Viewed Mar 7, 2025, 13:58:12 UTC');
    expect(text).toContain('Consented to e-sign Mar 7, 2025, 13:58:30 UTC');
    expect(text).toContain('Signed Mar 7, 2025, 14:05:09 UTC');
    expect(text).toContain('203.0.113.24');
    // User agents wrap within their column; every part of them is there.
    expect(text).toContain('Mozilla/5.0 (iPhone; CPU iPhone OS 17_3 like');
    expect(text).toContain('Mobile/15E148 Safari/604.1');
  });

  it('gives the SHA-256 of every original and final document, the audit events and the chain head', async () => {
    const input = aCertificateInput();
    const text = textOf(await renderCertificate(input));
    expect(text).toContain(`Original SHA-256 ${input.documents[0]!.originalSha256}`);
    expect(text).toContain(`Final SHA-256 ${input.documents[0]!.finalSha256}`);
    expect(text).toContain('Zoë Ørsted opened the documents');
    expect(text).toContain(input.chainHead);
    expect(text).toContain(
      'sealed with a PAdES digital signature (ETSI.CAdES.detached) by Open eSignature service seal',
    );
  });

  it('shows the drawn signature as an image and typed initials as text', async () => {
    const pdf = await renderCertificate(aCertificateInput());
    expect(imageCount(pdf)).toBe(1);
    expect(textOf(pdf)).toContain('ZØ');
    const none = await renderCertificate(aCertificateInput({ signatureImages: [] }));
    expect(imageCount(none)).toBe(0);
    expect(textOf(none)).toContain('None were made.');
  });

  it('says when a document has no final file yet, and when nothing was recorded', async () => {
    const text = textOf(
      await renderCertificate(
        aCertificateInput({
          documents: [{ name: 'nda.pdf', key: 'nda', originalSha256: 'a'.repeat(64) }],
          auth: [],
          steps: [],
          events: [],
          times: {},
        }),
      ),
    );
    expect(text).toContain('Final SHA-256 not produced yet');
    expect(text).toContain('No authentication beyond the signing link.');
    expect(text).toContain('Viewed —');
  });

  it('runs onto more pages, each numbered, and marks every page of a test bundle', async () => {
    const base = aCertificateInput();
    const steps = Array.from({ length: 60 }, (_, i) => ({ ...base.steps[0]!, action: `step ${i + 1}` }));
    const pages = pageTexts(await renderCertificate({ ...base, steps, isTest: true }));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(text).toContain('TEST — not legally binding');
    });
    expect(pages.join(' ')).toContain('step 60');
  });

  it('is written in the signer’s language: Arabic from the right margin, the words of the record and the test banner translated', async () => {
    const pdf = await renderCertificate(
      aCertificateInput({
        language: 'ar',
        steps: [
          // As certificate-input.ts passes a step recorded as 'consented and signed' (stored-words.ts).
          {
            action: recordedWords('consented and signed'),
            at: '2025-03-07T14:05:09Z',
            ip: '203.0.113.24',
            userAgent: 'x',
          },
        ],
      }),
    );
    const text = textOf(pdf);
    expect(text).toContain('شهادة الإثبات');
    // Dates and the page count in Arabic words (pdftotext reorders the numbers among them).
    expect(text).toContain('مارس');
    expect(text).toContain('الصفحة');
    // The title ends at the right margin (56 pt), where an English one starts at the left.
    const boxes = wordBoxes(pdf);
    // The title: the tallest words.
    const height = (w: (typeof boxes)[number]) => w.yMax - w.yMin;
    const tallest = Math.max(...boxes.map(height));
    const titleLine = boxes.filter((w) => w.page === 1 && height(w) === tallest);
    const right = Math.max(...titleLine.map((w) => w.xMax));
    expect(boxes[0]!.pageWidth - right).toBeCloseTo(56, 0);
    const english = wordBoxes(await renderCertificate(aCertificateInput())).find(
      (w) => w.word === 'Certificate',
    )!;
    expect(english.xMin).toBeCloseTo(56, 0);
    // The test bundle's banner in Arabic too.
    const test = textOf(await renderCertificate(aCertificateInput({ language: 'ar', isTest: true })));
    expect(test.replace(/[\u064B-\u065F]/g, '')).toContain('تجريبي — غير ملزم قانونا');
    // A step recorded as 'consented and signed' reads in Arabic.
    expect(text.replace(/[\u064B-\u065F]/g, '')).toContain('وافق ووقع');
  });

  it('says the details and the marks’ labels it is given as messages in the signer’s language', async () => {
    const at = '2025-03-07T14:01:02Z';
    const selfie = { blobKeys: ['a', 'b'], at, ip: '203.0.113.24', userAgent: 'x' };
    const step = { action: 'opened in person', at, detail: 'hosted by Hana Host' };
    const input = (language: string) =>
      aCertificateInput({
        language,
        auth: [
          {
            method: recordedWords('selfie'),
            result: recordedWords('collected'),
            at,
            detail: selfieDetail(selfie),
          },
        ],
        steps: [
          {
            action: recordedWords(step.action),
            detail: stepDetailWords(step),
            at,
            ip: '203.0.113.24',
            userAgent: 'x',
          },
        ],
        signatureImages: [
          { label: markLabel('nda.pdf', { key: 's1', label: '', kind: 'sig' }), typed: 'Zoë' },
        ],
      });
    const german = textOf(await renderCertificate(input('de')));
    expect(german).toContain('2 Bilder als Nachweis gespeichert; von 203.0.113.24');
    expect(german).toContain('persönlich geöffnet (betreut von Hana Host)');
    expect(german).toContain('nda.pdf: Unterschrift (s1)');
    const english = textOf(await renderCertificate(input('en')));
    expect(english).toContain('2 image(s) kept as evidence; from 203.0.113.24');
    expect(english).toContain('opened in person (hosted by Hana Host)');
    expect(english).toContain('nda.pdf: signature (s1)');
  });
});
