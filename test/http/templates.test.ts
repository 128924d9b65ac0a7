import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { addUser } from '#shared/domain/accounts/add-user';
import { issueApiKey } from '#shared/domain/accounts/issue-api-key';
import { aPdfB64 } from '../helpers/bundles';
import { aCorruptPdf } from '../helpers/pdfs';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { accountDeps } from '../helpers/teams';

// Document templates (/templates/) and bundles made from them, over real HTTP.

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;
let other: TSeededAccount;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
  other = await runtime.seedAccount('Other Templates', 'owner@other-templates.example');
});
afterAll(() => runtime.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const fieldsOf = (res: { body: { errors: { field: string }[] } }) => res.body.errors.map((e) => e.field);

/** A lease template: a tenant and a landlord, a date and a rent to fill in, two signatures. */
const aTemplate = (overrides: Record<string, unknown> = {}) => ({
  name: 'Lease',
  file_b64: b64,
  roles: [
    { key: 'tenant', label: 'Tenant' },
    { key: 'landlord', label: 'Landlord' },
  ],
  fields: [
    { key: 'start', kind: 'dat', page: 1, x: 10, y: 10, w: 20, h: 4, default_value: '2026-01-01' },
    {
      key: 'rent',
      kind: 'inp',
      page: 1,
      x: 10,
      y: 20,
      w: 20,
      h: 4,
      v_pattern: 'numbers',
      editor_roles: ['-landlord'],
    },
    { key: 'sig-t', kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 5, editor_roles: ['tenant'] },
    { key: 'sig-l', kind: 'sig', page: 2, x: 50, y: 70, w: 30, h: 5, editor_roles: ['landlord'] },
  ],
  ...overrides,
});

async function createTemplate(overrides: Record<string, unknown> = {}, key?: string) {
  const res = await call('POST', '/templates/', { json: aTemplate(overrides), ...(key ? { key } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const signers = [
  { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
  { key: 'bob', name: 'Bob Roe', email: 'bob@example.com' },
];

describe('create a document template', () => {
  it('answers 201 with the template: roles, fields with default_value and editor_roles, a file link', async () => {
    const t = await createTemplate();
    expect(t).toMatchObject({
      name: 'Lease',
      is_shared: false,
      roles: [
        { key: 'tenant', label: 'Tenant' },
        { key: 'landlord', label: 'Landlord' },
      ],
      page_count: 3,
    });
    expect(t.id).toMatch(UUID);
    expect(t.fields).toHaveLength(4);
    expect(t.fields[0]).toMatchObject({ key: 'start', kind: 'dat', page: 1, default_value: '2026-01-01' });
    expect(t.fields[1]).toMatchObject({ key: 'rent', v_pattern: 'numbers', editor_roles: ['-landlord'] });
    expect(t.fields[1]).not.toHaveProperty('editors');
    expect(t.fields[1]).not.toHaveProperty('initial_value');
    const file = await fetch(t.file_url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from(b64, 'base64'));
  });

  it('is retrievable, and a role label defaults to its key', async () => {
    const t = await createTemplate({ roles: [{ key: 'tenant' }, { key: 'landlord' }], is_shared: true });
    const got = await call('GET', `/templates/${t.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: t.id,
      is_shared: true,
      roles: [
        { key: 'tenant', label: 'tenant' },
        { key: 'landlord', label: 'landlord' },
      ],
    });
    expect(got.body.fields).toEqual(t.fields);
  });

  it('accepts multipart: the JSON in template_request, the PDF as files[0]', async () => {
    const form = new FormData();
    const { file_b64: _b64, ...request } = aTemplate({ name: 'Uploaded' });
    form.append('template_request', JSON.stringify({ ...request, file_index: 0 }));
    form.append('files[0]', new Blob([Buffer.from(b64, 'base64')], { type: 'application/pdf' }), 'lease.pdf');
    const res = await fetch(`${runtime.apiUrl}templates/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    const body = (await res.json()) as { name: string; fields: unknown[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.name).toBe('Uploaded');
    expect(body.fields).toHaveLength(4);
  });

  it.each([
    [
      'an editor role that is not a role',
      { fields: [{ kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, editor_roles: ['judge'] }] },
      'fields[0].editor_roles[0]',
    ],
    [
      'a page the PDF lacks',
      { fields: [{ kind: 'inp', page: 9, x: 1, y: 1, w: 5, h: 5 }] },
      'fields[0].page',
    ],
    [
      'a default value a signature cannot take',
      { fields: [{ kind: 'sig', page: 1, x: 1, y: 1, w: 5, h: 5, default_value: 'x' }] },
      'fields[0].default_value',
    ],
    [
      'a default value off its pattern',
      {
        fields: [{ kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, v_pattern: 'email', default_value: 'nope' }],
      },
      'fields[0].default_value',
    ],
    [
      'a field past the page edge',
      { fields: [{ kind: 'inp', page: 1, x: 90, y: 1, w: 20, h: 5 }] },
      'fields[0].w',
    ],
    ['two roles with one key', { roles: [{ key: 'tenant' }, { key: 'tenant' }], fields: [] }, 'roles[1].key'],
    ['a bad role key', { roles: [{ key: 'x' }], fields: [] }, 'roles[0].key'],
    ['no file', { file_b64: undefined, fields: [] }, 'file_url'],
    ['two files', { file_url: 'https://example.com/a.pdf', fields: [] }, 'file_b64'],
    ['a team without the teams feature', { team: randomUUID() }, 'team'],
  ])('refuses %s (400 naming %s)', async (_what, overrides, field) => {
    const res = await call('POST', '/templates/', { json: aTemplate(overrides) });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.code).toBe('invalid');
    expect(fieldsOf(res)).toContain(field);
  });

  it('refuses a file that is not a PDF', async () => {
    const res = await call('POST', '/templates/', {
      json: aTemplate({ file_b64: Buffer.from(await aCorruptPdf()).toString('base64') }),
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['file_b64']);
  });

  it('says which role an editor_roles entry misses', async () => {
    const res = await call('POST', '/templates/', {
      json: aTemplate({
        fields: [{ kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, editor_roles: ['judge'] }],
      }),
    });
    expect(res.body.errors[0].message).toBe('No role has the key "judge".');
  });
});

describe('list, update and delete templates', () => {
  it('lists newest first with the pagination headers', async () => {
    const account = await runtime.seedAccount('Listing', 'owner@listing.example');
    const list = apiClient(runtime, account.apiKey);
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const res = await list('POST', '/templates/', { json: aTemplate({ name }) });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const page1 = await list('GET', '/templates/?per_page=2');
    expect(page1.status).toBe(200);
    expect(page1.body.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    expect(page1.headers.get('x-blueink-pagination')).toBe('1,2,2,3');
    const page2 = await list('GET', '/templates/?per_page=2&page=2');
    expect(page2.body.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
    expect(page2.body[0].file_url).toMatch(/^http/);
  });

  it('PATCH changes name, is_shared, roles and fields; the file stays', async () => {
    const t = await createTemplate();
    const res = await call('PATCH', `/templates/${t.id}/`, {
      json: {
        name: 'Lease 2027',
        is_shared: true,
        roles: [{ key: 'tenant', label: 'Renter' }],
        fields: [{ key: 'sig', kind: 'sig', page: 3, x: 5, y: 5, w: 20, h: 10, editor_roles: ['tenant'] }],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: t.id,
      name: 'Lease 2027',
      is_shared: true,
      roles: [{ key: 'tenant', label: 'Renter' }],
    });
    expect(res.body.fields).toEqual([
      expect.objectContaining({ key: 'sig', page: 3, editor_roles: ['tenant'] }),
    ]);
    expect((await call('GET', `/templates/${t.id}/`)).body.name).toBe('Lease 2027');
  });

  it('PATCH keeps every stored field covered by the roles, and checks fields as create does', async () => {
    const t = await createTemplate();
    const dropped = await call('PATCH', `/templates/${t.id}/`, { json: { roles: [{ key: 'tenant' }] } });
    expect(dropped.status).toBe(400);
    expect(fieldsOf(dropped)).toContain('roles');
    const bad = await call('PATCH', `/templates/${t.id}/`, {
      json: { fields: [{ kind: 'inp', page: 7, x: 1, y: 1, w: 5, h: 5, editor_roles: ['nobody'] }] },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(expect.arrayContaining(['fields[0].page', 'fields[0].editor_roles[0]']));
    expect((await call('GET', `/templates/${t.id}/`)).body.fields).toEqual(t.fields);
  });

  it('DELETE answers 204 and the template is gone', async () => {
    const t = await createTemplate();
    const res = await call('DELETE', `/templates/${t.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('GET', `/templates/${t.id}/`)).status).toBe(404);
    expect((await call('DELETE', `/templates/${t.id}/`)).status).toBe(404);
  });

  it("answers 404 for another account's template, on every operation", async () => {
    const t = await createTemplate({ is_shared: true });
    const key = other.apiKey;
    for (const [method, json] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      const res = await call(method, `/templates/${t.id}/`, { key, ...(json ? { json } : {}) });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const list = await call('GET', '/templates/', { key });
    expect(list.body.map((x: { id: string }) => x.id)).not.toContain(t.id);
    expect((await call('GET', '/templates/not-a-uuid/')).status).toBe(404);
  });

  it('PUT answers 405', async () => {
    const t = await createTemplate();
    expect((await call('PUT', `/templates/${t.id}/`, { json: {} })).status).toBe(405);
  });
});

describe('who sees a template', () => {
  let account: TSeededAccount;
  let colleagueKey: string;

  beforeAll(async () => {
    account = await runtime.seedAccount('Visibility', 'owner@visibility.example');
    const deps = accountDeps(runtime);
    const colleague = await addUser(deps, account.accountId, {
      name: 'Colleague',
      email: 'col@visibility.example',
    });
    colleagueKey = (await issueApiKey(deps, account.accountId, colleague.id)).secret;
  });

  const idsSeenBy = async (key: string) =>
    (await call('GET', '/templates/', { key })).body.map((t: { id: string }) => t.id) as string[];

  it('teams off: every template is seen by the whole account', async () => {
    const own = await call('POST', '/templates/', { key: account.apiKey, json: aTemplate() });
    expect((await call('GET', `/templates/${own.body.id}/`, { key: colleagueKey })).status).toBe(200);
    expect(await idsSeenBy(colleagueKey)).toContain(own.body.id);
  });

  it("teams on: one not shared is hidden from a colleague in none of its owner's teams; a shared one is the account's", async () => {
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(account.accountId, {
      teams: true,
    });
    const mine = await call('POST', '/templates/', {
      key: account.apiKey,
      json: aTemplate({ name: 'Mine' }),
    });
    const shared = await call('POST', '/templates/', {
      key: account.apiKey,
      json: aTemplate({ name: 'Ours', is_shared: true }),
    });
    expect((await call('GET', `/templates/${mine.body.id}/`, { key: colleagueKey })).status).toBe(404);
    expect((await call('GET', `/templates/${shared.body.id}/`, { key: colleagueKey })).status).toBe(200);
    const seen = await idsSeenBy(colleagueKey);
    expect(seen).toContain(shared.body.id);
    expect(seen).not.toContain(mine.body.id);
    expect(await idsSeenBy(account.apiKey)).toEqual(expect.arrayContaining([mine.body.id, shared.body.id]));
    // Nor can the colleague build a bundle from it.
    const bundle = await call('POST', '/bundles/', {
      key: colleagueKey,
      json: {
        packets: signers,
        documents: [
          {
            template_id: mine.body.id,
            assignments: [
              { role: 'tenant', signer: 'ann' },
              { role: 'landlord', signer: 'bob' },
            ],
          },
        ],
      },
    });
    expect(bundle.status).toBe(400);
    expect(fieldsOf(bundle)).toEqual(['documents[0].template_id']);
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(account.accountId, {
      teams: false,
    });
  });
});

describe('bundles from document templates', () => {
  const assignments = [
    { role: 'tenant', signer: 'ann' },
    { role: 'landlord', signer: 'bob' },
  ];

  it('mixes a template document with an uploaded one; roles become signers, values apply, the PDF is reused', async () => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: {
        label: 'From template',
        packets: signers,
        documents: [
          {
            key: 'lease',
            template_id: t.id,
            assignments,
            field_values: [{ key: 'rent', initial_value: '1200' }],
          },
          {
            key: 'rider',
            file_b64: b64,
            fields: [{ kind: 'sig', page: 1, x: 5, y: 5, w: 20, h: 5, editors: ['bob'] }],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.documents).toEqual([
      { template_id: t.id, key: 'lease', name: 'Lease' },
      { template_id: null, key: 'rider', name: 'rider' },
    ]);

    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const bundle = (await store.get(runtime.demo.accountId, res.body.id))!;
    const docs = await store.documents(bundle);
    const lease = docs.find((d) => d.key === 'lease')!;
    expect(lease.templateId).toBe(t.id);
    expect(lease.blobKey).toBe(`accounts/${runtime.demo.accountId}/templates/${t.id}/original.pdf`);
    expect(lease.fields.map((f) => [f.key, f.editors, f.initialValue])).toEqual([
      ['start', [], '2026-01-01'],
      ['rent', ['-bob'], '1200'],
      ['sig-t', ['ann'], undefined],
      ['sig-l', ['bob'], undefined],
    ]);
    expect(docs.find((d) => d.key === 'rider')!.blobKey).toContain(`/bundles/${res.body.id}/originals/`);

    // The template filter of List Bundles finds it, and only it.
    const listed = await call('GET', `/bundles/?template=${t.id}`);
    expect(listed.body.map((b: { id: string }) => b.id)).toEqual([res.body.id]);
  });

  it('gives a template document the key doc-N when none is given, and one signer may take two roles', async () => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: {
        packets: [signers[0]],
        documents: [
          {
            template_id: t.id,
            assignments: [
              { role: 'tenant', signer: 'ann' },
              { role: 'landlord', signer: 'ann' },
            ],
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.documents[0]).toMatchObject({ key: 'doc-1', template_id: t.id });
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const docs = await store.documents((await store.get(runtime.demo.accountId, res.body.id))!);
    // Required for one role and optional for the other: required.
    expect(docs[0]!.fields.find((f) => f.key === 'rent')!.editors).toEqual(['-ann']);
    expect(docs[0]!.fields.find((f) => f.key === 'sig-l')!.editors).toEqual(['ann']);
  });

  it('accepts a template document beside a multipart upload', async () => {
    const t = await createTemplate();
    const form = new FormData();
    form.append(
      'bundle_request',
      JSON.stringify({
        packets: signers,
        documents: [
          { key: 'up', file_index: 0 },
          { key: 'tpl', template_id: t.id, assignments },
        ],
      }),
    );
    form.append('files[0]', new Blob([Buffer.from(b64, 'base64')], { type: 'application/pdf' }), 'a.pdf');
    const res = await fetch(`${runtime.apiUrl}bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    const body = (await res.json()) as { documents: { key: string; template_id: string | null }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.documents.map((d) => [d.key, d.template_id])).toEqual([
      ['up', null],
      ['tpl', t.id],
    ]);
  });

  it.each([
    [
      'a role the template lacks',
      [...assignments, { role: 'judge', signer: 'ann' }],
      'documents[0].assignments[2].role',
    ],
    [
      'a signer the bundle lacks',
      [{ role: 'tenant', signer: 'zed' }, assignments[1]],
      'documents[0].assignments[0].signer',
    ],
    ['a role left unassigned', [assignments[0]], 'documents[0].assignments'],
    [
      'a role assigned twice',
      [...assignments, { role: 'tenant', signer: 'bob' }],
      'documents[0].assignments[2].role',
    ],
  ])('refuses %s (400 naming %s)', async (_what, given, field) => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: { packets: signers, documents: [{ template_id: t.id, assignments: given }] },
    });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(fieldsOf(res)).toContain(field);
  });

  it('refuses a template request without assignments (its shape)', async () => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: { packets: signers, documents: [{ template_id: t.id }] },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['documents[0].assignments']);
  });

  it.each([
    ['an unknown field', [{ key: 'nope', initial_value: 'x' }], 'documents[0].field_values[0].key'],
    [
      'a date that is not YYYY-MM-DD',
      [{ key: 'start', initial_value: 'tomorrow' }],
      'documents[0].field_values[0].initial_value',
    ],
    [
      'a value off the pattern',
      [{ key: 'rent', initial_value: 'twelve' }],
      'documents[0].field_values[0].initial_value',
    ],
    [
      'a value for a signature',
      [{ key: 'sig-t', initial_value: 'x' }],
      'documents[0].field_values[0].initial_value',
    ],
  ])('refuses a field value with %s', async (_what, values, field) => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: { packets: signers, documents: [{ template_id: t.id, assignments, field_values: values }] },
    });
    expect(res.status, res.text).toBe(400);
    expect(fieldsOf(res)).toEqual([field]);
  });

  it("refuses unknown template ids, malformed ones and another account's template", async () => {
    const theirs = await call('POST', '/templates/', {
      key: other.apiKey,
      json: aTemplate({ is_shared: true }),
    });
    expect(theirs.status).toBe(201);
    for (const id of [randomUUID(), 'not-a-uuid', 42, theirs.body.id]) {
      const res = await call('POST', '/bundles/', {
        json: {
          packets: signers,
          documents: [
            { key: 'up', file_b64: b64 },
            { template_id: id, assignments },
          ],
        },
      });
      expect(res.status, String(id)).toBe(400);
      expect(fieldsOf(res)).toEqual(['documents[1].template_id']);
    }
  });

  it('refuses two documents with one key across templates and uploads', async () => {
    const t = await createTemplate();
    const res = await call('POST', '/bundles/', {
      json: {
        packets: signers,
        documents: [
          { key: 'same', file_b64: b64 },
          { key: 'same', template_id: t.id, assignments },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['documents[1].key']);
  });

  it('a deleted template makes no new bundles; bundles made before keep their document', async () => {
    const t = await createTemplate();
    const made = await call('POST', '/bundles/', {
      json: { packets: signers, documents: [{ template_id: t.id, assignments }] },
    });
    expect(made.status).toBe(201);
    expect((await call('DELETE', `/templates/${t.id}/`)).status).toBe(204);
    const after = await call('POST', '/bundles/', {
      json: { packets: signers, documents: [{ template_id: t.id, assignments }] },
    });
    expect(after.status).toBe(400);
    const kept = await call('GET', `/bundles/${made.body.id}/`);
    expect(kept.body.documents[0].template_id).toBe(t.id);
    expect((await call('GET', `/bundles/?template=${t.id}`)).body.map((b: { id: string }) => b.id)).toEqual([
      made.body.id,
    ]);
  });
});

describe('webhook events of document templates', () => {
  let receiver: TReceiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.stop());

  it('fires doc_template_created, _updated and _deleted with {template_id}, logged once each', async () => {
    const account = await runtime.seedAccount('Template Hooks', 'owner@template-hooks.example');
    const c = apiClient(runtime, account.apiKey);
    const hook = await c('POST', '/webhooks/', {
      json: {
        url: receiver.url('/templates-hook'),
        event_types: ['doc_template_created', 'doc_template_updated', 'doc_template_deleted'],
      },
    });
    expect(hook.status, hook.text).toBe(201);
    // Another webhook that listens to bundles only hears nothing of templates.
    await c('POST', '/webhooks/', {
      json: { url: receiver.url('/bundles-hook'), event_types: ['bundle_sent'] },
    });

    const t = (await c('POST', '/templates/', { json: aTemplate() })).body;
    expect((await c('PATCH', `/templates/${t.id}/`, { json: { name: 'Renamed' } })).status).toBe(200);
    expect((await c('DELETE', `/templates/${t.id}/`)).status).toBe(204);

    const calls = await eventually(
      () => receiver.callsTo('/templates-hook').length === 3 && receiver.callsTo('/templates-hook'),
    );
    const bodies = calls.map((x) => JSON.parse(x.body));
    expect(bodies.map((b) => b.event_type).sort()).toEqual([
      'doc_template_created',
      'doc_template_deleted',
      'doc_template_updated',
    ]);
    for (const b of bodies) {
      expect(b).toMatchObject({ account_id: account.accountId, payload: { template_id: t.id } });
      expect(b.event_id).toMatch(UUID);
    }
    expect(new Set(bodies.map((b) => b.event_id)).size).toBe(3);
    expect(receiver.callsTo('/bundles-hook')).toEqual([]);

    const log = await c('GET', '/webhooks/events/?event_type=doc_template_updated');
    expect(log.status, log.text).toBe(200);
    expect(log.body).toHaveLength(1);
    expect(log.body[0]).toMatchObject({ event_type: 'doc_template_updated', webhook: hook.body.id });
  });
});
