// Bundle payments at create: the account's payout settings, the checks on `payment`, and how the
// Bundle shows it.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
/** The demo account: payout settings in usd. */
let paid: ReturnType<typeof apiClient>;
/** An account without payout settings. */
let unpaid: ReturnType<typeof apiClient>;
let b64: string;
let sign: ReturnType<typeof signerClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  const accounts = createAccountStore(runtime.db, runtime.config.tableName);
  await accounts.setPayout(runtime.demo.accountId, {
    connectedAccountId: 'acct_1PayoutDemo42',
    currency: 'usd',
  });
  paid = apiClient(runtime);
  sign = signerClient(runtime);
  unpaid = apiClient(runtime, (await runtime.seedAccount('No Payout Co', 'ops@nopayout.test')).apiKey);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

const fieldsOf = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);

describe('payment on create', () => {
  it('is refused on `payment` when the account has no payout settings', async () => {
    const res = await unpaid('POST', '/bundles/', {
      json: aBundle({ payment: { billed_to: 'ann', amount_due: 2500 } }, b64),
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res.body)).toEqual(['payment']);
    expect(res.text).toContain('no payout settings');
  });

  it('shows the payment with the payout currency, due, without a reference', async () => {
    const res = await paid('POST', '/bundles/', {
      json: aBundle({ payment: { billed_to: 'ann', amount_due: 2500 } }, b64),
    });
    expect(res.status, res.text).toBe(201);
    const expected = {
      billed_to: 'ann',
      amount_due: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      status: 'due',
      reference: null,
    };
    expect(res.body.payment).toEqual(expected);
    expect(res.text).not.toContain('acct_1PayoutDemo42');
    const got = await paid('GET', `/bundles/${res.body.id}/`);
    expect(got.body.payment).toEqual(expected);
  });

  it('keeps documented payment methods, once each', async () => {
    const res = await paid('POST', '/bundles/', {
      json: aBundle(
        {
          payment: {
            billed_to: 'bob',
            amount_due: 1,
            payment_method_types: ['us_bank_account', 'card', 'card'],
          },
        },
        b64,
      ),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.payment).toMatchObject({
      billed_to: 'bob',
      amount_due: 1,
      payment_method_types: ['us_bank_account', 'card'],
    });
  });

  it.each([
    [{ billed_to: 'zed', amount_due: 100 }, 'payment.billed_to'],
    [{ billed_to: 'ann', amount_due: 0 }, 'payment.amount_due'],
    [{ billed_to: 'ann', amount_due: -5 }, 'payment.amount_due'],
    [{ billed_to: 'ann', amount_due: 1.5 }, 'payment.amount_due'],
    [{ billed_to: 'ann', amount_due: 100_000_000 }, 'payment.amount_due'],
    [{ billed_to: 'ann' }, 'payment.amount_due'],
    [
      { billed_to: 'ann', amount_due: 100, payment_method_types: ['bitcoin'] },
      'payment.payment_method_types[0]',
    ],
    [{ billed_to: 'ann', amount_due: 100, payment_method_types: [] }, 'payment.payment_method_types'],
    // sepa_debit takes only eur; the payout currency is usd.
    [
      { billed_to: 'ann', amount_due: 100, payment_method_types: ['sepa_debit'] },
      'payment.payment_method_types',
    ],
  ])('refuses %j on %s', async (payment, field) => {
    const res = await paid('POST', '/bundles/', { json: aBundle({ payment }, b64) });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res.body)).toContain(field);
  });
});

// ---------------------------------------------------------------------------------------------
// Paying while signing, with the local provider and its test checkout page.

const PNG = PNG_DATA_URL;
const sessionFor = (packetId: string) => openSession(sign, paid, packetId);

