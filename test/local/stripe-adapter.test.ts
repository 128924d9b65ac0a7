// The Stripe payment adapter with the official `stripe` package against a local HTTP stand-in
// of Stripe's API (infra/local/stripe-standin.ts): a Checkout Session whose payment transfers to
// the connected account, a declined card and a failed debit, webhooks verified with the signing
// secret, recorded once; full refunds (the transfer reversed) recorded once, by answer or webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { startStripeStandin, type TStripeStandin } from '#infra/local/stripe-standin';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createStripePaymentProvider } from '#shared/adapters/stripe/payment-provider';
import { systemClock } from '#shared/adapters/system';
import { ConflictError, ValidationError } from '#shared/domain/errors';
import { recordPaymentEvent } from '#shared/domain/payments/record-payment';
import { refundPayment } from '#shared/domain/payments/refund-payment';
import { startPayment } from '#shared/domain/payments/start-payment';
import type { TPaymentProvider } from '#shared/domain/ports/payments';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

const API_KEY = 'sk_test_standin';
const WEBHOOK_SECRET = 'whsec_standin';
const CONNECTED = 'acct_1StandinPayee';
const RETURN_URL = 'https://esign.example/payments/stripe/done';

let standin: TStripeStandin;
let stripe: TPaymentProvider;
let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
const deps = () => ({
  bundles: createBundleStore(runtime.db, runtime.config.tableName),
  accounts: createAccountStore(runtime.db, runtime.config.tableName),
  payments: stripe,
  clock: systemClock,
});

