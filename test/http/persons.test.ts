import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});
afterAll(() => runtime.stop());

const aPerson = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ann Lee',
  metadata: { employee_id: 42 },
  channels: [{ email: 'ann@example.com' }, { phone: '+1 555 010 2000' }],
  ...overrides,
});

describe('create a person', () => {
  it('answers 201 with the person, channel kinds following from email or phone', async () => {
    const res = await call('POST', '/persons/', { json: aPerson() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Ann Lee',
      metadata: { employee_id: 42 },
      is_user: false,
      channels: [
        { kind: 'em', email: 'ann@example.com' },
        { kind: 'mp', phone: '+1 555 010 2000' },
      ],
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    for (const c of res.body.channels) expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is retrievable afterwards', async () => {
    const created = await call('POST', '/persons/', { json: aPerson({ name: 'Retrievable' }) });
    const got = await call('GET', `/persons/${created.body.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
  });

  it('requires a name', async () => {
    const res = await call('POST', '/persons/', { json: { channels: [] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('name');
  });

  it('reports each bad channel with its path', async () => {
    const res = await call('POST', '/persons/', {
      json: aPerson({
        channels: [{ email: 'ok@example.com' }, { email: 'not-an-email' }, { phone: 'abc' }, {}],
      }),
    });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['channels[1].email', 'channels[2].phone', 'channels[3].email']),
    );
  });

  it('refuses a kind that contradicts the value', async () => {
    const res = await call('POST', '/persons/', {
      json: aPerson({ channels: [{ email: 'a@example.com', kind: 'mp' }] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('channels[0].kind');
  });

  it('enforces the email (254) and phone (128) limits', async () => {
    const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.com`;
    expect(longEmail.length).toBeGreaterThan(254);
    const res = await call('POST', '/persons/', { json: aPerson({ channels: [{ email: longEmail }] }) });
    expect(res.status).toBe(400);
    const phone = await call('POST', '/persons/', {
      json: aPerson({ channels: [{ phone: '1'.repeat(129) }] }),
    });
    expect(phone.status).toBe(400);
    expect(phone.body.errors[0].field).toBe('channels[0].phone');
    const okPhone = await call('POST', '/persons/', {
      json: aPerson({ channels: [{ phone: '1'.repeat(128) }] }),
    });
    expect(okPhone.status).toBe(201);
  });

  it('accepts any JSON object as metadata up to 16 KiB, and refuses more or a non-object', async () => {
    const nested = { a: [1, 'two', { three: null }], b: { c: { d: true } }, big: 1e308 };
    const ok = await call('POST', '/persons/', { json: aPerson({ metadata: nested }) });
    expect(ok.status).toBe(201);
    expect(ok.body.metadata).toEqual(nested);
    const big = await call('POST', '/persons/', {
      json: aPerson({ metadata: { x: 'y'.repeat(17 * 1024) } }),
    });
    expect(big.status).toBe(400);
    expect(big.body.errors[0].field).toBe('metadata');
    const list = await call('POST', '/persons/', { json: aPerson({ metadata: [1, 2] }) });
    expect(list.status).toBe(400);
  });

  it('keeps metadata keys exactly as sent, even names objects inherit', async () => {
    const raw = '{"name":"Proto","metadata":{"__proto__":{"x":1},"constructor":"c"}}';
    const res = await call('POST', '/persons/', { raw, contentType: 'application/json' });
    expect(res.status).toBe(201);
    expect(res.text).toContain('"metadata":{"__proto__":{"x":1},"constructor":"c"}');
    const got = await call('GET', `/persons/${res.body.id}/`);
    expect(got.text).toBe(res.text);
  });

  it('refuses metadata nested deeper than 32 levels', async () => {
    const raw = `{"name":"Deep","metadata":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`;
    const res = await call('POST', '/persons/', { raw, contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('metadata');
  });

  it('accepts a form-encoded body with nested and repeated keys', async () => {
    const form = new URLSearchParams({
      name: 'Form Person',
      'channels[0][email]': 'form@example.com',
      'channels[1][phone]': '+44 20 7946 0000',
      'metadata[team]': 'blue',
    }).toString();
    const res = await call('POST', '/persons/', { form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Form Person',
      metadata: { team: 'blue' },
      channels: [
        { kind: 'em', email: 'form@example.com' },
        { kind: 'mp', phone: '+44 20 7946 0000' },
      ],
    });
  });
});

describe('update a person with PUT', () => {
  it('replaces name and metadata, keeps listed channels, deletes channels left out', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson({ name: 'Put Me' }) })).body;
    const [email, phone] = created.channels;
    const res = await call('PUT', `/persons/${created.id}/`, {
      json: {
        name: 'Put Done',
        channels: [{ id: email.id, email: 'changed@example.com' }, { email: 'new@example.com' }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Put Done');
    expect(res.body.metadata).toEqual({});
    expect(res.body.channels).toHaveLength(2);
    expect(res.body.channels[0]).toMatchObject({ id: email.id, kind: 'em', email: 'changed@example.com' });
    expect(res.body.channels[1].id).not.toBe(phone.id);
    expect(res.body.channels.some((c: { id: string }) => c.id === phone.id)).toBe(false);
    expect((await call('GET', `/persons/${created.id}`)).body).toEqual(res.body);
  });

  it('keeps the id of a listed channel given without id but with the same email', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson({ name: 'Same' }) })).body;
    const res = await call('PUT', `/persons/${created.id}/`, {
      json: { name: 'Same', channels: [{ email: 'ANN@example.com' }] },
    });
    expect(res.body.channels).toEqual([created.channels[0]]);
  });

  it('refuses a channel id the person does not have', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const res = await call('PUT', `/persons/${created.id}/`, {
      json: { name: 'x', channels: [{ id: '00000000-0000-4000-8000-000000000000', email: 'a@example.com' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('channels[0].id');
  });

  it('requires the name, as a full replacement does', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const res = await call('PUT', `/persons/${created.id}/`, { json: { channels: [] } });
    expect(res.status).toBe(400);
  });
});

describe('partially update a person with PATCH', () => {
  it('changes only what is given', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson({ name: 'Patch Me' }) })).body;
    const res = await call('PATCH', `/persons/${created.id}/`, { json: { name: 'Patched' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, name: 'Patched' });
  });

  it('adds a channel without id, unless its email or phone is already there', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const res = await call('PATCH', `/persons/${created.id}/`, {
      json: {
        channels: [
          { email: 'Ann@Example.com' },
          { phone: '+1 (555) 010-2000' },
          { email: 'second@example.com' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.channels).toHaveLength(3);
    expect(res.body.channels.slice(0, 2)).toEqual(created.channels);
    expect(res.body.channels[2]).toMatchObject({ kind: 'em', email: 'second@example.com' });
  });

  it('updates a channel given with its id, and can switch its kind', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const phone = created.channels[1];
    const res = await call('PATCH', `/persons/${created.id}/`, {
      json: { channels: [{ id: phone.id, email: 'was-phone@example.com' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.channels[1]).toEqual({
      id: phone.id,
      kind: 'em',
      email: 'was-phone@example.com',
      phone: '',
    });
  });

  it('refuses a blank name', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const res = await call('PATCH', `/persons/${created.id}/`, { json: { name: '   ' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('name');
  });

  it('applies concurrent patches without losing any of them', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson({ channels: [] }) })).body;
    const emails = Array.from({ length: 8 }, (_, i) => `c${i}@example.com`);
    const answers = await Promise.all(
      emails.map((email) => call('PATCH', `/persons/${created.id}/`, { json: { channels: [{ email }] } })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const got = await call('GET', `/persons/${created.id}/`);
    expect(got.body.channels.map((c: { email: string }) => c.email).sort()).toEqual(emails.sort());
  });
});

describe('delete a person', () => {
  it('answers 204 with no body, then 404', async () => {
    const created = (await call('POST', '/persons/', { json: aPerson() })).body;
    const res = await call('DELETE', `/persons/${created.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const again = await call('GET', `/persons/${created.id}/`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    expect((await call('DELETE', `/persons/${created.id}/`)).status).toBe(404);
  });

  it('removes the person from email lookups', async () => {
    const created = (
      await call('POST', '/persons/', { json: aPerson({ channels: [{ email: 'gone@example.com' }] }) })
    ).body;
    await call('DELETE', `/persons/${created.id}/`);
    const list = await call('GET', '/persons/?email=gone@example.com');
    expect(list.body).toEqual([]);
  });
});

describe('not found', () => {
  it('answers 404 for an unknown uuid and for something that is not a uuid', async () => {
    for (const id of ['6f1c1a4e-8a43-4a4b-9f59-2b9d8b0e0a11', 'not-a-uuid', '%E2%82%AC']) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const res = await call(
          method,
          `/persons/${id}/`,
          method === 'GET' || method === 'DELETE' ? {} : { json: { name: 'x' } },
        );
        expect(res.status, `${method} ${id}`).toBe(404);
        expect(isErrorBody(res.body)).toBe(true);
      }
    }
  });
});
