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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const aWebhook = (overrides: Record<string, unknown> = {}) => ({
  url: 'https://hooks.example.com/blueink',
  event_types: ['bundle_sent', 'bundle_complete'],
  ...overrides,
});
const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
const ids = (body: any[]) => body.map((x: { id: string }) => x.id);

async function newHook(overrides: Record<string, unknown> = {}, c = call) {
  const res = await c('POST', '/webhooks/', { json: aWebhook(overrides) });
  expect(res.status).toBe(201);
  return res.body;
}

describe('create a webhook', () => {
  it('answers 201 with defaults: enabled, json, no extra headers', async () => {
    const res = await call('POST', '/webhooks/', { json: aWebhook() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      url: 'https://hooks.example.com/blueink',
      enabled: true,
      json: true,
      event_types: ['bundle_sent', 'bundle_complete'],
      extra_headers: [],
    });
    const got = await call('GET', `/webhooks/${res.body.id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('accepts a form-encoded body as the Python client sends it', async () => {
    const res = await call('POST', '/webhooks/', {
      form: 'url=http%3A%2F%2Fhooks.example.com%2Fx&enabled=False&json=True&event_types=bundle_sent&event_types=packet_viewed',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: 'http://hooks.example.com/x',
      enabled: false,
      json: true,
      event_types: ['bundle_sent', 'packet_viewed'],
    });
    const single = await call('POST', '/webhooks/', {
      form: 'url=https%3A%2F%2Fh.example.com&event_types=bundle_error&json=false',
    });
    expect(single.status).toBe(201);
    expect(single.body).toMatchObject({ event_types: ['bundle_error'], json: false, enabled: true });
  });

  it('accepts inline extra headers, JSON and form-encoded, keeping their order', async () => {
    const res = await call('POST', '/webhooks/', {
      json: aWebhook({
        extra_headers: [
          { name: 'Authorization', value: 'Bearer abc', order: 2 },
          { name: 'X-Tenant', value: 'acme' },
          { name: 'X-Zed', value: 'z\tz', order: '0' },
        ],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.extra_headers).toEqual([
      {
        id: expect.stringMatching(UUID),
        webhook: res.body.id,
        name: 'Authorization',
        value: 'Bearer abc',
        order: 2,
      },
      { id: expect.stringMatching(UUID), webhook: res.body.id, name: 'X-Tenant', value: 'acme', order: 1 },
      { id: expect.stringMatching(UUID), webhook: res.body.id, name: 'X-Zed', value: 'z\tz', order: 0 },
    ]);
    const form = await call('POST', '/webhooks/', {
      form:
        'url=https%3A%2F%2Fh.example.com&event_types=bundle_sent' +
        '&extra_headers[0][name]=X-One&extra_headers[0][value]=1&extra_headers[0][order]=3' +
        '&extra_headers[1][name]=X-Two&extra_headers[1][value]=2',
    });
    expect(form.status).toBe(201);
    expect(form.body.extra_headers.map((h: { name: string; order: number }) => [h.name, h.order])).toEqual([
      ['X-One', 3],
      ['X-Two', 1],
    ]);
  });

  it('collapses duplicate event types', async () => {
    const hook = await newHook({
      event_types: ['bundle_sent', 'bundle_sent', 'packet_declined', 'bundle_sent'],
    });
    expect(hook.event_types).toEqual(['bundle_sent', 'packet_declined']);
  });

  it('requires url and event_types', async () => {
    const res = await call('POST', '/webhooks/', { json: {} });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.code).toBe('invalid');
    expect(fields(res.body).sort()).toEqual(['event_types', 'url']);
    expect(res.body.errors[0].message).toBe('This field is required.');
  });

  it.each([
    ['no scheme', 'hooks.example.com/x'],
    ['ftp', 'ftp://hooks.example.com/x'],
    ['javascript', 'javascript:alert(1)'],
    ['no host', 'https://'],
    ['spaces', 'https://hooks.example.com/a b'],
    ['too long', `https://hooks.example.com/${'a'.repeat(2048)}`],
  ])('refuses a bad url (%s)', async (_, url) => {
    const res = await call('POST', '/webhooks/', { json: aWebhook({ url }) });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['url']);
  });

  it('refuses an empty or unknown event type, naming the item', async () => {
    const empty = await call('POST', '/webhooks/', { json: aWebhook({ event_types: [] }) });
    expect(empty.status).toBe(400);
    expect(fields(empty.body)).toEqual(['event_types']);
    const unknown = await call('POST', '/webhooks/', {
      json: aWebhook({ event_types: ['bundle_sent', 'bundle_exploded'] }),
    });
    expect(unknown.status).toBe(400);
    expect(fields(unknown.body)).toEqual(['event_types[1]']);
  });

  it('refuses bad booleans and bad inline headers with their paths', async () => {
    const res = await call('POST', '/webhooks/', {
      json: aWebhook({
        enabled: 'maybe',
        extra_headers: [{ name: 'X-Ok', value: 'ok' }, { name: 'Bad Name', value: 'v' }, { name: 'X-A' }],
      }),
    });
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['enabled', 'extra_headers[1].name', 'extra_headers[2].value']);
  });

  it('keeps at most 20 extra headers', async () => {
    const headers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `X-H${i}`, value: `${i}` }));
    expect(
      (await call('POST', '/webhooks/', { json: aWebhook({ extra_headers: headers(20) }) })).status,
    ).toBe(201);
    const res = await call('POST', '/webhooks/', { json: aWebhook({ extra_headers: headers(21) }) });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['extra_headers']);
  });
});

