// A legal hold placed through the API while the operator destroys the account's own documents
// key: one side is held at each point where the two can meet (the hold before its write, or
// written and before it reads the account; the destruction marked and before it reads the
// bundles, or checked and before it marks the key destroyed), the other runs in full, then the
// first goes on. Every time exactly one wins: the hold stands and the key is kept, or the key is
// destroyed and the hold answered 409; never both. Then both at once, a few times, and a
// destruction that stopped half-way, run again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { createDocumentClient, createKmsClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { anOwnDocumentsKey } from '../helpers/documents-key';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';

type TInput = {
  Key?: { sk?: unknown };
  Item?: { sk?: unknown };
  ConsistentRead?: boolean;
  ExpressionAttributeValues?: Record<string, { destroyed?: unknown } | undefined>;
};
type TMatch = (command: string, input: TInput) => boolean;
type TSide = 'hold' | 'destroy';

/** Each meeting point, and the outcome it must have: who wins, and the hold's first answer. */
const POINTS: Record<string, { side: TSide; match: TMatch; wins: TSide; answer: number }> = {
  'the hold, before writing it': {
    side: 'hold',
    match: (c, i) => c === 'PutItemCommand' && String(i.Item?.sk).startsWith('BUNDLE#'),
    wins: 'destroy',
    answer: 409,
  },
  'the hold, written, before reading the account': {
    side: 'hold',
    match: (c, i) => c === 'GetItemCommand' && i.Key?.sk === 'ACCOUNT' && i.ConsistentRead === true,
    wins: 'hold',
    answer: 200,
  },
  'the destruction, marked, before reading the bundles': {
    side: 'destroy',
    match: (c) => c === 'QueryCommand',
    wins: 'hold',
    answer: 409,
  },
  'the destruction, checked, before marking the key destroyed': {
    side: 'destroy',
    match: (c, i) => c === 'UpdateItemCommand' && Boolean(i.ExpressionAttributeValues?.[':key']?.destroyed),
    wins: 'destroy',
    answer: 409,
  },
};

let runtime: TRuntime;
let b64: string;
let kms: ReturnType<typeof createKmsClient>;
/** The destruction's own client, as the operator's command has one. */
let destroyDb: ReturnType<typeof createDocumentClient>;
/** Runs before each command of one side: holds it at a meeting point, or fails it. */
const before: Partial<Record<TSide, (command: string, input: TInput) => Promise<void>>> = {};

const intercept = (side: TSide, db: ReturnType<typeof createDocumentClient>, mine: () => boolean) =>
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const hook = before[side];
      if (hook && mine()) await hook(String(context.commandName), args.input as TInput);
      return next(args);
    },
    { step: 'initialize', name: `before-${side}` },
  );

beforeAll(async () => {
  runtime = await startTestRuntime();
  b64 = await aPdfB64();
  kms = createKmsClient(runtime.config);
  destroyDb = createDocumentClient(runtime.config);
  intercept('hold', runtime.db, () => currentInvocation()?.fn === 'bundles');
  intercept('destroy', destroyDb, () => true);
}, 60_000);
afterAll(async () => {
  kms?.destroy();
  await runtime?.stop();
});

const accounts = () => createAccountStore(destroyDb, runtime.config.tableName);
const keyOf = async (accountId: string) =>
  (await accounts().getAccount(accountId, { consistent: true }))?.documentsKey;

/** An account with its own key and one cancelled bundle its retention (0 days) no longer keeps. */
async function anAccount() {
  const tag = randomUUID().slice(0, 8);
  const { accountId, apiKey } = await runtime.seedAccount(`Race ${tag}`, `owner-${tag}@race.example`);
  const call = apiClient(runtime, apiKey);
  const policy = { originals_days: 0, finals_days: 0, images_days: 0 };
  expect((await call('PUT', '/account/retention/', { json: policy })).status).toBe(200);
  const made = await call('POST', '/bundles/', { json: aBundle({}, b64) });
  expect(made.status, made.text).toBe(201);
  const bundleId = made.body.id as string;
  expect((await call('PUT', `/bundles/${bundleId}/cancel/`)).status).toBe(200);
  const destroyKey = await anOwnDocumentsKey(runtime, destroyDb, kms, accountId);
  const hold = () => call('PUT', `/bundles/${bundleId}/legal_hold/`);
  // No request of these accounts is under way but the one each test holds.
  const destroy = () => destroyKey(async () => {});
  return { accountId, call, bundleId, hold, destroy };
}

