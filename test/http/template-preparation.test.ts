import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createPrepSessionStore } from '#shared/adapters/dynamodb/prep-session-store';
import { setUserTeams } from '#shared/domain/accounts/user-teams';
import { hashToken, newToken } from '#shared/domain/tokens';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { accountDeps, seedTeamAccount, type TTeamAccount } from '../helpers/teams';

// Document Template preparation sessions over real HTTP: POST /templates/preparation_session/
// (API key), the public page at /prepare/<token> and its token-authenticated API.

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let other: TSeededAccount;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
  other = await runtime.seedAccount('Other Preparation', 'owner@other-preparation.example');
});
afterAll(() => runtime.stop());

const fieldsOf = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function aTemplate(key?: string): Promise<{ id: string }> {
  const res = await call('POST', '/templates/', {
    json: {
      name: 'Lease',
      file_b64: b64,
      roles: [{ key: 'tenant', label: 'Tenant' }],
      fields: [{ key: 'sig-t', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] }],
    },
    ...(key ? { key } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function aSession(body: Record<string, unknown>, key?: string) {
  const res = await call('POST', '/templates/preparation_session/', { json: body, ...(key ? { key } : {}) });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, token: tokenOf(res.body.url) } as {
    url: string;
    expires: string;
    template_id: string;
    token: string;
  };
}

/** The page's API with the link's token. */
async function prep(method: string, path: string, token: string, json?: unknown) {
  const res = await fetch(`${runtime.baseUrl}/prepare/api/${path}`, {
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

const signatureField = (overrides: Record<string, unknown> = {}) => ({
  key: 'sig-1',
  kind: 'sig',
  label: 'Sign here',
  required: true,
  page: 1,
  x: 12,
  y: 60,
  w: 30,
  h: 5,
  editor_roles: ['buyer'],
  ...overrides,
});

describe('create a preparation session', () => {
  it('makes a new template from a document and answers the page link, its expiry and the template id', async () => {
    const before = Date.now();
    const res = await call('POST', '/templates/preparation_session/', {
      json: { name: 'Sale', file_b64: b64, roles: [{ key: 'buyer', label: 'Buyer' }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['expires', 'template_id', 'url']);
    expect(res.body.url).toMatch(new RegExp(`^${runtime.baseUrl}/prepare/[0-9A-Za-z]{43}$`));
    const ttl = Date.parse(res.body.expires) - before;
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(61 * 60 * 1000);
    const t = await call('GET', `/templates/${res.body.template_id}/`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({
      name: 'Sale',
      roles: [{ key: 'buyer', label: 'Buyer' }],
      fields: [],
      page_count: 3,
    });
  });

  it('opens an existing template of the account', async () => {
    const t = await aTemplate();
    const s = await aSession({ template_id: t.id, allowed_data_flow_tags: ['acme:*'] });
    expect(s.template_id).toBe(t.id);
    const got = await prep('GET', 'session', s.token);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      allowed_data_flow_tags: ['acme:*'],
      redirect_url: null,
      file_url: null,
      template: { id: t.id, name: 'Lease', version: 1, roles: [{ key: 'tenant', label: 'Tenant' }] },
    });
    expect(got.body.template.pages).toHaveLength(3);
    expect(got.body.template.fields[0]).toMatchObject({ key: 'sig-t', editor_roles: ['tenant'] });
    expect(got.headers.get('cache-control')).toBe('no-store');
  });

  it('takes a new template as multipart too: the JSON in template_request, the PDF as files[0]', async () => {
    const form = new FormData();
    form.append('template_request', JSON.stringify({ name: 'Uploaded', file_index: 0 }));
    form.append('files[0]', new Blob([Buffer.from(b64, 'base64')], { type: 'application/pdf' }), 'sale.pdf');
    const res = await fetch(`${runtime.apiUrl}templates/preparation_session/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { template_id: string };
    expect((await call('GET', `/templates/${body.template_id}/`)).body.name).toBe('Uploaded');
  });

  it('gives every session its own token, and stores only its hash', async () => {
    const t = await aTemplate();
    const a = await aSession({ template_id: t.id });
    const b = await aSession({ template_id: t.id });
    expect(a.token).not.toBe(b.token);
    const store = createPrepSessionStore(runtime.db, runtime.config.tableName);
    const stored = await store.get(hashToken(a.token));
    expect(stored).toMatchObject({ templateId: t.id, accountId: runtime.demo.accountId });
    expect(JSON.stringify(stored)).not.toContain(a.token);
  });

  it.each([
    ['neither a template nor a document', {}, 'template_id'],
    [
      'both a template and a document',
      { template_id: '00000000-0000-4000-8000-000000000000', file_b64: 'x' },
      'template_id',
    ],
    ['a malformed template id', { template_id: 'nope' }, 'template_id'],
    [
      'new-template keys with a template id',
      { template_id: '00000000-0000-4000-8000-000000000000', roles: [] },
      'roles',
    ],
    [
      'tags that are not a list of tags',
      { name: 'x', file_b64: 'x', allowed_data_flow_tags: ['a b'] },
      'allowed_data_flow_tags[0]',
    ],
    [
      'a pattern with a bare star',
      { name: 'x', file_b64: 'x', allowed_data_flow_tags: ['*'] },
      'allowed_data_flow_tags[0]',
    ],
    [
      'a redirect that is not https',
      { name: 'x', file_b64: 'x', redirect_url: 'http://example.com/done' },
      'redirect_url',
    ],
    [
      'a redirect that is not a URL',
      { name: 'x', file_b64: 'x', redirect_url: 'javascript:alert(1)' },
      'redirect_url',
    ],
    ['a broken document', { name: 'x', file_b64: 'bm90IGEgcGRm' }, 'file_b64'],
    [
      'a field with a tag the session would refuse',
      {
        name: 'x',
        file_b64: 'x',
        allowed_data_flow_tags: [],
        fields: [{ kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, tag: 'acme:a' }],
      },
      'fields[0].tag',
    ],
  ])('400 for %s', async (_what, body, field) => {
    const res = await call('POST', '/templates/preparation_session/', { json: body });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res)).toContain(field);
  });

  it('400 for a body that is not an object', async () => {
    const res = await call('POST', '/templates/preparation_session/', { json: ['x'] });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
  });

  it("404 for another account's template, and for one that does not exist", async () => {
    const theirs = await aTemplate(other.apiKey);
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await call('POST', '/templates/preparation_session/', { json: { template_id: id } });
      expect(res.status).toBe(404);
      expect(isErrorBody(res.body)).toBe(true);
    }
  });

  it('needs an API key', async () => {
    const res = await call('POST', '/templates/preparation_session/', { json: {}, key: null });
    expect(res.status).toBe(401);
  });
});

describe('the preparation page and its token', () => {
  it('serves the page under the signing pages’ policy: no inline script, no eval', async () => {
    const s = await aSession({ name: 'Page', file_b64: b64 });
    const res = await fetch(s.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(html).toMatch(
      /<script type="module" src="\/sign\/assets\/[0-9a-f]{16}\/prepare\.bundle\.js"><\/script>/,
    );
    expect(html).not.toMatch(/<script>(?!<)/);
    const script = await fetch(`${runtime.baseUrl}${/src="([^"]+prepare\.bundle\.js)"/.exec(html)![1]}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  it("may be framed only by the origins the session's account lists (as embedded signing), else by none", async () => {
    const embedding = await runtime.seedAccount(
      'Embedding Preparation',
      'owner@embedding-preparation.example',
    );
    const origins = ['https://app.partner.example', 'http://localhost:5173'];
    await createAccountStore(runtime.db, runtime.config.tableName).setEmbedOrigins(
      embedding.accountId,
      origins,
    );
    const framed = await aSession(
      { name: 'Framed', file_b64: b64, roles: [{ key: 'buyer' }] },
      embedding.apiKey,
    );
    const res = await fetch(framed.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors ${origins.join(' ')}`);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(csp).toContain("script-src 'self'");

    // The link's own end (saved) shows in the frame too.
    const saved = await prep('PUT', 'template', framed.token, {
      version: 1,
      roles: [{ key: 'buyer' }],
      fields: [],
    });
    expect(saved.status, saved.text).toBe(200);
    const over = await fetch(framed.url);
    expect(over.status).toBe(410);
    expect(over.headers.get('content-security-policy')).toContain(`frame-ancestors ${origins.join(' ')}`);

    // An account without origins (the demo account), and an unknown link: no framing at all.
    const plain = await aSession({ name: 'Not framed', file_b64: b64 });
    for (const url of [plain.url, `${runtime.baseUrl}/prepare/${newToken()}`]) {
      const page = await fetch(url);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('fires doc_template_updated when the page saves the template, as an API change does', async () => {
    // The page's function sends the event to the deliveries queue itself (no bundle outbox).
    const receiver = await startReceiver();
    try {
      const account = await runtime.seedAccount('Preparation Hooks', 'owner@preparation-hooks.example');
      const c = apiClient(runtime, account.apiKey);
      const hook = await c('POST', '/webhooks/', {
        json: { url: receiver.url('/prepared'), event_types: ['doc_template_updated'] },
      });
      expect(hook.status, hook.text).toBe(201);
      const made = await c('POST', '/templates/preparation_session/', {
        json: { name: 'Hooked', file_b64: b64 },
      });
      expect(made.status, made.text).toBe(201);
      const saved = await prep('PUT', 'template', tokenOf(made.body.url), {
        version: 1,
        roles: [{ key: 'buyer' }],
        fields: [signatureField()],
      });
      expect(saved.status, saved.text).toBe(200);
      const calls = await eventually(
        () => receiver.callsTo('/prepared').length > 0 && receiver.callsTo('/prepared'),
      );
      expect(calls).toHaveLength(1);
      expect(JSON.parse(calls[0]!.body)).toMatchObject({
        event_type: 'doc_template_updated',
        account_id: account.accountId,
        payload: { template_id: made.body.template_id },
      });
    } finally {
      await receiver.stop();
    }
  });

  it('an unknown or malformed token: 404 page and 404 API answers', async () => {
    for (const token of [newToken(), 'short']) {
      const page = await fetch(`${runtime.baseUrl}/prepare/${token}`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('This link does not work');
      const api = await prep('GET', 'session', token);
      expect(api.status).toBe(404);
      expect(isErrorBody(api.body)).toBe(true);
    }
    const none = await fetch(`${runtime.baseUrl}/prepare/api/session`);
    expect(none.status).toBe(404);
  });

  it('an expired session: 410 page and 410 API answers', async () => {
    const t = await aTemplate();
    const token = newToken();
    await createPrepSessionStore(runtime.db, runtime.config.tableName).create({
      hash: hashToken(token),
      accountId: runtime.demo.accountId,
      userId: runtime.demo.userId,
      templateId: t.id,
      created: new Date(Date.now() - 2 * 3600_000).toISOString(),
      expires: new Date(Date.now() - 3600_000).toISOString(),
    });
    expect((await fetch(`${runtime.baseUrl}/prepare/${token}`)).status).toBe(410);
    const api = await prep('GET', 'session', token);
    expect(api.status).toBe(410);
    expect(api.body.message).toMatch(/expired/);
    const save = await prep('PUT', 'template', token, { version: 1, roles: [], fields: [] });
    expect(save.status).toBe(410);
  });

  it('hands the page the template PDF itself', async () => {
    const s = await aSession({ name: 'Doc', file_b64: b64 });
    const res = await fetch(`${runtime.baseUrl}/prepare/api/document`, {
      headers: { 'x-preparation-token': s.token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(b64, 'base64'));
  });
});

describe('data flow tags on bundle fields', () => {
  it('POST /bundles/ takes a field tag by the same schema (400 when malformed) and never shows it', async () => {
    const tagged = (tag: string) =>
      aBundle(
        {
          documents: [
            {
              key: 'lease',
              file_b64: b64,
              fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'], tag }],
            },
          ],
        },
        b64,
      );
    const bad = await call('POST', '/bundles/', { json: tagged('not a tag') });
    expect(bad.status, bad.text).toBe(400);
    expect(fieldsOf(bad)).toContain('documents[0].fields[0].tag');
    const made = await call('POST', '/bundles/', { json: tagged('acme:lease.signature') });
    expect(made.status, made.text).toBe(201);
    const got = await call('GET', `/bundles/${made.body.id}/`);
    expect(got.status).toBe(200);
    expect(made.text + got.text).not.toContain('acme:lease.signature');
  });
});

describe('who may prepare a template (teams)', () => {
  let account: TSeededAccount;
  let keys: TTeamAccount['keys'];
  let ids: TTeamAccount['ids'];
  const deps = () => accountDeps(runtime);

  beforeAll(async () => {
    ({ account, keys, ids } = await seedTeamAccount(
      runtime,
      'Preparation Teams',
      'preparation-teams.example',
    ));
    await deps().accounts.setFeatures(account.accountId, { teams: true });
  });

  it("404 for a template of the account that the caller may not use (not shared, not the caller's teams)", async () => {
    const t = await aTemplate(keys.owner);
    const res = await call('POST', '/templates/preparation_session/', {
      key: keys.outsider,
      json: { template_id: t.id },
    });
    expect(res.status, res.text).toBe(404);
    expect(isErrorBody(res.body)).toBe(true);
    expect((await aSession({ template_id: t.id }, keys.teammate)).template_id).toBe(t.id);
  });

  it('an open session whose user loses the template: the page and its API answer 404', async () => {
    const t = await aTemplate(keys.owner);
    const s = await aSession({ template_id: t.id }, keys.teammate);
    expect((await prep('GET', 'session', s.token)).status).toBe(200);
    await setUserTeams(deps(), account.accountId, ids.teammate, { teams: [ids.legal] });
    try {
      for (const path of ['session', 'document']) {
        const res = await prep('GET', path, s.token);
        expect(res.status, path).toBe(404);
        expect(isErrorBody(res.body)).toBe(true);
      }
      const save = await prep('PUT', 'template', s.token, { version: 1, roles: [], fields: [] });
      expect(save.status).toBe(404);
      expect((await fetch(s.url)).status).toBe(404);
    } finally {
      await setUserTeams(deps(), account.accountId, ids.teammate, { teams: [ids.sales] });
    }
    // Back in the team, the link works again (it was never spent).
    expect((await prep('GET', 'session', s.token)).status).toBe(200);
  });
});

describe('saving the template', () => {
  const roles = [{ key: 'buyer', label: 'Buyer' }];

  it('refuses a field naming a role the template does not have, by the PATCH rules', async () => {
    const s = await aSession({ name: 'Bad role', file_b64: b64 });
    const res = await prep('PUT', 'template', s.token, {
      version: 1,
      roles,
      fields: [signatureField({ editor_roles: ['seller'] })],
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors).toContainEqual({
      field: 'fields[0].editor_roles[0]',
      message: 'No role has the key "seller".',
      messsage: 'No role has the key "seller".',
    });
  });

  it('refuses the same role rules as PATCH: duplicate role keys', async () => {
    const s = await aSession({ name: 'Bad roles', file_b64: b64 });
    const res = await prep('PUT', 'template', s.token, {
      version: 1,
      roles: [...roles, { key: 'buyer' }],
      fields: [signatureField()],
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res)).toEqual(['roles[1].key']);
  });

  it('refuses the same field geometry rules as PATCH: a page the document does not have, past the edge', async () => {
    const s = await aSession({ name: 'Bad geometry', file_b64: b64 });
    const res = await prep('PUT', 'template', s.token, {
      version: 1,
      roles,
      fields: [signatureField({ key: 'far', page: 9 }), signatureField({ key: 'wide', x: 90 })],
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res).sort()).toEqual(['fields[0].page', 'fields[1].w']);
  });

  it('refuses a tag outside the allowed set, and any tag when the set is empty', async () => {
    const limited = await aSession({
      name: 'Tags',
      file_b64: b64,
      allowed_data_flow_tags: ['acme:*', 'crm.email'],
    });
    const refused = await prep('PUT', 'template', limited.token, {
      version: 1,
      roles,
      fields: [
        signatureField({ key: 'a', tag: 'acme:customer.name' }),
        signatureField({ key: 'b', tag: 'crm.email' }),
        signatureField({ key: 'c', tag: 'other:thing' }),
        signatureField({ key: 'd', tag: 'acme' }),
      ],
    });
    expect(refused.status, refused.text).toBe(400);
    expect(fieldsOf(refused)).toEqual(['fields[2].tag', 'fields[3].tag']);

    const none = await aSession({ name: 'No tags', file_b64: b64, allowed_data_flow_tags: [] });
    const res = await prep('PUT', 'template', none.token, {
      version: 1,
      roles,
      fields: [signatureField({ tag: 'acme:x' })],
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['fields[0].tag']);
  });

  it('refuses a malformed save body with field errors', async () => {
    const s = await aSession({ name: 'Malformed', file_b64: b64 });
    const res = await prep('PUT', 'template', s.token, { version: 'x', roles: 'nope' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(expect.arrayContaining(['version', 'fields']));
  });

  it('saves roles and fields (tags included), visible through GET /templates/{id}/, and ends the session', async () => {
    const s = await aSession({
      name: 'Saved',
      file_b64: b64,
      allowed_data_flow_tags: ['acme:*'],
      redirect_url: 'https://app.example.com/templates/done',
    });
    const res = await prep('PUT', 'template', s.token, {
      version: 1,
      name: 'Saved and placed',
      roles: [...roles, { key: 'seller', label: 'Seller' }],
      fields: [
        signatureField(),
        {
          key: 'price',
          kind: 'inp',
          page: 2,
          x: 10,
          y: 10,
          w: 20,
          h: 4,
          editor_roles: ['-seller'],
          tag: 'acme:price',
        },
        { key: 'agree', kind: 'chk', page: 1, x: 5, y: 5, w: 3, h: 2 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.redirect_url).toBe('https://app.example.com/templates/done');

    const t = await call('GET', `/templates/${s.template_id}/`);
    expect(t.body).toMatchObject({
      name: 'Saved and placed',
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
    });
    expect(t.body.fields).toHaveLength(3);
    expect(t.body.fields[0]).toMatchObject({
      key: 'sig-1',
      kind: 'sig',
      required: true,
      editor_roles: ['buyer'],
      tag: null,
    });
    expect(t.body.fields[1]).toMatchObject({
      key: 'price',
      page: 2,
      editor_roles: ['-seller'],
      tag: 'acme:price',
    });

    expect((await prep('GET', 'session', s.token)).status).toBe(410);
    const again = await prep('PUT', 'template', s.token, { version: 2, roles, fields: [] });
    expect(again.status).toBe(410);
    expect((await fetch(s.url)).status).toBe(410);
  });

  it('409 when the template changed since the page read it (concurrent saves cannot both win)', async () => {
    const s = await aSession({ name: 'Raced', file_b64: b64, roles });
    const patched = await call('PATCH', `/templates/${s.template_id}/`, {
      json: { name: 'Changed elsewhere' },
    });
    expect(patched.status).toBe(200);
    const res = await prep('PUT', 'template', s.token, { version: 1, roles, fields: [signatureField()] });
    expect(res.status).toBe(409);
    expect(isErrorBody(res.body)).toBe(true);
    // The refused save did not spend the link: read again, save again.
    const reread = await prep('GET', 'session', s.token);
    expect(reread.status, reread.text).toBe(200);
    expect(reread.body.template).toMatchObject({ name: 'Changed elsewhere', version: 2 });
    const resaved = await prep('PUT', 'template', s.token, {
      version: 2,
      roles,
      fields: [signatureField({ key: 'after-409' })],
    });
    expect(resaved.status, resaved.text).toBe(200);
    expect((await prep('GET', 'session', s.token)).status).toBe(410);

    const fresh = await aSession({ template_id: s.template_id });
    const [a, b] = await Promise.all([
      prep('PUT', 'template', fresh.token, {
        version: 3,
        roles,
        fields: [signatureField({ key: 'from-a' })],
      }),
      prep('PUT', 'template', fresh.token, {
        version: 3,
        roles,
        fields: [signatureField({ key: 'from-b' })],
      }),
    ]);
    expect([a.status, b.status].filter((st) => st === 200)).toHaveLength(1);
    expect([409, 410]).toContain(a.status === 200 ? b.status : a.status);
    const t = await call('GET', `/templates/${s.template_id}/`);
    expect(t.body.fields.map((f: { key: string }) => f.key)).toEqual([
      a.status === 200 ? 'from-a' : 'from-b',
    ]);
  });
  it('a save the template rules refuse leaves the link open: fix it and save again', async () => {
    const s = await aSession({ name: 'Fixable', file_b64: b64, roles });
    const refused = await prep('PUT', 'template', s.token, {
      version: 1,
      roles,
      fields: [signatureField({ editor_roles: ['seller'] })],
    });
    expect(refused.status, refused.text).toBe(400);
    expect(fieldsOf(refused)).toEqual(['fields[0].editor_roles[0]']);
    const page = await fetch(s.url);
    expect(page.status).toBe(200);
    expect((await prep('GET', 'session', s.token)).body.template.version).toBe(1);
    const saved = await prep('PUT', 'template', s.token, { version: 1, roles, fields: [signatureField()] });
    expect(saved.status, saved.text).toBe(200);
    expect((await prep('GET', 'session', s.token)).status).toBe(410);
  });

  it('of concurrent saves only one goes through, even one carrying the version the other writes', async () => {
    const s = await aSession({ name: 'Replayed', file_b64: b64, roles });
    // Each save is a whole template; the version is the one it claims to have read.
    const saves = [1, 2, 1, 2, 3, 2].map((version, i) =>
      prep('PUT', 'template', s.token, { version, roles, fields: [signatureField({ key: `save-${i}` })] }),
    );
    const answers = await Promise.all(saves);
    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(won, answers.map((a) => a.status).join()).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expect([409, 410], a.text).toContain(a.status);
    expect((await prep('GET', 'session', s.token)).status).toBe(410);

    // The template was written once: by the winner, from version 1 to 2.
    const t = await call('GET', `/templates/${s.template_id}/`);
    expect(t.body.fields.map((f: { key: string }) => f.key)).toEqual([`save-${won[0]}`]);
    const after = await aSession({ template_id: s.template_id });
    expect((await prep('GET', 'session', after.token)).body.template.version).toBe(2);
  });
});