describe('update a webhook with PUT', () => {
  it('replaces everything; headers and fields left out are gone or back to defaults', async () => {
    const hook = await newHook({
      enabled: false,
      json: false,
      extra_headers: [
        { name: 'X-Keep', value: 'old' },
        { name: 'X-Drop', value: 'bye' },
      ],
    });
    const [keep, drop] = hook.extra_headers;
    const res = await call('PUT', `/webhooks/${hook.id}/`, {
      json: {
        id: hook.id,
        url: 'https://new.example.com/',
        event_types: ['packet_complete'],
        extra_headers: [
          { id: keep.id, name: 'X-Keep', value: 'new', order: 5 },
          { name: 'X-Added', value: 'hi' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: hook.id,
      url: 'https://new.example.com/',
      enabled: true,
      json: true,
      event_types: ['packet_complete'],
    });
    expect(res.body.extra_headers).toHaveLength(2);
    expect(res.body.extra_headers[0]).toEqual({
      id: keep.id,
      webhook: hook.id,
      name: 'X-Keep',
      value: 'new',
      order: 5,
    });
    expect(res.body.extra_headers[1]).toMatchObject({ name: 'X-Added', value: 'hi', order: 1 });
    expect((await call('GET', `/webhooks/headers/${drop.id}/`)).status).toBe(404);

    const bare = await call('PUT', `/webhooks/${hook.id}/`, {
      json: { url: 'https://new.example.com/', event_types: ['packet_complete'] },
    });
    expect(bare.status).toBe(200);
    expect(bare.body.extra_headers).toEqual([]);
    expect((await call('GET', `/webhooks/headers/${keep.id}/`)).status).toBe(404);
  });

  it('keeps the id of a header listed without id but with the same name', async () => {
    const hook = await newHook({ extra_headers: [{ name: 'X-Same', value: '1' }] });
    const res = await call('PUT', `/webhooks/${hook.id}/`, {
      json: aWebhook({ extra_headers: [{ name: 'x-same', value: '2' }] }),
    });
    expect(res.body.extra_headers[0]).toMatchObject({
      id: hook.extra_headers[0].id,
      name: 'x-same',
      value: '2',
    });
  });

  it('refuses a header id the webhook does not have, and requires url and event_types', async () => {
    const hook = await newHook();
    const res = await call('PUT', `/webhooks/${hook.id}/`, {
      json: aWebhook({
        extra_headers: [{ id: '00000000-0000-4000-8000-000000000000', name: 'X-A', value: 'a' }],
      }),
    });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['extra_headers[0].id']);
    const missing = await call('PUT', `/webhooks/${hook.id}/`, { json: { enabled: true } });
    expect(missing.status).toBe(400);
    expect(fields(missing.body).sort()).toEqual(['event_types', 'url']);
  });

  it('accepts a form-encoded PUT', async () => {
    const hook = await newHook();
    const res = await call('PUT', `/webhooks/${hook.id}/`, {
      form: 'url=https%3A%2F%2Fform.example.com&enabled=False&event_types=bundle_cancelled&event_types=bundle_error',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, event_types: ['bundle_cancelled', 'bundle_error'] });
  });
});

describe('partially update a webhook with PATCH', () => {
  it('changes only what is given; extra_headers given replace the set', async () => {
    const hook = await newHook({ extra_headers: [{ name: 'X-A', value: 'a' }] });
    const res = await call('PATCH', `/webhooks/${hook.id}/`, { json: { enabled: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...hook, enabled: false });

    const form = await call('PATCH', `/webhooks/${hook.id}/`, {
      form: 'event_types=bundle_docs_ready&json=False',
    });
    expect(form.body).toEqual({ ...hook, enabled: false, json: false, event_types: ['bundle_docs_ready'] });

    const headers = await call('PATCH', `/webhooks/${hook.id}/`, {
      json: { extra_headers: [{ name: 'X-B', value: 'b' }] },
    });
    expect(headers.body.extra_headers.map((h: { name: string }) => h.name)).toEqual(['X-B']);
  });

  it('refuses an empty event type list and a bad url', async () => {
    const hook = await newHook();
    const res = await call('PATCH', `/webhooks/${hook.id}/`, { json: { event_types: [], url: 'nope' } });
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['event_types', 'url']);
  });

  it('applies concurrent patches to headers without losing any of them', async () => {
    const hook = await newHook();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call('POST', '/webhooks/headers/', { json: { webhook: hook.id, name: `X-C${i}`, value: `${i}` } }),
      ),
    );
    for (const r of results) expect(r.status).toBe(201);
    const got = await call('GET', `/webhooks/${hook.id}/`);
    expect(got.body.extra_headers.map((h: { name: string }) => h.name).sort()).toEqual([
      'X-C0',
      'X-C1',
      'X-C2',
      'X-C3',
      'X-C4',
      'X-C5',
    ]);
  });
});

