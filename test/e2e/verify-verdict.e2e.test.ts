// The verify page's plain verdict in a real browser: the page's script shows the same verdict the
// server derives (words, a symbol, a colour), the checks folded beneath it, and axe finds nothing
// on any of the four verdicts, folded or unfolded.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { aSealedFinal } from '../helpers/completed-bundle';
import { signerClient } from '../helpers/signer';
import { signerPage } from '../helpers/signing-pages';

const suite = browserSuite();

const VERDICTS = {
  genuine: 'Genuine and unchanged',
  changed: 'Changed after sealing',
  not_ours: 'Not sealed by this service',
  cannot_tell: 'Cannot tell',
} as const;
let files: Record<keyof typeof VERDICTS, Buffer>;

beforeAll(async () => {
  const { final } = await aSealedFinal(suite.call, signerClient(suite.runtime), suite.pdfB64);
  const changed = Buffer.from(final);
  const at = Math.floor(changed.length / 10);
  changed[at] = changed[at]! ^ 0x20;
  files = {
    genuine: final,
    changed,
    not_ours: Buffer.from(suite.pdfB64, 'base64'),
    cannot_tell: Buffer.from('Not a PDF.\n'),
  };
}, 120_000);

describe.runIf(runBrowser)('the verify page, checked in the browser', () => {
  it.each(Object.keys(VERDICTS) as (keyof typeof VERDICTS)[])(
    'shows the "%s" verdict first and passes axe, folded and unfolded',
    async (kind) => {
      const { page, context, problems } = await signerPage(suite.browser);
      await page.goto(`${suite.runtime.baseUrl}/verify`);
      await page.getByLabel('PDF file').setInputFiles({
        name: 'file.pdf',
        mimeType: 'application/pdf',
        buffer: files[kind],
      });
      await page.getByRole('button', { name: 'Check the file' }).click();
      const heading = page.getByRole('heading', { name: VERDICTS[kind], level: 2 });
      await heading.waitFor();
      const box = page.locator('#result .verdict-box');
      expect(await box.getAttribute('class')).toBe(`verdict-box ${kind}`);
      // The symbol is there for the eye, hidden from screen readers, which hear the words.
      const icon = box.locator('.verdict-icon');
      expect(await icon.getAttribute('aria-hidden')).toBe('true');
      expect((await icon.textContent())?.trim()).not.toBe('');
      // Folded: the checks are not shown until asked for.
      const details = page.locator('#result details.verify-details');
      expect(await details.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
      await expectAccessible(page, `verify, ${kind}`);
      await page.getByText('Details: what was checked').click();
      expect(await details.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(true);
      if (kind !== 'cannot_tell')
        await page.getByRole('heading', { name: 'Checks of the file itself' }).waitFor();
      await expectAccessible(page, `verify, ${kind}, details shown`);
      await shot(page, `verify-verdict-${kind}.png`);
      expect(problems).toEqual([]);
      await context.close();
    },
    60_000,
  );
});
