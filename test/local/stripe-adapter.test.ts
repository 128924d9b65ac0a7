// The Stripe payment adapter with the official `stripe` package against a local HTTP stand-in
// of Stripe's API (infra/local/stripe-standin.ts): a PaymentIntent with the transfer to the
// connected account, a declined card, webhooks verified with the signing secret, recorded once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '../../infra/local/runtime';
import { startStripeStandin, type TStripeStandin } from '../../infra/local/stripe-standin';
import { createAccountStore } from '../../shared/adapters/dynamodb/account-store';
import { createBundleStore } from '../../shared/adapters/dynamodb/bundle-store';
import {
  createStripePaymentProvider,
  type TStripePaymentProvider,
} from '../../shared/adapters/stripe/payment-provider';
import { systemClock } from '../../shared/adapters/system';
import { ValidationError } from '../../shared/domain/errors';
import { PaymentDeclinedError } from '../../shared/domain/payments/payment-errors';
import { recordPaymentEvent } from '../../shared/domain/payments/record-payment';
import { startPayment } from '../../shared/domain/payments/start-payment';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

const API_KEY = 'sk_test_standin';
const WEBHOOK_SECRET = 'whsec_standin';
const CONNECTED = 'acct_1StandinPayee';

let standin: TStripeStandin;
let stripe: TStripePaymentProvider;
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
    host: standin.host,
    port: standin.port,
    protocol: 'http',
  });
  runtime = await startTestRuntime();
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
  it('creates one PaymentIntent per bundle with the transfer to the connected account', async () => {
    const b = await aPaidBundle();
    const session = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(session.reference).toMatch(/^pi_/);
    expect(session.clientSecret).toMatch(new RegExp(`^${session.reference}_secret_`));
    expect(standin.intents.get(session.reference)).toMatchObject({
      amount: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      transfer_data: { destination: CONNECTED },
      metadata: { account_id: runtime.demo.accountId, bundle_id: b.id, packet_id: b.packetId },
    });
    const again = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(again.reference).toBe(session.reference);
    expect(standin.intents.size).toBe(1);
    const got = await call('GET', `/bundles/${b.id}/`);
    expect(got.body.payment).toMatchObject({ status: 'due', reference: session.reference });
    expect((await kinds(b.id)).filter((k) => k === 'pi')).toHaveLength(1);
  });

  it('refuses to start a payment for a signer who is not billed', async () => {
    const b = await aPaidBundle();
    const bob = (await call('GET', `/bundles/${b.id}/`)).body.packets[1].id;
    await expect(startPayment(deps(), runtime.demo.accountId, b.id, bob)).rejects.toThrow('nothing to pay');
  });

  it('records a paid webhook once: a duplicated delivery changes nothing', async () => {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    expect(await stripe.confirm(reference, 'pm_card_visa')).toBe('succeeded');
    const delivered = lastEvent();
    const parsed = stripe.parseWebhook(delivered.payload, delivered.signature);
    expect(parsed).toMatchObject({
      outcome: 'paid',
      reference,
      accountId: runtime.demo.accountId,
      bundleId: b.id,
    });
    const first = await recordPaymentEvent(deps(), parsed!);
    expect(first?.payment).toMatchObject({ status: 'paid', reference });
    const again = stripe.parseWebhook(delivered.payload, delivered.signature);
    const second = await recordPaymentEvent(deps(), again!);
    expect(second?.version).toBe(first?.version);
    expect((await kinds(b.id)).filter((k) => k === 'pp')).toHaveLength(1);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('paid');
    await expect(startPayment(deps(), runtime.demo.accountId, b.id, b.packetId)).rejects.toThrow(
      'paid already',
    );
  });

  it('reports a declined card, records the failure, and lets the signer pay after', async () => {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    const declined = await stripe.confirm(reference, 'pm_card_chargeDeclined').catch((e: unknown) => e);
    expect(declined).toBeInstanceOf(PaymentDeclinedError);
    expect(declined).toMatchObject({ code: 'card_declined', message: 'Your card was declined.', reference });
    const failedEvent = lastEvent();
    const failed = stripe.parseWebhook(failedEvent.payload, failedEvent.signature);
    expect(failed).toMatchObject({ outcome: 'failed', reference, message: 'Your card was declined.' });
    expect((await recordPaymentEvent(deps(), failed!))?.payment?.status).toBe('failed');

    expect(await stripe.confirm(reference, 'pm_card_visa')).toBe('succeeded');
    const paidEvent = lastEvent();
    await recordPaymentEvent(deps(), stripe.parseWebhook(paidEvent.payload, paidEvent.signature)!);
    // The failure delivered late changes nothing once paid.
    const late = await recordPaymentEvent(
      deps(),
      stripe.parseWebhook(failedEvent.payload, failedEvent.signature)!,
    );
    expect(late?.payment?.status).toBe('paid');
    const k = await kinds(b.id);
    expect(k.filter((x) => x === 'pf')).toHaveLength(1);
    expect(k.filter((x) => x === 'pp')).toHaveLength(1);
  });

  it('refuses a forged, tampered or stale webhook signature', async () => {
    const b = await aPaidBundle();
    const { reference } = await startPayment(deps(), runtime.demo.accountId, b.id, b.packetId);
    await stripe.confirm(reference, 'pm_card_visa');
    const { payload, signature } = lastEvent();
    expect(() => stripe.parseWebhook(payload, standin.sign(payload, 'whsec_forged'))).toThrow(
      ValidationError,
    );
    expect(() => stripe.parseWebhook(payload.replace('"amount":2500', '"amount":1'), signature)).toThrow(
      ValidationError,
    );
    const stale = standin.sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600);
    expect(() => stripe.parseWebhook(payload, stale)).toThrow(ValidationError);
    expect(() => stripe.parseWebhook(payload, '')).toThrow(ValidationError);
    expect((await call('GET', `/bundles/${b.id}/`)).body.payment.status).toBe('due');
  });

  it('passes on Stripe-shaped errors from the API', async () => {
    const bad = createStripePaymentProvider({
      apiKey: 'sk_test_wrong',
      webhookSecret: WEBHOOK_SECRET,
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
