// Two calls of one signer sent at once, for every pair of the signer's actions on the same packet:
// finishing, declining, handing on, saving values, uploading, choosing a language, the identity
// steps (a selfie; texting and checking an SMS code), and opening another session with another of the signer's links. A packet ends
// one way only: of the actions that decide it (finish, decline, hand on) exactly one wins, the
// others are refused with an error body (409, or 401/410 for a session its own handover ended),
// and what the bundle and its evidence say matches the winner. All through real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox, type TMailboxSms } from '#infra/local/mailbox/index';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TSigningRecordStore } from '#shared/domain/ports/signing';
import { heldRecord } from '#shared/domain/signing/signing-record';
import { aPdfB64 } from '../helpers/bundles';
import { eventually } from '../helpers/receiver';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { embedToken, openSession, PNG_DATA_URL, signerClient, type TSignerAnswer } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let sign: ReturnType<typeof signerClient>;
let records: TSigningRecordStore;
let bundles: TBundleStore;
let pdf: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ schedulerIntervalMs: 3_600_000 });
  call = apiClient(runtime);
  sign = signerClient(runtime);
  records = createSigningRecordStore(runtime.db, runtime.config.tableName);
  bundles = createBundleStore(runtime.db, runtime.config.tableName);
  pdf = await aPdfB64();
});
afterAll(() => runtime?.stop());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
const box = { page: 1, x: 10, w: 30, h: 4 };
const PNG = Buffer.from(PNG_DATA_URL.split(',')[1]!, 'base64');
const takeSelfie = (session: string) =>
  sign('POST', '/auth/selfie', session, undefined, { body: PNG, type: 'image/png' });

/**
 * Ann (embedded, may hand on) with her selfie taken, her signature saved and Bob after her. With
 * `sms`, Ann also has an SMS code check, not yet passed: no code sent (`unsent`, for the send
 * action) or one sent (`sent`, for the check action); her signature is then optional and empty,
 * since nothing may be saved before the checks, so finishing can win once the code is checked.
 */
