// The signer API where timing and other signers meet: finishing while values change, required
// values with nothing visible in them, what one signer sees of another's, and a bundle past its
// expiry before the scheduler has recorded it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TSigningRecordStore } from '#shared/domain/ports/signing';
import { withDueAt } from '#shared/domain/scheduler/schedule';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { embedToken, openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let pdf: string;
let bundles: TBundleStore;
let records: TSigningRecordStore;
/** While set, every write of the item with this sort key fails, alone or in a transaction. */
let failWritesOf: string | undefined;

type TWriteInput = { Item?: { sk?: unknown }; TransactItems?: { Put?: { Item?: { sk?: unknown } } }[] };
const writesItem = (input: TWriteInput, sk: string) =>
  input.Item?.sk === sk || (input.TransactItems ?? []).some((t) => t.Put?.Item?.sk === sk);

beforeAll(async () => {
  // The scheduler runs only when a test asks: expiry must show before it has recorded anything.
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  sign = signerClient(runtime);
  pdf = await aPdfB64();
  bundles = createBundleStore(runtime.db, runtime.config.tableName);
  runtime.db.middlewareStack.add(
    (next) => async (args) => {
      if (failWritesOf && writesItem(args.input as TWriteInput, failWritesOf)) {
        // As DynamoDB failing the write outright (thrown before the client's retries).
        throw Object.assign(new Error('We encountered an internal error. Please try again.'), {
          name: 'InternalServerError',
          $fault: 'server',
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'failBundleWrite' },
  );
  records = createSigningRecordStore(runtime.db, runtime.config.tableName);
  await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
    early_file_access: true,
  });
});
afterAll(() => runtime.stop());

const box = { page: 1, x: 10, w: 30, h: 4 };

/** A sent bundle; Ann (embedded) has a required name field, a signature and an optional plan. */
async function aBundle(overrides: Record<string, unknown> = {}, extraFields: unknown[] = []) {
  const res = await call('POST', '/bundles/', {
    json: {
      label: 'Lease',
      packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
      documents: [
        {
          key: 'form',
          file_b64: pdf,
          fields: [
            { key: 'name', kind: 'inp', label: 'Name', ...box, y: 10, editors: ['ann'], required: true },
            { key: 'sig', kind: 'sig', ...box, y: 20, editors: ['ann'], required: true },
            {
              key: 'plan',
              kind: 'sel',
              label: 'Plan',
              ...box,
              y: 30,
              editors: ['ann'],
              format: 'Basic|Pro',
            },
            ...extraFields,
          ],
        },
      ],
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const values = (...pairs: [string, string][]) => ({
  values: pairs.map(([field_key, value]) => ({ doc_key: 'form', field_key, value })),
});

async function fill(session: string, ...pairs: [string, string][]) {
  const res = await sign('PUT', '/values', session, values(...pairs));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function data(bundleId: string): Promise<Record<string, { value: string; filled_by: string }>> {
  const res = await call('GET', `/bundles/${bundleId}/data/`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(res.body.map((d: { field_key: string }) => [d.field_key, d]));
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('finishing while values change', () => {
  it('never completes a packet with a required field emptied under it, however the calls interleave', async () => {
    let completed = 0;
    // At least 24 rounds, and on until one finish has won its race (so the checks of a completed
    // packet ran), 60 at most: which call wins depends on the machine's timing. Up to 60 rounds of
    // racing calls take more than the default 30 s on a busy 2-core machine, hence the longer limit.
    for (let round = 0; round < 60 && (round < 24 || completed === 0); round++) {
      const b = await aBundle();
      const ann = await openSession(sign, call, b.packets[0].id);
      await fill(ann, ['name', 'Ann Lee'], ['sig', 'typed:Ann Lee']);
      const clear = () => sign('PUT', '/values', ann, values(['name', '']));
      // The finish, and eight clears 1 ms apart from its moment to 5 ms after it, a little later
      // each round: the clears win the rounds they start with it, the finish most others.
      const [finish, ...clears] = await Promise.all([
        sign('POST', '/complete', ann, { consent: true }),
        ...Array.from({ length: 8 }, (_, i) => pause((round % 6) + i).then(clear)),
      ]);
      for (const r of [finish!, ...clears]) {
        expect([200, 400, 409], JSON.stringify(r.body)).toContain(r.status);
        if (r.status !== 200) expect(isErrorBody(r.body)).toBe(true);
      }
      const bundle = (await call('GET', `/bundles/${b.id}/`)).body;
      const done = bundle.packets[0].status === 'co';
      // The signer hears the truth: a finish answered 200 exactly when the packet is complete.
      expect(finish!.status === 200, JSON.stringify(finish!.body)).toBe(done);
      if (done) {
        completed++;
        expect((await data(b.id)).name?.value).toBe('Ann Lee');
        // Once finished, no value of the signer changes any more.
        expect((await clear()).status).toBe(409);
      }
    }
    // The finish goes out before the clears in some rounds, so some complete: the check ran.
    expect(completed).toBeGreaterThan(0);
  }, 120_000);

  it('freezes the values once consent is recorded, and a repeated finish completes the packet', async () => {
    const b = await aBundle({}, [
      { key: 'id_copy', kind: 'att', ...box, y: 40, editors: ['ann'], v_attachment_types: ['pdf'] },
    ]);
    const ann = await openSession(sign, call, b.packets[0].id);
    await fill(ann, ['name', 'Ann Lee'], ['sig', 'typed:Ann Lee']);
    // As if a finish wrote the signer's record and stopped before the bundle change.
    const record = (await records.get(runtime.demo.accountId, b.id, b.packets[0].id))!;
    await records.save(
      { ...record, consentAt: new Date().toISOString(), version: record.version + 1 },
      record,
    );

    const cleared = await sign('PUT', '/values', ann, values(['name', '']));
    expect(cleared.status).toBe(409);
    expect(cleared.body.message).toMatch(/finish/i);
    const upload = await fetch(
      `${runtime.baseUrl}/sign/api/attachments?doc_key=form&field_key=id_copy&name=a.pdf`,
      {
        method: 'POST',
        headers: { 'x-signing-session': ann, 'content-type': 'application/pdf' },
        body: Buffer.from(pdf, 'base64'),
      },
    );
    expect(upload.status).toBe(409);
    expect((await sign('POST', '/decline', ann, { reason: 'Changed my mind.' })).status).toBe(409);

    const finished = await sign('POST', '/complete', ann, { consent: true });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.packet.status).toBe('co');
    expect((await data(b.id)).name?.value).toBe('Ann Lee');
  });
});

describe('finishing', () => {
  it('writes the consent and the completed packet as one: a failed write leaves neither', async () => {
    const b = await aBundle();
    const ann = await openSession(sign, call, b.packets[0].id);
    await fill(ann, ['name', 'Ann Lee'], ['sig', 'typed:Ann Lee']);
    failWritesOf = `BUNDLE#${b.id}`;
    const failed = await sign('POST', '/complete', ann, { consent: true });
    failWritesOf = undefined;
    expect(failed.status, JSON.stringify(failed.body)).toBeGreaterThanOrEqual(500);
    // The bundle's write failed, and the record was in the same write: no consent without its packet.
    const record = await records.get(runtime.demo.accountId, b.id, b.packets[0].id);
    expect(record?.consentAt).toBeUndefined();
    expect((await call('GET', `/bundles/${b.id}/`)).body.packets[0].status).not.toBe('co');
    // The values were not frozen by a consent that never took: the signer can still change them.
    await fill(ann, ['plan', 'Pro']);

    const again = await sign('POST', '/complete', ann, { consent: true });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.packet.status).toBe('co');
    expect((await records.get(runtime.demo.accountId, b.id, b.packets[0].id))?.consentAt).toBeDefined();
  });
});

describe('required values', () => {
  it('need visible content: spaces and invisible characters do not fill a required field', async () => {
    const b = await aBundle({}, [
      { key: 'note', kind: 'txt', label: 'Note', ...box, y: 40, editors: ['ann'], required: true },
    ]);
    const ann = await openSession(sign, call, b.packets[0].id);
    // Saving is progress: blanks are taken, and the finish says what is missing.
    await fill(ann, ['name', '   '], ['note', '\u00a0\u200b\t\n'], ['sig', 'typed:Ann Lee']);
    const refused = await sign('POST', '/complete', ann, { consent: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['form.name', 'form.note']);

    await fill(ann, ['name', ' Ann '], ['note', 'ok']);
    expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
  });
});

describe("another signer's values", () => {
  it('show on the page only once that signer has finished', async () => {
    const b = await aBundle(
      {
        packets: [
          { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
          { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
        ],
      },
      [
        { key: 'bob_sig', kind: 'sig', ...box, y: 50, editors: ['bob'], required: true },
        // Everyone's, required for both: each must see a value before finishing on it.
        { key: 'shared', kind: 'inp', label: 'Address', ...box, y: 60, editors: [], required: true },
      ],
    );
    const ann = await openSession(sign, call, b.packets[0].id);
    const bob = await openSession(sign, call, b.packets[1].id);
    await fill(ann, ['name', 'Ann Lee'], ['plan', 'Pro']);
    const seen = async (session: string) =>
      Object.fromEntries(
        (await sign('GET', '/state', session)).body.fields.map(
          (f: { key: string; value: string; filled_by: string | null; has_image: boolean }) => [
            f.key,
            { value: f.value, filled_by: f.filled_by, has_image: f.has_image },
          ],
        ),
      );
    const draws = await sign('PUT', '/values', ann, {
      values: [{ doc_key: 'form', field_key: 'sig', image: PNG_DATA_URL }],
    });
    expect(draws.status).toBe(200);
    await fill(bob, ['shared', '1 Main St']);

    // Ann sees her own values; Bob sees none of hers while she has not finished.
    expect((await seen(ann)).plan).toEqual({ value: 'Pro', filled_by: 'ann', has_image: false });
    const bobSees = await seen(bob);
    expect(bobSees.plan).toEqual({ value: '', filled_by: null, has_image: false });
    expect(bobSees.name).toEqual({ value: '', filled_by: null, has_image: false });
    expect(bobSees.sig).toEqual({ value: '', filled_by: null, has_image: false });
    // Nor Ann Bob's, so she cannot finish on a value she does not see and he may still change.
    expect((await seen(ann)).shared).toEqual({ value: '', filled_by: null, has_image: false });
    const annEarly = await sign('POST', '/complete', ann, { consent: true });
    expect(annEarly.status).toBe(400);
    expect(annEarly.body.errors.map((e: { field: string }) => e.field)).toEqual(['form.shared']);

    await fill(ann, ['shared', '2 Side St']);
    expect((await sign('POST', '/complete', ann, { consent: true })).status).toBe(200);
    const after = await seen(bob);
    expect(after.plan).toEqual({ value: 'Pro', filled_by: 'ann', has_image: false });
    expect(after.sig).toEqual({ value: 'drawn', filled_by: 'ann', has_image: true });
    // A finished signer's value wins and stays.
    expect(after.shared).toEqual({ value: '2 Side St', filled_by: 'ann', has_image: false });
  });
});

describe('a bundle past its expiry', () => {
  it('is refused everywhere as an expired one, before and after the scheduler records it', async () => {
    const b = await aBundle({
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com' },
      ],
    });
    const [annId, bobId] = [b.packets[0].id, b.packets[1].id];
    const session = await openSession(sign, call, annId);
    await fill(session, ['name', 'Ann Lee'], ['sig', 'typed:Ann Lee']);
    const laterTokens = [await embedToken(call, annId), await embedToken(call, annId)];
    // The expiry passes; the scheduler has not run.
    const stored = (await bundles.get(runtime.demo.accountId, b.id))!;
    const expires = new Date(Date.now() - 60_000).toISOString();
    // Written as the domain writes every change (withDueAt notes the expiry as what is due next).
    await bundles.save(withDueAt({ ...stored, expires, version: stored.version + 1 }), stored);

    const answers = async (token: string) => {
      const opened = await sign('POST', '/session', undefined, { token });
      const state = (await sign('GET', '/state', opened.body.session)).body;
      const all = {
        remind: await call('PUT', `/packets/${bobId}/remind/`),
        embed: await call('POST', `/packets/${annId}/embed_url/`),
        patchPacket: await call('PATCH', `/packets/${bobId}/`, { json: { name: 'Bob R. Roe' } }),
        patchBundle: await call('PATCH', `/bundles/${b.id}/`, { json: { cc_sender: true } }),
        interim: await call('PUT', `/bundles/${b.id}/files/`),
        values: await sign('PUT', '/values', session, values(['plan', 'Pro'])),
        complete: await sign('POST', '/complete', session, { consent: true }),
        decline: await sign('POST', '/decline', session, { reason: 'Too late.' }),
        cancel: await call('PUT', `/bundles/${b.id}/cancel/`),
      };
      const calls: Record<string, { status: number; message: string }> = Object.fromEntries(
        Object.entries(all).map(([k, r]) => [k, { status: r.status, message: r.body?.message }]),
      );
      return { opened: opened.status, state: { can_sign: state.can_sign, reason: state.reason }, calls };
    };
    const before = await answers(laterTokens[0]!);
    expect(before.opened).toBe(201);
    expect(before.state).toEqual({ can_sign: false, reason: 'expired' });
    // Each as for a bundle recorded `ex`: the same 409 and message, compared after the scheduler's run.
    for (const [name, answer] of Object.entries(before.calls)) expect(answer.status, name).toBe(409);
    const untouched = (await call('GET', `/bundles/${b.id}/?include=events`)).body;
    expect(untouched.packets.map((p: { status: string; name: string }) => [p.status, p.name])).toEqual([
      ['st', 'Ann Lee'],
      ['se', 'Bob Roe'],
    ]);
    expect(untouched.events.map((e: { kind: string }) => e.kind)).not.toContain('rm');
    expect(untouched.cc_sender).toBe(false);

    await runtime.workers.runScheduler(new Date());
    expect((await call('GET', `/bundles/${b.id}/`)).body.status).toBe('ex');
    expect(await answers(laterTokens[1]!)).toEqual(before);
  });
});
