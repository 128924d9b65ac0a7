// What one signer call reads: the context is loaded once with the session and handed on, so
// finishing reads the bundle once (with the session; its conditional change applies to that read)
// and the signer's own record once, with the other signers' records read once for the whole call.
// Saving values and finishing read the bundle, its documents and every signer's record in one
// request: in a function instance each request costs its own time, side by side or not.
// Counted on the DynamoDB client the local runtime's functions share.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { accountKeys } from '#shared/adapters/dynamodb/entities/account';
import { bundleKeys } from '#shared/adapters/dynamodb/entities/bundle';
import { signingKeys } from '#shared/adapters/dynamodb/entities/signing';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import type { TSigningRecord } from '#shared/domain/signing/signing-record';
import { hashToken } from '#shared/domain/tokens';
import { aPdfB64 } from '../helpers/bundles';
import { docsReady } from '../helpers/completed-bundle';
import { dbRecorder, onItem, type TRecordedCommand } from '../helpers/db-recorder';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { embedToken, openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;

let recorder: ReturnType<typeof dbRecorder>;
type TValues = TSigningRecord['values'];

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  recorder = dbRecorder(runtime);
});
afterAll(() => runtime.stop());

const FIELD = {
  key: 'name',
  kind: 'inp',
  page: 1,
  x: 10,
  y: 10,
  w: 30,
  h: 4,
  editors: ['ann'],
  required: true,
};

/** The reads of the bundle's own items (the bundle, its documents, its records) in `commands`. */
const bundleReads = (commands: TRecordedCommand[], bundleId: string) =>
  commands.filter(
    (c) =>
      (c.command === 'Query' || c.command === 'GetItem') &&
      JSON.stringify(c.key ?? c.values ?? {}).includes(`BUNDLE#${bundleId}`),
  ).length;

