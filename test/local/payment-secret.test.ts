// Stripe's keys as the signing function reads them on AWS (the secret esign-<stage>-stripe-keys,
// STRIPE_SECRET_ID), from a small HTTP stand-in of Secrets Manager's GetSecretValue: a secret left
// empty (as the stack creates it), blank, incomplete or unreadable answers a clear 503 that says
// payments are not configured, never a 500; once the operator stores the keys, payments work
// without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createPaymentProviderSource } from '#shared/adapters/payments/payment-provider';
import type { TConfig } from '#shared/config';
import { ServiceUnavailableError } from '#shared/domain/errors';
import { toHttpError } from '#shared/http/error-mapping';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { startSecretsManager, type TSecretsManagerStandin } from '../helpers/secrets-manager';
import { openSession, signerClient } from '../helpers/signer';

const SECRET_ID = 'esign-test-stripe-keys';

let sm: TSecretsManagerStandin;
beforeAll(async () => {
  sm = await startSecretsManager(SECRET_ID);
});
afterAll(() => sm?.stop());

const configFor = (endpoint: string): TConfig => ({
  stage: 'test',
  region: 'us-east-1',
  tableName: 't',
  bucketName: '',
  usagePlanId: '',
  logLevel: 'silent',
  endpoints: { secretsmanager: endpoint },
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  payments: { kind: 'stripe', secretId: SECRET_ID },
});

describe('reading the Stripe keys secret', () => {
  it.each([
    ['without a value', undefined],
    ['blank', ''],
    ['an empty object', '{}'],
    ['without the webhook secret', '{"apiKey":"sk_test_1"}'],
    ['without the API key', '{"webhookSecret":"whsec_1"}'],
    ['with blank keys', '{"apiKey":" ","webhookSecret":""}'],
    ['not JSON', 'sk_test_1'],
    ['JSON null', 'null'],
  ])('answers 503 "not configured" for a secret %s', async (_, value) => {
    sm.state.value = value;
    const source = createPaymentProviderSource(configFor(sm.endpoint))!;
    const err = await source.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    const http = toHttpError(err);
    expect(http).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(http.message).toContain('Payments are not configured by the operator');
    expect(http.message).not.toContain('sk_test_1');
  });

  it('answers 503 when Secrets Manager cannot be reached', async () => {
    const closed = await startSecretsManager(SECRET_ID);
    await closed.stop();
    const source = createPaymentProviderSource(configFor(closed.endpoint))!;
    const err = await source.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(toHttpError(err)).toMatchObject({
      status: 503,
      message: expect.stringContaining('could not be read'),
    });
  });

  it('reads the secret again after a failure: storing the keys is enough', async () => {
    sm.state.value = '';
    const source = createPaymentProviderSource(configFor(sm.endpoint))!;
    await expect(source.get()).rejects.toThrow(ServiceUnavailableError);
    sm.state.value = JSON.stringify({ apiKey: 'sk_test_now', webhookSecret: 'whsec_now' });
    const provider = await source.get();
    expect(typeof provider.refund).toBe('function');
    const calls = sm.state.calls;
    // Kept once made: one read per Lambda instance.
    expect(await source.get()).toBe(provider);
    expect(sm.state.calls).toBe(calls);
  });
});

describe('the signing function with the Stripe keys secret left empty', () => {
  let runtime: TRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({
      stripeKeys: { secretsManagerEndpoint: sm.endpoint, secretId: SECRET_ID },
    });
  }, 60_000);
  afterAll(() => runtime?.stop());

  it("answers Stripe's webhook 503 with the error body (Stripe retries it), and the signer's payment step too", async () => {
    sm.state.value = undefined;
    const hook = await fetch(`${runtime.baseUrl}/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{"id":"evt_1","object":"event","type":"charge.refunded","data":{"object":{}}}',
    });
    expect(hook.status).toBe(503);
    const body = await hook.json();
    expect(isErrorBody(body)).toBe(true);
    expect(body).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringContaining('Payments are not configured by the operator'),
    });

    sm.state.value = '{"apiKey":"sk_test_only"}';
    const call = apiClient(runtime);
    await createAccountStore(runtime.db, runtime.config.tableName).setPayout(runtime.demo.accountId, {
      connectedAccountId: 'acct_1Secret',
      currency: 'usd',
    });
    const created = await call('POST', '/bundles/', {
      json: {
        ...aBundle({ payment: { billed_to: 'ann', amount_due: 2500 } }, await aPdfB64()),
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const sign = signerClient(runtime);
    const ann = await openSession(sign, call, created.body.packets[0].id);
    const pay = await sign('POST', '/payment', ann);
    expect(pay.status).toBe(503);
    expect(isErrorBody(pay.body)).toBe(true);
    expect(pay.body.message).toContain('Payments are not configured by the operator');
    expect(JSON.stringify(pay.body)).not.toContain('sk_test_only');
  });
});
