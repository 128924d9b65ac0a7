// A bundle created while its signer's address is erased: the create is held at each step where
// the two can meet (before its person links; after its check of the Person; confirmed, before
// the bundle item), the erasure runs in full, then the create goes on. Every time, either the
// erasure's report lists the bundle or the create fails with 409: never a bundle naming an
// erased Person that the report does not show.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';

type TInput = { Item?: { pk?: unknown; sk?: unknown }; Key?: { pk?: unknown }; RequestItems?: unknown };

/** Where the create is held: the first of its commands that matches. */
const HOLDS: Record<string, (command: string, input: TInput) => boolean> = {
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
let hold: { at: string; reached: () => void; release: Promise<void> } | undefined;

beforeAll(async () => {
  runtime = await startTestRuntime({ metrics: (emf) => metrics.push(JSON.stringify(emf)) });
  call = apiClient(runtime);
  b64 = await aPdfB64();
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const h = hold;
      if (
        h &&
        currentInvocation()?.fn === 'bundles' &&
        HOLDS[h.at]!(String(context.commandName), args.input as TInput)
      ) {
        hold = undefined;
        h.reached();
        await h.release;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdTheCreate' },
  );
}, 60_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('a bundle created while its signer is erased', () => {
  it.each(Object.keys(HOLDS))('held %s: listed by the erasure, or refused with 409', async (at) => {
    const address = `race-${randomUUID()}@example.com`;
    addresses.push(address);
    let reached!: () => void;
    let release!: () => void;
    const isHeld = new Promise<void>((r) => {
      reached = r;
    });
    hold = { at, reached, release: new Promise<void>((r) => (release = r)) };
    const packets = [{ key: 'ann', name: 'Ann Lee', email: address }];
    const creating = call('POST', '/bundles/', { json: aBundle({ packets }, b64) });
    const early = await Promise.race([isHeld.then(() => undefined), creating]);
    expect(early, 'the create ended without reaching the hold').toBeUndefined();

    const erased = await call('POST', '/account/erasures/', { json: { email: address } });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.persons_removed).toHaveLength(1);
    release();
    const created = await creating;

    if (created.status === 201) {
      // Listed while its bundle item was still to be written: no status yet.
      expect(erased.body.bundles_to_act_on).toEqual([{ id: created.body.id, status: null }]);
    } else {
      expect(created.status, created.text).toBe(409);
      expect(created.text).toContain('erased');
      expect(erased.body.bundles_to_act_on).toEqual([]);
    }
    // Which of the two it is follows from where the create was held.
    expect(created.status).toBe(at.startsWith('confirmed') ? 201 : 409);
  });

  it('sent none of those addresses in a metric (dimensions are route patterns and outcomes)', () => {
    expect(addresses).toHaveLength(3);
    expect(metrics.join('\n')).toContain('ApiRequests');
    for (const address of addresses) expect(metrics.join('\n')).not.toContain(address);
  });
});
