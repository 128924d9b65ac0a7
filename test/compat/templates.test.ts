import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import type { TSeededAccount } from '#infra/local/seed-account';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import {
  BundleHelper,
  blueinkClient,
  failureOf,
  isApiErrorBody,
  type TBlueInkClient,
  type TClientResponse,
  type TJson,
} from './client';

// Document templates through the official BlueInk JavaScript client, unchanged. The client has no
// create call (upstream, templates are made in the web app): they are created over plain HTTP with
// the same key, through this service's own POST /templates/.

let runtime: TRuntime;
let account: TSeededAccount;
let client: TBlueInkClient;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  account = await runtime.seedAccount('Compat Templates', 'owner@compat-templates.example');
  client = blueinkClient(runtime, account.apiKey);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

async function aTemplate(name: string): Promise<TJson> {
  const res = await apiClient(runtime, account.apiKey)('POST', '/templates/', {
    json: {
      name,
      file_b64: b64,
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
      fields: [
        {
          key: 'price',
          kind: 'inp',
          page: 1,
          x: 10,
          y: 10,
          w: 20,
          h: 4,
          v_pattern: 'numbers',
          editor_roles: ['-seller'],
        },
        { key: 'sig-b', kind: 'sig', page: 1, x: 10, y: 80, w: 30, h: 5, editor_roles: ['buyer'] },
        { key: 'sig-s', kind: 'sig', page: 1, x: 50, y: 80, w: 30, h: 5, editor_roles: ['seller'] },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('templates.list / retrieve / pagedList', () => {
  it('lists the account’s templates as a bare array with the pagination header', async () => {
    const t = await aTemplate('Compat Sale');
    const res = await client.templates.list();
    expect(res.status).toBe(200);
    expect(Array.isArray(res.data)).toBe(true);
    expect(res.data.map((x: TJson) => x.id)).toContain(t.id);
    expect(res.pagination).toMatchObject({ pageNumber: 1, perPage: 50 });
  });

  it('retrieves one with its roles, fields (default_value, editor_roles) and a file_url', async () => {
    const t = await aTemplate('Compat Retrieve');
    const res = await client.templates.retrieve(t.id);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: t.id,
      name: 'Compat Retrieve',
      is_shared: false,
      roles: [
        { key: 'buyer', label: 'Buyer' },
        { key: 'seller', label: 'Seller' },
      ],
    });
    expect(res.data.fields[0]).toMatchObject({
      key: 'price',
      default_value: null,
      editor_roles: ['-seller'],
    });
    expect(typeof res.data.file_url).toBe('string');
  });

  it('pages through every template', async () => {
    const fresh = await runtime.seedAccount('Compat Pages', 'owner@compat-pages.example');
    const http = apiClient(runtime, fresh.apiKey);
    for (const name of ['a', 'b', 'c'])
      expect((await http('POST', '/templates/', { json: { name, file_b64: b64 } })).status).toBe(201);
    const pages: TClientResponse[] = [];
    for await (const page of blueinkClient(runtime, fresh.apiKey).templates.pagedList({
      page: 1,
      per_page: 2,
    })) {
      pages.push(page);
      if (pages.length > 4) break;
    }
    expect(pages.map((p) => p.data.length)).toEqual([2, 1]);
    expect(pages.flatMap((p) => p.data.map((t: TJson) => t.name))).toEqual(['c', 'b', 'a']);
  });

  it('answers 404 with the error body for an unknown or foreign id', async () => {
    const theirs = await apiClient(runtime)('POST', '/templates/', {
      json: { file_b64: b64, is_shared: true },
    });
    for (const id of [randomUUID(), theirs.body.id]) {
      const { status, body } = await failureOf(client.templates.retrieve(id));
      expect(status).toBe(404);
      expect(isApiErrorBody(body)).toBe(true);
    }
  });
});

describe('templates.update / delete', () => {
  it('update sends a PATCH and answers the changed template', async () => {
    const t = await aTemplate('Compat Update');
    const res = await client.templates.update(t.id, { name: 'Renamed', is_shared: true });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: t.id, name: 'Renamed', is_shared: true });
    expect((await client.templates.retrieve(t.id)).data.name).toBe('Renamed');
  });

  it('delete answers 204, then the template is not found', async () => {
    const t = await aTemplate('Compat Delete');
    const res = await client.templates.delete(t.id);
    expect(res.status).toBe(204);
    expect((await failureOf(client.templates.retrieve(t.id))).status).toBe(404);
  });
});

describe('templates.createPreparationSession', () => {
  it('POSTs /templates/preparation_session/ and answers the page URL, its expiry and the template id', async () => {
    const t = await aTemplate('Compat Prepare');
    const res = await client.templates.createPreparationSession({
      template_id: t.id,
      allowed_data_flow_tags: ['acme:*', 'crm.email'],
      redirect_url: 'https://app.example.com/prepared',
    });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ url: expect.any(String), expires: expect.any(String), template_id: t.id });
    expect(res.data.url).toMatch(/\/prepare\/[0-9A-Za-z]{43}$/);
    expect(Date.parse(res.data.expires)).toBeGreaterThan(Date.now());
    const page = await fetch(res.data.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('an empty allowed_data_flow_tags list is kept (no tags), and a bad input is a 400', async () => {
    const res = await client.templates.createPreparationSession({
      name: 'Compat New',
      file_b64: b64,
      allowed_data_flow_tags: [],
    });
    expect(res.status).toBe(201);
    const token = new URL(res.data.url).pathname.split('/').pop()!;
    const session = await fetch(`${runtime.baseUrl}/prepare/api/session`, {
      headers: { 'x-preparation-token': token },
    });
    expect(((await session.json()) as TJson).allowed_data_flow_tags).toEqual([]);
    const { status, body } = await failureOf(
      client.templates.createPreparationSession({ allowed_data_flow_tags: ['acme:*'] }),
    );
    expect(status).toBe(400);
    expect(isApiErrorBody(body)).toBe(true);
  });
});

describe('bundles.createFromBundleHelper with a document template', () => {
  it('addDocumentTemplate + assignRole make a bundle from the template beside an uploaded document', async () => {
    const t = await aTemplate('Compat Bundle');
    const helper = new BundleHelper({ label: 'From a template' });
    const buyer = helper.addSigner({ name: 'Bea Buyer', email: 'bea@example.com' });
    const seller = helper.addSigner({ name: 'Sam Seller', email: 'sam@example.com' });
    const templateKey = helper.addDocumentTemplate({
      template_id: t.id,
      field_values: [{ key: 'price', initial_value: '250000' }],
    });
    helper.assignRole(buyer, templateKey, 'buyer');
    helper.assignRole(seller, templateKey, 'seller');
    const doc = helper.addDocumentByB64('extra.pdf', b64, { key: 'extra' });
    helper.addField(doc, { kind: 'sig', page: 1, x: 10, y: 10, w: 20, h: 5, editors: [buyer] });
    const res = await client.bundles.createFromBundleHelper(helper);
    expect(res.status).toBe(201);
    expect(res.data.documents).toEqual([
      { template_id: t.id, key: templateKey, name: 'Compat Bundle' },
      { template_id: null, key: 'extra', name: expect.any(String) },
    ]);
    const listed = await client.bundles.list({ template: t.id });
    expect(listed.data.map((b: TJson) => b.id)).toEqual([res.data.id]);
  });

  it('a role left unassigned is a 400 naming the assignments', async () => {
    const t = await aTemplate('Compat Unassigned');
    const helper = new BundleHelper({ label: 'Half assigned' });
    const buyer = helper.addSigner({ name: 'Bea Buyer', email: 'bea@example.com' });
    const templateKey = helper.addDocumentTemplate({ template_id: t.id });
    helper.assignRole(buyer, templateKey, 'buyer');
    const { status, body } = await failureOf(client.bundles.createFromBundleHelper(helper));
    expect(status).toBe(400);
    expect(body.errors.map((e: TJson) => e.field)).toEqual(['documents[0].assignments']);
  });
});
