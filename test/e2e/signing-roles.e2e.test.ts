// Approvers and viewers in a real headless Chromium against the whole local runtime: an approver
// approves, a viewer opens and reads (done at once), a signer signs and the bundle completes; in
// another bundle the approver rejects with a reason (asked for when left empty) and the bundle
// ends as a decline does. Coming back, the approver is told what they did and when (and why, for
// a rejection), and the viewer reads the documents again. Each screen has no axe violations. Screenshots go to
// test-artifacts/roles-*.png.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, describeViolations } from '../helpers/axe';
import { runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';
import { eventually } from '../helpers/receiver';

const suite = browserSuite({
  pdf: [{ size: 'Letter', text: [{ value: 'Purchase order', x: 72, y: 720, size: 20 }] }],
});

const STEP = 90_000;

/** A bundle with an approver, a viewer and a signer (no fields: consent and finish), all embedded. */
const aBundle = (label: string) =>
  suite.sentBundle({
    label,
    requester_name: 'Acme Purchasing',
    packets: [
      { key: 'boss', name: 'Bea Boss', deliver_via: 'embed', role: 'approver' },
      { key: 'view', name: 'Vic Viewer', deliver_via: 'embed', role: 'viewer' },
      { key: 'ann', name: 'Ann Signer', deliver_via: 'embed' },
    ],
    document: 'po',
    fields: [],
  });

async function opened(url: string): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

const statusOf = async (id: string) => (await suite.call('GET', `/bundles/${id}/`)).body;

describe.runIf(runBrowser)('approvers and viewers in a real browser', () => {
  it(
    'the approver approves, the viewer reads, the signer signs: the bundle completes',
    async () => {
      const b = await aBundle('Office chairs');
      const boss = await opened(await suite.embedUrl(b.packets[0]!.id));
      await boss.page.getByRole('heading', { name: 'Approve or reject' }).waitFor();
      await boss.page.locator('canvas.page-canvas').first().waitFor();
      expect(describeViolations(await axeViolations(boss.page))).toEqual([]);
      await shot(boss.page, 'roles-1-approve.png');
      await boss.page.getByRole('button', { name: 'Approve', exact: true }).click();
      await boss.page.getByText('You approved these documents. Thank you.').waitFor();
      // Opened again, the page says what they did and when.
      await boss.page.reload();
      await boss.page.getByRole('heading', { name: 'You approved the documents' }).waitFor();
      await boss.page.getByText(/^You approved “Office chairs” on \w+ \d+, \d{4}\./).waitFor();
      expect(describeViolations(await axeViolations(boss.page))).toEqual([]);
      expect(boss.problems).toEqual([]);
      await boss.close();

      const viewer = await opened(await suite.embedUrl(b.packets[1]!.id));
      await viewer.page
        .getByText('These documents were shared with you to read. There is nothing to fill in or sign.')
        .waitFor();
      await viewer.page.locator('canvas.page-canvas').first().waitFor();
      expect(await viewer.page.getByRole('button', { name: 'Finish signing' }).count()).toBe(0);
      expect(describeViolations(await axeViolations(viewer.page))).toEqual([]);
      await shot(viewer.page, 'roles-2-viewer.png');
      // Done once opened, the viewer still reads the documents when they come back.
      await viewer.page.reload();
      await viewer.page.locator('canvas.page-canvas').first().waitFor();
      await viewer.page
        .getByText('These documents were shared with you to read.', { exact: false })
        .waitFor();
      expect(viewer.problems).toEqual([]);
      await viewer.close();
      expect((await statusOf(b.id)).packets.map((p: { status: string }) => p.status)).toEqual([
        'co',
        'co',
        're',
      ]);

      const ann = await opened(await suite.embedUrl(b.packets[2]!.id));
      await ann.page.getByLabel(/I agree to sign these documents electronically/).check();
      await ann.page.getByRole('button', { name: 'Finish signing' }).click();
      await ann.page.getByRole('heading', { name: 'You’re done' }).waitFor();
      await ann.close();
      expect((await statusOf(b.id)).status).toBe('co');
    },
    STEP,
  );

  it(
    'the approver rejects with a reason: the bundle ends, and the reason is in its events',
    async () => {
      const b = await aBundle('Standing desks');
      const boss = await opened(await suite.embedUrl(b.packets[0]!.id));
      await boss.page.getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = boss.page.getByRole('dialog', { name: 'Reject the documents' });
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await dialog.getByText('Tell the sender why you reject the documents.').waitFor();
      expect(describeViolations(await axeViolations(boss.page))).toEqual([]);
      await dialog.getByLabel('Why do you reject them?').fill('Over this quarter’s budget');
      await shot(boss.page, 'roles-3-reject.png');
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await boss.page.getByRole('heading', { name: 'You rejected the documents' }).waitFor();
      expect(describeViolations(await axeViolations(boss.page))).toEqual([]);
      // Opened again: what they did, when, and their reason, not the decline page.
      await boss.page.reload();
      await boss.page
        .getByText(/^You rejected “Standing desks” on .+ and told Acme Purchasing why:$/)
        .waitFor();
      await boss.page.getByText('Over this quarter’s budget', { exact: true }).waitFor();
      expect(await boss.page.getByRole('heading', { name: 'You rejected the documents' }).count()).toBe(1);
      expect(describeViolations(await axeViolations(boss.page))).toEqual([]);
      await shot(boss.page, 'roles-4-rejected-again.png');
      expect(boss.problems).toEqual([]);
      await boss.close();

      const events = await eventually(async () => {
        const got = await suite.call('GET', `/bundles/${b.id}/events/`);
        return got.body.some((e: { kind: string }) => e.kind === 'ca') ? got.body : undefined;
      });
      expect(events.find((e: { kind: string }) => e.kind === 'rj').description).toBe(
        'Approver rejected the documents: Bea Boss: Over this quarter’s budget',
      );
      expect((await statusOf(b.id)).status).toBe('ca');
    },
    STEP,
  );
});
