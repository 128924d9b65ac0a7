import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '#infra/local/layout';
import { listMailbox } from '#infra/local/mailbox/store';
import type { TRuntime } from '#infra/local/runtime';
import { createSigningTokenStore } from '#shared/adapters/dynamodb/signing-token-store';
import { createSigningLink } from '#shared/domain/signing/signing-link';
import { SMS_MAX_WRONG } from '#shared/domain/signing/sms-auth';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';
import { embedToken as embedTokenOf, openSession, PNG_DATA_URL, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let pdf: string;
let sign: ReturnType<typeof signerClient>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  sign = signerClient(runtime);
  pdf = await aPdfB64();
});
afterAll(() => runtime.stop());

const PNG = PNG_DATA_URL;

const fields = [
  { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'], required: true },
  {
    key: 'email',
    kind: 'inp',
    label: 'Email',
    page: 1,
    x: 10,
    y: 10,
    w: 30,
    h: 4,
    editors: ['ann'],
    required: true,
    v_pattern: 'email',
  },
  {
    key: 'agree',
    kind: 'chk',
    label: 'I agree',
    page: 1,
    x: 10,
    y: 20,
    w: 3,
    h: 3,
    editors: ['ann'],
    required: true,
  },
  {
    key: 'plan',
    kind: 'sel',
    label: 'Plan',
    page: 1,
    x: 10,
    y: 30,
    w: 20,
    h: 4,
    editors: ['ann'],
    format: 'Basic|Pro',
  },
  { key: 'start', kind: 'dat', label: 'Start', page: 1, x: 10, y: 40, w: 20, h: 4, editors: ['ann'] },
  {
    key: 'nick',
    kind: 'inp',
    label: 'Nickname',
    page: 1,
    x: 50,
    y: 40,
    w: 20,
    h: 4,
    editors: ['-ann'],
    v_regex: '^[a-z]+$',
    v_regex_msg: 'Lower-case letters only.',
  },
  {
    key: 'id_copy',
    kind: 'att',
    label: 'ID copy',
    x: 0,
    y: 0,
    w: 1,
    h: 1,
    editors: ['ann'],
    v_attachment_types: ['pdf', 'png'],
  },
  { key: 'ann_name', kind: 'snm', page: 1, x: 50, y: 70, w: 20, h: 4, editors: ['ann'] },
  { key: 'ann_date', kind: 'sdt', page: 1, x: 50, y: 75, w: 20, h: 4, editors: ['ann'] },
  { key: 'bob_sig', kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 5, editors: ['bob'], required: true },
];

async function aBundle(overrides: Record<string, unknown> = {}, c = call) {
  const res = await c('POST', '/bundles/', {
    json: {
      label: 'Lease',
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
      documents: [{ key: 'lease', file_b64: pdf, fields }],
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const embedToken = (packetId: string, c = call) => embedTokenOf(c, packetId);
const sessionFor = (packetId: string, c = call) => openSession(sign, c, packetId);

async function fillAnn(session: string) {
  const res = await sign('PUT', '/values', session, {
    values: [
      { doc_key: 'lease', field_key: 'sig', image: PNG },
      { doc_key: 'lease', field_key: 'email', value: 'ann@example.com' },
      { doc_key: 'lease', field_key: 'agree', value: 'true' },
      { doc_key: 'lease', field_key: 'plan', value: 'Pro' },
      { doc_key: 'lease', field_key: 'start', value: '2027-01-01' },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

describe('sessions', () => {
  it('opens once per embedded URL, marks the signer as viewing, and refuses bad tokens and sessions', async () => {
    const b = await aBundle();
    const token = await embedToken(b.packets[0].id);
    const opened = await sign('POST', '/session', undefined, { token });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      session: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      embedded: true,
    });
    const again = await sign('POST', '/session', undefined, { token });
    expect(again.status).toBe(410);
    expect(isErrorBody(again.body)).toBe(true);

    const bundle = (await call('GET', `/bundles/${b.id}/?include=events`)).body;
    expect(bundle.status).toBe('st');
    expect(bundle.packets[0].status).toBe('st');
    expect(bundle.events.filter((e: { kind: string }) => e.kind === 'pv')).toEqual([
      expect.objectContaining({ packet_id: b.packets[0].id }),
    ]);

    const unknown = await sign('POST', '/session', undefined, { token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect((await sign('POST', '/session', undefined, { token: 'short' })).status).toBe(400);
    expect((await sign('GET', '/state')).status).toBe(401);
    expect((await sign('GET', '/state', 'y'.repeat(43))).status).toBe(401);
    expect((await sign('GET', '/state', opened.body.session)).status).toBe(200);
  });

  it('answers the state with the session when asked, as GET /state answers it after the opening', async () => {
    const b = await aBundle();
    const plain = await sign('POST', '/session', undefined, { token: await embedToken(b.packets[0].id) });
    expect(plain.status).toBe(201);
    expect(plain.body.state).toBeUndefined();

    const other = await aBundle();
    const opened = await sign('POST', '/session', undefined, {
      token: await embedToken(other.packets[0].id),
      state: true,
    });
    expect(opened.status).toBe(201);
    const state = await sign('GET', '/state', opened.body.session);
    expect(state.status).toBe(200);
    // The opening is in it (the packet is viewed), and the document links are fresh each time.
    expect(opened.body.state.packet.status).toBe('st');
    const withoutLinks = (s: { documents: { file_url: string }[] }) => ({
      ...s,
      documents: s.documents.map(({ file_url: _url, ...d }) => d),
    });
    expect(withoutLinks(opened.body.state)).toEqual(withoutLinks(state.body));
    expect(opened.body.state.documents).toHaveLength(1);
    expect(opened.body.state.fields.length).toBeGreaterThan(0);
  });

  it('answers the document asked for with the state, as GET /documents/<key> answers it', async () => {
    const b = await aBundle();
    const opened = await sign('POST', '/session', undefined, {
      token: await embedToken(b.packets[0].id),
      state: true,
      document: 'lease',
    });
    expect(opened.status).toBe(201);
    expect(opened.body.document.key).toBe('lease');
    const res = await fetch(`${runtime.baseUrl}/sign/api/documents/lease`, {
      headers: { 'x-signing-session': opened.body.session },
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Buffer.from(opened.body.document.pdf_b64, 'base64').equals(bytes)).toBe(true);

    // Not without the state, nor a document the bundle does not have.
    const plain = await sign('POST', '/session', undefined, {
      token: await embedToken(b.packets[1].id),
      document: 'lease',
    });
    expect(plain.status).toBe(201);
    expect(plain.body.document).toBeUndefined();
    const other = await aBundle();
    const unknown = await sign('POST', '/session', undefined, {
      token: await embedToken(other.packets[0].id),
      state: true,
      document: 'nope',
    });
    expect(unknown.status).toBe(201);
    expect(unknown.body.document).toBeUndefined();

    // Nor to a signer who may not see the documents yet (an SMS code to pass first), as GET
    // /documents/<key> answers them 404.
    const guarded = await aBundle({
      packets: [
        { key: 'ann', name: 'Ann Lee', phone: '+1 555 010 3001', deliver_via: 'embed', auth_sms: true },
        { key: 'bob', name: 'Bob Roe', email: 'bob@example.com', deliver_via: 'embed' },
      ],
    });
    const checked = await sign('POST', '/session', undefined, {
      token: await embedToken(guarded.packets[0].id),
      state: true,
      document: 'lease',
    });
    expect(checked.status).toBe(201);
    expect(checked.body.state.documents).toEqual([]);
    expect(checked.body.document).toBeUndefined();
    const refused = await fetch(`${runtime.baseUrl}/sign/api/documents/lease`, {
      headers: { 'x-signing-session': checked.body.session },
    });
    expect(refused.status).toBe(404);
  });

  it('refuses an expired link', async () => {
    const b = await aBundle();
    const tokens = createSigningTokenStore(runtime.db, runtime.config.tableName);
    const past = { now: () => new Date(Date.now() - 40 * 24 * 3600 * 1000) };
    const { url } = await createSigningLink(
      { tokens, clock: past },
      { ...b, accountId: runtime.demo.accountId, expires: undefined },
      b.packets[0],
      runtime.baseUrl,
    );
    const res = await sign('POST', '/session', undefined, { token: url.split('/').pop() });
    expect(res.status).toBe(404);
  });
});

describe('state and values', () => {
  it("shows the signer's fields with who may fill what, and checks each value against its rules", async () => {
    const b = await aBundle();
    const session = await sessionFor(b.packets[0].id);
    const state = await sign('GET', '/state', session);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ can_sign: true, reason: null, packet: { key: 'ann', status: 'st' } });
    expect(state.body.documents).toEqual([
      expect.objectContaining({
        key: 'lease',
        pages: expect.any(Array),
        file_url: expect.stringContaining('http'),
      }),
    ]);
    const pdfRes = await fetch(state.body.documents[0].file_url);
    expect(pdfRes.status).toBe(200);
    expect(
      Buffer.from(await pdfRes.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('%PDF');
    const byKey = Object.fromEntries(state.body.fields.map((f: { key: string }) => [f.key, f]));
    expect(byKey.sig).toMatchObject({ editable: true, required: true });
    expect(byKey.nick).toMatchObject({ editable: true, required: false });
    expect(byKey.bob_sig).toMatchObject({ editable: false, required: false });
    expect(byKey.ann_name).toMatchObject({ editable: false });
    expect(byKey.plan.options).toEqual(['Basic', 'Pro']);

    const bad = await sign('PUT', '/values', session, {
      values: [
        { doc_key: 'lease', field_key: 'email', value: 'not-an-email' },
        { doc_key: 'lease', field_key: 'plan', value: 'Gold' },
        { doc_key: 'lease', field_key: 'start', value: '2027-02-30' },
        { doc_key: 'lease', field_key: 'nick', value: 'ANN' },
        { doc_key: 'lease', field_key: 'agree', value: 'yes' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'lease.email',
      'lease.plan',
      'lease.start',
      'lease.nick',
      'lease.agree',
    ]);
    expect(bad.body.errors[3].message).toBe('Lower-case letters only.');
    const theirs = await sign('PUT', '/values', session, {
      values: [{ doc_key: 'lease', field_key: 'bob_sig', value: 'typed:Bob' }],
    });
    expect(theirs.status).toBe(403);

    await fillAnn(session);
    const after = await sign('GET', '/state', session);
    const values = Object.fromEntries(
      after.body.fields.map((f: { key: string; value: string }) => [f.key, f.value]),
    );
    expect(values).toMatchObject({
      sig: 'drawn',
      email: 'ann@example.com',
      agree: 'true',
      plan: 'Pro',
      start: '2027-01-01',
    });
  });

  it('takes attachments of the allowed types only', async () => {
    const b = await aBundle();
    const session = await sessionFor(b.packets[0].id);
    const upload = (name: string, type: string, bytes: Buffer) =>
      fetch(`${runtime.baseUrl}/sign/api/attachments?doc_key=lease&field_key=id_copy&name=${name}`, {
        method: 'POST',
        headers: { 'x-signing-session': session, 'content-type': type },
        body: bytes,
      });
    const txt = await upload('notes.txt', 'text/plain', Buffer.from('hello'));
    expect(txt.status).toBe(400);
    const fakePdf = await upload('fake.pdf', 'application/pdf', Buffer.from('not a pdf at all'));
    expect(fakePdf.status).toBe(400);
    const ok = await upload('id.pdf', 'application/pdf', Buffer.from(pdf, 'base64'));
    expect(ok.status).toBe(200);
    const state = (await ok.json()) as { fields: { key: string; value: string }[] };
    expect(state.fields.find((f) => f.key === 'id_copy')!.value).toBe('id.pdf');
  });
});

describe('finishing', () => {
  it('needs consent and every required field, then completes the packet and, last, the bundle', async () => {
    const b = await aBundle();
    const ann = await sessionFor(b.packets[0].id);
    expect((await sign('POST', '/complete', ann, { consent: false })).status).toBe(400);
    const missing = await sign('POST', '/complete', ann, { consent: true });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'lease.sig',
      'lease.email',
      'lease.agree',
    ]);
    await fillAnn(ann);
    const done = await sign('POST', '/complete', ann, { consent: true });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ can_sign: false, reason: 'completed', packet: { status: 'co' } });
    expect(
      (
        await sign('PUT', '/values', ann, {
          values: [{ doc_key: 'lease', field_key: 'plan', value: 'Basic' }],
        })
      ).status,
    ).toBe(409);

    const bob = await sessionFor(b.packets[1].id);
    const bobState = await sign('GET', '/state', bob);
    const plan = bobState.body.fields.find((f: { key: string }) => f.key === 'plan');
    expect(plan).toMatchObject({ value: 'Pro', filled_by: 'ann', editable: false });
    await sign('PUT', '/values', bob, {
      values: [{ doc_key: 'lease', field_key: 'bob_sig', value: 'typed:Bob Roe' }],
    });
    expect((await sign('POST', '/complete', bob, { consent: true })).status).toBe(200);

    const bundle = (await call('GET', `/bundles/${b.id}/?include=events,data`)).body;
    expect(bundle.status).toBe('co');
    expect(
      bundle.events.map((e: { kind: string }) => e.kind).filter((k: string) => ['pc', 'co'].includes(k)),
    ).toEqual(['pc', 'pc', 'co']);
    const data = Object.fromEntries(bundle.data.map((d: { field_key: string }) => [d.field_key, d]));
    expect(data.email).toMatchObject({
      value: 'ann@example.com',
      filled_by: 'ann',
      packet_id: b.packets[0].id,
    });
    expect(data.bob_sig).toMatchObject({ value: 'typed:Bob Roe', filled_by: 'bob' });
    expect(data.ann_name).toMatchObject({ value: 'Ann Lee', filled_by: 'ann' });
    expect(data.ann_date.value).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(data.nick).toMatchObject({ value: '', filled_by: '' });
  });

  it("sends the signer to the packet's redirect, else the account's, after finishing", async () => {
    const { createAccountStore } = await import('#shared/adapters/dynamodb/account-store');
    const accounts = createAccountStore(runtime.db, runtime.config.tableName);
    const other = await runtime.seedAccount('Redirect Co', 'ops@redirect.test');
    await accounts.setSigningRedirect(other.accountId, 'https://redirect.test/thanks');
    const theirs = apiClient(runtime, other.apiKey);
    // The packet's own redirect needs the Signing Brands feature and is set on the packet.
    await accounts.setFeatures(other.accountId, { signing_brands: true });
    const b = await aBundle({}, theirs);
    const patched = await theirs('PATCH', `/packets/${b.packets[1].id}/`, {
      json: { signing_complete_redirect: 'https://partner.test/bob-done' },
    });
    expect(patched.status, patched.text).toBe(200);
    const ann = await sessionFor(b.packets[0].id, theirs);
    await fillAnn(ann);
    const annDone = await sign('POST', '/complete', ann, { consent: true });
    expect(annDone.body.redirect_url).toBe('https://redirect.test/thanks');
    const bob = await sessionFor(b.packets[1].id, theirs);
    await sign('PUT', '/values', bob, {
      values: [{ doc_key: 'lease', field_key: 'bob_sig', value: 'typed:Bob' }],
    });
    const bobDone = await sign('POST', '/complete', bob, { consent: true });
    expect(bobDone.body.redirect_url).toBe('https://partner.test/bob-done');
  });

  it('completes the bundle once when the last two signers finish at the same moment', async () => {
    const b = await aBundle();
    const ann = await sessionFor(b.packets[0].id);
    const bob = await sessionFor(b.packets[1].id);
    await fillAnn(ann);
    await sign('PUT', '/values', bob, {
      values: [{ doc_key: 'lease', field_key: 'bob_sig', value: 'typed:Bob' }],
    });
    const both = await Promise.all([
      sign('POST', '/complete', ann, { consent: true }),
      sign('POST', '/complete', bob, { consent: true }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const events = (await call('GET', `/bundles/${b.id}/events/`)).body.map((e: { kind: string }) => e.kind);
    expect(events.filter((k: string) => k === 'co')).toHaveLength(1);
    expect(events.filter((k: string) => k === 'pc')).toHaveLength(2);
  });

  it('lets later signers sign only after earlier ones, in order', async () => {
    const b = await aBundle({ in_order: true });
    const bundle = (await call('GET', `/bundles/${b.id}/`)).body;
    expect(bundle.packets.map((p: { status: string }) => p.status)).toEqual(['re', 'ne']);
    expect((await call('POST', `/packets/${b.packets[1].id}/embed_url/`)).status).toBe(409);
    const ann = await sessionFor(b.packets[0].id);
    await fillAnn(ann);
    await sign('POST', '/complete', ann, { consent: true });
    const next = (await call('GET', `/bundles/${b.id}/?include=events`)).body;
    expect(next.packets[1].status).toBe('re');
    expect(
      next.events
        .filter((e: { kind: string }) => e.kind === 'pr')
        .map((e: { packet_id: string }) => e.packet_id),
    ).toEqual([b.packets[0].id, b.packets[1].id]);
    const bob = await sessionFor(b.packets[1].id);
    expect((await sign('GET', '/state', bob)).body.can_sign).toBe(true);
  });

  it('declines with a reason: packet and bundle cancelled, and other links show why', async () => {
    const b = await aBundle();
    const ann = await sessionFor(b.packets[0].id);
    const bob = await sessionFor(b.packets[1].id);
    expect((await sign('POST', '/decline', ann, { reason: '' })).status).toBe(400);
    const res = await sign('POST', '/decline', ann, { reason: 'The rent is wrong.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ can_sign: false, reason: 'declined', documents: [], fields: [] });
    const bundle = (await call('GET', `/bundles/${b.id}/?include=events`)).body;
    expect(bundle.status).toBe('ca');
    expect(bundle.packets.map((p: { status: string }) => p.status)).toEqual(['ca', 'ca']);
    const pd = bundle.events.find((e: { kind: string }) => e.kind === 'pd');
    expect(pd).toMatchObject({
      packet_id: b.packets[0].id,
      description: expect.stringContaining('The rent is wrong.'),
    });
    expect(bundle.events.at(-1).kind).toBe('ca');
    const other = await sign('GET', '/state', bob);
    expect(other.body).toMatchObject({ can_sign: false, reason: 'cancelled', documents: [], fields: [] });
    expect((await sign('POST', '/complete', bob, { consent: true })).status).toBe(409);
  });
});

describe('SMS code check', () => {
  async function smsBundle() {
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'Loan',
        packets: [
          { key: 'ann', name: 'Ann Lee', phone: '+1 555 010 3000', deliver_via: 'embed', auth_sms: true },
        ],
        documents: [
          {
            key: 'loan',
            file_b64: pdf,
            fields: [{ key: 'nm', kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, editors: ['ann'] }],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  /** The latest code texted to the phone, from the local mailbox. */
  async function lastCode(): Promise<string> {
    const texts = (await listMailbox(dataPaths(runtime.dataDir).mailbox))
      .filter((m) => m.kind === 'sms' && m.text.includes('signing code'))
      .sort((x, y) => x.time.localeCompare(y.time) || x.id.localeCompare(y.id));
    return /(\d{6}) is your signing code/.exec(texts.at(-1)!.text)![1]!;
  }

  it('hides the documents until the texted code is entered; wrong codes run out', async () => {
    const b = await smsBundle();
    const session = await sessionFor(b.packets[0].id);
    const before = await sign('GET', '/state', session);
    expect(before.body).toMatchObject({
      can_sign: true,
      documents: [],
      fields: [],
      auth: { required: ['sms'], passed: [] },
    });
    expect(before.body.auth.sms_phone_hint).toBe('•••• 3000');
    expect(
      (await sign('PUT', '/values', session, { values: [{ doc_key: 'loan', field_key: 'nm', value: 'x' }] }))
        .status,
    ).toBe(403);

    expect((await sign('POST', '/auth/sms/send', session)).status).toBe(200);
    const code = await lastCode();
    const tooSoon = await sign('POST', '/auth/sms/send', session);
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < SMS_MAX_WRONG; i++) {
      expect((await sign('POST', '/auth/sms/verify', session, { code: wrong })).status).toBe(400);
    }
    const last = await sign('POST', '/auth/sms/verify', session, { code: wrong });
    expect(last.status).toBe(400);
    // The code is void after the last wrong try, even the right one.
    expect((await sign('POST', '/auth/sms/verify', session, { code })).status).toBe(400);
  });

  it('shows the documents once the right code is entered', async () => {
    const b = await smsBundle();
    const session = await sessionFor(b.packets[0].id);
    await sign('POST', '/auth/sms/send', session);
    const ok = await sign('POST', '/auth/sms/verify', session, { code: await lastCode() });
    expect(ok.status).toBe(200);
    expect(ok.body.auth.passed).toEqual(['sms']);
    expect(ok.body.fields).toHaveLength(1);
  });
});

describe('selfie and ID checks', () => {
  const png = Buffer.from(PNG.split(',')[1]!, 'base64');

  async function checkedBundle() {
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'Account opening',
        packets: [
          {
            key: 'ann',
            name: 'Ann Lee',
            email: 'ann@example.com',
            deliver_via: 'embed',
            auth_selfie: true,
            auth_id: true,
          },
        ],
        documents: [
          {
            key: 'form',
            file_b64: pdf,
            fields: [{ key: 'nm', kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, editors: ['ann'] }],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  it('keeps a selfie and ID images as evidence before showing the documents', async () => {
    const b = await checkedBundle();
    const session = await sessionFor(b.packets[0].id);
    expect((await sign('GET', '/state', session)).body.auth).toMatchObject({
      required: ['selfie', 'id'],
      passed: [],
    });

    const notImage = await sign('POST', '/auth/selfie', session, undefined, {
      body: Buffer.from('hello'),
      type: 'image/png',
    });
    expect(notImage.status).toBe(400);
    const selfie = await sign('POST', '/auth/selfie', session, undefined, { body: png, type: 'image/png' });
    expect(selfie.status).toBe(200);
    expect(selfie.body.auth.passed).toEqual(['selfie']);
    expect(selfie.body.documents).toEqual([]);

    const form = new FormData();
    form.append('front', new Blob([png], { type: 'image/png' }), 'front.png');
    const onlyFront = await fetch(`${runtime.baseUrl}/sign/api/auth/id`, {
      method: 'POST',
      headers: { 'x-signing-session': session },
      body: form,
    });
    expect(onlyFront.status).toBe(400);
    form.append('back', new Blob([png], { type: 'image/png' }), 'back.png');
    const id = await fetch(`${runtime.baseUrl}/sign/api/auth/id`, {
      method: 'POST',
      headers: { 'x-signing-session': session },
      body: form,
    });
    expect(id.status).toBe(200);
    const state = (await id.json()) as { auth: { passed: string[] }; fields: unknown[] };
    expect(state.auth.passed).toEqual(['selfie', 'id']);
    expect(state.fields).toHaveLength(1);

    const { createSigningRecordStore } = await import('#shared/adapters/dynamodb/signing-record-store');
    const record = await createSigningRecordStore(runtime.db, runtime.config.tableName).get(
      runtime.demo.accountId,
      b.id,
      b.packets[0].id,
    );
    expect(record!.auth.selfie!.blobKeys).toHaveLength(1);
    expect(record!.auth.id).toMatchObject({
      blobKeys: [expect.any(String), expect.any(String)],
      result: { status: 'collected' },
    });
    // Every step keeps where it came from.
    expect(record!.steps.map((s) => s.action)).toEqual([
      'opened embedded',
      'selfie taken',
      'id check collected',
    ]);
    for (const s of record!.steps) expect(s.ip).not.toBe('');
  });
});