async function aRound(sms?: 'unsent' | 'sent') {
  const u = unique();
  const phone = `+1 555 0${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const res = await call('POST', '/bundles/', {
    json: {
      label: 'Lease',
      packets: [
        {
          key: 'ann',
          name: 'Ann Lee',
          email: `ann-${u}@example.com`,
          deliver_via: 'embed',
          allow_reassign: true,
          // An identity step, passed below and taken again by the `selfie` action.
          auth_selfie: true,
          ...(sms ? { auth_sms: true, phone } : {}),
        },
        { key: 'bob', name: 'Bob Roe', email: `bob-${u}@example.com` },
      ],
      documents: [
        {
          key: 'form',
          file_b64: pdf,
          fields: [
            { key: 'sig', kind: 'sig', ...box, y: 10, editors: ['ann'], required: !sms },
            { key: 'note', kind: 'inp', label: 'Note', ...box, y: 20, editors: ['ann'] },
            { key: 'id_copy', kind: 'att', ...box, y: 30, editors: ['ann'], v_attachment_types: ['pdf'] },
            { key: 'bsig', kind: 'sig', ...box, y: 40, editors: ['bob'], required: true },
          ],
        },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  const packetId = res.body.packets[0].id as string;
  const session = await openSession(sign, call, packetId);
  expect((await takeSelfie(session)).status).toBe(200);
  let code: string | undefined;
  if (sms === 'sent') {
    expect((await sign('POST', '/auth/sms/send', session)).status).toBe(200);
    code = /(\d{6}) is your signing code/.exec((await textsTo(phone, 1))[0]!.text)?.[1];
    expect(code).toBeDefined();
  }
  if (!sms) {
    const saved = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'form', field_key: 'sig', value: 'typed:Ann Lee' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  // A second link of Ann's, for opening another session during the round.
  const link = await embedToken(call, packetId);
  return { bundleId: res.body.id as string, packetId, session, link, u, sms, phone, code };
}

/** The texts sent to `phone`, once there are `count` of them (none: at once). */
async function textsTo(phone: string, count: number) {
  const e164 = phone.replace(/ /g, '');
  const texts = async () =>
    (await listMailbox(dataPaths(runtime.dataDir).mailbox)).filter(
      (m): m is TMailboxSms => m.kind === 'sms' && m.phone === e164,
    );
  if (count === 0) return texts();
  return eventually(
    async () => {
      const found = await texts();
      return found.length >= count && found;
    },
    15_000,
    `${count} text(s) to ${phone}`,
  );
}
type TRound = Awaited<ReturnType<typeof aRound>>;

/** The signer's actions, each as one call of Ann's session. */
const ACTIONS = {
  complete: (r: TRound) => sign('POST', '/complete', r.session, { consent: true }),
  decline: (r: TRound) => sign('POST', '/decline', r.session, { reason: 'Not mine to sign.' }),
  reassign: (r: TRound) =>
    sign('POST', '/reassign', r.session, {
      name: 'Carol Diaz',
      email: `carol-${r.u}@example.com`,
      // A packet with an SMS code goes only to someone who can take one.
      ...(r.sms ? { phone: r.phone.replace('+1 555 0', '+1 555 1') } : {}),
      reason: 'Carol signs for our firm.',
    }),
  reassignOther: (r: TRound) =>
    sign('POST', '/reassign', r.session, {
      name: 'Dan Wu',
      email: `dan-${r.u}@example.com`,
      reason: 'Dan is the owner.',
    }),
  values: (r: TRound) =>
    sign('PUT', '/values', r.session, {
      values: [{ doc_key: 'form', field_key: 'note', value: 'Ann was here' }],
    }),
  upload: async (r: TRound): Promise<TSignerAnswer> => {
    const res = await fetch(
      `${runtime.baseUrl}/sign/api/attachments?doc_key=form&field_key=id_copy&name=a.pdf`,
      {
        method: 'POST',
        headers: { 'x-signing-session': r.session, 'content-type': 'application/pdf' },
        body: Buffer.from(pdf, 'base64'),
      },
    );
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  },
  language: (r: TRound) => sign('PUT', '/language', r.session, { language: 'de' }),
  open: (r: TRound) => sign('POST', '/session', undefined, { token: r.link }),
  selfie: (r: TRound) => takeSelfie(r.session),
  // The SMS code check's two steps (rounds with `sms`): texting a code, and checking the code sent.
  smsSend: (r: TRound) => sign('POST', '/auth/sms/send', r.session),
  smsCheck: (r: TRound) => sign('POST', '/auth/sms/verify', r.session, { code: r.code }),
} satisfies Record<string, (r: TRound) => Promise<TSignerAnswer>>;
type TAction = keyof typeof ACTIONS;

/** The actions that decide how the packet ends; of these, one at most may succeed. */
const DECIDING = new Set<TAction>(['complete', 'decline', 'reassign', 'reassignOther']);
const HANDING = new Set<TAction>(['reassign', 'reassignOther']);
/** The actions refused (403) until the signer passed every identity check. */
const NEEDS_CHECKS = new Set<TAction>(['complete', 'reassign', 'reassignOther', 'values', 'upload']);
/** The SMS code's steps, raced in rounds of their own (`aRound`'s `sms`). */
const SMS_STEPS = new Set<TAction>(['smsSend', 'smsCheck']);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the sender's API says of Ann's packet after the round. */
async function outcome(r: TRound) {
  const bundle = (await call('GET', `/bundles/${r.bundleId}/?include=events`)).body;
  const packet = bundle.packets.find((p: { id: string }) => p.id === r.packetId);
  const kinds = (bundle.events as { kind: string; packet_id?: string }[])
    .filter((e) => e.packet_id === r.packetId)
    .map((e) => e.kind);
  return { status: packet.status as string, name: packet.name as string, kinds, bundleStatus: bundle.status };
}

/**
 * Sends `a` and `b` at once (b a little later each round, so each may overtake the other) and
 * checks the packet ended one way only, the way the answers say. Answers how often each won.
 */
async function race(a: TAction, b: TAction, rounds: number, sms?: TRound['sms']) {
  const wins: Record<string, number> = { [a]: 0, [b]: 0 };
  for (let round = 0; round < rounds; round++) {
    const r = await aRound(sms);
    const [one, two] = await Promise.all([ACTIONS[a](r), pause(round % 4).then(() => ACTIONS[b](r))]);
    const answers: [TAction, TSignerAnswer][] = [
      [a, one],
      [b, two],
    ];
    const context = JSON.stringify(answers.map(([name, res]) => [name, res.status, res.body]));
    for (const [name, res] of answers) {
      if (res.status === 200 || res.status === 201) wins[name]!++;
      else {
        // Refused clearly: a conflict, or a session (a link: 404) that no longer holds the packet.
        // An embedded link opens once: the second opening of it is 410.
        // An action that needs the identity checks, before the SMS code was checked: 403.
        const checksFirst = r.sms && NEEDS_CHECKS.has(name) && res.status === 403;
        if (checksFirst) expect(res.body.message, context).toBe('Complete the identity checks first.');
        else expect(name === 'open' ? [401, 404, 409, 410] : [401, 409, 410], context).toContain(res.status);
        expect(isErrorBody(res.body), context).toBe(true);
      }
    }
    const won = answers.filter(([name, res]) => DECIDING.has(name) && res.status === 200).map(([n]) => n);
    // The same handover sent twice is one handover answered twice; any other pair has one winner.
    if (a !== b) expect(won.length, context).toBeLessThanOrEqual(1);
    const o = await outcome(r);
    const handedOn = o.kinds.includes('ra');
    expect(o.kinds.filter((k) => k === 'ra').length, context).toBeLessThanOrEqual(1);
    // The packet ended exactly as the one winner says, and no other way.
    if (won.includes('complete')) {
      expect([o.status, o.name, handedOn], context).toEqual(['co', 'Ann Lee', false]);
    } else if (won.includes('decline')) {
      expect([o.status, o.name, handedOn], context).toEqual(['ca', 'Ann Lee', false]);
      expect(o.kinds, context).toContain('pd');
    } else if (won.some((n) => HANDING.has(n))) {
      expect(handedOn, context).toBe(true);
      expect(o.status, context).toBe('se');
      expect(o.kinds, context).not.toContain('pc');
      expect(o.kinds, context).not.toContain('pd');
    } else {
      expect([o.status, o.name, handedOn], context).toEqual(['st', 'Ann Lee', false]);
    }
    // Nothing of Ann's follows the packet to the new signer, nor her consent or decline.
    const record = await records.get(runtime.demo.accountId, r.bundleId, r.packetId);
    if (handedOn) {
      // Nothing Ann's link did is the new signer's: no opening after the handover, and a session
      // it opened holds nothing.
      expect(o.kinds.slice(o.kinds.indexOf('ra')), context).not.toContain('pv');
      const opened = answers.find(([name, res]) => name === 'open' && res.status === 201)?.[1];
      if (opened) expect((await sign('GET', '/state', opened.body.session)).status, context).toBe(401);
    }
    if (handedOn && record) {
      // As the new signer holds it: a record still of Ann's generation counts as empty, so a
      // record of the new generation must not carry Ann's values either.
      const stored = (await bundles.get(runtime.demo.accountId, r.bundleId))!;
      const held = heldRecord(record, stored.packets.find((p) => p.id === r.packetId)!);
      expect(held.generation, context).toBe(1);
      expect(Object.keys(held.values), context).toEqual([]);
      expect(held.auth, context).toEqual({});
      expect([held.consentAt, held.declineReason, held.language, held.handingOn], context).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    }
    // The evidence's step log says Ann consented (or declined) only when her packet did end so.
    const steps = (record?.steps ?? []).map((s) => s.action);
    expect(steps.includes('consented and signed'), context).toBe(o.status === 'co');
    expect(steps.includes('declined'), context).toBe(o.status === 'ca');
    if (r.sms) {
      // Finished or handed on only past the SMS code; an SMS step is in the evidence, and a code
      // texted, exactly when its call was answered 200 (none after the packet was decided).
      if (o.status === 'co' || handedOn) expect(record?.auth.sms?.passedAt, context).toBeDefined();
      const ok = (name: TAction) => answers.some(([n, res]) => n === name && res.status === 200);
      if (r.sms === 'unsent') {
        expect(steps.includes('sms code sent'), context).toBe(ok('smsSend'));
        expect((await textsTo(r.phone, ok('smsSend') ? 1 : 0)).length, context).toBe(ok('smsSend') ? 1 : 0);
      } else expect(steps.includes('sms code passed'), context).toBe(ok('smsCheck'));
    }
  }
  return wins;
}

describe('finishing and handing on sent at once', () => {
  it('end the packet one way only: never completed in the new signer’s name', async () => {
    // 30 rounds: before each was decided on the packet, both calls answered 200 in most of them.
    const wins = await race('complete', 'reassign', 30);
    expect(wins.complete! + wins.reassign!).toBeGreaterThan(0);
  }, 240_000);
});

describe('every other pair of signer actions sent at once', () => {
  const actions = Object.keys(ACTIONS) as TAction[];
  const pairs: [TAction, TAction][] = [];
  for (const [i, a] of actions.entries()) {
    if (SMS_STEPS.has(a)) continue;
    for (const b of actions.slice(i)) {
      if (SMS_STEPS.has(b)) continue;
      // The two handovers stand for each other; complete with reassign is raced above.
      if (b === 'reassignOther' && a !== 'reassign') continue;
      if (a === 'reassignOther') continue;
      if (a === 'complete' && b === 'reassign') continue;
      pairs.push([a, b]);
    }
  }
  it.each(pairs)(
    '%s with %s: one way of ending, the others refused with 401, 409 or 410',
    async (a, b) => {
      // Each pair both ways round: which call is sent first changes which may win. Pairs that
      // decide nothing (values, uploads, language, opening) race less: their writes only queue.
      const rounds = DECIDING.has(a) || DECIDING.has(b) ? 3 : 1;
      await race(a, b, rounds);
      if (a !== b) await race(b, a, rounds);
    },
    120_000,
  );
});

describe('the SMS code’s steps sent at once with finishing, declining or handing on', () => {
  const pairs: [TAction, TAction][] = [];
  for (const step of ['smsSend', 'smsCheck'] as const)
    for (const deciding of ['complete', 'decline', 'reassign'] as const) pairs.push([step, deciding]);
  it.each(pairs)(
    '%s with %s: never finished or handed on past an unchecked code, nothing texted after the end',
    async (step, deciding) => {
      const sms = step === 'smsSend' ? 'unsent' : 'sent';
      await race(step, deciding, 3, sms);
      await race(deciding, step, 3, sms);
    },
    120_000,
  );
});

describe('a handover asked for whose request stopped before the bundle changed hands', () => {
  /** As if a handover wrote the signer's record `ageMs` ago and its request then died. */
  async function asked(r: TRound, ageMs: number) {
    const record = (await records.get(runtime.demo.accountId, r.bundleId, r.packetId))!;
    const at = new Date(Date.now() - ageMs).toISOString();
    const handingOn = {
      from: { name: 'Ann Lee', email: `ann-${r.u}@example.com` },
      to: { name: 'Carol Diaz', email: `carol-${r.u}@example.com` },
      reason: 'Carol signs for our firm.',
      at,
    };
    await records.save({ ...record, handingOn, version: record.version + 1 }, record);
  }

  it('holds the packet: the signer can only repeat it, which hands the packet on', async () => {
    const r = await aRound();
    await asked(r, 0);
    for (const name of ['complete', 'decline', 'values', 'upload', 'reassignOther'] as const) {
      const res = await ACTIONS[name](r);
      expect([name, res.status], JSON.stringify(res.body)).toEqual([name, 409]);
      expect(res.body.message).toBe(
        'You handed these documents to someone else; this link no longer opens them.',
      );
    }
    const state = (await sign('GET', '/state', r.session)).body;
    expect(state.can_reassign).toBe(false);
    const repeated = await ACTIONS.reassign(r);
    expect(repeated.status, JSON.stringify(repeated.body)).toBe(200);
    const o = await outcome(r);
    expect([o.name, o.status, o.kinds.filter((k) => k === 'ra').length]).toEqual(['Carol Diaz', 'se', 1]);
  });

  it('is taken back when the bundle refuses it, and the signer may finish', async () => {
    const r = await aRound();
    await asked(r, 0);
    // Meanwhile the sender gave Bob the address Ann named: Carol would hold two packets.
    const bob = (await call('GET', `/bundles/${r.bundleId}/`)).body.packets[1];
    const patched = await call('PATCH', `/packets/${bob.id}/`, {
      json: { email: `carol-${r.u}@example.com` },
    });
    expect(patched.status, patched.text).toBe(200);
    const refused = await ACTIONS.reassign(r);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
    const record = await records.get(runtime.demo.accountId, r.bundleId, r.packetId);
    expect(record?.handingOn).toBeUndefined();
    expect(record?.steps.at(-1)?.action).toBe('not handed on');
    // Kept, so the certificate can say its `handed on` step in the signer's language.
    expect(record?.handedBack?.map((h) => h.to.name)).toEqual(['Carol Diaz']);
    expect((await sign('GET', '/state', r.session)).body.can_reassign).toBe(true);
    const finished = await ACTIONS.complete(r);
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect((await outcome(r)).status).toBe('co');
  });

  it('lapses after a minute, longer than any request runs: the signer may finish', async () => {
    const r = await aRound();
    await asked(r, 61_000);
    const finished = await ACTIONS.complete(r);
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    const o = await outcome(r);
    expect([o.name, o.status, o.kinds.includes('ra')]).toEqual(['Ann Lee', 'co', false]);
  });
});

describe('a packet marked signed whose signer never consented', () => {
  it('gets no sealed evidence saying they signed: the bundle fails with the reason', async () => {
    await runtime.workers.documents.stop();
    let bundleId: string;
    try {
      const res = await call('POST', '/bundles/', {
        json: {
          label: 'Lease',
          packets: [
            { key: 'ann', name: 'Ann Lee', email: `ann-${unique()}@example.com`, deliver_via: 'embed' },
          ],
          documents: [
            {
              key: 'form',
              file_b64: pdf,
              fields: [{ key: 'sig', kind: 'sig', ...box, y: 10, editors: ['ann'] }],
            },
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      bundleId = res.body.id;
      const packetId = res.body.packets[0].id as string;
      const session = await openSession(sign, call, packetId);
      expect((await sign('POST', '/complete', session, { consent: true })).status).toBe(200);
      // What the race once made: the packet complete, its record without the signer's consent.
      const record = (await records.get(runtime.demo.accountId, bundleId, packetId))!;
      const { consentAt: _dropped, ...unconsented } = record;
      await records.save({ ...unconsented, version: record.version + 1 }, record);
    } finally {
      runtime.workers.documents.start();
    }
    const failed = await eventually(
      async () => {
        const b = (await call('GET', `/bundles/${bundleId}/`)).body;
        return b.status === 'fa' ? b : undefined;
      },
      60_000,
      'the bundle to fail',
    );
    expect(failed.docs_ready).toBe(false);
    expect(JSON.stringify(failed.errors)).toContain('signer_without_consent');
    const files = await call('GET', `/bundles/${bundleId}/files/`);
    expect(JSON.stringify(files.body)).not.toContain('certificate');
  }, 120_000);
});
