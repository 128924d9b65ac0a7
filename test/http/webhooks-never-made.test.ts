// An account that never had a webhook: its bundle changes publish without reading its webhooks
// when the request has just read the account (its mark, `webhooksEverMade`); its first webhook
// sets the mark before it is written, so a change asked after the webhook's create answered is
// logged for it, however the two meet. All through real HTTP on the local runtime, counting the
// DynamoDB requests each call sent.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { webhookKeys } from '#shared/adapters/dynamodb/entities/webhook';
import { storeAsBeforeWebhooksMark } from '../helpers/account-before-mark';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { dbRecorder, type TRecordedCommand } from '../helpers/db-recorder';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, startTestRuntime, type TApiAnswer } from '../helpers/runtime';
import { embedToken, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let receiver: TReceiver;
let recorder: ReturnType<typeof dbRecorder>;
let pdf: string;
/** Runs at each DynamoDB command of the runtime, before (after: false) and after it is sent. */
let hook: ((command: string, input: THookInput, after: boolean) => Promise<void>) | undefined;
type THookInput = { Key?: { sk?: unknown }; Item?: { sk?: unknown } };

beforeAll(async () => {
  runtime = await startTestRuntime();
  recorder = dbRecorder(runtime);
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName);
      await hook?.(name, args.input as THookInput, false);
      const out = await next(args);
      await hook?.(name, args.input as THookInput, true);
      return out;
    },
    { step: 'initialize', name: 'testHoldWebhookMark' },
  );
  receiver = await startReceiver();
  pdf = await aPdfB64();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

const accounts = () => createAccountStore(runtime.db, runtime.config.tableName);

/** A new account (made as every account is: no webhook, marked so), and its API client. */
async function anAccount() {
  const tag = randomUUID().slice(0, 8);
  const { accountId, apiKey } = await runtime.seedAccount(`Hooks ${tag}`, `owner-${tag}@hooks.example`);
  return { accountId, call: apiClient(runtime, apiKey) };
}
type TAccountCall = Awaited<ReturnType<typeof anAccount>>;

/** Queries of the account's webhooks among `commands`. */
const webhookReads = (commands: TRecordedCommand[], accountId: string) =>
  commands.filter(
    (c) =>
      c.command === 'Query' && Object.values(c.values ?? {}).includes(webhookKeys.listPartition(accountId)),
  );

async function sendBundle({ call }: TAccountCall): Promise<string> {
  const res = await call('POST', '/bundles/', { json: aBundle({}, pdf) });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function aWebhook({ call }: TAccountCall): Promise<TApiAnswer> {
  return call('POST', '/webhooks/', {
    json: { url: receiver.url(`/hook-${randomUUID()}`), event_types: ['bundle_sent', 'packet_viewed'] },
  });
}

/** The bundles whose events the account logged for the webhook. */
async function loggedBundles({ call }: TAccountCall, webhookId: string): Promise<string[]> {
  const res = await call('GET', `/webhooks/events/?webhook=${webhookId}&per_page=100`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { payload: string }[]).map((e) => JSON.parse(e.payload).bundle_id as string);
}

/** A sent bundle whose embedded signer has a session open and a field filled in. */
async function aSignerReady(a: TAccountCall) {
  const sign = signerClient(runtime);
  const made = await a.call('POST', '/bundles/', {
    json: {
      label: 'Lease',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'doc',
          file_b64: pdf,
          fields: [{ key: 'name', kind: 'inp', page: 1, x: 10, y: 10, w: 30, h: 4, editors: ['ann'] }],
        },
      ],
    },
  });
  expect(made.status, made.text).toBe(201);
  const token = await embedToken(a.call, made.body.packets[0].id);
  let session = '';
  // The page's exchange: the session with its first state, whose file links read the account.
  const opening = await recorder.during(async () => {
    const opened = await sign('POST', '/session', undefined, { token, state: true });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    session = opened.body.session;
  });
  const saved = await sign('PUT', '/values', session, {
    values: [{ doc_key: 'doc', field_key: 'name', value: 'Ann' }],
  });
  expect(saved.status).toBe(200);
  const finish = () => sign('POST', '/complete', session, { consent: true });
  return { bundleId: made.body.id as string, opening, finish };
}

