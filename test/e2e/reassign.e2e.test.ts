// Letting someone else sign, in a real headless Chromium against the whole local runtime: Ann opens
// her emailed link, hands the packet to Carol through the dialog, her link then opens nothing;
// Carol opens the link she is emailed and signs; the bundle completes and Carol's Certificate of
// Evidence (read with pdftotext) records the handover. Screenshots go to test-artifacts/.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail } from '#infra/local/mailbox/index';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { textOf } from '../helpers/poppler';
import { eventually } from '../helpers/receiver';

const STEP_TIMEOUT = 120_000;

const suite = browserSuite({ browserArgs: ['--disable-component-update', '--disable-sync'] });

const linkIn = async (address: string) => {
  const mail = await eventually(
    async () =>
      (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m): m is TMailboxEmail => m.kind === 'email' && m.to.includes(address),
      ),
    15_000,
    `an email to ${address}`,
  );
  const link = new RegExp(`${suite.runtime.baseUrl}/sign/[0-9A-Za-z]{43}`).exec(mail.text)?.[0];
  expect(link, mail.text).toBeDefined();
  return link!;
};

async function openPage(url: string) {
  const context = await suite.browser.newContext({ viewport: { width: 1024, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  return { page, context, problems };
}

/** WCAG 2.2 A and AA rules axe checks, on the page as it stands: the rule ids of what fails. */
const violations = async (page: Page) =>
  (
    await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze()
  ).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

describe.runIf(runBrowser)('letting someone else sign', () => {
  describe('Ann hands her packet to Carol, her link dies, Carol signs and the certificate records the handover', () => {
    let ann: string;
    let carol: string;
    let bundleId: string;
    let annLink: string;
    let a: Awaited<ReturnType<typeof openPage>>;
    let dialog: Locator;

    beforeAll(async () => {
      const u = Date.now().toString(36);
      ann = `ann-${u}@example.com`;
      carol = `carol-${u}@example.com`;
      const created = await suite.sentBundle({
        label: 'Office lease',
        packets: [{ key: 'ann', name: 'Ann Lee', email: ann, allow_reassign: true }],
        document: 'lease',
        fields: [
          {
            key: 'sig',
            kind: 'sig',
            label: 'Tenant signature',
            page: 1,
            x: 10,
            y: 70,
            w: 30,
            h: 6,
            editors: ['ann'],
            required: true,
          },
        ],
      });
      bundleId = created.id;
      annLink = await linkIn(ann);
    }, STEP_TIMEOUT);

    it(
      'Ann’s handover dialog says what it needs and checks what she types, beside each field',
      async () => {
        // Ann: the finish card offers the handover; the dialog checks what she types.
        a = await openPage(annLink);
        await a.page.getByRole('heading', { name: 'Office lease' }).waitFor();
        await a.page.getByRole('button', { name: 'Let someone else sign' }).click();
        dialog = a.page.getByRole('dialog', { name: 'Let someone else sign' });
        await dialog.waitFor();
        // The dialog says that an email address or a mobile number will do.
        await dialog
          .getByRole('group', { name: 'Their email address or mobile number (one is enough)' })
          .waitFor();
        /** The error beside a field: the text its control is described by after its hint, in its row. */
        const besides = (label: string) =>
          dialog
            .getByLabel(label)
            .evaluate((c: { getAttribute(n: string): string | null; parentElement: unknown }) => {
              const ids = (c.getAttribute('aria-describedby') ?? '').split(' ');
              // biome-ignore lint/suspicious/noExplicitAny: the DOM, evaluated in the page
              const row = c.parentElement as any;
              const error = row.querySelector(`#${ids.at(-1)}`);
              return { invalid: c.getAttribute('aria-invalid'), error: error?.textContent ?? null };
            });
        await dialog.getByRole('button', { name: 'Hand on' }).click();
        await dialog.getByText('Enter the name of the person who will sign.').waitFor();
        expect(await besides('Their full name')).toEqual({
          invalid: 'true',
          error: 'Enter the name of the person who will sign.',
        });
        await dialog.getByLabel('Their full name').fill('Carol Diaz');
        expect(await besides('Their full name')).toEqual({ invalid: null, error: '' });
        await dialog.getByRole('button', { name: 'Hand on' }).click();
        await dialog.getByText('Enter an email address or a mobile number.').waitFor();
        expect(await besides('Their email address')).toEqual({
          invalid: 'true',
          error: 'Enter an email address or a mobile number.',
        });
        await dialog.getByLabel('Their mobile number').fill('555-0100');
        await dialog.getByRole('button', { name: 'Hand on' }).click();
        await dialog.getByText('Enter the mobile number with its country code, beginning with +.').waitFor();
        // Beside the mobile number now; the email address's error is gone.
        expect(await besides('Their mobile number')).toEqual({
          invalid: 'true',
          error: 'Enter the mobile number with its country code, beginning with +.',
        });
        expect((await besides('Their email address')).error).toBe('');
        await dialog.getByLabel('Their mobile number').fill('');
      },
      STEP_TIMEOUT,
    );

    it(
      'handing on to herself is refused; to Carol it is done, and Ann’s link dies',
      async () => {
        // Herself: the service refuses, the dialog says so in the page's words.
        await dialog.getByLabel('Their email address').fill(ann);
        await dialog
          .getByLabel('Why should they sign instead of you?')
          .fill('Carol signs leases for our firm.');
        await dialog.getByRole('button', { name: 'Hand on' }).click();
        await dialog
          .getByText('Name someone other than yourself who does not already sign these documents.')
          .waitFor();
        await dialog.getByLabel('Their email address').fill(carol);
        await shot(a.page, 'reassign-1-dialog.png');
        // The dialog with an error shown, and the end page, pass WCAG 2.2 AA as axe checks it.
        expect(await violations(a.page)).toEqual([]);
        await dialog.getByRole('button', { name: 'Hand on' }).click();
        await a.page.getByRole('heading', { name: 'Handed to Carol Diaz' }).waitFor();
        await a.page
          .getByText('We sent Carol Diaz a link to sign “Office lease”.', { exact: false })
          .waitFor();
        await shot(a.page, 'reassign-2-handed-on.png');
        expect(await violations(a.page)).toEqual([]);
        // Her link now opens only the page saying it was handed on.
        await a.page.reload();
        await a.page.getByText('This signing link was handed to someone else', { exact: false }).waitFor();
        await shot(a.page, 'reassign-3-old-link.png');
        // The only failed loads: the refused handover to herself, and the dead link's page.
        expect(a.problems.map((p) => /status of (\d+)/.exec(p)?.[1] ?? p)).toEqual(['400', '404']);
        await a.context.close();
      },
      STEP_TIMEOUT,
    );

    it(
      'Carol signs from her own emailed link, which names her and nothing of Ann’s',
      async () => {
        // Carol: her own emailed link, her name, nothing of Ann's; she signs.
        const c = await openPage(await linkIn(carol));
        await c.page.getByRole('heading', { name: 'Office lease' }).waitFor();
        await c.page.getByText('asked you, Carol Diaz', { exact: false }).waitFor();
        await c.page.locator('.field.k-sig button').click();
        await c.page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
        await c.page.getByRole('tab', { name: 'Type' }).click();
        await c.page.getByRole('textbox', { name: 'Your full name' }).fill('Carol Diaz');
        await c.page.getByRole('button', { name: 'Apply signature' }).click();
        await c.page.locator('.field.k-sig .typed', { hasText: 'Carol Diaz' }).waitFor();
        await c.page.getByLabel(/I agree to sign these documents electronically/).check();
        await c.page.getByRole('button', { name: 'Finish signing' }).click();
        await c.page.getByRole('heading', { name: 'You’re done' }).waitFor();
        await shot(c.page, 'reassign-4-new-signer-done.png');
        expect(c.problems).toEqual([]);
        await c.context.close();
      },
      STEP_TIMEOUT,
    );

    it(
      'the bundle completes, and Carol’s certificate says who handed it on to her, and why',
      async () => {
        // The bundle completes; Carol's certificate names her and says who handed it on, and why.
        const done = await eventually(
          async () => {
            const b = (await suite.call('GET', `/bundles/${bundleId}/`)).body;
            return b.docs_ready || b.status === 'fa' ? b : undefined;
          },
          60_000,
          'the final documents',
        );
        expect(done).toMatchObject({ status: 'co', docs_ready: true });
        const files = (await suite.call('GET', `/bundles/${bundleId}/files/`)).body as {
          kind: string;
          file_url: string;
        }[];
        const download = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
        const certificate = textOf(await download(files.find((f) => f.kind === 'certificate')!.file_url));
        const flat = certificate.replace(/\s+/g, ' ');
        expect(flat).toContain('Certificate of Evidence');
        // The section of the handover (its table wraps long addresses), and the audit event by Ann.
        expect(flat).toContain('HANDED ON From To Reason Time (UTC) Ann Lee');
        expect(flat).toContain(
          `Signer handed signing to someone else: Ann Lee <${ann}> to Carol Diaz <${carol}>: Carol signs leases for our firm. Ann Lee 127.0.0.1`,
        );
        expect(flat).toMatch(/Name Carol Diaz/);
        const final = textOf(await download(files.find((f) => f.kind === 'final')!.file_url)).replace(
          /\s+/g,
          ' ',
        );
        expect(final).toContain('Signer handed signing to someone else');
      },
      STEP_TIMEOUT,
    );
  });

  it(
    'on a phone in Arabic: the dialog fits the screen, reads right to left, and hands on by SMS',
    async () => {
      const created = await suite.sentBundle({
        label: 'عقد الإيجار',
        language: 'ar',
        packets: [
          {
            key: 'ann',
            name: 'Ann Lee',
            email: 'ann@example.com',
            deliver_via: 'embed',
            allow_reassign: true,
          },
        ],
        document: 'lease',
        fields: [
          { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'], required: true },
        ],
      });
      const packetId = created.packets[0]!.id;
      const embed = await suite.call('POST', `/packets/${packetId}/embed_url/`);
      const context = await suite.browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: 'ar',
      });
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.goto(embed.body.url);
      await page.getByRole('heading', { name: 'عقد الإيجار' }).waitFor();
      await page.getByRole('button', { name: 'دع شخصًا آخر يوقّع' }).tap();
      const dialog = page.getByRole('dialog', { name: 'دع شخصًا آخر يوقّع' });
      await dialog.waitFor();
      expect(await page.evaluate('document.documentElement.dir')).toBe('rtl');
      const box = await dialog.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await dialog.getByLabel('اسمه الكامل').fill('سارة أحمد');
      await dialog.getByLabel('رقم هاتفه المحمول').fill('+971 50 123 4567');
      await dialog.getByLabel('لماذا يجب أن يوقّع بدلًا منك؟').fill('سارة هي المفوَّضة بالتوقيع.');
      await shot(page, 'reassign-phone-ar-dialog.png');
      expect(await violations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'انقل المستندات' }).tap();
      await page.getByRole('heading', { name: 'نُقلت إلى سارة أحمد' }).waitFor();
      await shot(page, 'reassign-phone-ar-handed-on.png');
      expect(problems).toEqual([]);
      await context.close();
      const packet = (await suite.call('GET', `/packets/${packetId}/`)).body;
      expect(packet).toMatchObject({
        name: 'سارة أحمد',
        phone: '+971 50 123 4567',
        deliver_via: 'phone',
        status: 'se',
      });
    },
    STEP_TIMEOUT,
  );
});