/** A sent bundle with ann billed 25.00 and a signature for each signer. */
async function aSignedBundle() {
  const res = await paid('POST', '/bundles/', {
    json: {
      label: 'Lease with deposit',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
      documents: [
        {
          key: 'lease',
          file_b64: b64,
          fields: [
            { key: 'ann_sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] },
            { key: 'bob_sig', kind: 'sig', page: 1, x: 50, y: 70, w: 30, h: 5, editors: ['bob'] },
          ],
        },
      ],
      payment: { billed_to: 'ann', amount_due: 2500 },
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; packets: { id: string }[] };
}

const kinds = async (id: string) =>
  ((await paid('GET', `/bundles/${id}/events/`)).body as { kind: string }[]).map((e) => e.kind);

/** Submits the test checkout's form as the browser would. */
const submit = (checkoutUrl: string, outcome: 'paid' | 'failed') =>
  fetch(`${checkoutUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `outcome=${outcome}`,
  });

describe('paying while signing', () => {
  it('asks only the billed signer to pay, and lets them finish once paid', async () => {
    const b = await aSignedBundle();
    const [annPacket, bobPacket] = b.packets.map((p) => p.id);

    const bob = await sessionFor(bobPacket!);
    expect((await sign('GET', '/state', bob)).body.payment).toBeNull();
    expect((await sign('POST', '/payment', bob)).status).toBe(403);
    await sign('PUT', '/values', bob, { values: [{ doc_key: 'lease', field_key: 'bob_sig', image: PNG }] });
    expect((await sign('POST', '/complete', bob, { consent: true })).status).toBe(200);

    const ann = await sessionFor(annPacket!);
    expect((await sign('GET', '/state', ann)).body.payment).toEqual({
      required: true,
      status: 'due',
      amount_due: 2500,
      currency: 'usd',
    });
    await sign('PUT', '/values', ann, { values: [{ doc_key: 'lease', field_key: 'ann_sig', image: PNG }] });
    const early = await sign('POST', '/complete', ann, { consent: true });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('must be paid');

    const started = await sign('POST', '/payment', ann);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      reference: expect.stringMatching(/^pi_local_/),
      client_secret: null,
    });
    const checkoutUrl = started.body.checkout_url as string;
    expect(checkoutUrl).toMatch(/\/payments\/local\/checkout\//);
    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('25.00 USD');
    expect((await fetch(`${checkoutUrl}x`)).status).toBe(404);

    expect((await submit(checkoutUrl, 'failed')).status).toBe(402);
    expect((await sign('GET', '/state', ann)).body.payment).toMatchObject({
      required: true,
      status: 'failed',
    });
    expect((await submit(checkoutUrl, 'paid')).status).toBe(200);
    // Paying again (a repeated event) changes nothing.
    expect((await submit(checkoutUrl, 'paid')).status).toBe(200);
    expect((await sign('GET', '/state', ann)).body.payment).toMatchObject({
      required: false,
      status: 'paid',
    });
    const again = await sign('POST', '/payment', ann);
    expect(again.status).toBe(409);

    const done = await sign('POST', '/complete', ann, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const bundle = (await paid('GET', `/bundles/${b.id}/`)).body;
    expect(bundle.status).toBe('co');
    expect(bundle.payment).toMatchObject({ status: 'paid', reference: started.body.reference });
    const k = await kinds(b.id);
    expect(k.filter((x) => x === 'pi')).toHaveLength(1);
    expect(k.filter((x) => x === 'pf')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);

    // The billed signer's Certificate of Evidence shows the payment; the other signer's does not.
    await eventually(
      async () => ((await paid('GET', `/bundles/${b.id}/`)).body.docs_ready ? true : undefined),
      60_000,
      'documents ready',
    );
    const coeText = async (packetId: string) => {
      const coe = await paid('GET', `/packets/${packetId}/coe/`);
      expect(coe.status, coe.text).toBe(200);
      const file = join(mkdtempSync(join(tmpdir(), 'payments-coe-')), 'coe.pdf');
      writeFileSync(file, Buffer.from(await (await fetch(coe.body.file_url)).arrayBuffer()));
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    };
    const annCoe = await coeText(annPacket!);
    expect(annCoe).toContain('Payment started');
    expect(annCoe).toContain('Payment received');
    expect(annCoe).toContain(started.body.reference);
    expect(await coeText(bobPacket!)).not.toContain('Payment');
  }, 90_000);

  it('takes the webhook once with a valid signature and refuses a forged one (400)', async () => {
    const b = await aSignedBundle();
    const ann = await sessionFor(b.packets[0]!.id);
    const { reference } = (await sign('POST', '/payment', ann)).body;
    const payload = JSON.stringify({
      id: 'evt_test_duplicate',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: reference,
          object: 'payment_intent',
          metadata: { account_id: runtime.demo.accountId, bundle_id: b.id },
        },
      },
    });
    const secret = (runtime.config.payments as { webhookSecret: string }).webhookSecret;
    const signWith = (s: string) => {
      const t = Math.floor(Date.now() / 1000);
      return `t=${t},v1=${createHmac('sha256', s).update(`${t}.${payload}`).digest('hex')}`;
    };
    const deliver = (signature: string, body = payload) =>
      fetch(`${runtime.baseUrl}/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      });

    const forged = await deliver(signWith('whsec_forged'));
    expect(forged.status).toBe(400);
    expect((await deliver(signWith(secret), payload.replace(reference, 'pi_other'))).status).toBe(400);
    expect((await paid('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('due');

    expect((await deliver(signWith(secret))).status).toBe(200);
    const after = (await paid('GET', `/bundles/${b.id}/`)).body;
    expect((await deliver(signWith(secret))).status).toBe(200);
    expect(after.payment.status).toBe('paid');
    expect((await kinds(b.id)).filter((x) => x === 'pp')).toHaveLength(1);
  });

  it("shows Stripe Checkout's return page, paid or cancelled, without a key", async () => {
    const done = await fetch(`${runtime.baseUrl}/payments/stripe/done`);
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toContain('text/html');
    expect(await done.text()).toContain('id="done"');
    const cancelled = await fetch(`${runtime.baseUrl}/payments/stripe/done?cancelled=1`);
    expect(await cancelled.text()).toContain('id="cancelled"');
  });
});

// ---------------------------------------------------------------------------------------------
// What the processor reports after the signer paid, or while they try: refunds, declines.

describe('refunds and failures reported by webhook', () => {
  const secret = () => (runtime.config.payments as { webhookSecret: string }).webhookSecret;
  let n = 0;
  /** A Stripe-shaped event about bundle `id`, signed with the runtime's webhook secret. */
  const deliver = async (id: string, type: string, object: Record<string, unknown>, eventId?: string) => {
    const payload = JSON.stringify({
      id: eventId ?? `evt_http_${Date.now()}_${n++}`,
      object: 'event',
      type,
      data: {
        object: { ...object, metadata: { account_id: runtime.demo.accountId, bundle_id: id } },
      },
    });
    const t = Math.floor(Date.now() / 1000);
    const res = await fetch(`${runtime.baseUrl}/payments/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${t},v1=${createHmac('sha256', secret()).update(`${t}.${payload}`).digest('hex')}`,
      },
      body: payload,
    });
    expect(res.status, await res.text()).toBe(200);
  };
  const intent = (reference: string, status: string) => ({ id: reference, object: 'payment_intent', status });
  const refundOf = (reference: string, refunded = true) => ({
    id: 'ch_http',
    object: 'charge',
    refunded,
    amount_refunded: refunded ? 2500 : 100,
    payment_intent: reference,
  });
  const paymentOf = async (id: string) => (await paid('GET', `/bundles/${id}/`)).body.payment;

  /** A bundle whose billed signer started paying: its id, the reference and ann's session. */
  async function aStartedPayment() {
    const b = await aSignedBundle();
    const ann = await sessionFor(b.packets[0]!.id);
    const { reference } = (await sign('POST', '/payment', ann)).body;
    return { id: b.id, reference: reference as string, ann };
  }

  it('records a full refund once: refunded is final, a repeated or late event changes nothing', async () => {
    const { id, reference, ann } = await aStartedPayment();
    await deliver(id, 'payment_intent.succeeded', intent(reference, 'succeeded'));
    expect((await paymentOf(id)).status).toBe('paid');

    // A partial refund leaves the bundle paid.
    await deliver(id, 'charge.refunded', refundOf(reference, false));
    expect((await paymentOf(id)).status).toBe('paid');

    await deliver(id, 'charge.refunded', refundOf(reference), 'evt_http_refund_once');
    expect(await paymentOf(id)).toMatchObject({ status: 'refunded', reference });
    await deliver(id, 'charge.refunded', refundOf(reference), 'evt_http_refund_once');
    await deliver(id, 'charge.refunded', refundOf(reference));
    await deliver(id, 'payment_intent.succeeded', intent(reference, 'succeeded'));
    await deliver(id, 'payment_intent.payment_failed', intent(reference, 'requires_payment_method'));
    expect((await paymentOf(id)).status).toBe('refunded');
    const k = await kinds(id);
    expect(k.filter((x) => x === 'pb')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);
    expect(k.filter((x) => x === 'pf')).toHaveLength(0);

    // The signer sees it, cannot pay again, and cannot finish.
    expect((await sign('GET', '/state', ann)).body.payment).toMatchObject({ status: 'refunded' });
    const again = await sign('POST', '/payment', ann);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('refunded');
  });

  it('takes a refund whose event overtakes the payment: the later payment event changes nothing', async () => {
    const { id, reference } = await aStartedPayment();
    await deliver(id, 'charge.refunded', refundOf(reference));
    await deliver(id, 'payment_intent.succeeded', intent(reference, 'succeeded'));
    expect((await paymentOf(id)).status).toBe('refunded');
  });

  it('ignores a refund for a bundle whose signer never started paying', async () => {
    const b = await aSignedBundle();
    await deliver(b.id, 'charge.refunded', refundOf('pi_unknown'));
    expect(await paymentOf(b.id)).toMatchObject({ status: 'due', reference: null });
    expect(await kinds(b.id)).not.toContain('pb');
  });

  it("records a card declined on Checkout's page (an event about its PaymentIntent), then the payment", async () => {
    const { id, ann } = await aStartedPayment();
    // Checkout's intent has an id of its own, not the bundle's reference: the metadata finds it.
    await deliver(id, 'payment_intent.payment_failed', {
      ...intent('pi_checkout_declined', 'requires_payment_method'),
      last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
    });
    expect((await paymentOf(id)).status).toBe('failed');
    expect((await sign('GET', '/state', ann)).body.payment).toMatchObject({
      required: true,
      status: 'failed',
    });
    const events = (await paid('GET', `/bundles/${id}/events/`)).body as {
      kind: string;
      description: string;
    }[];
    expect(events.find((e) => e.kind === 'pf')?.description).toContain('Your card was declined.');

    await deliver(id, 'payment_intent.succeeded', intent('pi_checkout_declined', 'succeeded'));
    expect((await paymentOf(id)).status).toBe('paid');
    // The decline delivered late changes nothing.
    await deliver(
      id,
      'payment_intent.payment_failed',
      intent('pi_checkout_declined', 'requires_payment_method'),
    );
    expect((await paymentOf(id)).status).toBe('paid');
    const k = await kinds(id);
    expect(k.filter((x) => x === 'pf')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);
    expect((await sign('GET', '/state', ann)).body.payment).toMatchObject({
      required: false,
      status: 'paid',
    });
  });
});
