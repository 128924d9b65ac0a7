import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import {
  blueinkClient,
  failureOf,
  isApiErrorBody,
  PersonHelper,
  paginationHeaderOf,
  type TBlueInkClient,
  type TClientResponse,
  type TJson,
} from './client';

// Persons through the official BlueInk JavaScript client, unchanged.

let runtime: TRuntime;
let client: TBlueInkClient;

// A fresh account, so list counts are exactly what this file created (plus the account's admin
// user, who is a Person too).
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  const account = await runtime.seedAccount('Compat Persons', 'owner@compat-persons.example');
  client = blueinkClient(runtime, account.apiKey);
});
afterAll(() => runtime.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const emailsOf = (p: TJson): string[] =>
  p.channels.filter((c: TJson) => c.kind === 'em').map((c: TJson) => c.email);
const phonesOf = (p: TJson): string[] =>
  p.channels.filter((c: TJson) => c.kind === 'mp').map((c: TJson) => c.phone);

async function aPerson(name: string, email: string, phone?: string): Promise<TJson> {
  const channels: object[] = [{ email, kind: 'em' }];
  if (phone) channels.push({ phone, kind: 'mp' });
  const res = await client.persons.create({ name, metadata: { source: 'compat' }, channels });
  expect(res.status).toBe(201);
  return res.data;
}

describe('persons.create', () => {
  it('creates a Person from a plain object and answers 201 with the Person', async () => {
    const res = await client.persons.create({
      name: 'Ada Compat',
      metadata: { employee_no: 42, dept: 'R&D' },
      channels: [
        { email: 'ada@compat.example', kind: 'em' },
        { phone: '+1 555 010 4242', kind: 'mp' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.data.id).toMatch(UUID);
    expect(res.data).toMatchObject({ name: 'Ada Compat', metadata: { employee_no: 42, dept: 'R&D' } });
    expect(res.data.is_user).toBe(false);
    expect(emailsOf(res.data)).toEqual(['ada@compat.example']);
    expect(phonesOf(res.data)).toEqual(['+1 555 010 4242']);
    for (const c of res.data.channels) expect(c.id).toMatch(UUID);
    expect(res.pagination).toBeNull();
  });

  it('creates a Person built with the PersonHelper (createFromPersonHelper)', async () => {
    const helper = new PersonHelper();
    helper.setName('Helper Harriet');
    helper.setMetadata({ tier: 'gold' });
    helper.addEmail('harriet@compat.example');
    helper.addEmail('h.work@compat.example');
    helper.addPhone('+1 555 010 5151');
    const res = await client.persons.createFromPersonHelper(helper);
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ name: 'Helper Harriet', metadata: { tier: 'gold' } });
    expect(emailsOf(res.data).sort()).toEqual(['h.work@compat.example', 'harriet@compat.example']);
    expect(phonesOf(res.data)).toEqual(['+1 555 010 5151']);
    const again = await client.persons.retrieve(res.data.id);
    expect(again.data).toEqual(res.data);
  });

  it('surfaces a 400 with per-field errors as an axios error', async () => {
    const { status, body } = await failureOf(
      client.persons.create({ name: 'Bad Channel', channels: [{ email: 'not-an-email', kind: 'em' }] }),
    );
    expect(status).toBe(400);
    expect(isApiErrorBody(body)).toBe(true);
    expect(body.code).toBe('invalid');
    expect(body.errors.map((e: TJson) => e.field)).toContain('channels[0].email');
  });
});

describe('persons.list', () => {
  it('passes search, email and phone params through and parses X-BlueInk-Pagination', async () => {
    const zed = await aPerson('Zebulon Listable', 'zebulon@list.example', '+1 555 010 9090');
    await aPerson('Yolanda Listable', 'yolanda@list.example');

    const bySearch = await client.persons.list({ search: 'Listable' });
    expect(bySearch.status).toBe(200);
    expect(bySearch.data.map((p: TJson) => p.name).sort()).toEqual(['Yolanda Listable', 'Zebulon Listable']);
    expect(paginationHeaderOf(bySearch)).toBe('1,1,50,2');
    expect(bySearch.pagination).toEqual({ pageNumber: 1, totalPages: 1, perPage: 50, totalResults: 2 });

    const byEmail = await client.persons.list({ email: 'zebulon@list.example' });
    expect(byEmail.data.map((p: TJson) => p.id)).toEqual([zed.id]);

    const byPhone = await client.persons.list({ phone: '+1 555 010 9090' });
    expect(byPhone.data.map((p: TJson) => p.id)).toEqual([zed.id]);

    const none = await client.persons.list({ search: 'Nobody-By-This-Name' });
    expect(none.data).toEqual([]);
    expect(none.pagination?.totalResults).toBe(0);
  });

  it('answers pages by page and per_page, newest first', async () => {
    const first = await client.persons.list({ search: 'Listable', per_page: 1 });
    const second = await client.persons.list({ search: 'Listable', per_page: 1, page: 2 });
    expect(first.pagination).toEqual({ pageNumber: 1, totalPages: 2, perPage: 1, totalResults: 2 });
    expect(second.pagination).toEqual({ pageNumber: 2, totalPages: 2, perPage: 1, totalResults: 2 });
    expect(first.data.map((p: TJson) => p.name)).toEqual(['Yolanda Listable']);
    expect(second.data.map((p: TJson) => p.name)).toEqual(['Zebulon Listable']);
    const past = await client.persons.list({ search: 'Listable', per_page: 1, page: 9 });
    expect(past.status).toBe(200);
    expect(past.data).toEqual([]);
  });

  it('refuses a malformed page with 400', async () => {
    const { status, body } = await failureOf(client.persons.list({ page: 0 }));
    expect(status).toBe(400);
    expect(body.errors[0].field).toBe('page');
  });
});

describe('persons.pagedList', () => {
  it('iterates every page until the last one the pagination header announces', async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++)
      created.push((await aPerson(`Pager Person ${i}`, `pager${i}@compat.example`)).id);

    const pages: TClientResponse[] = [];
    for await (const page of client.persons.pagedList({ page: 1, per_page: 3, search: 'Pager Person' })) {
      pages.push(page);
      if (pages.length > 5) break; // a broken header would loop forever
    }
    expect(pages.map((p) => p.pagination)).toEqual([
      { pageNumber: 1, totalPages: 3, perPage: 3, totalResults: 7 },
      { pageNumber: 2, totalPages: 3, perPage: 3, totalResults: 7 },
      { pageNumber: 3, totalPages: 3, perPage: 3, totalResults: 7 },
    ]);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    const seen = pages.flatMap((p) => p.data.map((x: TJson) => x.id));
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual([...created].sort());
    // Newest first.
    expect(seen[0]).toBe(created[6]);
  });

  it('starts from the page it is given', async () => {
    const pages: TClientResponse[] = [];
    for await (const page of client.persons.pagedList({ page: 2, per_page: 3, search: 'Pager Person' })) {
      pages.push(page);
      if (pages.length > 5) break;
    }
    expect(pages.map((p) => p.pagination?.pageNumber)).toEqual([2, 3]);
  });
});

