// A bundle created through the API while the operator destroys the account's own documents key.
// The create is held at a point of its run (its consistent read of the account, or just before
// it writes the bundle item), the destruction marks the account and, at its wait for requests
// under way (injected: the moment the held create is let go and runs to its end), goes on.
// Every time exactly one outcome: the create's bundle stands and refuses the destruction, or
// the create is refused and the key destroyed; never a 201 whose documents are shredded. And a
// create, or a document template, asked while the account is marked answers 409, then 410.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { createDocumentClient, createKmsClient } from '#shared/adapters/aws/clients';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { KEY_DESTRUCTION_WAIT_SECONDS } from '#shared/domain/bundles/account-documents-key';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { anOwnDocumentsKey } from '../helpers/documents-key';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';

type TInput = { Key?: { sk?: unknown }; Item?: { sk?: unknown }; ConsistentRead?: boolean };
type TCreate = 'with its own PDF' | 'from a document template';

/** Where the create is held, and the one outcome it must have. */
const POINTS: {
  create: TCreate;
  at: string;
  after: boolean;
  match: (c: string, i: TInput) => boolean;
  wins: 'create' | 'destroy';
}[] = [
  {
    create: 'with its own PDF',
    at: 'having read the account',
    after: true,
    match: (c, i) => c === 'GetItemCommand' && i.Key?.sk === 'ACCOUNT',
    // Its read came before the mark, so it stores its PDF under that read (a request ends
    // within the wait) and its bundle is written within the wait, and seen.
    wins: 'create',
  },
  {
    create: 'with its own PDF',
    at: 'its PDF stored, before writing the bundle',
    after: false,
    match: (c, i) => c === 'PutItemCommand' && String(i.Item?.sk).startsWith('BUNDLE#'),
    wins: 'create',
  },
  {
    create: 'from a document template',
    at: 'having read the account',
    after: true,
    match: (c, i) => c === 'GetItemCommand' && i.Key?.sk === 'ACCOUNT',
    // It stores no document of its own: its bundle is written within the wait, and seen.
    wins: 'create',
  },
];

let runtime: TRuntime;
let b64: string;
let kms: ReturnType<typeof createKmsClient>;
let destroyDb: ReturnType<typeof createDocumentClient>;
/** Runs around each command of the bundles function: holds a create at its point. */
let hook: ((command: string, input: TInput, after: boolean) => Promise<void>) | undefined;

beforeAll(async () => {
  runtime = await startTestRuntime();
  b64 = await aPdfB64();
  kms = createKmsClient(runtime.config);
  destroyDb = createDocumentClient(runtime.config);
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const mine = currentInvocation()?.fn === 'bundles';
      const command = String(context.commandName);
      const input = args.input as TInput;
      if (hook && mine) await hook(command, input, false);
      const out = await next(args);
      if (hook && mine) await hook(command, input, true);
      return out;
    },
    { step: 'initialize', name: 'hold-create' },
  );
}, 60_000);
afterAll(async () => {
  kms?.destroy();
  await runtime?.stop();
});

const accounts = () => createAccountStore(destroyDb, runtime.config.tableName);
const bundlesOf = (accountId: string) =>
  createBundleStore(destroyDb, runtime.config.tableName).allOfAccount(accountId);

/** An account with a key of its own, a document template, and no bundle. */
async function anAccount() {
  const tag = randomUUID().slice(0, 8);
  const { accountId, apiKey } = await runtime.seedAccount(`Create ${tag}`, `owner-${tag}@race.example`);
  const call = apiClient(runtime, apiKey);
  const template = (await call('POST', '/templates/', {
    json: {
      file_b64: b64,
      name: 'Lease',
      roles: [{ key: 'tenant', label: 'Tenant' }],
      fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] }],
    },
  })) as TApiAnswer;
  expect(template.status, template.text).toBe(201);
  const destroy = await anOwnDocumentsKey(runtime, destroyDb, kms, accountId);
  const bodies: Record<TCreate, unknown> = {
    'with its own PDF': aBundle({}, b64),
    'from a document template': {
      label: 'Lease',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
      documents: [{ template_id: template.body.id, assignments: [{ role: 'tenant', signer: 'ann' }] }],
    },
  };
  const create = (kind: TCreate) => call('POST', '/bundles/', { json: bodies[kind] });
  // The destruction's wait for requests under way is handed to the test.
  return { accountId, call, create, destroy };
}

describe('a bundle created while the account key is destroyed', () => {
  it.each(POINTS)('held $at, a create $create has exactly one outcome', async (point) => {
    const a = await anAccount();
    let reached!: () => void;
    let release!: () => void;
    const isHeld = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    hook = async (command, input, after) => {
      if (after !== point.after || !point.match(command, input)) return;
      hook = undefined;
      reached();
      await released;
    };
    const creating = a.create(point.create);
    expect(
      await Promise.race([isHeld.then(() => undefined), creating]),
      'the create ran past its point',
    ).toBeUndefined();

    let waited: number | undefined;
    const destroyed = await a.destroy(async (ms) => {
      // Every request that read the account before the mark ends within the wait.
      waited = ms;
      release();
      await creating;
    });
    release();
    const created = await creating;

    expect(created.status === 201 && destroyed.destroyed, 'a 201 bundle whose key was destroyed').toBe(false);
    const key = (await accounts().getAccount(a.accountId, { consistent: true }))?.documentsKey;
    expect(key?.destroying, 'the mark was left behind').toBeUndefined();
    expect(waited, 'the destruction did not wait for requests under way').toBeGreaterThan(
      (KEY_DESTRUCTION_WAIT_SECONDS - 60) * 1000,
    );
    const made = await bundlesOf(a.accountId);
    if (point.wins === 'create') {
      expect(created.status, created.text).toBe(201);
      expect(made.map((b) => b.id)).toEqual([created.body.id]);
      expect(destroyed.message).toContain(`Bundle ${created.body.id as string}`);
      expect(key?.destroyed).toBeUndefined();
    } else {
      expect([created.status, created.body.code]).toEqual([409, 'conflict']);
      expect(created.body.message).toContain('documents key is being destroyed');
      expect(made).toEqual([]);
      expect(destroyed).toEqual({ destroyed: true, repeated: false, message: '' });
      expect(key?.destroyed).toBeDefined();
    }
  });

  it('refuses a create or a document while the account is marked (409), and once destroyed (410)', async () => {
    const a = await anAccount();
    let marked!: () => void;
    let goOn!: () => void;
    const isMarked = new Promise<void>((r) => (marked = r));
    const wentOn = new Promise<void>((r) => (goOn = r));
    const destroying = a.destroy(async () => {
      marked();
      await wentOn;
    });
    await isMarked;
    const template = { file_b64: b64, name: 'Rules', roles: [{ key: 'tenant', label: 'Tenant' }] };
    const during = [
      await a.create('with its own PDF'),
      await a.create('from a document template'),
      await a.call('POST', '/templates/', { json: template }),
    ];
    for (const answer of during) {
      expect([answer.status, answer.body.code], answer.text).toEqual([409, 'conflict']);
      expect(answer.body.message).toContain('no new documents can be stored');
    }
    goOn();
    expect(await destroying).toEqual({ destroyed: true, repeated: false, message: '' });
    expect(await bundlesOf(a.accountId)).toEqual([]);
    const after = await a.create('from a document template');
    expect([after.status, after.body.code], after.text).toEqual([410, 'gone']);
  });
});
