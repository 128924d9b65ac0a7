import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import {
  BundleHelper,
  blueinkClient,
  describeRequest,
  failureOf,
  isApiErrorBody,
  paginationHeaderOf,
  type TBlueInkClient,
  type TClientResponse,
  type TJson,
} from './client';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

// Bundles through the official BlueInk JavaScript client, unchanged.

let runtime: TRuntime;
/** The demo account: no early data or file access. */
let client: TBlueInkClient;
/** An account with early data and file access, so files and field data can be read before completion. */
let early: TBlueInkClient;
let b64: string;
let pdf: Buffer;
let tmp: string;
let fileServer: Server;
let fileBase: string;
const fetched: string[] = [];

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  client = blueinkClient(runtime);
  const earlyAccount = await runtime.seedAccount('Compat Early', 'owner@compat-early.example');
  await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(earlyAccount.accountId, {
    early_data_access: true,
    early_file_access: true,
  });
  early = blueinkClient(runtime, earlyAccount.apiKey);
  // Three pages; "Sign here" is on the second only, for auto placement.
  b64 = await aPdfB64();
  pdf = Buffer.from(b64, 'base64');
  tmp = mkdtempSync(join(tmpdir(), 'compat-bundles-'));
  fileServer = createServer((req, res) => {
    fetched.push(req.url ?? '');
    if (req.url === '/contract.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(pdf);
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
  rmSync(tmp, { recursive: true, force: true });
});

const SLUG = /^[0-9A-Za-z]{10}$/;
const signers = [
  { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
  { key: 'kim', name: 'Kim Embed', email: 'kim@example.com', deliver_via: 'embed' },
];

async function create(c: TBlueInkClient, overrides: Record<string, unknown> = {}): Promise<TJson> {
  const res = await c.bundles.create(aBundle({ packets: signers, ...overrides }, b64));
  expect(res.status).toBe(201);
  return res.data;
}

/** The message the failing test shows: the exact request the client sent and what came back. */
async function expectServed(call: Promise<TClientResponse>): Promise<TClientResponse> {
  try {
    return await call;
  } catch (e) {
    const error = e as Parameters<typeof describeRequest>[0];
    if (error?.isAxiosError && error.response) throw new Error(`not served: ${describeRequest(error)}`);
    throw e;
  }
}

describe('bundles.create with JSON', () => {
  it('creates and sends a bundle from file_b64', async () => {
    const res = await client.bundles.create(
      aBundle({ label: 'Compat JSON', email_subject: 'Please sign', packets: signers }, b64),
    );
    expect(res.status).toBe(201);
    expect(res.pagination).toBeNull();
    expect(res.data.id).toMatch(SLUG);
    expect(res.data).toMatchObject({ label: 'Compat JSON', email_subject: 'Please sign', status: 'se' });
    expect(res.data.documents).toEqual([{ template_id: null, key: 'lease', name: expect.any(String) }]);
    expect(res.data.packets.map((p: TJson) => [p.name, p.deliver_via, p.status])).toEqual([
      ['Ann Lee', 'email', 'se'],
      ['Kim Embed', 'embed', 're'],
    ]);
    for (const p of res.data.packets) expect(p.id).toMatch(SLUG);
  });

  it('fetches a document from file_url on a loopback server', async () => {
    const before = fetched.length;
    const res = await client.bundles.create(
      aBundle({ packets: signers, documents: [{ key: 'web', file_url: `${fileBase}/contract.pdf` }] }, b64),
    );
    expect(res.status).toBe(201);
    expect(res.data.documents.map((d: TJson) => d.key)).toEqual(['web']);
    expect(fetched.slice(before)).toEqual(['/contract.pdf']);
  });

  it('a document URL that answers 404 is a 400 axios error naming the field', async () => {
    const { status, body } = await failureOf(
      client.bundles.create(
        aBundle({ packets: signers, documents: [{ key: 'web', file_url: `${fileBase}/missing.pdf` }] }, b64),
      ),
    );
    expect(status).toBe(400);
    expect(isApiErrorBody(body)).toBe(true);
    expect(body.code).toBe('invalid');
    expect(body.errors[0].field).toBe('documents[0].file_url');
  });

  it('creates from a BundleHelper with only addDocumentByUrl as JSON', async () => {
    const helper = new BundleHelper({ label: 'Helper by URL', requester_email: 'boss@example.com' });
    const doc = helper.addDocumentByUrl(`${fileBase}/contract.pdf`, { key: 'by-url' });
    const signer = helper.addSigner({ name: 'Url Signer', email: 'url@example.com' });
    helper.addField(doc, { kind: 'sig', page: 1, x: 10, y: 10, w: 20, h: 5, editors: [signer] });
    expect(helper.asData()).toBe(helper.bundleData);
    const res = await client.bundles.createFromBundleHelper(helper);
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ label: 'Helper by URL', requester_email: 'boss@example.com' });
    expect(res.data.documents.map((d: TJson) => d.key)).toEqual(['by-url']);
    expect(res.data.packets[0]).toMatchObject({ name: 'Url Signer', email: 'url@example.com', status: 'se' });
  });
});