describe('delete a webhook', () => {
  it('answers 204 with no body, then 404; its headers are gone too', async () => {
    const hook = await newHook({ extra_headers: [{ name: 'X-A', value: 'a' }] });
    const res = await call('DELETE', `/webhooks/${hook.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call('GET', `/webhooks/${hook.id}/`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/${hook.id}/`)).status).toBe(404);
    expect((await call('GET', `/webhooks/headers/${hook.extra_headers[0].id}/`)).status).toBe(404);
  });

  it('answers 404 for an unknown uuid and for something that is not a uuid', async () => {
    const unknown = await call('GET', '/webhooks/00000000-0000-4000-8000-000000000000/');
    expect(unknown.status).toBe(404);
    expect(isErrorBody(unknown.body)).toBe(true);
    expect((await call('PATCH', '/webhooks/not-a-uuid/', { json: {} })).status).toBe(404);
  });
});

describe('list webhooks', () => {
  let list: ReturnType<typeof apiClient>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  const made: any[] = [];
  beforeAll(async () => {
    const account = await runtime.seedAccount('Hooks Inc', 'owner@hooks.example');
    list = apiClient(runtime, account.apiKey);
    const specs = [
      { event_types: ['bundle_sent'] },
      { event_types: ['bundle_complete'], enabled: false },
      { event_types: ['packet_viewed', 'bundle_sent'] },
      { event_types: ['packet_declined'] },
      { event_types: ['bundle_error'], enabled: false },
    ];
    for (const s of specs) made.push(await newHook(s, list));
  });

  it('lists newest first over two pages with the pagination header and links', async () => {
    const first = await list('GET', '/webhooks/?per_page=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-blueink-pagination')).toBe('1,2,3,5');
    expect(ids(first.body)).toEqual(ids(made.slice(2).reverse()));
    const second = await list('GET', '/webhooks/?per_page=3&page=2');
    expect(second.headers.get('x-blueink-pagination')).toBe('2,2,3,5');
    expect(ids(second.body)).toEqual(ids(made.slice(0, 2).reverse()));
    const link = first.headers.get('link') ?? '';
    expect(link).toContain(`${runtime.baseUrl}/api/v2/webhooks/?`);
    expect(link).toContain('rel="next"');
  });

  it('filters by enabled (True/false as clients send it)', async () => {
    const off = await list('GET', '/webhooks/?enabled=False');
    expect(ids(off.body)).toEqual([made[4].id, made[1].id]);
    const on = await list('GET', '/webhooks/?enabled=true');
    expect(ids(on.body)).toEqual([made[3].id, made[2].id, made[0].id]);
  });

  it('filters by event_type and event_type__in, and combines filters', async () => {
    const sent = await list('GET', '/webhooks/?event_type=bundle_sent');
    expect(ids(sent.body)).toEqual([made[2].id, made[0].id]);
    const anyOf = await list('GET', '/webhooks/?event_type__in=packet_declined,bundle_complete');
    expect(ids(anyOf.body)).toEqual([made[3].id, made[1].id]);
    expect(anyOf.headers.get('x-blueink-pagination')).toBe('1,1,50,2');
    const both = await list('GET', '/webhooks/?event_type__in=bundle_error,bundle_sent&enabled=false');
    expect(ids(both.body)).toEqual([made[4].id]);
  });

  it('paginates a filtered list, carrying the validated filters in the links', async () => {
    const res = await list(
      'GET',
      '/webhooks/?event_type__in=bundle_sent,,bundle_complete&per_page=1&page=2&junk=1',
    );
    expect(res.headers.get('x-blueink-pagination')).toBe('2,3,1,3');
    expect(ids(res.body)).toEqual([made[1].id]);
    const next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')![1]!;
    const u = new URL(next);
    expect(u.searchParams.get('event_type__in')).toBe('bundle_sent,bundle_complete');
    expect(u.searchParams.get('junk')).toBeNull();
    expect(ids((await list('GET', next)).body)).toEqual([made[0].id]);
  });

  it('refuses bad filters with the parameter as field', async () => {
    const res = await list(
      'GET',
      '/webhooks/?enabled=perhaps&event_type=nope&event_type__in=bundle_sent,nope',
    );
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['enabled', 'event_type', 'event_type__in']);
  });
});

