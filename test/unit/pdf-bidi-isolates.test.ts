// The sender's and signer's words in the evidence PDFs keep their own direction inside a sentence
// of the other: put into a message they are isolated (FSI … PDI), which the bidi algorithm reads
// and the drawing drops. An English reason in an Arabic line keeps its full stop at its end.
import { describe, expect, it } from 'vitest';
import { isolated, visualRuns } from '#shared/pdf/bidi';
import { renderCertificate } from '#shared/pdf/certificate';
import { evidenceWords } from '#shared/pdf/evidence-words';
import { aCertificateInput } from '../helpers/evidence';
import { textOf, wordBoxes } from '../helpers/poppler';

const HANDED_ON = {
  key: 'eventDetails.handedOn',
  values: { from: 'Ann', to: 'Carol', reason: 'She signs.' },
};

describe('isolated words in the evidence', () => {
  it('keep an English full stop with its sentence in an Arabic line, and are never drawn', () => {
    const line = `السبب: ${isolated('Carol signs for our firm.')}`;
    const runs = visualRuns(line, 'rtl');
    expect(runs.map((r) => r.text)).toContain('Carol signs for our firm.');
    expect(runs.some((r) => /[\u2066-\u2069]/.test(r.text))).toBe(false);
  });

  it('are isolated in the PDFs’ words, never in the evidence record’s English', () => {
    expect(evidenceWords('ar', { isolate: true }).say(HANDED_ON)).toContain('\u2068She signs.\u2069');
    expect(evidenceWords('en').say(HANDED_ON)).toBe('Ann to Carol: She signs.');
  });

  it('show in an Arabic certificate with the full stop after the English reason, no stray marks', async () => {
    const base = aCertificateInput();
    const pdf = await renderCertificate({
      ...base,
      language: 'ar',
      events: [{ timestamp: '2025-03-07T14:00:00Z', description: HANDED_ON, actor: 'Ann Lee' }],
    });
    const words = wordBoxes(pdf).map((w) => w.word);
    expect(words).toContain('signs.');
    expect(textOf(pdf)).not.toMatch(/[\u2066-\u2069]/);
  });
});