describe('bundles.createFromBundleHelper with files (multipart)', () => {
  let created: TJson;
  const fieldKeys: string[] = [];

  beforeAll(async () => {
    const path = join(tmp, 'from-path.pdf');
    writeFileSync(path, pdf);
    const helper = new BundleHelper({ label: 'Helper multipart', email_subject: 'Three ways' });
    const ann = helper.addSigner({ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' });
    const kim = helper.addSigner({ name: 'Kim Embed', email: 'kim@example.com', deliver_via: 'embed' });
    const byB64 = helper.addDocumentByB64('from-b64.pdf', b64, { key: 'by-b64' });
    const byFile = helper.addDocumentByFile(
      { buffer: pdf, originalname: 'from-data.pdf' },
      { key: 'by-file' },
    );
    const byPath = helper.addDocumentByPath(path, { key: 'by-path' });
    fieldKeys.push(
      helper.addField(byB64, {
        key: 'b64-sig',
        kind: 'sig',
        page: 1,
        x: 10,
        y: 70,
        w: 30,
        h: 5,
        editors: [ann],
      }),
      helper.addField(byFile, {
        key: 'file-inp',
        kind: 'inp',
        label: 'Title',
        page: 3,
        x: 5,
        y: 5,
        w: 40,
        h: 5,
        initial_value: 'Engineer',
        editors: [kim],
      }),
      helper.addField(byPath, { kind: 'ini', page: 2, x: 50, y: 50, w: 10, h: 5, editors: [ann] }),
    );
    expect(
      helper.addAutoPlacement(byPath, { kind: 'sig', search: 'Sign here', w: 20, h: 5, editors: [kim] }),
    ).toBe('Sign here');
    // The helper turns the three files into files[0..2] parts next to bundle_request.
    expect(helper.bundleData.documents.map((d: TJson) => d.file_index)).toEqual([0, 1, 2]);
    const data = helper.asData() as { headers: Record<string, string> };
    expect(data.headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);

    const res = await early.bundles.createFromBundleHelper(helper);
    expect(res.status).toBe(201);
    created = res.data;
  });

  it('answers the bundle with the three documents and both signers', () => {
    expect(created).toMatchObject({ label: 'Helper multipart', email_subject: 'Three ways', status: 'se' });
    expect(created.documents.map((d: TJson) => d.key)).toEqual(['by-b64', 'by-file', 'by-path']);
    expect(created.packets.map((p: TJson) => [p.name, p.deliver_via, p.status])).toEqual([
      ['Ann Lee', 'email', 'se'],
      ['Kim Embed', 'embed', 're'],
    ]);
  });

  it('stored every uploaded file: listFiles gives a working link per document', async () => {
    const res = await early.bundles.listFiles(created.id);
    expect(res.status).toBe(200);
    expect(res.data.map((f: TJson) => f.doc_key)).toEqual(['by-b64', 'by-file', 'by-path']);
    for (const f of res.data) {
      expect(Date.parse(f.expires)).toBeGreaterThan(Date.now());
      const file = await fetch(f.file_url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
    }
  });

  it('placed the added fields and the auto placement: listData shows them', async () => {
    const res = await early.bundles.listData(created.id);
    expect(res.status).toBe(200);
    const byDoc = (key: string) => res.data.filter((d: TJson) => d.doc_key === key);
    expect(byDoc('by-b64').map((d: TJson) => [d.field_key, d.kind])).toEqual([['b64-sig', 'sig']]);
    expect(byDoc('by-file')).toEqual([
      expect.objectContaining({ field_key: 'file-inp', kind: 'inp', label: 'Title', value: 'Engineer' }),
    ]);
    // One field added by key (generated by the helper) and one found by "Sign here" on page 2.
    expect(
      byDoc('by-path')
        .map((d: TJson) => d.kind)
        .sort(),
    ).toEqual(['ini', 'sig']);
    expect(byDoc('by-path').map((d: TJson) => d.field_key)).toContain(fieldKeys[2]);
  });

  it('an auto placement whose text is not in the document is a 400 naming it', async () => {
    const helper = new BundleHelper({ label: 'Nowhere' });
    const signer = helper.addSigner({ name: 'Ann Lee', email: 'ann@example.com' });
    const doc = helper.addDocumentByB64('nowhere.pdf', b64, { key: 'nowhere' });
    helper.addAutoPlacement(doc, { kind: 'sig', search: 'Not in this PDF', w: 20, h: 5, editors: [signer] });
    const { status, body } = await failureOf(client.bundles.createFromBundleHelper(helper));
    expect(status).toBe(400);
    expect(body.code).toBe('invalid');
    expect(body.errors[0].field).toBe('documents[0].auto_placements[0].search');
  });
});

describe('bundles.createFromEnvelopeTemplate', () => {
  // The client posts { envelope_template: { template_id, field_values }, packets } to /bundles/; the
  // spec's create-from-envelope-template body needs no documents. An unknown envelope template is a
  // 400 that names it (bundles made from real ones: test/compat/envelope-templates.test.ts).
  it('refuses an unknown envelope template by naming it, not the missing documents', async () => {
    const { status, body, error } = await failureOf(
      client.bundles.createFromEnvelopeTemplate({
        label: 'From an envelope template',
        envelope_template: {
          template_id: 'T-nosuchtpl',
          field_values: [{ key: 'amount', initial_value: '10' }],
        },
        packets: [{ key: 'signer-1', name: 'Ann Lee', email: 'ann@example.com' }],
      }),
    );
    expect(error.config.url).toBe('/bundles/');
    expect(status, describeRequest(error)).toBe(400);
    expect(body.code).toBe('invalid');
    const fields: string[] = body.errors.map((e: TJson) => e.field);
    expect(
      fields.some((f) => f.startsWith('envelope_template')),
      describeRequest(error),
    ).toBe(true);
    expect(fields).not.toContain('documents');
  });

  it('is what createFromBundleHelper sends for a helper with addEnvelopeTemplate', async () => {
    const helper = new BundleHelper({ label: 'Helper envelope' });
    helper.addSigner({ key: 'signer-1', name: 'Ann Lee', email: 'ann@example.com' });
    helper.addEnvelopeTemplate({ template_id: 'T-nosuchtpl' });
    const { status, body, error } = await failureOf(client.bundles.createFromBundleHelper(helper));
    expect(status, describeRequest(error)).toBe(400);
    const fields: string[] = body.errors.map((e: TJson) => e.field);
    expect(
      fields.some((f) => f.startsWith('envelope_template')),
      describeRequest(error),
    ).toBe(true);
  });
});

describe('bundles.list and bundles.pagedList', () => {
  let lister: TBlueInkClient;
  const ids: string[] = [];

  beforeAll(async () => {
    const account = await runtime.seedAccount('Compat Lists', 'owner@compat-lists.example');
    lister = blueinkClient(runtime, account.apiKey);
    for (let i = 0; i < 5; i++) {
      // Words, not digits: a digit alone would also prefix-match a slug or a phone.
      ids.push((await create(lister, { label: `Listed ${WORDS[i]}`, status: i % 2 === 0 ? 'dr' : '' })).id);
    }
  });

  it('lists newest first, page by page, and the client parses X-BlueInk-Pagination', async () => {
    const first = await lister.bundles.list({ per_page: 2 });
    expect(first.status).toBe(200);
    expect(paginationHeaderOf(first)).toBe('1,3,2,5');
    expect(first.pagination).toEqual({ pageNumber: 1, totalPages: 3, perPage: 2, totalResults: 5 });
    expect(first.data.map((b: TJson) => b.id)).toEqual([ids[4], ids[3]]);
    const last = await lister.bundles.list({ per_page: 2, page: 3 });
    expect(last.pagination).toEqual({ pageNumber: 3, totalPages: 3, perPage: 2, totalResults: 5 });
    expect(last.data.map((b: TJson) => b.id)).toEqual([ids[0]]);
    const all = await lister.bundles.list();
    expect(all.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 5 });
  });

  it('lists with related_data: the client adds each bundle its events', async () => {
    const res = await lister.bundles.list({ per_page: 2, related_data: true });
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(2);
    for (const b of res.data) {
      expect(b.related_data.events.status).toBe(200);
      expect(b.related_data.events.data.length).toBeGreaterThan(0);
      expect(b.related_data.files).toBeUndefined();
    }
  });

  // List Bundles query parameters (spec): the client passes its params through as the query.
  it('filters by status', async () => {
    const drafts = await expectServed(lister.bundles.list({ status: 'dr' }));
    expect(drafts.data.map((b: TJson) => b.id).sort()).toEqual([ids[0], ids[2], ids[4]].sort());
    expect(drafts.pagination?.totalResults).toBe(3);
  });

  it('filters by search (label)', async () => {
    const one = await expectServed(lister.bundles.list({ search: `Listed ${WORDS[3]}` }));
    expect(one.data.map((b: TJson) => b.id)).toEqual([ids[3]]);
    expect(one.pagination?.totalResults).toBe(1);
  });

  it('pagedList iterates every page', async () => {
    const pages: TClientResponse[] = [];
    for await (const page of lister.bundles.pagedList({ page: 1, per_page: 2 })) {
      pages.push(page);
      if (pages.length > 5) break; // a broken header would loop forever
    }
    expect(pages.map((p) => p.pagination?.pageNumber)).toEqual([1, 2, 3]);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((b: TJson) => b.id))).toEqual([...ids].reverse());
  });
});

