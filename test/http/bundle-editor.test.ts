import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import { hashToken, newToken } from '#shared/domain/tokens';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

// The draft bundle editor over real HTTP: POST /bundles/{id}/prepare_url/ (API key), the page at
// /prepare/bundle/<token>, and its token-authenticated API that reads, saves and sends the draft.

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let other: TSeededAccount;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
  other = await runtime.seedAccount('Other Editor', 'owner@other-editor.example');
});
afterAll(() => runtime.stop());

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function aDraft(key?: string): Promise<string> {
  const res = await call('POST', '/bundles/', {
    json: aBundle({ status: 'dr' }, b64),
    ...(key ? { key } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function aLink(id: string) {
  const res = await call('POST', `/bundles/${id}/prepare_url/`, { json: {} });
  expect(res.status, res.text).toBe(201);
  return { ...(res.body as { url: string; expires: string }), token: tokenOf(res.body.url) };
}

/** The page's API with the link's token. */
async function editor(method: string, path: string, token: string, json?: unknown) {
  const res = await fetch(`${runtime.baseUrl}/prepare/api/bundle/${path}`, {
    method,
    headers: {
      'x-preparation-token': token,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

const field = (overrides: Record<string, unknown> = {}) => ({
  key: 'ann-sig',
  kind: 'sig',
  label: 'Sign here',
  required: true,
  page: 2,
  x: 10,
  y: 60,
  w: 30,
  h: 5,
  editors: ['ann'],
  ...overrides,
});

describe('POST /bundles/{id}/prepare_url/', () => {
  it('answers a one-hour link to the editor for a draft, storing only its hash', async () => {
    const id = await aDraft();
    const before = Date.now();
    const link = await aLink(id);
    expect(link.url).toMatch(new RegExp(`^${runtime.baseUrl}/prepare/bundle/[0-9A-Za-z]{43}$`));
    const ttl = Date.parse(link.expires) - before;
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(61 * 60 * 1000);
    const stored = await createPrepSessionStore(runtime.db, runtime.config.tableName).get(
      hashToken(link.token),
    );
    expect(stored).toMatchObject({ bundleId: id, accountId: runtime.demo.accountId });
    expect(JSON.stringify(stored)).not.toContain(link.token);
    // Without a body too.
    expect((await call('POST', `/bundles/${id}/prepare_url/`)).status).toBe(201);
  });

  it("409 for a bundle that is not a draft; 404 for another account's draft", async () => {
    const sent = await call('POST', '/bundles/', { json: aBundle({}, b64) });
    const res = await call('POST', `/bundles/${sent.body.id}/prepare_url/`, { json: {} });
    expect(res.status).toBe(409);
    expect(isErrorBody(res.body)).toBe(true);
    const theirs = await aDraft(other.apiKey);
    const foreign = await call('POST', `/bundles/${theirs}/prepare_url/`, { json: {} });
    expect(foreign.status).toBe(404);
    expect(isErrorBody(foreign.body)).toBe(true);
  });
});

describe('the editor page and its API', () => {
  it("serves the page, framable by the service and the account's embed origins only", async () => {
    const embedding = await runtime.seedAccount('Embedding Editor', 'owner@embedding-editor.example');
    const origins = ['https://app.partner.example', 'http://localhost:5173'];
    await createAccountStore(runtime.db, runtime.config.tableName).setEmbedOrigins(
      embedding.accountId,
      origins,
    );
    const id = await aDraft(embedding.apiKey);
    const res = await call('POST', `/bundles/${id}/prepare_url/`, { key: embedding.apiKey });
    const page = await fetch(res.body.url);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp.endsWith(`; frame-ancestors 'self' ${origins.join(' ')}`)).toBe(true);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const html = await page.text();
    expect(html).toContain('data-mode="bundle"');
    expect(html).toContain('https://app.partner.example');

    // An account without embed origins: the service's own origin alone.
    const plain = await fetch((await aLink(await aDraft())).url);
    expect(plain.headers.get('content-security-policy')?.endsWith("; frame-ancestors 'self'")).toBe(true);
  });

  it('reads the draft: its signers, documents with pages and fields, and each PDF', async () => {
    const id = await aDraft();
    const { token } = await aLink(id);
    const got = await editor('GET', 'session', token);
    expect(got.status, got.text).toBe(200);
    expect(got.body.bundle).toMatchObject({
      id,
      version: 1,
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
        { key: 'bob', name: 'Bob Roe', email: null },
      ],
      documents: [{ key: 'lease', file_url: null, fields: [{ kind: 'sig', page: 1, editors: ['ann'] }] }],
    });
    expect(got.body.bundle.documents[0].pages).toHaveLength(3);
    const pdf = await fetch(`${runtime.baseUrl}/prepare/api/bundle/documents/lease`, {
      headers: { 'x-preparation-token': token },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer())).toEqual(Buffer.from(b64, 'base64'));
    // A template link's token does not open a bundle's API.
    expect((await fetch(`${runtime.baseUrl}/prepare/bundle/${newToken()}`)).status).toBe(404);
  });

  it("saves fields that replace the draft's, as the API then shows them, and sends them", async () => {
    const id = await aDraft();
    const { token } = await aLink(id);
    const fields = [
      field(),
      field({ key: 'bob-name', kind: 'inp', label: 'Your city', required: false, editors: ['bob'], page: 3 }),
      field({ key: 'bob-pick', kind: 'sel', format: 'Red|Green', initial_value: 'Red', editors: ['bob'] }),
    ];
    const saved = await editor('PUT', 'fields', token, { version: 1, documents: [{ key: 'lease', fields }] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.version).toBe(2);
    const again = await editor('GET', 'session', token);
    expect(again.body.bundle.documents[0].fields.map((f: { key: string }) => f.key)).toEqual([
      'ann-sig',
      'bob-name',
      'bob-pick',
    ]);
    const sent = await editor('POST', 'send', token);
    expect(sent.status, sent.text).toBe(200);
    expect((await call('GET', `/bundles/${id}/`)).body.status).toBe('se');
    // The sent bundle has exactly the saved fields (its data lists every field, with early access).
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(runtime.demo.accountId, {
      early_data_access: true,
    });
    const data = await call('GET', `/bundles/${id}/data/`);
    expect(data.status, data.text).toBe(200);
    expect(data.body.map((d: { field_key: string; kind: string }) => `${d.field_key}:${d.kind}`)).toEqual([
      'ann-sig:sig',
      'bob-name:inp',
      'bob-pick:sel',
    ]);
    const events = await call('GET', `/bundles/${id}/events/`);
    const kinds = (events.body as { kind: string }[]).map((e) => e.kind);
    expect(kinds).toContain('up');
    expect(kinds).toContain('se');
    const docs = await fetch(`${runtime.baseUrl}/prepare/api/bundle/session`, {
      headers: { 'x-preparation-token': token },
    });
    // The link is over once the draft is sent.
    expect(docs.status).toBe(410);
    expect((await fetch(`${runtime.baseUrl}/prepare/bundle/${token}`)).status).toBe(410);
  });

  it("the signer's page reads the fields the editor saved, not those the draft was made with", async () => {
    const made = await call('POST', '/bundles/', {
      json: aBundle(
        {
          status: 'dr',
          packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        },
        b64,
      ),
    });
    expect(made.status, made.text).toBe(201);
    const { token } = await aLink(made.body.id);
    const fields = [
      field({ key: 'moved-sig' }),
      field({ key: 'city', kind: 'inp', page: 1, required: false }),
    ];
    const saved = await editor('PUT', 'fields', token, { version: 1, documents: [{ key: 'lease', fields }] });
    expect(saved.status, saved.text).toBe(200);
    expect((await editor('POST', 'send', token)).status).toBe(200);
    const sign = signerClient(runtime);
    const state = await sign('GET', '/state', await openSession(sign, call, made.body.packets[0].id));
    expect(state.status).toBe(200);
    expect(state.body.fields.map((f: { key: string }) => f.key).sort()).toEqual(['city', 'moved-sig']);
  });

  it('400 naming each bad field: a missing signer, off the page, a bad kind, a formula in a circle; nothing is written', async () => {
    const id = await aDraft();
    const { token } = await aLink(id);
    const res = await editor('PUT', 'fields', token, {
      version: 1,
      documents: [
        {
          key: 'lease',
          fields: [
            field({ editors: ['zoe'] }),
            field({ key: 'wide', x: 90, w: 20 }),
            field({ key: 'odd', kind: 'zzz' }),
            field({ key: 'loop', kind: 'inp', formula: 'loop + 1' }),
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'documents[0].fields[0].editors[0]',
      'documents[0].fields[1].w',
      'documents[0].fields[2].kind',
      'documents[0].fields[3].formula',
    ]);
    const page9 = await editor('PUT', 'fields', token, {
      version: 1,
      documents: [{ key: 'lease', fields: [field({ page: 9 })] }],
    });
    expect(page9.body.errors[0].field).toBe('documents[0].fields[0].page');
    const docs = await editor('PUT', 'fields', token, {
      version: 1,
      documents: [
        { key: 'lease', fields: [] },
        { key: 'lease', fields: [] },
        { key: 'nope', fields: [] },
      ],
    });
    expect(docs.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'documents[1].key',
      'documents[2].key',
    ]);
    const after = await editor('GET', 'session', token);
    expect(after.body.bundle.version).toBe(1);
    expect(after.body.bundle.documents[0].fields).toHaveLength(1);
  });

  it('of two saves of one version, exactly one wins; the other is 409', async () => {
    const id = await aDraft();
    const { token } = await aLink(id);
    const body = (key: string) => ({ version: 1, documents: [{ key: 'lease', fields: [field({ key })] }] });
    const answers = await Promise.all([
      editor('PUT', 'fields', token, body('first')),
      editor('PUT', 'fields', token, body('second')),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.documents[0].fields[0].key;
    const now = await editor('GET', 'session', token);
    expect(now.body.bundle.documents[0].fields.map((f: { key: string }) => f.key)).toEqual([winner]);
  });

  it('a draft sent meanwhile by the API: save and send are 409', async () => {
    const id = await aDraft();
    const { token } = await aLink(id);
    expect((await call('POST', `/bundles/${id}/send/`)).status).toBe(200);
    const save = await editor('PUT', 'fields', token, {
      version: 1,
      documents: [{ key: 'lease', fields: [field()] }],
    });
    expect(save.status).toBe(409);
    expect((await editor('POST', 'send', token)).status).toBe(409);
  });

  it('an expired link: 410 page and API; an unknown one 404', async () => {
    const id = await aDraft();
    const token = newToken();
    await createPrepSessionStore(runtime.db, runtime.config.tableName).create({
      hash: hashToken(token),
      accountId: runtime.demo.accountId,
      userId: runtime.demo.userId,
      bundleId: id,
      actor: { type: 'user', userId: runtime.demo.userId },
      created: new Date(Date.now() - 2 * 3600_000).toISOString(),
      expires: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect((await fetch(`${runtime.baseUrl}/prepare/bundle/${token}`)).status).toBe(410);
    const api = await editor('GET', 'session', token);
    expect(api.status).toBe(410);
    expect(api.body.message).toMatch(/expired/);
    expect((await editor('PUT', 'fields', token, { version: 1, documents: [] })).status).toBe(410);
    expect((await editor('GET', 'session', newToken())).status).toBe(404);
  });
});
