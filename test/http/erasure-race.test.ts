// A bundle created, or a packet handed on, while the signer's address is erased: the request is
// held at each step where the two can meet (a create: before its person links; after its check
// of the Person; confirmed, before the bundle item), the erasure runs in full, then the request
// goes on. Every time, either the erasure's report lists the bundle or the request fails with
// 409: never a bundle naming an erased Person that the report does not show.
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { idempotencyKeys } from '#shared/adapters/dynamodb/entities/idempotency';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';

type TInput = { Item?: { pk?: unknown; sk?: unknown }; Key?: { pk?: unknown }; RequestItems?: unknown };
type TMatch = (command: string, input: TInput) => boolean;

/** Where a create is held: the first of its commands that matches. */
const CREATE_HOLDS: Record<string, TMatch> = {
  'before writing its person links': (command, input) =>
    command === 'BatchWriteItemCommand' && JSON.stringify(input.RequestItems).includes('#PERSON_BUNDLES'),
  'after finding the Person still there, before confirming': (command, input) =>
    command === 'UpdateItemCommand' && String(input.Key?.pk).endsWith('#BUNDLE_CREATIONS'),
  'confirmed, before writing the bundle': (command, input) =>
    command === 'PutItemCommand' && String(input.Item?.sk).startsWith('BUNDLE#'),
};

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
/** Every metric record the functions sent: none may hold an address. */
const metrics: string[] = [];
const addresses: string[] = [];
let hold: { fn: string; match: TMatch; reached: () => void; release: Promise<void> } | undefined;

beforeAll(async () => {
  runtime = await startTestRuntime({ metrics: (emf) => metrics.push(JSON.stringify(emf)) });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const h = hold;
      if (
        h &&
        currentInvocation()?.fn === h.fn &&
        h.match(String(context.commandName), args.input as TInput)
      ) {
        hold = undefined;
        h.reached();
        await h.release;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdTheRequest' },
  );
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

/**
 * Sends the request, holds it at the first command of `fn` that matches, erases `address` in
 * full meanwhile, then lets the request go on: its answer and the erasure's report.
 */
/** Sends the request and waits until it is held at the first command of `fn` that matches. */
async function sendHeld(fn: string, match: TMatch, send: () => Promise<TApiAnswer>) {
  let reached!: () => void;
  let release!: () => void;
  const isHeld = new Promise<void>((r) => {
    reached = r;
  });
  hold = { fn, match, reached, release: new Promise<void>((r) => (release = r)) };
  const sending = send();
  const early = await Promise.race([isHeld.then(() => undefined), sending]);
  expect(early, 'the request ended without reaching the hold').toBeUndefined();
  return { sending, release };
}

/** Erases `address` in full: the erasure's report. */
async function erase(address: string) {
  addresses.push(address);
  const erased = await call('POST', '/account/erasures/', { json: { email: address } });
  expect(erased.status, erased.text).toBe(200);
  expect(erased.body.persons_removed).toHaveLength(1);
  return erased.body as { bundles_to_act_on: unknown[] };
}

async function eraseWhileHeld(fn: string, match: TMatch, address: string, send: () => Promise<TApiAnswer>) {
  const { sending, release } = await sendHeld(fn, match, send);
  const report = await erase(address);
  release();
  return { answer: await sending, report };
}

describe('a bundle created while its signer is erased', () => {
  it.each(Object.keys(CREATE_HOLDS))('held %s: listed by the erasure, or refused with 409', async (at) => {
    const address = `race-${randomUUID()}@example.com`;
    const packets = [{ key: 'ann', name: 'Ann Lee', email: address }];
    const { answer, report } = await eraseWhileHeld('bundles', CREATE_HOLDS[at]!, address, () =>
      call('POST', '/bundles/', { json: aBundle({ packets }, b64) }),
    );
    if (answer.status === 201) {
      // Listed while its bundle item was still to be written: no status yet.
      expect(report.bundles_to_act_on).toEqual([{ id: answer.body.id, status: null }]);
    } else {
      expect(answer.status, answer.text).toBe(409);
      expect(answer.text).toContain('erased');
      expect(report.bundles_to_act_on).toEqual([]);
    }
    // Which of the two it is follows from where the create was held.
    expect(answer.status).toBe(at.startsWith('confirmed') ? 201 : 409);
  });

  it('retried under its Idempotency-Key while the first run, confirmed, writes it: listed', async () => {
    const address = `retry-${randomUUID()}@example.com`;
    const key = randomUUID();
    const create = () =>
      call('POST', '/bundles/', {
        json: aBundle({ packets: [{ key: 'ann', name: 'Ann Lee', email: address }] }, b64),
        headers: { 'Idempotency-Key': key },
      });
    const first = await sendHeld('bundles', CREATE_HOLDS['confirmed, before writing the bundle']!, create);
    // The first run's invocation past its deadline (a Lambda stopped there; the local runtime
    // cannot stop it, nor can AWS stop a run that is just finishing): its retry takes the key
    // over and, its id derived from the request, creates the same bundle.
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: idempotencyKeys.item(runtime.demo.accountId, key),
        UpdateExpression: 'SET lockedUntil = :past',
        ExpressionAttributeValues: { ':past': 0 },
      }),
    );
    const retry = await sendHeld(
      'bundles',
      CREATE_HOLDS['after finding the Person still there, before confirming']!,
      create,
    );
    const report = await erase(address);
    first.release();
    const answer = await first.sending;
    retry.release();
    const again = await retry.sending;
    expect(answer.status, answer.text).toBe(201);
    expect(report.bundles_to_act_on).toEqual([{ id: answer.body.id, status: null }]);
    // The retry, confirmed too, meets the bundle the first run wrote and answers it.
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).toBe(answer.body.id);
  });

  it('handed over to the address, held before its link: refused with 409', async () => {
    const sent = await call('POST', '/bundles/', { json: aBundle({}, b64) });
    expect(sent.status, sent.text).toBe(201);
    const ann = (sent.body.packets as { id: string }[])[0]!;
    const address = `handed-${randomUUID()}@example.com`;
    const linking: TMatch = (command, input) =>
      command === 'PutItemCommand' && String(input.Item?.pk).endsWith('#PERSON_BUNDLES');
    const { answer, report } = await eraseWhileHeld('packets', linking, address, () =>
      call('POST', `/packets/${ann.id}/reassign/`, { json: { name: 'Cy Doe', email: address } }),
    );
    expect(answer.status, answer.text).toBe(409);
    expect(answer.text).toContain('erased');
    expect(report.bundles_to_act_on).toEqual([]);
    const after = await call('GET', `/bundles/${sent.body.id}/`);
    expect(JSON.stringify(after.body)).not.toContain(address);
  });

  it('sent none of those addresses in a metric (dimensions are route patterns and outcomes)', () => {
    expect(addresses).toHaveLength(5);
    expect(metrics.join('\n')).toContain('ApiRequests');
    for (const address of addresses) expect(metrics.join('\n')).not.toContain(address);
  });
});