describe('bundles.retrieve', () => {
  it('answers the bundle as created; 404 for unknown ids', async () => {
    const b = await create(client, { label: 'Retrieve me' });
    const res = await client.bundles.retrieve(b.id);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: b.id, label: 'Retrieve me', status: 'se' });
    expect(res.data.packets).toEqual(b.packets);
    const missing = await failureOf(client.bundles.retrieve('AAAAAAAAAA'));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('with related_data adds the events (files and data only once complete)', async () => {
    const b = await create(client);
    const res = await client.bundles.retrieve(b.id, { related_data: true });
    expect(res.status).toBe(200);
    expect(res.data.id).toBe(b.id);
    const events = res.data.related_data.events;
    expect(events.status).toBe(200);
    expect(events.data.length).toBeGreaterThan(0);
    for (const e of events.data) {
      expect(e).toEqual({
        kind: expect.any(String),
        description: expect.any(String),
        timestamp: expect.any(String),
        packet_id: expect.toBeOneOf([null, expect.any(String)]),
      });
    }
    expect(res.data.related_data.files).toBeUndefined();
    expect(res.data.related_data.data).toBeUndefined();
  });
});

describe('bundles.update (PATCH)', () => {
  it('changes cc_emails, cc_sender and expires of a sent bundle', async () => {
    const b = await create(client);
    const next = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const res = await client.bundles.update(b.id, {
      cc_emails: ['watcher@example.com'],
      cc_sender: true,
      expires: next,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: b.id, cc_emails: ['watcher@example.com'], cc_sender: true });
    expect(res.data.expires.slice(0, 10)).toBe(next);
    expect((await client.bundles.retrieve(b.id)).data.cc_emails).toEqual(['watcher@example.com']);
  });

  it('refuses a past expiry (400) and a feature the account lacks (400)', async () => {
    const b = await create(client);
    const past = await failureOf(client.bundles.update(b.id, { expires: '2001-01-01' }));
    expect(past.status).toBe(400);
    expect(past.body.errors[0].field).toBe('expires');
    const reminders = await failureOf(client.bundles.update(b.id, { reminder_offset: 2 }));
    expect(reminders.status).toBe(400);
    expect(reminders.body.errors[0].field).toBe('reminder_offset');
  });
});

