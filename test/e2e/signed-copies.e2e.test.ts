// The page a signer's copy link opens, in a real browser: its downloads named and reachable by
// role, and axe finding nothing, left to right and right to left, and on the expired page.
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import { evidenceKeys } from '#shared/adapters/dynamodb/entities/evidence';
import { expectAccessible } from '../helpers/axe';
import { runBrowser, shot } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { docsReady, signWithToken } from '../helpers/completed-bundle';
import { eventually } from '../helpers/receiver';
import { signerClient } from '../helpers/signer';
import { signerPage } from '../helpers/signing-pages';

const suite = browserSuite();
const links: Record<string, string> = {};

/** A bundle for one signer (embedded, with an email for the copies) in `language`, signed; their copy link. */
async function copyLinkIn(language: string, email: string): Promise<string> {
  const b = await suite.sentBundle({
    label: `Loan ${language}`,
    packets: [{ key: 'ann', name: 'Ann Lee', email, deliver_via: 'embed', language }],
    document: 'loan',
    fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] }],
  });
  const token = (await suite.embedUrl(b.packets[0]!.id)).split('/').pop()!;
  await signWithToken(signerClient(suite.runtime), token, 'loan', ['sig']);
  await docsReady(suite.call, b.id);
  const link = new RegExp(`${suite.runtime.baseUrl}/sign/copies/[0-9A-Za-z]{43}`);
  return eventually(
    async () => {
      const mail = (await listMailbox(dataPaths(suite.runtime.dataDir).mailbox)).find(
        (m) => m.kind === 'email' && m.to.includes(email) && link.test(m.text),
      );
      return mail ? link.exec(mail.text)![0] : undefined;
    },
    60_000,
    `the copies email to ${email}`,
  );
}

beforeAll(async () => {
  links.en = await copyLinkIn('en', 'ann.copies.en@example.com');
  links.ar = await copyLinkIn('ar', 'ann.copies.ar@example.com');
}, 180_000);

describe.runIf(runBrowser)('the signed copies page', () => {
  it('offers the documents and the certificate as links, and passes axe in English and Arabic', async () => {
    const { page, context, problems } = await signerPage(suite.browser);
    await page.goto(links.en!);
    await page.getByRole('heading', { name: 'Your signed documents', level: 1 }).waitFor();
    // The final document, by the name the sender gave it; its link carries the document's key.
    const document = page.locator('a.copy-file[href$="/document-loan.pdf"]');
    expect((await document.textContent())?.trim()).toMatch(/\.pdf$/);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'certificate-of-evidence-ann.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('certificate-of-evidence-ann.pdf');
    await expectAccessible(page, 'signed copies, English');
    await shot(page, 'signed-copies-en.png');

    await page.goto(links.ar!);
    await page.getByRole('heading', { name: 'مستنداتك الموقّعة', level: 1 }).waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await expectAccessible(page, 'signed copies, Arabic');
    await shot(page, 'signed-copies-ar.png');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('tells a signer who finished how the copies will come, and the last one offers them', async () => {
    const ann = `ann.done.${Date.now()}@example.com`;
    const bob = `bob.done.${Date.now()}@example.com`;
    const b = await suite.sentBundle({
      label: 'Loan done',
      in_order: false,
      packets: [
        { key: 'ann', name: 'Ann Lee', email: ann },
        { key: 'bob', name: 'Bob Roe', email: bob },
      ],
      document: 'loan',
      fields: [
        { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 6, editors: ['ann'] },
        { key: 'bsig', kind: 'sig', page: 1, x: 50, y: 70, w: 30, h: 6, editors: ['bob'] },
      ],
    });
    /** Signs the emailed link in the browser, up to the done page. */
    const signIn = async (email: string, name: string) => {
      const s = await signerPage(suite.browser);
      await s.page.goto(await suite.inbox.emailedLink(email));
      await s.page.locator('.field.k-sig button').first().click();
      await s.page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
      await s.page.getByRole('tab', { name: 'Type' }).click();
      await s.page.getByRole('textbox', { name: 'Your full name' }).fill(name);
      await s.page.getByRole('button', { name: 'Apply signature' }).click();
      await s.page.getByLabel(/I agree to sign these documents electronically/).check();
      await s.page.getByRole('button', { name: 'Finish signing' }).click();
      await s.page.getByRole('heading', { name: 'You’re done' }).waitFor();
      return s;
    };
    // Ann first: Bob has yet to sign, so the copies come by message.
    const first = await signIn(ann, 'Ann Lee');
    await first.page
      .getByText(
        'When everyone has signed, you will get a message with a link to download the signed documents.',
      )
      .waitFor();
    // Coming back to her link says the same.
    await first.page.reload();
    await first.page.getByRole('heading', { name: 'You have signed' }).waitFor();
    await first.page
      .getByText(
        'When everyone has signed, you will get a message with a link to download the signed documents.',
      )
      .waitFor();
    expect(first.problems).toEqual([]);
    await first.context.close();
    // Bob last: the page waits for the seal and then offers his copies itself.
    const last = await signIn(bob, 'Bob Roe');
    await last.page
      .getByText('Everyone has signed. Download the signed documents here:')
      .waitFor({ timeout: 60_000 });
    const download = last.page.waitForEvent('download');
    await last.page.getByRole('link', { name: 'certificate-of-evidence-bob.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('certificate-of-evidence-bob.pdf');
    await last.page.getByRole('link', { name: 'loan.pdf' }).waitFor();
    await expectAccessible(last.page, 'done page with the signed copies');
    await shot(last.page, 'signed-copies-done.png');
    expect(last.problems).toEqual([]);
    await last.context.close();
    expect((await suite.call('GET', `/bundles/${b.id}/`)).body.docs_ready).toBe(true);
  }, 120_000);

  it('says plainly that an expired link has expired, accessibly', async () => {
    const hash = createHash('sha256').update(links.en!.split('/').pop()!, 'utf8').digest('hex');
    await suite.runtime.db.send(
      new UpdateCommand({
        TableName: suite.runtime.config.tableName,
        Key: evidenceKeys.copyLink(hash),
        UpdateExpression: 'SET expires = :past',
        ExpressionAttributeValues: { ':past': '2026-01-02T00:00:00.000Z' },
      }),
    );
    const { page, context } = await signerPage(suite.browser);
    const res = await page.goto(links.en!);
    expect(res?.status()).toBe(410);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    await expectAccessible(page, 'signed copies, expired');
    await context.close();
  }, 60_000);
});
