// Paying while signing, in a real headless Chromium against the whole local runtime: the billed
// signer pays on the local provider's test checkout page (a new tab) and then finishes; the other
// signer is never asked to pay; a refunded payment shows as such. Screenshots go to test-artifacts/.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { ARTIFACTS, runBrowser, shot, watchProblems } from '../helpers/browser';
import { browserSuite } from '../helpers/browser-suite';

const suite = browserSuite({
  pdf: [
    {
      size: 'Letter',
      text: [
        { value: 'Storage unit rental', x: 72, y: 720, size: 20 },
        { value: 'Tenant signature:', x: 72, y: 265, size: 11 },
        { value: 'Guarantor signature:', x: 340, y: 265, size: 11 },
      ],
    },
  ],
});

beforeAll(async () => {
  await createAccountStore(suite.runtime.db, suite.runtime.config.tableName).setPayout(
    suite.runtime.demo.accountId,
    { connectedAccountId: 'acct_1E2ePayee', currency: 'usd' },
  );
});

async function newPage() {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  return { context, page, problems: watchProblems(page) };
}

/** Opens the signer's only field, types the signature, and ticks the consent. */
async function typeSignature(page: Page) {
  await page.locator('.page.rendered').first().waitFor();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
  await page.getByRole('tab', { name: 'Type' }).click();
  await page.getByRole('button', { name: 'Apply signature' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByLabel(/I agree to sign these documents electronically/).check();
}

describe.skipIf(!runBrowser)('paying while signing (browser)', () => {
  it('the billed signer pays on the test checkout and finishes; the other signer is never asked', async () => {
    const created = await suite.sentBundle({
      label: 'Storage unit rental',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann.pay@example.com' },
        { key: 'gus', name: 'Gus Guarantor', email: 'gus.pay@example.com' },
      ],
      document: 'rental',
      fields: [
        { key: 'ann_sig', kind: 'sig', page: 1, x: 11, y: 68, w: 30, h: 7, editors: ['ann'], required: true },
        { key: 'gus_sig', kind: 'sig', page: 1, x: 55, y: 68, w: 30, h: 7, editors: ['gus'], required: true },
      ],
      payment: { billed_to: 'ann', amount_due: 2500 },
    });
    const id = created.id;

    // ---- Gus: not billed; signs and finishes without a payment step.
    const gus = await newPage();
    await gus.page.goto(await suite.inbox.emailedLink('gus.pay@example.com'));
    await gus.page.getByRole('heading', { name: 'Storage unit rental' }).waitFor();
    await typeSignature(gus.page);
    expect(await gus.page.locator('#payment').count()).toBe(0);
    await gus.page.getByRole('button', { name: 'Finish signing' }).click();
    await gus.page.getByRole('heading', { name: 'You’re done' }).waitFor();
    expect(gus.problems).toEqual([]);
    await gus.context.close();

    // ---- Ann: billed; finishing waits for the payment.
    const ann = await newPage();
    await ann.page.goto(await suite.inbox.emailedLink('ann.pay@example.com'));
    await ann.page.getByRole('heading', { name: 'Storage unit rental' }).waitFor();
    await ann.page.getByText('$25.00 is due before you finish.').waitFor();
    await typeSignature(ann.page);
    await ann.page.getByRole('button', { name: 'Finish signing' }).click();
    await ann.page.getByText('Pay first: the payment is due before you finish.').waitFor();
    await shot(ann.page, 'payment-1-due.png');

    const opened = ann.context.waitForEvent('page');
    await ann.page.getByRole('button', { name: 'Pay $25.00' }).click();
    const checkout = await opened;
    await checkout.getByRole('heading', { name: 'Test checkout' }).waitFor();
    await checkout.getByText('25.00 USD').waitFor();
    await shot(checkout, 'payment-2-checkout.png');
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
    await checkout.getByRole('heading', { name: 'Payment received' }).waitFor();
    await checkout.close();

    await ann.page.getByText('Paid: $25.00. Thank you.').waitFor({ timeout: 15_000 });
    await ann.page.getByRole('button', { name: 'Finish signing' }).click();
    await ann.page.getByRole('heading', { name: 'You’re done' }).waitFor();
    await shot(ann.page, 'payment-3-done.png');
    expect(ann.problems).toEqual([]);
    await ann.context.close();

    const bundle = (await suite.call('GET', `/bundles/${id}/?include=events`)).body;
    expect(bundle.payment).toMatchObject({ status: 'paid', reference: expect.stringMatching(/^pi_local_/) });
    expect(bundle.packets.map((p: { status: string }) => p.status)).toEqual(['co', 'co']);
    const kinds = bundle.events.map((e: { kind: string }) => e.kind);
    expect(kinds.filter((k: string) => k === 'pi')).toHaveLength(1);
    expect(kinds.filter((k: string) => k === 'pp')).toHaveLength(1);
  }, 120_000);

  it('shows a refunded payment as refunded, with nothing to pay', async () => {
    const created = await suite.sentBundle({
      label: 'Refunded rental',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann.refund@example.com' }],
      document: 'rental',
      fields: [{ key: 'ann_sig', kind: 'sig', page: 1, x: 11, y: 68, w: 30, h: 7, editors: ['ann'] }],
      payment: { billed_to: 'ann', amount_due: 2500 },
    });
    const id = created.id;
    const ann = await newPage();
    await ann.page.goto(await suite.inbox.emailedLink('ann.refund@example.com'));
    const opened = ann.context.waitForEvent('page');
    await ann.page.getByRole('button', { name: 'Pay $25.00' }).click();
    const checkout = await opened;
    await checkout.getByRole('button', { name: 'Pay', exact: true }).click();
    await checkout.getByRole('heading', { name: 'Payment received' }).waitFor();
    await checkout.close();
    await ann.page.getByText('Paid: $25.00. Thank you.').waitFor({ timeout: 15_000 });

    // Stripe reports the refund (made by the operator, or on its Dashboard).
    const { reference } = (await suite.call('GET', `/bundles/${id}/`)).body.payment;
    const payload = JSON.stringify({
      id: 'evt_e2e_refund',
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: {
          id: 'ch_e2e',
          object: 'charge',
          refunded: true,
          payment_intent: reference,
          metadata: { account_id: suite.runtime.demo.accountId, bundle_id: id },
        },
      },
    });
    const secret = (suite.runtime.config.payments as { webhookSecret: string }).webhookSecret;
    const t = Math.floor(Date.now() / 1000);
    const hook = await fetch(`${suite.runtime.baseUrl}/payments/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`,
      },
      body: payload,
    });
    expect(hook.status).toBe(200);

    await ann.page.reload();
    await ann.page.getByText('Your payment of $25.00 was refunded. Contact the sender.').waitFor();
    expect(await ann.page.locator('#pay-button').count()).toBe(0);
    await ann.page.locator('#payment').screenshot({ path: join(ARTIFACTS, 'payment-4-refunded.png') });
    expect(ann.problems).toEqual([]);
    await ann.context.close();
  }, 120_000);
});