/**
 * Exactly one winner, as the account and the bundle now are: the key destroyed and the hold
 * refused, or the hold standing (asked again, 200) and the key kept. No mark left behind.
 */
async function oneWinner(
  a: Awaited<ReturnType<typeof anAccount>>,
  destroyed: { destroyed: boolean; message: string },
  held: TApiAnswer,
): Promise<TSide> {
  const key = await keyOf(a.accountId);
  expect(key?.destroying).toBeUndefined();
  expect(destroyed.destroyed).toBe(Boolean(key?.destroyed));
  expect(held.status === 200 && destroyed.destroyed, 'the hold and the destruction both succeeded').toBe(
    false,
  );
  const again = await a.hold();
  if (destroyed.destroyed) {
    expect([held.status, again.status]).toEqual([409, 409]);
    expect(again.body.message).toContain('was destroyed on');
    return 'destroy';
  }
  expect(destroyed.message).toContain(`Bundle ${a.bundleId} is under legal hold`);
  expect(again.status, again.text).toBe(200);
  return 'hold';
}

describe('a legal hold placed while the account key is destroyed', () => {
  it.each(Object.keys(POINTS))('held at %s: exactly one wins', async (at) => {
    const point = POINTS[at]!;
    const a = await anAccount();
    let reached!: () => void;
    let release!: () => void;
    const isHeld = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    before[point.side] = async (command, input) => {
      if (!point.match(command, input)) return;
      delete before[point.side];
      reached();
      await released;
    };
    const held = point.side === 'hold' ? a.hold() : undefined;
    const destroying = point.side === 'destroy' ? a.destroy() : undefined;
    const early = await Promise.race([isHeld.then(() => undefined), held ?? destroying]);
    expect(early, 'the held side ended without reaching its meeting point').toBeUndefined();
    const other = held ? await a.destroy() : await a.hold();
    release();
    const answer = held ? await held : (other as TApiAnswer);
    const destroyed = destroying ? await destroying : (other as Awaited<ReturnType<typeof a.destroy>>);
    expect(answer.status, answer.text).toBe(point.answer);
    if (answer.status === 409 && !destroyed.destroyed) {
      // Met while the account was marked: the hold was recorded, and refused the destruction.
      expect(answer.body.message).toContain('is being destroyed at this moment');
    }
    expect(await oneWinner(a, destroyed, answer)).toBe(point.wins);
  });

  it('has one winner when both are asked at once, again and again', async () => {
    const runs = await Promise.all([anAccount(), anAccount(), anAccount()]);
    for (const a of runs) {
      const [destroyed, held] = await Promise.all([a.destroy(), a.hold()]);
      await oneWinner(a, destroyed, held);
    }
  });

  it('finishes, or takes back, a destruction that stopped half-way when it is run again', async () => {
    const a = await anAccount();
    const dies = async (command: string, input: TInput) => {
      if (!POINTS['the destruction, checked, before marking the key destroyed']!.match(command, input))
        return;
      delete before.destroy;
      throw new Error('The process died.');
    };
    before.destroy = dies;
    expect((await a.destroy()).message).toBe('The process died.');
    expect((await keyOf(a.accountId))?.destroying).toBeDefined();
    const held = await a.hold();
    expect([held.status, held.body.message]).toEqual([409, expect.stringContaining('is being destroyed')]);

    // Run again, it checks the bundles afresh: the hold placed since refuses it; the mark goes.
    const refused = await a.destroy();
    expect(refused.message).toContain(`Bundle ${a.bundleId} is under legal hold`);
    expect((await keyOf(a.accountId))?.destroying).toBeUndefined();
    expect((await a.hold()).status).toBe(200);

    expect((await a.call('DELETE', `/bundles/${a.bundleId}/legal_hold/`)).status).toBe(200);
    before.destroy = dies;
    expect((await a.destroy()).message).toBe('The process died.');
    expect(await a.destroy()).toMatchObject({ destroyed: true, repeated: false });
    expect((await keyOf(a.accountId))?.destroyed).toBeDefined();
  });
});
