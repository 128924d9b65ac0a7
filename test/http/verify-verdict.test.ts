// The verify page leads with one plain verdict a lay reader understands, derived from the check:
// genuine and unchanged, changed after sealing, not sealed by this service, or cannot tell; the
// facts and the verifier's checks folded beneath it. Through real HTTP, with a file this service
// sealed, the same file with one byte changed, a PDF it never saw and a file that is no PDF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { aSealedFinal } from '../helpers/completed-bundle';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { signerClient } from '../helpers/signer';

let runtime: TRuntime;
let files: Record<'genuine' | 'changed' | 'not_ours' | 'cannot_tell', Buffer>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  const pdfB64 = await aPdfB64();
  const { final } = await aSealedFinal(apiClient(runtime), signerClient(runtime), pdfB64);
  // A byte of the document the seal covers (its first range; the seal's own slot comes later).
  const changed = Buffer.from(final);
  const at = Math.floor(changed.length / 10);
  changed[at] = changed[at]! ^ 0x20;
  files = {
    genuine: final,
    changed,
    not_ours: Buffer.from(pdfB64, 'base64'),
    cannot_tell: Buffer.from('This is a text file, not a PDF at all.\n'),
  };
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

/** The result page the form (no script) answers, in `lang`. */
async function resultPage(file: Buffer, lang = 'en'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'file.pdf');
  const res = await fetch(`${runtime.baseUrl}/verify?lang=${lang}`, { method: 'POST', body: form });
  expect(res.status).toBe(200);
  return res.text();
}

const TITLES = {
  genuine: 'Genuine and unchanged',
  changed: 'Changed after sealing',
  not_ours: 'Not sealed by this service',
  cannot_tell: 'Cannot tell',
} as const;
const ICONS = { genuine: '✓', changed: '✗', not_ours: '!', cannot_tell: '?' } as const;

describe('the verify page', () => {
  it.each(Object.keys(TITLES) as (keyof typeof TITLES)[])(
    'leads with the verdict "%s" in words, a symbol and a colour, the checks folded beneath',
    async (kind) => {
      const html = await resultPage(files[kind]);
      const result = html.slice(html.indexOf('<div id="result"'));
      // The verdict comes first in the result: a heading with its words, a symbol screen readers skip.
      expect(result).toMatch(
        new RegExp(
          `^<div id="result" role="status" aria-live="polite"><section class="verdict-box ${kind}" aria-labelledby="verdict-title"><span class="verdict-icon" aria-hidden="true">\\${ICONS[kind]}</span><div class="verdict-words"><h2 id="verdict-title">${TITLES[kind]}</h2>`,
        ),
      );
      // Every other verdict's words are absent.
      for (const [other, title] of Object.entries(TITLES))
        if (other !== kind) expect(result).not.toContain(`>${title}<`);
      // The facts and the verifier's checks follow, folded in a <details>.
      expect(result).toContain(
        '<details class="verify-details"><summary>Details: what was checked</summary>',
      );
      expect(result.indexOf('<details')).toBeGreaterThan(result.indexOf('</section>'));
      if (kind !== 'cannot_tell') expect(result).toContain('<h3>Checks of the file itself</h3>');
    },
    60_000,
  );

  it('says why and what to do next under each verdict', async () => {
    expect(await resultPage(files.genuine)).toContain(
      'This is a final document sealed by this service, unchanged since it was sealed.',
    );
    const changed = await resultPage(files.changed);
    expect(changed).toContain('it was changed after it was sealed');
    expect(changed).toContain('<p class="verdict-next">Do not rely on this file');
    expect(await resultPage(files.not_ours)).toContain('This exact file was not sealed by this service.');
    expect(await resultPage(files.cannot_tell)).toContain(
      'This file could not be read as a PDF, so nothing in it could be checked.',
    );
  });

  it('gives the page script the same verdict, in the language it asks for', async () => {
    for (const [kind, file] of Object.entries(files)) {
      const res = await fetch(`${runtime.baseUrl}/verify/api/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf', 'accept-language': 'de' },
        body: file,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { verdict: { kind: string; title: string; text: string } };
      expect(body.verdict.kind, kind).toBe(kind);
    }
    const de = await resultPage(files.changed, 'de');
    expect(de).toContain('<h2 id="verdict-title">Nach der Versiegelung verändert</h2>');
    const ar = await resultPage(files.genuine, 'ar');
    expect(ar).toContain('<h2 id="verdict-title">أصلي ولم يتغير</h2>');
  });

  it('answers a request without a file with the "cannot tell" verdict and the reason', async () => {
    const res = await fetch(`${runtime.baseUrl}/verify`, { method: 'POST', body: new FormData() });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('<section class="verdict-box cannot_tell"');
    expect(html).toContain('<h2 id="verdict-title">Cannot tell</h2>');
  });
});