describe('persons.retrieve', () => {
  it('answers the Person as created, and a 404 for an unknown or foreign id', async () => {
    const p = await aPerson('Rita Retrieve', 'rita@compat.example', '+1 555 010 1234');
    const res = await client.persons.retrieve(p.id);
    expect(res.status).toBe(200);
    expect(res.data).toEqual(p);

    const unknown = await failureOf(client.persons.retrieve('00000000-0000-4000-8000-000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect(isApiErrorBody(unknown.body)).toBe(true);

    const foreign = await failureOf(blueinkClient(runtime).persons.retrieve(p.id));
    expect(foreign.status).toBe(404);
  });
});

describe('persons.update (PUT)', () => {
  it('replaces name, metadata and channels; channels left out are deleted', async () => {
    const p = await aPerson('Paul Put', 'paul@compat.example', '+1 555 010 2222');
    const email = p.channels.find((c: TJson) => c.kind === 'em');
    const res = await client.persons.update(p.id, {
      name: 'Paul Replaced',
      metadata: { replaced: true },
      channels: [{ id: email.id, email: 'paul.new@compat.example', kind: 'em' }],
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: p.id, name: 'Paul Replaced', metadata: { replaced: true } });
    expect(emailsOf(res.data)).toEqual(['paul.new@compat.example']);
    expect(phonesOf(res.data)).toEqual([]);
    const again = await client.persons.retrieve(p.id);
    expect(again.data).toEqual(res.data);
  });

  it('needs the whole Person: a PUT without a name is 400', async () => {
    const p = await aPerson('Nora Noname', 'nora@compat.example');
    const { status, body } = await failureOf(client.persons.update(p.id, { metadata: {} }));
    expect(status).toBe(400);
    expect(body.code).toBe('invalid');
    expect(body.errors.map((e: TJson) => e.field)).toContain('name');
  });
});

describe('persons.partialUpdate (PATCH)', () => {
  it('changes what is given and keeps the rest; a channel without id is added', async () => {
    const p = await aPerson('Patty Patch', 'patty@compat.example', '+1 555 010 3333');
    const res = await client.persons.partialUpdate(p.id, {
      name: 'Patty Patched',
      channels: [{ email: 'patty.second@compat.example', kind: 'em' }],
    });
    expect(res.status).toBe(200);
    expect(res.data.name).toBe('Patty Patched');
    expect(res.data.metadata).toEqual({ source: 'compat' });
    expect(emailsOf(res.data).sort()).toEqual(['patty.second@compat.example', 'patty@compat.example']);
    expect(phonesOf(res.data)).toEqual(['+1 555 010 3333']);

    const same = await client.persons.partialUpdate(p.id, {
      channels: [{ email: 'patty@compat.example', kind: 'em' }],
    });
    expect(same.data.channels).toHaveLength(3);
  });
});

describe('persons.delete', () => {
  it('deletes with 204 and no body; the Person is gone afterwards', async () => {
    const p = await aPerson('Dora Delete', 'dora@compat.example');
    const res = await client.persons.delete(p.id);
    expect(res.status).toBe(204);
    expect(res.data === '' || res.data === undefined || res.data === null).toBe(true);
    const gone = await failureOf(client.persons.retrieve(p.id));
    expect(gone.status).toBe(404);
    const twice = await failureOf(client.persons.delete(p.id));
    expect(twice.status).toBe(404);
    expect(twice.body.code).toBe('not_found');
  });
});

describe('authentication', () => {
  it('an invalid key is a 401 authentication_failed axios error', async () => {
    const wrong = blueinkClient(runtime, 'x'.repeat(40));
    const { status, body, error } = await failureOf(wrong.persons.list());
    expect(status).toBe(401);
    expect(body.code).toBe('authentication_failed');
    expect(isApiErrorBody(body)).toBe(true);
    expect(error.message).toContain('401');
    const alsoWrong = await failureOf(wrong.persons.create({ name: 'Nobody' }));
    expect(alsoWrong.status).toBe(401);
    expect(alsoWrong.body.code).toBe('authentication_failed');
  });
});
