// The page a signer's copy link opens, in a real browser: its downloads named and reachable by
// role, and axe finding nothing, left to right and right to left, and on the expired page.
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../infra/local/layout';
import { listMailbox } from '../../infra/local/mailbox/store';
import { evidenceKeys } from '../../shared/adapters/dynamodb/entities/evidence';
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
