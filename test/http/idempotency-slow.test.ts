// A create slower than its function's timeout, retried under its Idempotency-Key: the client saw
// only server errors and 409s, the first run kept working after its answer, and a retry took the
// key over and did the work again. However the two runs meet, one bundle and one signing email.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxEmail } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { idempotencyKeys } from '#shared/adapters/dynamodb/entities/idempotency';
import { aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceiver, type TReply } from '../helpers/receiver';
import { apiClient, startTestRuntime } from '../helpers/runtime';

// Short enough that a held file_url outlasts it; long enough for an ordinary request on a busy machine.
const FUNCTION_TIMEOUT_MS = 2_000;

let runtime: TRuntime;
let files: TReceiver;
let pdf: Buffer;
/** Answers kept under an Idempotency-Key (a Put of a completed record), by the record's pk. */
const kept = new Map<string, number>();

beforeAll(async () => {
  runtime = await startTestRuntime({ functionTimeoutMs: FUNCTION_TIMEOUT_MS });
  files = await startReceiver();
  pdf = Buffer.from(await aPdfB64(), 'base64');
  // Each run of a create ends by keeping its answer: counting them tells when every run is over,
  // the one the client gave up on included.
  runtime.db.middlewareStack.add(
    (next) => async (args) => {
      const item = (args.input as { Item?: { pk?: unknown; state?: unknown } }).Item;
      try {
        return await next(args);
      } finally {
        if (item?.state === 'completed' && typeof item.pk === 'string') {
          kept.set(item.pk, (kept.get(item.pk) ?? 0) + 1);
        }
      }
    },
    { step: 'initialize', name: 'keptAnswers' },
  );
});
afterAll(async () => {
  await files.stop();
  await runtime.stop();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a create slower than its timeout, retried with the same key', () => {
  it('makes one bundle and sends one signing email', { timeout: 120_000 }, async () => {
    const account = await runtime.seedAccount('Slow Co', `${randomUUID()}@example.com`);
    const call = apiClient(runtime, account.apiKey);
    const signer = `slow-${randomUUID()}@example.com`;
    const key = randomUUID();
    const path = `/slow-${key}.pdf`;
    const releases: ((reply: TReply) => void)[] = [];
    files.on(path, () => new Promise<TReply>((resolve) => releases.push(resolve)));
    const body = {
      label: 'Slow lease',
      packets: [{ key: 'ann', name: 'Ann Lee', email: signer }],
      documents: [
        {
          key: 'lease',
          file_url: files.url(path),
          fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }],
        },
      ],
    };
    const create = () => call('POST', '/bundles/', { json: body, headers: { 'Idempotency-Key': key } });

    // The document is held: the first request runs past its timeout and answers a server error.
    const first = await create();
    expect(first.status, first.text).toBeGreaterThanOrEqual(500);

    // The client retries as told (409 in flight, or a timeout again) until a retry has taken the
    // key over from the run that outlived its answer and fetched the document a second time.
    while (files.callsTo(path).length < 2) {
      const retry = await create();
      expect([409, 500, 502, 503, 504], retry.text).toContain(retry.status);
      await pause(200);
    }
    // The retry's run gets the document first and finishes; the client's next retry gets its answer.
    const answer = (): TReply => ({ status: 200, body: pdf, contentType: 'application/pdf' });
    releases[1]!(answer());
    const done = await eventually(
      async () => {
        const res = await create();
        return res.status === 201 ? res : undefined;
      },
      30_000,
      'the retried create to answer 201',
    );
    // Then the first run gets the document too, and goes on to write what it was asked to.
    releases[0]!(answer());
    const pk = idempotencyKeys.item(account.accountId, key).pk;
    await eventually(() => (kept.get(pk) ?? 0) >= 2, 30_000, 'both runs to end');

    const list = await call('GET', '/bundles/');
    expect(list.status).toBe(200);
    expect(list.body.map((b: { id: string }) => b.id)).toEqual([done.body.id]);
    const emails = async () =>
      (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
        (m): m is TMailboxEmail => m.kind === 'email' && m.to.includes(signer),
      );
    await eventually(async () => (await emails()).length > 0, 30_000, 'the signing email');
    expect(await emails()).toHaveLength(1);
    const again = await create();
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(done.body.id);
  });
});
