import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { anEnvelopeTemplate, seedDocTemplate } from '../helpers/envelope-templates';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let docTemplate: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  docTemplate = await seedDocTemplate(runtime);
});
afterAll(() => runtime.stop());

describe('create and retrieve an envelope template', () => {
  it('answers 201 with the template, its id a T- slug', async () => {
    const res = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], {
        signers: [
          { key: 'signer', label: 'Employee', auth_sms: true },
          { key: 'hr', label: 'HR', order: 5 },
        ],
        send_reminders: true,
        reminder_offset: 2,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^T-[0-9A-Za-z]{8}$/);
    expect(res.body).toMatchObject({
      name: 'Onboarding',
      description: 'New hire paperwork',
      is_shared: false,
      is_portal: false,
      allow_direct_signing: false,
      enabled: true,
      documents: [{ key: 'doc-1', name: 'Doc 1', order: 0, template_id: docTemplate }],
      signers: [
        { key: 'signer', label: 'Employee', order: 0, auth_sms: true, auth_selfie: false, auth_id: false },
        { key: 'hr', label: 'HR', order: 5, auth_sms: false, auth_selfie: false, auth_id: false },
      ],
      email_subject: 'Please sign',
      email_message: 'Welcome aboard',
      send_reminders: true,
      reminder_offset: 2,
      smart_link_url: '',
    });
    expect(Date.parse(res.body.created)).not.toBeNaN();
    const got = await call('GET', `/envelope-templates/${res.body.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('refuses a document template the account does not have, and bad shapes, naming the field', async () => {
    const res = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate(['3f1c1e9e-8c4b-4a43-9d7e-0d3e4f5a6b7c']),
    });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['documents[0].template_id']);

    const bad = await call('POST', '/envelope-templates/', {
      json: { documents: [{ template_id: 'nope' }], signers: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'documents[0].template_id',
      'name',
      'signers',
    ]);
  });

  it('refuses duplicate keys and direct signing off the portal or with several roles', async () => {
    const dup = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate, docTemplate], {
        documents: [
          { key: 'same', template_id: docTemplate },
          { key: 'same', template_id: docTemplate },
        ],
        signers: [{ key: 'signer' }, { key: 'signer' }],
      }),
    });
    expect(dup.status).toBe(400);
    expect(dup.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'documents[1].key',
      'signers[1].key',
    ]);

    const direct = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], { allow_direct_signing: true }),
    });
    expect(direct.body.errors.map((e: { field: string }) => e.field)).toEqual(['allow_direct_signing']);

    const roles = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], {
        is_portal: true,
        allow_direct_signing: true,
        signers: [{ key: 'signer' }, { key: 'two' }],
      }),
    });
    expect(roles.body.errors.map((e: { field: string }) => e.field)).toEqual(['signers']);
  });

  it('refuses a document template whose roles have no signer role of the same key', async () => {
    const res = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], { signers: [{ key: 'someone' }] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'documents[0].template_id',
        message: expect.stringContaining('signer'),
      }),
    ]);
    const created = await call('POST', '/envelope-templates/', { json: anEnvelopeTemplate([docTemplate]) });
    const patch = await call('PATCH', `/envelope-templates/${created.body.id}/`, {
      json: { signers: [{ key: 'someone' }] },
    });
    expect(patch.status).toBe(400);
  });

  it('gives a portal template with direct signing a smart link, and no other', async () => {
    const portal = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], { is_portal: true, allow_direct_signing: true }),
    });
    expect(portal.status).toBe(201);
    expect(portal.body.smart_link_url).toBe(`${runtime.baseUrl}/portal/${portal.body.id}`);
    const portalOnly = await call('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([docTemplate], { is_portal: true }),
    });
    expect(portalOnly.body.smart_link_url).toBe('');
  });

  it('is 404 for an unknown or malformed id and for another account', async () => {
    const created = await call('POST', '/envelope-templates/', { json: anEnvelopeTemplate([docTemplate]) });
    const other = await runtime.seedAccount('Other', 'other@example.com');
    for (const [id, key] of [
      ['T-00000000', undefined],
      ['not-a-slug', undefined],
      [created.body.id, other.apiKey],
    ] as const) {
      const res = await call('GET', `/envelope-templates/${id}/`, key ? { key } : {});
      expect(res.status, id).toBe(404);
      expect(isErrorBody(res.body)).toBe(true);
    }
    expect(
      (await call('DELETE', `/envelope-templates/${created.body.id}/`, { key: other.apiKey })).status,
    ).toBe(404);
  });
});

describe('list, update and delete', () => {
  it('lists enabled templates only, newest first, paginated', async () => {
    const other = await runtime.seedAccount('Lister', 'lister@example.com');
    const otherCall = apiClient(runtime, other.apiKey);
    const otherDoc = await seedDocTemplate(runtime, other.accountId);
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      const res = await otherCall('POST', '/envelope-templates', {
        json: anEnvelopeTemplate([otherDoc], { name }),
      });
      ids.push(res.body.id);
    }
    const disabled = await otherCall('POST', '/envelope-templates/', {
      json: anEnvelopeTemplate([otherDoc], { name: 'off', enabled: false }),
    });
    expect(disabled.body.enabled).toBe(false);

    const all = await otherCall('GET', '/envelope-templates/');
    expect(all.status).toBe(200);
    expect(all.body.map((t: { name: string }) => t.name)).toEqual(['third', 'second', 'first']);
    expect(all.headers.get('x-blueink-pagination')).toBe('1,1,50,3');

    const page2 = await otherCall('GET', '/envelope-templates/?page=2&per_page=2');
    expect(page2.body.map((t: { name: string }) => t.name)).toEqual(['first']);
    expect(page2.headers.get('x-blueink-pagination')).toBe('2,2,2,3');

    // A disabled template is still the account's: retrievable, and enabled again by PATCH.
    expect((await otherCall('GET', `/envelope-templates/${disabled.body.id}/`)).status).toBe(200);
    const on = await otherCall('PATCH', `/envelope-templates/${disabled.body.id}/`, {
      json: { enabled: true },
    });
    expect(on.body.enabled).toBe(true);
    const after = await otherCall('GET', '/envelope-templates/');
    expect(after.body.map((t: { name: string }) => t.name)).toEqual(['off', 'third', 'second', 'first']);
    const off = await otherCall('PATCH', `/envelope-templates/${ids[0]}/`, { json: { enabled: 'false' } });
    expect(off.body.enabled).toBe(false);
    const last = await otherCall('GET', '/envelope-templates/');
    expect(last.body.map((t: { name: string }) => t.name)).toEqual(['off', 'third', 'second']);
  });

  it('PATCH changes what is given and keeps the rest', async () => {
    const created = await call('POST', '/envelope-templates/', { json: anEnvelopeTemplate([docTemplate]) });
    const res = await call('PATCH', `/envelope-templates/${created.body.id}/`, {
      json: { name: 'Renamed', signers: [{ key: 'signer', label: 'Client', auth_id: true }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      description: 'New hire paperwork',
      email_subject: 'Please sign',
      documents: created.body.documents,
      signers: [{ key: 'signer', label: 'Client', order: 0, auth_id: true }],
    });
    const bad = await call('PATCH', `/envelope-templates/${created.body.id}/`, { json: { name: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('name');
  });

  it('DELETE answers 204, then the template is gone', async () => {
    const created = await call('POST', '/envelope-templates/', { json: anEnvelopeTemplate([docTemplate]) });
    expect((await call('DELETE', `/envelope-templates/${created.body.id}`)).status).toBe(204);
    expect((await call('GET', `/envelope-templates/${created.body.id}/`)).status).toBe(404);
    expect((await call('DELETE', `/envelope-templates/${created.body.id}/`)).status).toBe(404);
  });

  it('answers 401 without a key or with a wrong one, and 405 for PUT', async () => {
    const none = await call('GET', '/envelope-templates/', { key: null });
    expect(none.status).toBe(401);
    const wrong = await call('GET', '/envelope-templates/', { key: 'x'.repeat(48) });
    expect(wrong.status).toBe(401);
    const put = await call('PUT', '/envelope-templates/T-00000000/', { json: {} });
    expect(put.status).toBe(405);
  });
});

describe('rate limits', () => {
  it('answers 429 throttled with Retry-After once the key is over its plan, as every endpoint', async () => {
    const limited = await startTestRuntime({ limits: { quotaLimit: 1000, rateLimit: 0.5, burstLimit: 2 } });
    try {
      const limitedCall = apiClient(limited);
      const statuses: number[] = [];
      let over: Awaited<ReturnType<typeof limitedCall>> | undefined;
      for (let i = 0; i < 4; i++) {
        const res = await limitedCall('GET', '/envelope-templates/');
        statuses.push(res.status);
        if (res.status === 429) over ??= res;
      }
      expect(statuses).toEqual([200, 200, 429, 429]);
      expect(over!.body.code).toBe('throttled');
      expect(isErrorBody(over!.body)).toBe(true);
      expect(Number(over!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });
});