beforeAll(async () => {
  standin = await startStripeStandin({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
  stripe = createStripePaymentProvider({
    apiKey: API_KEY,
    webhookSecret: WEBHOOK_SECRET,
    returnUrl: RETURN_URL,
    host: standin.host,
    port: standin.port,
    protocol: 'http',
  });
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  await deps().accounts.setPayout(runtime.demo.accountId, { connectedAccountId: CONNECTED, currency: 'usd' });
  b64 = await aPdfB64();
});
afterAll(async () => {
  await runtime?.stop();
  await standin?.stop();
});

/** A sent bundle billing ann 25.00 usd: its id and ann's packet id. */
async function aPaidBundle(): Promise<{ id: string; packetId: string }> {
  const res = await call('POST', '/bundles/', {
    json: aBundle({ payment: { billed_to: 'ann', amount_due: 2500 } }, b64),
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, packetId: res.body.packets[0].id };
}

const lastEvent = () => standin.events.at(-1)!;
const kinds = async (id: string) =>
  ((await call('GET', `/bundles/${id}/events/`)).body as { kind: string }[]).map((e) => e.kind);

describe('Stripe payment adapter', () => {
  it('creates one Checkout Session per bundle whose payment transfers to the connected account', async () => {
    const b = await aPaidBundle();
    const session = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(session.reference).toMatch(/^cs_test_/);
    expect(session.checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_test_/);
    const metadata = { account_id: runtime.demo.accountId, bundle_id: b.id, packet_id: b.packetId };
    expect(standin.sessions.get(session.reference)).toMatchObject({
      mode: 'payment',
      status: 'open',
      amount_total: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      line_items_requested: [
        { price_data: { currency: 'usd', unit_amount: '2500', product_data: { name: expect.any(String) } } },
      ],
      payment_intent_data: { transfer_data: { destination: CONNECTED }, metadata },
      metadata,
      client_reference_id: b.id,
      success_url: RETURN_URL,
      cancel_url: `${RETURN_URL}?cancelled=1`,
    });
    const again = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(again).toEqual(session);
    expect([...standin.sessions.values()].filter((s) => s.client_reference_id === b.id)).toHaveLength(1);
    const got = await call('GET', `/bundles/${b.id}/`);
    expect(got.body.payment).toMatchObject({ status: 'due', reference: session.reference });
    expect((await kinds(b.id)).filter((k) => k === 'pi')).toHaveLength(1);
  });

  it('replays a retried create with the same idempotency key', async () => {
    const request = {
      accountId: 'a',
      bundleId: 'b-replay',
      packetId: 'p',
      amount: 100,
      currency: 'usd',
      paymentMethodTypes: ['card'],
      connectedAccountId: CONNECTED,
      idempotencyKey: 'k-replay',
      description: 'x',
    };
    const first = await stripe.start(request);
    expect(await stripe.start(request)).toEqual(first);
  });

  it('refuses to start a payment for a signer who is not billed', async () => {
    const b = await aPaidBundle();
    const bob = (await call('GET', `/bundles/${b.id}/`)).body.packets[1].id;
    await expect(startPayment(deps(), runtime.demo.accountId, b.id, bob)).rejects.toThrow('nothing to pay');
  });

  it('records a paid checkout once: a duplicated delivery changes nothing', async () => {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await standin.completeSession(reference, 'paid');
    const delivered = lastEvent();
    expect(JSON.parse(delivered.payload).type).toBe('checkout.session.completed');
    const parsed = await stripe.parseWebhook(delivered.payload, delivered.signature);
    expect(parsed).toMatchObject({
      outcome: 'paid',
      reference,
      accountId: runtime.demo.accountId,
      bundleId: b.id,
    });
    // The intent's own event names the intent, not the session: the payment ignores it.
    const intentEvent = standin.events.at(-2)!;
    const byIntent = await stripe.parseWebhook(intentEvent.payload, intentEvent.signature);
    expect(byIntent).toMatchObject({
      outcome: 'paid',
      reference: standin.sessions.get(reference)?.payment_intent,
    });
    const first = await recordPaymentEvent(deps(), parsed!);
    expect(first?.payment).toMatchObject({ status: 'paid', reference });
    const again = await stripe.parseWebhook(delivered.payload, delivered.signature);
    const second = await recordPaymentEvent(deps(), again!);
    expect(second?.version).toBe(first?.version);
    expect((await recordPaymentEvent(deps(), byIntent!))?.version).toBe(first?.version);
    expect((await kinds(b.id)).filter((k) => k === 'pp')).toHaveLength(1);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('paid');
    await expect(startPayment(deps(), runtime.demo.accountId, b.id, b.packetId)).rejects.toThrow(
      'paid already',
    );
  });

  it('records a card declined inside Checkout as failed, keeps the checkout open, and the signer pays on it', async () => {
    const b = await aPaidBundle();
    const session = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await standin.completeSession(session.reference, 'declined');
    const declined = lastEvent();
    expect(JSON.parse(declined.payload).type).toBe('payment_intent.payment_failed');
    const parsed = await stripe.parseWebhook(declined.payload, declined.signature);
    expect(parsed).toMatchObject({ outcome: 'failed', message: 'Your card was declined.', bundleId: b.id });
    // The event names the session's PaymentIntent, not the session: the metadata finds the bundle.
    expect(parsed?.reference).toMatch(/^pi_/);
    const failed = await recordPaymentEvent(deps(), parsed!);
    expect(failed?.payment).toMatchObject({ status: 'failed', reference: session.reference });
    expect((await recordPaymentEvent(deps(), parsed!))?.version).toBe(failed?.version);
    expect(await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId)).toEqual(session);
    await standin.completeSession(session.reference, 'paid');
    const paid = lastEvent();
    await recordPaymentEvent(deps(), (await stripe.parseWebhook(paid.payload, paid.signature))!);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('paid');
    // The decline delivered again, late: the payment stays paid.
    const late = await recordPaymentEvent(
      deps(),
      (await stripe.parseWebhook(declined.payload, standin.sign(declined.payload)))!,
    );
    expect(late?.payment?.status).toBe('paid');
    const k = await kinds(b.id);
    expect(k.filter((x) => x === 'pf')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);
  });

  it('records a failed debit, then starts a new checkout, and a late failure never undoes the payment', async () => {
    const b = await aPaidBundle();
    const first = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await standin.completeSession(first.reference, 'failed');
    const failedEvent = lastEvent();
    expect(JSON.parse(failedEvent.payload).type).toBe('checkout.session.async_payment_failed');
    const failed = await stripe.parseWebhook(failedEvent.payload, failedEvent.signature);
    expect(failed).toMatchObject({ outcome: 'failed', reference: first.reference });
    expect((await recordPaymentEvent(deps(), failed!))?.payment?.status).toBe('failed');

    const next = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(next.reference).not.toBe(first.reference);
    expect(next.checkoutUrl).toContain(next.reference);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.reference).toBe(next.reference);
    await standin.completeSession(next.reference, 'paid');
    const paidEvent = lastEvent();
    await recordPaymentEvent(deps(), (await stripe.parseWebhook(paidEvent.payload, paidEvent.signature))!);
    const late = await recordPaymentEvent(
      deps(),
      (await stripe.parseWebhook(failedEvent.payload, failedEvent.signature))!,
    );
    expect(late?.payment?.status).toBe('paid');
    const k = await kinds(b.id);
    expect(k.filter((x) => x === 'pf')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);
  });

  /** A bundle paid through Checkout, its payment recorded: its id, packet and session. */
  async function aPaidCheckout() {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await standin.completeSession(reference, 'paid');
    const paid = lastEvent();
    await recordPaymentEvent(deps(), (await stripe.parseWebhook(paid.payload, paid.signature))!);
    const intent = String(standin.sessions.get(reference)?.payment_intent);
    return { ...b, reference, intent };
  }
  const eventOf = (type: string) => standin.events.findLast((e) => JSON.parse(e.payload).type === type)!;

  it('refunds a paid checkout in full, taking the transfer back; the refund webhook then changes nothing', async () => {
    const b = await aPaidCheckout();
    const done = await refundPayment(deps(), runtime.demo.accountId, b.id);
    expect(done.refund).toMatchObject({ id: expect.stringMatching(/^re_/), status: 'succeeded' });
    expect(done.bundle.payment).toMatchObject({ status: 'refunded', reference: b.reference });
    expect(standin.refunds.get(done.refund!.id)).toMatchObject({
      payment_intent: b.intent,
      amount: 2500,
      status: 'succeeded',
      transfer_reversal: expect.stringMatching(/^trr_/),
      metadata: { account_id: runtime.demo.accountId, bundle_id: b.id, packet_id: b.packetId },
    });

    const refunded = eventOf('charge.refunded');
    const parsed = await stripe.parseWebhook(refunded.payload, refunded.signature);
    expect(parsed).toMatchObject({
      outcome: 'refunded',
      reference: b.intent,
      accountId: runtime.demo.accountId,
      bundleId: b.id,
    });
    expect((await recordPaymentEvent(deps(), parsed!))?.version).toBe(done.bundle.version);

    // Again: nothing asked of Stripe, nothing recorded.
    const again = await refundPayment(deps(), runtime.demo.accountId, b.id);
    expect(again.refund).toBeUndefined();
    expect(again.bundle.version).toBe(done.bundle.version);
    expect([...standin.refunds.values()].filter((r) => r.payment_intent === b.intent)).toHaveLength(1);
    expect((await kinds(b.id)).filter((x) => x === 'pb')).toHaveLength(1);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('refunded');
    await expect(startPayment(deps(), runtime.demo.accountId, b.id, b.packetId)).rejects.toThrow('refunded');
  });

  it('records a pending refund when Stripe confirms it by webhook; asking again replays the same refund', async () => {
    const b = await aPaidCheckout();
    standin.refundStatus = 'pending';
    try {
      const asked = await refundPayment(deps(), runtime.demo.accountId, b.id);
      expect(asked.refund?.status).toBe('pending');
      expect(asked.bundle.payment?.status).toBe('paid');
      const replay = await refundPayment(deps(), runtime.demo.accountId, b.id);
      expect(replay.refund).toEqual(asked.refund);
      expect([...standin.refunds.values()].filter((r) => r.payment_intent === b.intent)).toHaveLength(1);
    } finally {
      standin.refundStatus = 'succeeded';
    }
    const refunded = eventOf('charge.refunded');
    const recorded = await recordPaymentEvent(
      deps(),
      (await stripe.parseWebhook(refunded.payload, refunded.signature))!,
    );
    expect(recorded?.payment?.status).toBe('refunded');
    expect((await kinds(b.id)).filter((x) => x === 'pb')).toHaveLength(1);
  });

  it('makes the payment paid again when the bank refuses the refund, once; a refusal of nothing changes nothing', async () => {
    const b = await aPaidCheckout();
    const done = await refundPayment(deps(), runtime.demo.accountId, b.id);
    expect(done.bundle.payment?.status).toBe('refunded');
    await standin.failRefund(done.refund!.id, 'expired_or_canceled_card');
    const failed = eventOf('refund.failed');
    const parsed = await stripe.parseWebhook(failed.payload, failed.signature);
    expect(parsed).toMatchObject({
      outcome: 'refund_failed',
      reference: b.intent,
      accountId: runtime.demo.accountId,
      bundleId: b.id,
      message: 'refund failed: expired_or_canceled_card',
    });
    const recorded = await recordPaymentEvent(deps(), parsed!);
    expect(recorded?.payment?.status).toBe('paid');
    expect((await kinds(b.id)).filter((x) => x === 'px')).toHaveLength(1);
    // The same event again, and a refusal for a payment that is not refunded: no change.
    expect((await recordPaymentEvent(deps(), parsed!))?.version).toBe(recorded?.version);
    expect((await recordPaymentEvent(deps(), { ...parsed!, id: 'evt_other_refusal' }))?.version).toBe(
      recorded?.version,
    );
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('paid');

    // The operator asks again: a new refund, not a replay of the refused one.
    const retried = await refundPayment(deps(), runtime.demo.accountId, b.id);
    expect(retried.refund?.id).toMatch(/^re_/);
    expect(retried.refund?.id).not.toBe(done.refund!.id);
    expect(retried.bundle.payment?.status).toBe('refunded');
    expect([...standin.refunds.values()].filter((r) => r.payment_intent === b.intent)).toHaveLength(2);
  });

  it("finds the bundle of a refund whose charge lacks metadata from its PaymentIntent's", async () => {
    const b = await aPaidCheckout();
    const payload = JSON.stringify({
      id: 'evt_refund_without_metadata',
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: {
          id: 'ch_dashboard',
          object: 'charge',
          refunded: true,
          amount_refunded: 2500,
          payment_intent: b.intent,
          metadata: {},
        },
      },
    });
    const parsed = await stripe.parseWebhook(payload, standin.sign(payload));
    expect(parsed).toMatchObject({ outcome: 'refunded', bundleId: b.id, reference: b.intent });
    // A partial refund leaves the bundle paid.
    const partial = payload.replace('"refunded":true', '"refunded":false');
    expect(await stripe.parseWebhook(partial, standin.sign(partial))).toBeUndefined();
  });

  it('refuses to refund a payment that is not paid, and records one refunded at Stripe already', async () => {
    const b = await aPaidBundle();
    await expect(refundPayment(deps(), runtime.demo.accountId, b.id)).rejects.toThrow(ConflictError);
    await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await expect(refundPayment(deps(), runtime.demo.accountId, b.id)).rejects.toThrow('this one is due');

    // Refunded at Stripe already (its Dashboard) and the webhook missed: the command records it.
    const paid = await aPaidCheckout();
    await stripe.refund({
      reference: paid.reference,
      accountId: runtime.demo.accountId,
      bundleId: paid.id,
      packetId: paid.packetId,
      idempotencyKey: `dashboard-${paid.id}`,
    });
    const done = await refundPayment(deps(), runtime.demo.accountId, paid.id);
    expect(done.refund?.status).toBe('succeeded');
    expect(done.bundle.payment?.status).toBe('refunded');
    expect([...standin.refunds.values()].filter((r) => r.payment_intent === paid.intent)).toHaveLength(1);
  });

  it('refuses a forged, tampered or stale webhook signature', async () => {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await standin.completeSession(reference, 'paid');
    const { payload, signature } = lastEvent();
    await expect(stripe.parseWebhook(payload, standin.sign(payload, 'whsec_forged'))).rejects.toThrow(
      ValidationError,
    );
    await expect(
      stripe.parseWebhook(payload.replace('"amount_total":2500', '"amount_total":1'), signature),
    ).rejects.toThrow(ValidationError);
    const stale = standin.sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
    await expect(stripe.parseWebhook(payload, stale)).rejects.toThrow(ValidationError);
    await expect(stripe.parseWebhook(payload, '')).rejects.toThrow(ValidationError);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('due');
  });

  it('passes on Stripe-shaped errors from the API', async () => {
    const bad = createStripePaymentProvider({
      apiKey: 'sk_test_wrong',
      webhookSecret: WEBHOOK_SECRET,
      returnUrl: RETURN_URL,
      host: standin.host,
      port: standin.port,
      protocol: 'http',
    });
    await expect(
      bad.start({
        accountId: 'a',
        bundleId: 'b',
        packetId: 'p',
        amount: 100,
        currency: 'usd',
        paymentMethodTypes: ['card'],
        connectedAccountId: CONNECTED,
        idempotencyKey: 'k-wrong-key',
        description: 'x',
      }),
    ).rejects.toMatchObject({ type: 'StripeAuthenticationError' });
  });
});