describe('finishing (POST /sign/api/complete)', () => {
  /**
   * A bundle of two signers whose first one saved her value, then (`between`) did something
   * else; the public pages function's requests of her finish, once it took.
   */
  async function finishAfter(between: (session: string) => Promise<void>) {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Lease',
        packets: [
          { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
          { key: 'bob', name: 'Bob Day', email: 'bob@example.com', deliver_via: 'embed' },
        ],
        documents: [
          {
            key: 'form',
            file_b64: await aPdfB64(),
            fields: [
              FIELD,
              { key: 'bob', kind: 'inp', page: 1, x: 10, y: 20, w: 30, h: 4, editors: ['bob'] },
            ],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const b = created.body;
    const ann = await openSession(sign, call, b.packets[0].id);
    const saved = await sign('PUT', '/values', ann, {
      values: [{ doc_key: 'form', field_key: 'name', value: 'Ann Lee' }],
    });
    expect(saved.status).toBe(200);
    await between(ann);

    let answer: Awaited<ReturnType<typeof sign>> | undefined;
    // The call's own requests: those the public pages function sent (workers it queued are not it).
    const commands = (
      await recorder.during(async () => {
        answer = await sign('POST', '/complete', ann, { consent: true });
      })
    ).filter((c) => c.fn === 'public-pages');
    expect(answer!.status, JSON.stringify(answer!.body)).toBe(200);
    // And the finish took: the packet is complete.
    const after = (await call('GET', `/bundles/${b.id}/`)).body;
    expect(after.packets[0].status).toBe('co');
    const bundleItem = bundleKeys.item(runtime.demo.accountId, b.id);
    const recordItem = signingKeys.record(runtime.demo.accountId, b.id, b.packets[0].id);
    const gets = (key: { pk: string; sk: string }) =>
      onItem(commands, key).filter((c) => c.command === 'GetItem').length;
    expect(gets(bundleItem), JSON.stringify(commands)).toBe(0);
    expect(gets(recordItem), JSON.stringify(commands)).toBe(0);
    return { commands, bundleId: b.id as string };
  }

  it('reads the bundle, its documents and every signer’s record in one request', async () => {
    // Choosing the page's language is a call that reads less than a finish: the instance keeps
    // nothing of the session after it.
    const { commands, bundleId } = await finishAfter(async (session) => {
      expect((await sign('PUT', '/language', session, { language: 'de' })).status).toBe(200);
    });
    // The bundle, its documents and both signers' records: one read for the whole call (the
    // checks and the answer).
    expect(bundleReads(commands, bundleId), JSON.stringify(commands)).toBe(1);
    // Besides it: the account (the redirect), and the record and the bundle written as one. No
    // lookup item: finishing changes none of the bundle's terms. No webhooks read and no outbox
    // cleared: the outbox relay publishes it from the table's stream, after the answer.
    expect(commands.map((c) => c.command).sort(), JSON.stringify(commands)).toEqual([
      'GetItem',
      'Query',
      'TransactWriteItems',
    ]);
  });

  it('reads nothing of the bundle right after the signer saved values through the same instance', async () => {
    // The finish starts from what saving the values ended with; its write is conditional on the
    // bundle's and the record's versions.
    const { commands, bundleId } = await finishAfter(async () => undefined);
    expect(bundleReads(commands, bundleId), JSON.stringify(commands)).toBe(0);
    // The account (the redirect) beside the one write.
    expect(commands.map((c) => c.command).sort(), JSON.stringify(commands)).toEqual([
      'GetItem',
      'TransactWriteItems',
    ]);
  });
});

describe('a finish from what the instance kept of the session', () => {
  const CITY = { ...FIELD, key: 'city', y: 20 };
  /** Ann's bundle with two required fields, her session, and the values she saved (kept by the instance). */
  async function saved(values: Record<string, string>) {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Kept',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'form', file_b64: await aPdfB64(), fields: [FIELD, CITY] }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const b = created.body;
    const session = await openSession(sign, call, b.packets[0].id);
    const put = await sign('PUT', '/values', session, {
      values: Object.entries(values).map(([field_key, value]) => ({ doc_key: 'form', field_key, value })),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    return { bundleId: b.id as string, packetId: b.packets[0].id as string, session };
  }
  /** Her record changed as another function instance would change it: its own conditional save. */
  async function changedElsewhere(bundleId: string, packetId: string, values: (v: TValues) => TValues) {
    const store = createSigningRecordStore(runtime.db, runtime.config.tableName);
    const now = (await store.get(runtime.demo.accountId, bundleId, packetId))!;
    await store.save({ ...now, values: values(now.values), version: now.version + 1 }, now);
  }

  it('decides a refusal again on a fresh read: a value saved elsewhere counts', async () => {
    const { bundleId, packetId, session } = await saved({ name: 'Ann Lee' });
    await changedElsewhere(bundleId, packetId, (v) => ({
      ...v,
      'form/city': { value: 'Lyon', filledAt: new Date().toISOString(), ip: '127.0.0.1', userAgent: 'test' },
    }));
    // What the instance kept lacks the city; the record holds it.
    const done = await sign('POST', '/complete', session, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await call('GET', `/bundles/${bundleId}/`)).body.packets[0].status).toBe('co');
  });

  it('finishes only on the record as it is: a value taken away elsewhere is missing', async () => {
    const { bundleId, packetId, session } = await saved({ name: 'Ann Lee', city: 'Lyon' });
    await changedElsewhere(bundleId, packetId, ({ 'form/city': _gone, ...v }) => v);
    const refused = await sign('POST', '/complete', session, { consent: true });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('city');
    expect((await call('GET', `/bundles/${bundleId}/`)).body.packets[0].status).not.toBe('co');
  });

  it('refuses once the sender cancelled the bundle, though what was kept says it is out', async () => {
    const { bundleId, session } = await saved({ name: 'Ann Lee', city: 'Lyon' });
    expect((await call('PUT', `/bundles/${bundleId}/cancel/`)).status).toBe(200);
    const refused = await sign('POST', '/complete', session, { consent: true });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    const after = (await call('GET', `/bundles/${bundleId}/`)).body;
    expect(after.status).toBe('ca');
    expect(after.packets[0].status).not.toBe('co');
  });
});

describe('saving values (PUT /sign/api/values)', () => {
  it('reads the bundle, its documents and the records in one request', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Form',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'form', file_b64: await aPdfB64(), fields: [FIELD] }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const ann = await openSession(sign, call, created.body.packets[0].id);
    let status = 0;
    const commands = (
      await recorder.during(async () => {
        status = (
          await sign('PUT', '/values', ann, {
            values: [{ doc_key: 'form', field_key: 'name', value: 'Ann' }],
          })
        ).status;
      })
    ).filter((c) => c.fn === 'public-pages');
    expect(status).toBe(200);
    expect(bundleReads(commands, created.body.id), JSON.stringify(commands)).toBe(1);
    // The read, the record written, and the account read for its documents key (the state's
    // file link asks for it at each call: a key destroyed takes effect at once).
    expect(
      commands.map((c) => c.command),
      JSON.stringify(commands),
    ).toEqual(['Query', 'PutItem', 'GetItem']);
  });
});

describe('opening an embedded signing page (GET /sign/{token})', () => {
  it('reads the account once, for both the language and who may frame the page', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Framed',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'form', file_b64: await aPdfB64() }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const embed = await call('POST', `/packets/${created.body.packets[0].id}/embed_url/`, { json: {} });
    expect(embed.status, embed.text).toBe(201);

    let status = 0;
    const commands = (
      await recorder.during(async () => {
        status = (await fetch(embed.body.url as string)).status;
      })
    ).filter((c) => c.fn === 'public-pages');
    expect(status).toBe(200);
    const accountReads = onItem(commands, accountKeys.item(runtime.demo.accountId)).filter(
      (c) => c.command === 'GetItem',
    );
    expect(accountReads, JSON.stringify(commands)).toHaveLength(1);
  });
});

describe('opening a session with its first state (POST /sign/api/session)', () => {
  it('reads the bundle, its documents and every signer’s record in one request', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Opening',
        packets: [
          { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
          { key: 'bob', name: 'Bob Day', email: 'bob@example.com', deliver_via: 'embed' },
        ],
        documents: [{ key: 'form', file_b64: await aPdfB64(), fields: [FIELD] }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const b = created.body;
    const token = await embedToken(call, b.packets[0].id);
    let answer: Awaited<ReturnType<typeof sign>> | undefined;
    const commands = (
      await recorder.during(async () => {
        answer = await sign('POST', '/session', undefined, { token, state: true, document: 'form' });
      })
    ).filter((c) => c.fn === 'public-pages');
    expect(answer?.status, JSON.stringify(answer?.body)).toBe(201);
    expect(answer?.body.state.fields).toHaveLength(1);
    expect(answer?.body.document.key).toBe('form');
    // For the opening's checks and for the state answered with it.
    expect(bundleReads(commands, b.id), JSON.stringify(commands)).toBe(1);
    // Besides it: the link read and consumed, the session stored, the bundle written (the packet
    // viewed; no lookup item, as its terms did not change) and its outbox cleared, the record's
    // step, and the account read once for its documents key, by the document's bytes and its link
    // both (no webhooks read: the account never had one).
    expect(commands.length, JSON.stringify(commands)).toBeLessThanOrEqual(8);
    expect(
      onItem(commands, accountKeys.item(runtime.demo.accountId)).filter((c) => c.command === 'GetItem'),
      JSON.stringify(commands),
    ).toHaveLength(1);
    expect((await call('GET', `/bundles/${b.id}/`)).body.packets[0].status).toBe('st');
  });
});

describe('opening a session from the page its link opened', () => {
  it('reads the bundle and the account beside the link, not after it, and the link still decides', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Hinted',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'form', file_b64: await aPdfB64(), fields: [FIELD] }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const b = created.body;
    const token = await embedToken(call, b.packets[0].id);
    // The page reads the link first, as a signer's browser opens it.
    expect((await fetch(`${runtime.baseUrl}/sign/${token}`)).status).toBe(200);
    // The exchange's read of the link is held until the bundle's Query and the account's read
    // are sent, or for 3 s.
    const link = signingKeys.token(hashToken(token));
    const account = accountKeys.item(runtime.demo.accountId);
    const seen = new Set<string>();
    let bothSent!: () => void;
    const sent = new Promise<'both sent'>((resolve) => {
      bothSent = () => resolve('both sent');
    });
    const saw = (what: string) => {
      seen.add(what);
      if (seen.size === 2) bothSent();
    };
    const held: string[] = [];
    const hold = { on: true };
    runtime.db.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as {
          Key?: { pk?: unknown; sk?: unknown };
          ExpressionAttributeValues?: unknown;
        };
        const command = String(context.commandName);
        if (hold.on && currentInvocation()?.fn === 'public-pages') {
          if (command === 'QueryCommand' && JSON.stringify(input.ExpressionAttributeValues).includes(b.id))
            saw('bundle');
          if (command === 'GetItemCommand' && input.Key?.pk === account.pk && input.Key?.sk === account.sk)
            saw('account');
          if (command === 'GetItemCommand' && input.Key?.pk === link.pk)
            held.push(await Promise.race([sent, sleep(3_000).then(() => 'timed out')]));
        }
        return next(args);
      },
      { step: 'initialize', name: 'holdLinkRead' },
    );
    try {
      const opened = await sign('POST', '/session', undefined, { token, state: true });
      expect(opened.status, JSON.stringify(opened.body)).toBe(201);
      expect(held).toEqual(['both sent']);
      // Used now: a second exchange, on the same instance, answers 410 as before.
      const again = await sign('POST', '/session', undefined, { token, state: true });
      expect(again.status).toBe(410);
      expect(again.body.message).toContain('already used');
    } finally {
      hold.on = false;
      runtime.db.middlewareStack.remove('holdLinkRead');
    }
  });
});