describe('bundles.send', () => {
  it('sends a draft; a bundle already sent is a 409', async () => {
    const draft = await create(client, { status: 'dr' });
    expect(draft.status).toBe('dr');
    expect(draft.packets.map((p: TJson) => p.status)).toEqual(['ne', 'ne']);
    const res = await client.bundles.send(draft.id);
    expect(res.status).toBe(200);
    expect(res.data.status).toBe('se');
    expect(res.data.packets.map((p: TJson) => p.status)).toEqual(['se', 're']);
    const again = await failureOf(client.bundles.send(draft.id));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });
});

describe('bundles.validate', () => {
  // The client's PUT /bundles/{id}/validate/ ("Validation result (can_send, msg, n_docs)").
  it('reports whether a draft can be sent', async () => {
    const draft = await create(client, { status: 'dr' });
    const res = await expectServed(client.bundles.validate(draft.id));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ can_send: true, n_docs: 1 });
    expect(typeof res.data.msg).toBe('string');
  });
});

describe('bundles.cancel', () => {
  it('cancels; cancelling again is a 409 conflict', async () => {
    const b = await create(client);
    const res = await client.bundles.cancel(b.id);
    expect(res.status).toBe(200);
    expect(res.data.status).toBe('ca');
    const again = await failureOf(client.bundles.cancel(b.id));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    expect(isApiErrorBody(again.body)).toBe(true);
  });
});

