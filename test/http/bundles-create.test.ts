import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aPdf } from '../helpers/pdfs';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let fileServer: Server;
let fileBase: string;

let pdf: Uint8Array;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  pdf = await aPdf({
    pages: [
      { size: 'Letter', text: [{ value: 'Welcome to the agreement', x: 72, y: 700, size: 14 }] },
      { size: 'A4', text: [{ value: 'Sign here', x: 100, y: 200, size: 12 }] },
      { size: [400, 300], text: [{ value: 'Sign here', x: 50, y: 100, size: 12 }] },
    ],
  });
  b64 = Buffer.from(pdf).toString('base64');
  fileServer = createServer((req, res) => {
    if (req.url === '/contract.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.from(pdf));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => fileServer.listen(0, '127.0.0.1', () => r()));
  fileBase = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await runtime.stop();
  await new Promise((r) => fileServer.close(r));
});

const aBundleRequest = (overrides: Record<string, unknown> = {}) => ({
  label: 'NDA for Ann',
  email_subject: 'Please sign',
  packets: [
    { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
    { key: 'bob', name: 'Bob Roe', phone: '+1 555 010 3000', deliver_via: 'embed' },
  ],
  documents: [
    {
      key: 'nda',
      file_b64: b64,
      fields: [
        { kind: 'sig', page: 2, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] },
        {
          kind: 'inp',
          key: 'title',
          label: 'Title',
          page: 1,
          x: 10,
          y: 20,
          w: 40,
          h: 4,
          editors: ['ann', '-bob'],
          initial_value: 'CEO',
        },
      ],
    },
  ],
  ...overrides,
});

describe('create a bundle', () => {
  it('answers 201 with the sent bundle, signers sent or ready, documents listed', async () => {
    const res = await call('POST', '/bundles/', { json: aBundleRequest() });
    expect(res.status, res.text).toBe(201);
    const b = res.body;
    expect(b.id).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(b).toMatchObject({
      label: 'NDA for Ann',
      status: 'se',
      in_order: false,
      is_test: false,
      requester_email: 'demo@example.com',
      docs_ready: false,
      documents: [{ key: 'nda', template_id: null }],
      tags: [],
    });
    expect(b.packets.map((p: { status: string; deliver_via: string }) => [p.deliver_via, p.status])).toEqual([
      ['email', 'se'],
      ['embed', 're'],
    ]);
    for (const p of b.packets) {
      expect(p.id).toMatch(/^[0-9A-Za-z]{10}$/);
      expect(p.person_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(p).not.toHaveProperty('key');
    }
    const got = await call('GET', `/bundles/${b.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(b);
  });

  it('links each signer to a Person: a new one, then the same one by email', async () => {
    const first = await call('POST', '/bundles/', {
      json: aBundleRequest({
        packets: [{ key: 'x1', name: 'Cara Link', email: 'cara@link.example' }],
        documents: [{ file_b64: b64 }],
      }),
    });
    const second = await call('POST', '/bundles/', {
      json: aBundleRequest({
        packets: [{ key: 'x1', name: 'Cara L.', email: 'CARA@link.example', phone: '+1 555 010 4444' }],
        documents: [{ file_b64: b64 }],
      }),
    });
    const personId = first.body.packets[0].person_id;
    expect(second.body.packets[0].person_id).toBe(personId);
    const person = await call('GET', `/persons/${personId}/`);
    expect(person.body.name).toBe('Cara Link');
    expect(person.body.channels.map((c: { kind: string }) => c.kind)).toEqual(['em', 'mp']);
  });

  it('uses the given person_id and updates that Person', async () => {
    const person = await call('POST', '/persons/', { json: { name: 'Dee Old', channels: [] } });
    const res = await call('POST', '/bundles/', {
      json: aBundleRequest({
        packets: [{ name: 'Dee New', email: 'dee@example.com', person_id: person.body.id }],
        documents: [{ file_b64: b64 }],
      }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.packets[0].person_id).toBe(person.body.id);
    const after = await call('GET', `/persons/${person.body.id}/`);
    expect(after.body).toMatchObject({ name: 'Dee New', channels: [{ email: 'dee@example.com' }] });
  });

  it('keeps a draft unsent until it is sent, once', async () => {
    const draft = await call('POST', '/bundles/', { json: aBundleRequest({ status: 'dr' }) });
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe('dr');
    expect(draft.body.packets.every((p: { status: string }) => p.status === 'ne')).toBe(true);
    const sent = await call('POST', `/bundles/${draft.body.id}/send/`);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('se');
    expect(sent.body.sent).not.toBeNull();
    const again = await call('POST', `/bundles/${draft.body.id}/send/`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('sends only the first signers of an in-order bundle', async () => {
    const res = await call('POST', '/bundles/', {
      json: aBundleRequest({
        in_order: true,
        packets: [
          { key: 'one', name: 'First', email: 'first@example.com', order: 1 },
          { key: 'two', name: 'Second', email: 'second@example.com', order: 2 },
        ],
        documents: [{ file_b64: b64 }],
      }),
    });
    expect(res.body.packets.map((p: { status: string }) => p.status)).toEqual(['se', 'ne']);
  });

  it('accepts a multipart body with the JSON in bundle_request and files[N]', async () => {
    const form = new FormData();
    const request = aBundleRequest({
      documents: [
        {
          key: 'up',
          file_index: 0,
          fields: [{ kind: 'sig', page: 1, x: 5, y: 5, w: 20, h: 5, editors: ['ann'] }],
        },
      ],
    });
    form.append('bundle_request', JSON.stringify(request));
    form.append('files[0]', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'contract.pdf');
    const res = await fetch(`${runtime.apiUrl}bundles/`, {
      method: 'POST',
      headers: { authorization: `Token ${runtime.demo.apiKey}` },
      body: form,
    });
    const body = (await res.json()) as { documents: { key: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.documents[0]?.key).toBe('up');
  });

  it('fetches a document from file_url (loopback is allowed locally)', async () => {
    const res = await call('POST', '/bundles/', {
      json: aBundleRequest({ documents: [{ key: 'web', file_url: `${fileBase}/contract.pdf` }] }),
    });
    expect(res.status, res.text).toBe(201);
    const missing = await call('POST', '/bundles/', {
      json: aBundleRequest({ documents: [{ key: 'web', file_url: `${fileBase}/nothing.pdf` }] }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('documents[0].file_url');
    const metadata = await call('POST', '/bundles/', {
      json: aBundleRequest({
        documents: [{ key: 'web', file_url: 'http://169.254.169.254/latest/meta-data/' }],
      }),
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.errors[0].field).toBe('documents[0].file_url');
  });

  it('places fields where the auto placement text occurs, on every occurrence', async () => {
    const res = await call('POST', '/bundles/', {
      json: aBundleRequest({
        documents: [
          {
            key: 'auto',
            file_b64: b64,
            auto_placements: [
              { kind: 'sig', search: 'Sign here', w: 20, h: 5, offset_y: -6, editors: ['ann'] },
            ],
          },
        ],
      }),
    });
    expect(res.status, res.text).toBe(201);
    // Fields are not part of the Bundle on the wire; read what was stored.
    const store = createBundleStore(runtime.db, runtime.config.tableName);
    const stored = await store.get(runtime.demo.accountId, res.body.id);
    const [doc] = await store.documents(stored!);
    expect(doc!.fields.map((f) => f.page)).toEqual([2, 3]);
    for (const f of doc!.fields) {
      expect(f).toMatchObject({ kind: 'sig', w: 20, h: 5, editors: ['ann'], search: 'Sign here' });
      expect(f.x).toBeGreaterThan(0);
    }
    // "Sign here" sits at x=50pt of a 400pt-wide page: 12.5 %; and 6 % above the text.
    const onThird = doc!.fields[1]!;
    expect(onThird.x).toBeCloseTo(12.5, 0);
    expect(doc!.pages[2]).toEqual({ width: 400, height: 300 });
    const none = await call('POST', '/bundles/', {
      json: aBundleRequest({
        documents: [
          {
            key: 'auto',
            file_b64: b64,
            auto_placements: [{ kind: 'sig', search: 'Nowhere to be found', w: 20, h: 5 }],
          },
        ],
      }),
    });
    expect(none.status).toBe(400);
    expect(none.body.errors[0].field).toBe('documents[0].auto_placements[0].search');
  });

  it('claims custom_key once per account', async () => {
    const first = await call('POST', '/bundles/', { json: aBundleRequest({ custom_key: 'order-42' }) });
    expect(first.status).toBe(201);
    expect(first.body.custom_key).toBe('order-42');
    const second = await call('POST', '/bundles/', { json: aBundleRequest({ custom_key: 'order-42' }) });
    expect(second.status).toBe(400);
    expect(second.body.errors[0].field).toBe('custom_key');
    const other = await runtime.seedAccount('Other', 'other@example.com');
    const theirs = await apiClient(runtime, other.apiKey)('POST', '/bundles/', {
      json: aBundleRequest({ custom_key: 'order-42' }),
    });
    expect(theirs.status).toBe(201);
  });
});

describe('refusals name the field', () => {
  // Overrides are built when the test runs: the PDF exists only after beforeAll.
  const cases: [string, () => Record<string, unknown>, string][] = [
    [
      'not a PDF',
      () => ({ documents: [{ file_b64: Buffer.from('hello').toString('base64') }] }),
      'documents[0].file_b64',
    ],
    ['no file at all', () => ({ documents: [{ key: 'xx' }] }), 'documents[0].file_url'],
    [
      'two file sources',
      () => ({ documents: [{ file_b64: b64, file_url: 'https://example.com/a.pdf' }] }),
      'documents[0].file_b64',
    ],
    ['a missing multipart file', () => ({ documents: [{ file_index: 3 }] }), 'documents[0].file_index'],
    [
      'a page the document lacks',
      () => ({ documents: [{ file_b64: b64, fields: [{ kind: 'sig', page: 4, x: 1, y: 1, w: 5, h: 5 }] }] }),
      'documents[0].fields[0].page',
    ],
    [
      'a field past the page edge',
      () => ({
        documents: [{ file_b64: b64, fields: [{ kind: 'sig', page: 1, x: 90, y: 1, w: 20, h: 5 }] }],
      }),
      'documents[0].fields[0].w',
    ],
    [
      'an editor that is no signer',
      () => ({
        documents: [
          { file_b64: b64, fields: [{ kind: 'sig', page: 1, x: 1, y: 1, w: 5, h: 5, editors: ['-zed'] }] },
        ],
      }),
      'documents[0].fields[0].editors[0]',
    ],
    [
      'an initial value against its pattern',
      () => ({
        documents: [
          {
            file_b64: b64,
            fields: [
              { kind: 'inp', page: 1, x: 1, y: 1, w: 5, h: 5, v_pattern: 'zip_code', initial_value: 'abc' },
            ],
          },
        ],
      }),
      'documents[0].fields[0].initial_value',
    ],
    [
      'an unknown field kind',
      () => ({ documents: [{ file_b64: b64, fields: [{ kind: 'zzz', page: 1, x: 1, y: 1, w: 5, h: 5 }] }] }),
      'documents[0].fields[0].kind',
    ],
    [
      'email delivery without email',
      () => ({ packets: [{ key: 'a1', name: 'A', phone: '+15550100000', deliver_via: 'email' }] }),
      'packets[0].email',
    ],
    [
      'SMS pin without phone',
      () => ({ packets: [{ key: 'a1', name: 'A', email: 'a@example.com', auth_sms: true }] }),
      'packets[0].phone',
    ],
    [
      'duplicate signer keys',
      () => ({
        packets: [
          { key: 'a1', name: 'A', email: 'a@example.com' },
          { key: 'a1', name: 'B', email: 'b@example.com' },
        ],
      }),
      'packets[1].key',
    ],
    ['no signers', () => ({ packets: [] }), 'packets'],
    ['no documents', () => ({ documents: [] }), 'documents'],
    [
      'an unknown person_id',
      () => ({
        packets: [{ name: 'A', email: 'a@example.com', person_id: '6f1c1a4e-8a43-4a4b-9f59-2b9d8b0e0a11' }],
        documents: [{ file_b64: b64 }],
      }),
      'packets[0].person_id',
    ],
    ['a subject over 400 characters', () => ({ email_subject: 'x'.repeat(401) }), 'email_subject'],
    ['a bad status', () => ({ status: 'co' }), 'status'],
    ['a team without the feature', () => ({ team: '6f1c1a4e-8a43-4a4b-9f59-2b9d8b0e0a11' }), 'team'],
  ];
  for (const [name, overrides, field] of cases) {
    it(name, async () => {
      const res = await call('POST', '/bundles/', { json: aBundleRequest(overrides()) });
      expect(res.status, res.text).toBe(400);
      expect(isErrorBody(res.body)).toBe(true);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  }

  it('refuses a body over 6 MB, as API Gateway would pass none to the Lambda', async () => {
    const res = await call('POST', '/bundles/', {
      json: aBundleRequest({ label: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });

  it('leaves nothing behind when refused', async () => {
    const before = await call('GET', '/bundles/');
    await call('POST', '/bundles/', {
      json: aBundleRequest({
        documents: [{ file_b64: b64 }, { file_b64: Buffer.from('%PDF-broken').toString('base64') }],
      }),
    });
    const after = await call('GET', '/bundles/');
    expect(after.headers.get('x-blueink-pagination')).toBe(before.headers.get('x-blueink-pagination'));
  });
});
