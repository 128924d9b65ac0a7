import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { anEnvelopeTemplate, seedDocTemplate } from '../helpers/envelope-templates';
import { apiClient } from '../helpers/runtime';
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

// Envelope templates through the official BlueInk JavaScript client, unchanged: it lists and
// retrieves them (creating them is this service's own API, called here over plain HTTP).

let runtime: TRuntime;
let client: TBlueInkClient;
const created: string[] = [];
let disabled: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  const account = await runtime.seedAccount('Compat Envelopes', 'owner@compat-envelopes.example');
  client = blueinkClient(runtime, account.apiKey);
  const call = apiClient(runtime, account.apiKey);
  const doc = await seedDocTemplate(runtime, account.accountId);
  for (let i = 0; i < 5; i++) {
    const res = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([doc], {
        name: `Envelope ${i}`,
        is_portal: i === 4,
        allow_direct_signing: i === 4,
      }),
    });
    created.push(res.body.id);
  }
  disabled = (
    await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([doc], { name: 'Off', enabled: false }),
    })
  ).body.id;
});
afterAll(() => runtime.stop());

describe('envelopeTemplates.list', () => {
  it('answers the enabled templates, newest first, with the pagination header', async () => {
    const res = await client.envelopeTemplates.list();
    expect(res.status).toBe(200);
    expect(res.data.map((t: TJson) => t.id)).toEqual([...created].reverse());
    expect(paginationHeaderOf(res)).toBe('1,1,50,5');
    expect(res.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 5 });
    const portal = res.data[0];
    expect(portal.smart_link_url).toBe(`${runtime.baseUrl}/portal/${portal.id}`);
    expect(res.data[1].smart_link_url).toBe('');
    for (const t of res.data as TJson[]) {
      expect(Object.keys(t)).toEqual(
        expect.arrayContaining([
          'id',
          'created',
          'name',
          'description',
          'is_shared',
          'is_portal',
          'allow_direct_signing',
          'documents',
          'signers',
          'smart_link_url',
        ]),
      );
    }
  });

  it('pages through pagedList', async () => {
    const pages: TClientResponse[] = [];
    for await (const page of client.envelopeTemplates.pagedList({ page: 1, per_page: 2 })) {
      pages.push(page);
      if (pages.length > 5) break;
    }
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.map((t: TJson) => t.id))).toEqual([...created].reverse());
  });
});

describe('envelopeTemplates.retrieve', () => {
  it('answers the template, and a 404 for an unknown, foreign or (for bundles) disabled one', async () => {
    const res = await client.envelopeTemplates.retrieve(created[0]!);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      id: created[0],
      name: 'Envelope 0',
      documents: [{ key: 'doc-1', name: 'Doc 1', order: 0 }],
      signers: [
        { key: 'signer', label: 'Employee', order: 0, auth_sms: false, auth_selfie: false, auth_id: false },
      ],
    });
    const unknown = await failureOf(client.envelopeTemplates.retrieve('T-zzzzzzzz'));
    expect(unknown.status).toBe(404);
    expect(isApiErrorBody(unknown.body)).toBe(true);
    const foreign = await failureOf(blueinkClient(runtime).envelopeTemplates.retrieve(created[0]!));
    expect(foreign.status).toBe(404);
    // A disabled template is absent from the list but its owner still reads it.
    expect((await client.envelopeTemplates.retrieve(disabled)).data.enabled).toBe(false);
  });

  it('answers 401 to a wrong key', async () => {
    const res = await failureOf(blueinkClient(runtime, 'y'.repeat(48)).envelopeTemplates.list());
    expect(res.status).toBe(401);
    expect(isApiErrorBody(res.body)).toBe(true);
  });
});

describe('bundles.createFromEnvelopeTemplate', () => {
  let real: string;
  let off: string;

  beforeAll(async () => {
    const account = await runtime.seedAccount('Compat Envelope Bundles', 'owner@compat-env-bundles.example');
    client = blueinkClient(runtime, account.apiKey);
    const call = apiClient(runtime, account.apiKey);
    const doc = await call('POST', '/templates/', {
      json: {
        name: 'Agreement',
        file_b64: await aPdfB64(),
        roles: [{ key: 'signer', label: 'Signer' }],
        fields: [
          { key: 'company', kind: 'inp', page: 1, x: 10, y: 10, w: 30, h: 4, editor_roles: ['signer'] },
          { key: 'sig', kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editor_roles: ['signer'] },
        ],
      },
    });
    expect(doc.status, doc.text).toBe(201);
    const make = async (enabled: boolean) =>
      (await call('POST', '/envelope-templates/', { json: anEnvelopeTemplate([doc.body.id], { enabled }) }))
        .body.id as string;
    real = await make(true);
    off = await make(false);
  });

  it('creates the bundle (201) with the client call, unchanged', async () => {
    const res = await client.bundles.createFromEnvelopeTemplate({
      label: 'Via the client',
      envelope_template: { template_id: real, field_values: [{ key: 'company', initial_value: 'ACME' }] },
      packets: [{ key: 'signer', name: 'Ann Lee', email: 'ann@example.com' }],
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      label: 'Via the client',
      email_subject: 'Please sign',
      documents: [{ key: 'doc-1' }],
      packets: [{ name: 'Ann Lee', email: 'ann@example.com' }],
    });
  });

  it('creates it from a BundleHelper with addEnvelopeTemplate', async () => {
    const helper = new BundleHelper({ label: 'Helper envelope' });
    helper.addSigner({ key: 'signer', name: 'Ann Lee', email: 'ann@example.com' });
    helper.addEnvelopeTemplate({ template_id: real });
    const res = await client.bundles.createFromBundleHelper(helper);
    expect(res.status).toBe(201);
    expect(res.data.label).toBe('Helper envelope');
  });

  it('answers 404 for a disabled template', async () => {
    const { status, body, error } = await failureOf(
      client.bundles.createFromEnvelopeTemplate({
        envelope_template: { template_id: off },
        packets: [{ key: 'signer', name: 'Ann Lee', email: 'ann@example.com' }],
      }),
    );
    expect(status, describeRequest(error)).toBe(404);
    expect(isApiErrorBody(body)).toBe(true);
  });
});