describe('publishing for an account that never had a webhook', () => {
  it('opens a session and finishes without reading the webhooks', async () => {
    const a = await anAccount();
    expect((await accounts().getAccount(a.accountId))?.webhooksEverMade).toBe(false);
    const signer = await aSignerReady(a);
    expect(signer.opening.some((c) => c.fn === 'public-pages' && c.command === 'TransactWriteItems')).toBe(true);
    expect(webhookReads(signer.opening, a.accountId)).toEqual([]);
    const finishing = await recorder.during(async () => {
      const done = await signer.finish();
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.packet.status).toBe('co');
    });
    expect(finishing.some((c) => c.fn === 'public-pages' && c.command === 'TransactWriteItems')).toBe(true);
    expect(webhookReads(finishing, a.accountId)).toEqual([]);
  });

  it('logs the next change for its first webhook, and keeps reading after the webhook is deleted', async () => {
    const a = await anAccount();
    await sendBundle(a);
    const hook = await aWebhook(a);
    expect(hook.status, hook.text).toBe(201);
    expect((await accounts().getAccount(a.accountId))?.webhooksEverMade).toBe(true);
    const next = await aSignerReady(a);
    expect(webhookReads(next.opening, a.accountId)).not.toEqual([]);
    const logged = await loggedBundles(a, hook.body.id);
    // bundle_sent at its create, packet_viewed at the session's opening.
    expect(logged.filter((id) => id === next.bundleId)).toHaveLength(2);

    expect((await a.call('DELETE', `/webhooks/${hook.body.id}/`)).status).toBe(204);
    expect((await accounts().getAccount(a.accountId))?.webhooksEverMade).toBe(true);
    const later = await aSignerReady(a);
    expect(webhookReads(later.opening, a.accountId)).not.toEqual([]);
  });

  it('reads the webhooks of an account stored before the mark, and logs its events', async () => {
    const a = await anAccount();
    const hook = await aWebhook(a);
    expect(hook.status, hook.text).toBe(201);
    await storeAsBeforeWebhooksMark(runtime, a.accountId);
    expect((await accounts().getAccount(a.accountId))?.webhooksEverMade).toBe(true);
    const next = await aSignerReady(a);
    expect(webhookReads(next.opening, a.accountId)).not.toEqual([]);
    expect((await loggedBundles(a, hook.body.id)).filter((id) => id === next.bundleId)).toHaveLength(2);
  });
});

describe('the first webhook created while bundles change', () => {
  it('marks the account before the webhook is written: a change in between reads the webhooks', async () => {
    const a = await anAccount();
    const signer = await aSignerReady(a);
    let reached!: () => void;
    let release!: () => void;
    const isHeld = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    // The create held once its mark is written, before its webhook item is.
    hook = async (command, input, after) => {
      if (!after || command !== 'UpdateItemCommand' || input.Key?.sk !== 'ACCOUNT') return;
      hook = undefined;
      reached();
      await released;
    };
    const creating = aWebhook(a);
    expect(
      await Promise.race([isHeld.then(() => undefined), creating]),
      'the create ran past its mark',
    ).toBeUndefined();
    try {
      // Marked, and no webhook written yet.
      expect((await accounts().getAccount(a.accountId))?.webhooksEverMade).toBe(true);
      expect((await a.call('GET', '/webhooks/')).body).toEqual([]);
      const finishing = await recorder.during(async () => {
        expect((await signer.finish()).status).toBe(200);
      });
      // The finish read the account after the mark: it read the webhooks (none written yet).
      expect(webhookReads(finishing, a.accountId)).not.toEqual([]);
    } finally {
      release();
    }
    const created = await creating;
    expect(created.status, created.text).toBe(201);
    const after = await sendBundle(a);
    expect(await loggedBundles(a, created.body.id)).toContain(after);
  });

  it('logs every change asked after the create answered, as they meet at random', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await anAccount();
      let answered: TApiAnswer | undefined;
      const creating = aWebhook(a).then((res) => {
        answered = res;
        return res;
      });
      const askedAfter: string[] = [];
      // Bundles sent one after another while the create runs, and two once it has answered.
      let after = 0;
      while (after < 2) {
        const answeredBefore = answered !== undefined;
        const id = await sendBundle(a);
        if (answeredBefore) {
          askedAfter.push(id);
          after++;
        }
      }
      const created = await creating;
      expect(created.status, created.text).toBe(201);
      const logged = await loggedBundles(a, created.body.id);
      expect(askedAfter.filter((id) => !logged.includes(id))).toEqual([]);
    }
  });
});