describe('extra headers', () => {
  it('creates, retrieves, updates and deletes a header', async () => {
    const hook = await newHook({ extra_headers: [{ name: 'X-First', value: '1' }] });
    const created = await call('POST', '/webhooks/headers/', {
      json: { webhook: hook.id, name: 'X-Api-Key', value: 'secret-1' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      webhook: hook.id,
      name: 'X-Api-Key',
      value: 'secret-1',
      order: 1,
    });
    const id = created.body.id;
    expect((await call('GET', `/webhooks/headers/${id}/`)).body).toEqual(created.body);
    expect(
      (await call('GET', `/webhooks/${hook.id}/`)).body.extra_headers.map((h: { name: string }) => h.name),
    ).toEqual(['X-First', 'X-Api-Key']);

    const patched = await call('PATCH', `/webhooks/headers/${id}/`, { json: { order: 7 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...created.body, order: 7 });

    const put = await call('PUT', `/webhooks/headers/${id}/`, {
      json: { id, webhook: hook.id, name: 'X-Api-Key', value: 'secret-2' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...created.body, value: 'secret-2', order: 1 });
    // It keeps its place among the webhook's headers.
    const after = await call('GET', `/webhooks/${hook.id}/`);
    expect(after.body.extra_headers.map((h: { name: string; value: string }) => [h.name, h.value])).toEqual([
      ['X-First', '1'],
      ['X-Api-Key', 'secret-2'],
    ]);

    const del = await call('DELETE', `/webhooks/headers/${id}/`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call('GET', `/webhooks/headers/${id}/`)).status).toBe(404);
    expect((await call('DELETE', `/webhooks/headers/${id}/`)).status).toBe(404);
    expect((await call('GET', `/webhooks/${hook.id}/`)).body.extra_headers).toHaveLength(1);
  });

  it('accepts form-encoded creates and updates', async () => {
    const hook = await newHook();
    const res = await call('POST', '/webhooks/headers/', {
      form: `webhook=${hook.id}&name=X-Form&value=a%20b&order=4`,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'X-Form', value: 'a b', order: 4 });
    const patched = await call('PATCH', `/webhooks/headers/${res.body.id}/`, { form: 'value=c' });
    expect(patched.body).toMatchObject({ name: 'X-Form', value: 'c', order: 4 });
  });

  it('requires webhook, name and value, and a webhook of the account', async () => {
    const res = await call('POST', '/webhooks/headers/', { json: {} });
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['name', 'value', 'webhook']);
    const unknown = await call('POST', '/webhooks/headers/', {
      json: { webhook: '00000000-0000-4000-8000-000000000000', name: 'X-A', value: 'a' },
    });
    expect(unknown.status).toBe(400);
    expect(fields(unknown.body)).toEqual(['webhook']);
    const malformed = await call('POST', '/webhooks/headers/', {
      json: { webhook: 'abc', name: 'X-A', value: 'a' },
    });
    expect(fields(malformed.body)).toEqual(['webhook']);
  });

  it.each([
    ['Host'],
    ['content-length'],
    ['Content-Type'],
    ['TRANSFER-ENCODING'],
    ['Connection'],
    ['X-BlueInk-Signature'],
    ['x-blueink-anything'],
    ['webhook-id'],
    ['Webhook-Signature'],
    ['Bad Name'],
    ['X-Bad:Colon'],
    ['X-Ünicode'],
    [`X-${'a'.repeat(79)}`],
  ])('refuses the header name %s', async (name) => {
    const hook = await newHook();
    const res = await call('POST', '/webhooks/headers/', { json: { webhook: hook.id, name, value: 'v' } });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['name']);
    const inline = await call('POST', '/webhooks/', {
      json: aWebhook({ extra_headers: [{ name, value: 'v' }] }),
    });
    expect(inline.status).toBe(400);
    expect(fields(inline.body)).toEqual(['extra_headers[0].name']);
  });

  it('accepts every RFC 7230 token character and an 80-character name', async () => {
    const hook = await newHook();
    for (const name of ["X-!#$%&'*+.^_`|~09az", `X-${'a'.repeat(78)}`, 'Webhooks-Are-Fine', 'X-Blueink']) {
      const res = await call('POST', '/webhooks/headers/', { json: { webhook: hook.id, name, value: 'v' } });
      expect(res.status, name).toBe(201);
    }
  });

  it.each([
    ['a line feed', 'a\nb'],
    ['a carriage return', 'a\rb'],
    ['a trailing CRLF', 'ab\r\n'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a character beyond Latin-1', 'a€b'],
    ['more than 240 characters', 'v'.repeat(241)],
    ['a blank value', '   '],
  ])('refuses a value with %s', async (_, value) => {
    const hook = await newHook();
    const res = await call('POST', '/webhooks/headers/', { json: { webhook: hook.id, name: 'X-V', value } });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['value']);
  });

  it('accepts tab, Latin-1 and 240 characters in a value', async () => {
    const hook = await newHook();
    for (const value of ['a\tb', 'café', 'v'.repeat(240)]) {
      const res = await call('POST', '/webhooks/headers/', {
        json: { webhook: hook.id, name: 'X-V', value },
      });
      expect(res.status).toBe(201);
      expect(res.body.value).toBe(value);
    }
  });

  it('refuses a non-integer order', async () => {
    const hook = await newHook();
    for (const order of [1.5, 'abc', true]) {
      const res = await call('POST', '/webhooks/headers/', {
        json: { webhook: hook.id, name: 'X-O', value: 'v', order },
      });
      expect(res.status).toBe(400);
      expect(fields(res.body)).toEqual(['order']);
    }
  });

  it('keeps a webhook to 20 headers', async () => {
    const hook = await newHook({
      extra_headers: Array.from({ length: 20 }, (_, i) => ({ name: `X-H${i}`, value: `${i}` })),
    });
    const res = await call('POST', '/webhooks/headers/', {
      json: { webhook: hook.id, name: 'X-21', value: 'v' },
    });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['webhook']);
  });

  it('does not move a header to another webhook', async () => {
    const a = await newHook({ extra_headers: [{ name: 'X-A', value: 'a' }] });
    const b = await newHook();
    const header = a.extra_headers[0];
    const res = await call('PATCH', `/webhooks/headers/${header.id}/`, { json: { webhook: b.id } });
    expect(res.status).toBe(400);
    expect(fields(res.body)).toEqual(['webhook']);
    const same = await call('PATCH', `/webhooks/headers/${header.id}/`, {
      json: { webhook: a.id.toUpperCase() },
    });
    expect(same.status).toBe(200);
  });

  it('refuses a bad PUT with field paths, and requires the whole header', async () => {
    const hook = await newHook({ extra_headers: [{ name: 'X-A', value: 'a' }] });
    const id = hook.extra_headers[0].id;
    const res = await call('PUT', `/webhooks/headers/${id}/`, { json: { name: 'Host' } });
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['name', 'value', 'webhook']);
  });

  it('answers 404 for unknown and malformed header ids, and 405 for methods the collection lacks', async () => {
    expect((await call('GET', '/webhooks/headers/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
    expect((await call('PATCH', '/webhooks/headers/nope/', { json: {} })).status).toBe(404);
    const del = await call('DELETE', '/webhooks/headers/');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toContain('POST');
  });
});

describe('list extra headers', () => {
  let list: ReturnType<typeof apiClient>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  let a: any;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  let b: any;
  beforeAll(async () => {
    const account = await runtime.seedAccount('Headers Inc', 'owner@headers.example');
    list = apiClient(runtime, account.apiKey);
    a = await newHook(
      {
        event_types: ['bundle_sent'],
        extra_headers: [
          { name: 'X-A1', value: '1' },
          { name: 'X-A2', value: '2' },
        ],
      },
      list,
    );
    b = await newHook(
      {
        event_types: ['packet_viewed', 'bundle_complete'],
        extra_headers: [
          { name: 'X-B1', value: '1' },
          { name: 'X-B2', value: '2' },
          { name: 'X-B3', value: '3' },
        ],
      },
      list,
    );
    await newHook({ event_types: ['bundle_error'] }, list);
  });
  const names = (body: { name: string }[]) => body.map((h) => h.name);

  it('lists every header, newest webhook first, each in its order, over two pages', async () => {
    const first = await list('GET', '/webhooks/headers/?per_page=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-blueink-pagination')).toBe('1,2,3,5');
    expect(names(first.body)).toEqual(['X-B1', 'X-B2', 'X-B3']);
    const second = await list('GET', '/webhooks/headers/?per_page=3&page=2');
    expect(names(second.body)).toEqual(['X-A1', 'X-A2']);
    expect(second.body[0].webhook).toBe(a.id);
  });

  it('filters by webhook, event_type and event_type__in', async () => {
    expect(names((await list('GET', `/webhooks/headers/?webhook=${a.id}`)).body)).toEqual(['X-A1', 'X-A2']);
    expect(names((await list('GET', '/webhooks/headers/?event_type=packet_viewed')).body)).toEqual([
      'X-B1',
      'X-B2',
      'X-B3',
    ]);
    const anyOf = await list('GET', '/webhooks/headers/?event_type__in=bundle_sent,bundle_error&per_page=1');
    expect(anyOf.headers.get('x-blueink-pagination')).toBe('1,2,1,2');
    expect(names(anyOf.body)).toEqual(['X-A1']);
    const next = /<([^>]+)>; rel="next"/.exec(anyOf.headers.get('link') ?? '')![1]!;
    expect(new URL(next).searchParams.get('event_type__in')).toBe('bundle_sent,bundle_error');
    expect(
      names((await list('GET', `/webhooks/headers/?webhook=${b.id}&event_type=bundle_sent`)).body),
    ).toEqual([]);
  });

  it('refuses bad filters', async () => {
    const res = await list('GET', '/webhooks/headers/?webhook=abc&event_type__in=nope');
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(['event_type__in', 'webhook']);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another account's webhook and header, and never lists them", async () => {
    const other = await runtime.seedAccount('Other Hooks', 'other@hooks.example');
    const theirs = apiClient(runtime, other.apiKey);
    const hook = await newHook({ extra_headers: [{ name: 'X-Mine', value: 'secret' }] });
    const header = hook.extra_headers[0];
    for (const [method, path] of [
      ['GET', `/webhooks/${hook.id}/`],
      ['PATCH', `/webhooks/${hook.id}/`],
      ['PUT', `/webhooks/${hook.id}/`],
      ['DELETE', `/webhooks/${hook.id}/`],
      ['GET', `/webhooks/headers/${header.id}/`],
      ['PATCH', `/webhooks/headers/${header.id}/`],
      ['PUT', `/webhooks/headers/${header.id}/`],
      ['DELETE', `/webhooks/headers/${header.id}/`],
    ] as const) {
      const res = await theirs(
        method,
        path,
        method === 'GET' || method === 'DELETE'
          ? {}
          : { json: path.includes('/headers/') ? { webhook: hook.id, name: 'X-A', value: 'a' } : aWebhook() },
      );
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const attach = await theirs('POST', '/webhooks/headers/', {
      json: { webhook: hook.id, name: 'X-A', value: 'a' },
    });
    expect(attach.status).toBe(400);
    expect(fields(attach.body)).toEqual(['webhook']);
    expect((await theirs('GET', '/webhooks/')).body).toEqual([]);
    expect((await theirs('GET', '/webhooks/headers/')).body).toEqual([]);
    expect((await theirs('GET', `/webhooks/headers/?webhook=${hook.id}`)).body).toEqual([]);
    // Still there for its owner.
    expect((await call('GET', `/webhooks/${hook.id}/`)).body).toEqual(hook);
  });
});