describe('bundles.listEvents', () => {
  it('lists the audit events, growing with what happens to the bundle', async () => {
    const b = await create(client);
    const before = await client.bundles.listEvents(b.id);
    expect(before.status).toBe(200);
    expect(before.data.length).toBeGreaterThan(0);
    for (const e of before.data) {
      expect(Object.keys(e).sort()).toEqual(['description', 'kind', 'packet_id', 'timestamp']);
      expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
    }
    await client.bundles.cancel(b.id);
    const after = await client.bundles.listEvents(b.id);
    expect(after.data.length).toBe(before.data.length + 1);
    const missing = await failureOf(client.bundles.listEvents('AAAAAAAAAA'));
    expect(missing.status).toBe(404);
  });
});

describe('bundles.listFiles and bundles.listData before completion', () => {
  it('are 409 conflict axios errors carrying the API error body', async () => {
    const b = await create(client);
    const files = await failureOf(client.bundles.listFiles(b.id));
    expect(files.status).toBe(409);
    expect(files.body.code).toBe('conflict');
    expect(isApiErrorBody(files.body)).toBe(true);
    expect(files.error.config.method).toBe('get');
    const data = await failureOf(client.bundles.listData(b.id));
    expect(data.status).toBe(409);
    expect(data.body.code).toBe('conflict');
    expect(isApiErrorBody(data.body)).toBe(true);
  });
});

describe('bundles.generateFiles', () => {
  // The client's PUT /bundles/{id}/files/ (docs/api-decisions.md: starts interim files, 202).
  it('starts interim files for an account with early file access (202)', async () => {
    const b = await create(early);
    const res = await expectServed(early.bundles.generateFiles(b.id));
    expect(res.status).toBe(202);
  });

  it('is refused without early file access (403) and for a finished bundle (409)', async () => {
    const b = await create(client);
    const denied = await failureOf(client.bundles.generateFiles(b.id));
    expect(denied.status, describeRequest(denied.error)).toBe(403);
    expect(denied.body.code).toBe('permission_denied');
    const done = await create(early);
    await early.bundles.cancel(done.id);
    const finished = await failureOf(early.bundles.generateFiles(done.id));
    expect(finished.status, describeRequest(finished.error)).toBe(409);
    expect(finished.body.code).toBe('conflict');
  });
});