describe('the final documents job a finish starts', () => {
  it('reads the account once for the files it reads, once consistently for those it writes', async () => {
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Sealed',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          { key: 'one', file_b64: await aPdfB64(), fields: [{ ...FIELD, kind: 'sig' }] },
          { key: 'two', file_b64: await aPdfB64() },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const ann = await openSession(sign, call, created.body.packets[0].id);
    const saved = await sign('PUT', '/values', ann, {
      values: [{ doc_key: 'one', field_key: 'name', image: PNG_DATA_URL }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const commands = (
      await recorder.during(async () => {
        expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
        await docsReady(call, created.body.id);
      })
    ).filter((c) => c.fn === 'document-worker');
    // Two originals and a drawn mark read: one read of the account for their key. The files it
    // writes (two sealed documents, a certificate) take at most one consistent read, made at the
    // first, so a key being destroyed refuses them (a job ends within the destruction's wait).
    expect(commands.length, JSON.stringify(commands)).toBeGreaterThan(0);
    const accountReads = onItem(commands, accountKeys.item(runtime.demo.accountId)).filter(
      (c) => c.command === 'GetItem',
    );
    expect(
      accountReads.filter((c) => !c.consistent),
      JSON.stringify(commands),
    ).toHaveLength(1);
    expect(accountReads.filter((c) => c.consistent).length, JSON.stringify(commands)).toBeLessThanOrEqual(1);
  });
});
