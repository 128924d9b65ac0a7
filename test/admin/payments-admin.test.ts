import { beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../helpers/admin-cli';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { runtimeOnDisk } from '../helpers/runtime-on-disk';
import { openSession, signerClient } from '../helpers/signer';

const onDisk = runtimeOnDisk('admin-payments-');

const STACK_TRACE = /\n\s+at /;

let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let b64: string;
let accountId: string;

beforeAll(async () => {
  call = apiClient(onDisk.runtime);
  sign = signerClient(onDisk.runtime);
  accountId = onDisk.runtime.demo.accountId;
  b64 = await aPdfB64();
}, 60_000);

/** A sent bundle billing ann 25.00, ann signing embedded. */
async function aBilledBundle() {
  return call('POST', '/bundles/', {
    json: {
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
      documents: [
        {
          key: 'lease',
          file_b64: b64,
          fields: [{ key: 'ann_sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }],
        },
      ],
      payment: { billed_to: 'ann', amount_due: 2500 },
    },
  });
}

const kinds = async (id: string) =>
  ((await call('GET', `/bundles/${id}/events/`)).body as { kind: string }[]).map((e) => e.kind);

describe('clear-payout', () => {
  it('removes the payout settings: new bundles with a payment are refused, existing ones keep theirs', async () => {
    await onDisk.ok(
      'set-payout',
      '--account',
      accountId,
      '--connected-account',
      'acct_1AdminPay',
      '--currency',
      'usd',
    );
    const before = await aBilledBundle();
    expect(before.status, before.text).toBe(201);

    const cleared = await onDisk.ok('clear-payout', '--account', accountId);
    expect(cleared.stdout).toBe('');
    expect(cleared.stderr).toContain('bundles with a payment are refused');
    const shown = JSON.parse((await onDisk.ok('show-account', '--account', accountId, '--json')).stdout);
    expect(shown.account.payout).toBeUndefined();
    // Clearing again is the same answer.
    await onDisk.ok('clear-payout', '--account', accountId);

    const after = await aBilledBundle();
    expect(after.status, after.text).toBe(400);
    expect(after.body.errors.map((e: { field: string }) => e.field)).toEqual(['payment']);
    expect(after.text).toContain('no payout settings');
    const kept = await call('GET', `/bundles/${before.body.id}/`);
    expect(kept.body.payment).toMatchObject({
      billed_to: 'ann',
      amount_due: 2500,
      currency: 'usd',
      status: 'due',
    });
  });

  it('exits 1 for an unknown account and 2 without --account', async () => {
    const unknown = await admin(
      onDisk.dir,
      'clear-payout',
      '--account',
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Account not found.');
    expect(unknown.stderr).not.toMatch(STACK_TRACE);
    const missing = await admin(onDisk.dir, 'clear-payout');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--account');
  });
});

describe('refund-payment', () => {
  beforeAll(async () => {
    await onDisk.ok(
      'set-payout',
      '--account',
      accountId,
      '--connected-account',
      'acct_1AdminPay',
      '--currency',
      'usd',
    );
  });

  /** A bundle that ann paid on the local test checkout. */
  async function aPaidBundle(): Promise<string> {
    const created = await aBilledBundle();
    expect(created.status, created.text).toBe(201);
    const ann = await openSession(sign, call, created.body.packets[0].id);
    const started = await sign('POST', '/payment', ann);
    expect(started.status).toBe(201);
    const paid = await fetch(`${started.body.checkout_url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=paid',
    });
    expect(paid.status).toBe(200);
    expect((await call('GET', `/bundles/${created.body.id}/`)).body.payment.status).toBe('paid');
    return created.body.id;
  }

  it('refunds a paid bundle once: the payment shows refunded with a pb event, and again refunds nothing', async () => {
    const id = await aPaidBundle();
    const first = await onDisk.ok('refund-payment', '--account', accountId, '--bundle', id);
    expect(first.stdout.trim()).toBe('refunded');
    expect(first.stderr).toMatch(/Refund re_local_\w+ done\./);
    const bundle = (await call('GET', `/bundles/${id}/`)).body;
    expect(bundle.payment).toMatchObject({ status: 'refunded', amount_due: 2500 });
    expect((await kinds(id)).filter((k) => k === 'pb')).toHaveLength(1);
    const events = (await call('GET', `/bundles/${id}/events/`)).body as {
      kind: string;
      description: string;
    }[];
    expect(events.find((e) => e.kind === 'pb')?.description).toContain('Payment refunded');

    const again = await admin(onDisk.dir, 'refund-payment', '--account', accountId, '--bundle', id, '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ payment: { status: 'refunded' }, refund: null });
    expect((await kinds(id)).filter((k) => k === 'pb')).toHaveLength(1);
  });

  it('refuses a payment that is not paid, and an unknown bundle, with exit code 1', async () => {
    const due = await aBilledBundle();
    const notPaid = await admin(
      onDisk.dir,
      'refund-payment',
      '--account',
      accountId,
      '--bundle',
      due.body.id,
    );
    expect(notPaid.code).toBe(1);
    expect(notPaid.stderr).toContain('Only a paid payment can be refunded');
    expect(notPaid.stderr).not.toMatch(STACK_TRACE);
    expect((await call('GET', `/bundles/${due.body.id}/`)).body.payment.status).toBe('due');

    const unknown = await admin(
      onDisk.dir,
      'refund-payment',
      '--account',
      accountId,
      '--bundle',
      'AAAAAAAAAA',
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Bundle not found.');
  });

  it('needs --bundle, and on AWS the Stripe keys secret', async () => {
    const missing = await admin(onDisk.dir, 'refund-payment', '--account', accountId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--bundle');
    const aws = await admin(
      undefined,
      'refund-payment',
      '--account',
      accountId,
      '--bundle',
      'AAAAAAAAAA',
      '--aws',
      '--table',
      't',
      '--region',
      'us-east-1',
    );
    expect(aws.code).toBe(2);
    expect(aws.stderr).toContain('--stripe-secret');
  });
});
