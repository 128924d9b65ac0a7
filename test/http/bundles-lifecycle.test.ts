import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/bundles/', { json: aBundle(overrides, b64) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const kinds = (events: { kind: string }[]) => events.map((e) => e.kind);

describe('retrieve', () => {
  it("answers 404 for another account's bundle and for ids that are no slug", async () => {
    const b = await create();
    const other = await runtime.seedAccount('Other', 'o@example.com');
    expect((await apiClient(runtime, other.apiKey)('GET', `/bundles/${b.id}/`)).status).toBe(404);
    expect((await call('GET', '/bundles/not-a-slug/')).status).toBe(404);
    expect((await call('GET', '/bundles/AAAAAAAAAA/')).status).toBe(404);
  });

  it('adds events, data and files on request: events always, data and files null until complete', async () => {
    const b = await create();
    const res = await call('GET', `/bundles/${b.id}/?include=data,events,files`);
    expect(res.status).toBe(200);
    expect(kinds(res.body.events)).toEqual(['cr', 'se', 'ps', 'ps']);
    expect(res.body.data).toBeNull();
    expect(res.body.files).toBeNull();
    expect((await call('GET', `/bundles/${b.id}/?include=events,events`)).status).toBe(400);
    expect((await call('GET', `/bundles/${b.id}/?include=secrets`)).status).toBe(400);
  });

  it('answers PUT with 405: only PATCH changes a bundle', async () => {
    const b = await create();
    expect((await call('PUT', `/bundles/${b.id}/`, { json: {} })).status).toBe(405);
  });
});

describe('events', () => {
  it('lists the audit trail with kind, description, timestamp and packet', async () => {
    const b = await create();
    const res = await call('GET', `/bundles/${b.id}/events/`);
    expect(res.status).toBe(200);
    expect(kinds(res.body)).toEqual(['cr', 'se', 'ps', 'ps']);
    expect(res.body[2]).toMatchObject({
      packet_id: b.packets[0].id,
      description: 'Signing request sent: Ann Lee',
    });
    for (const e of res.body) expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
  });
});

describe('cancel', () => {
  it('cancels once, with an event; a second cancel is 409', async () => {
    const b = await create();
    const res = await call('PUT', `/bundles/${b.id}/cancel/`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ca');
    expect(res.body.packets.every((p: { status: string }) => p.status === 'ca')).toBe(true);
    const again = await call('PUT', `/bundles/${b.id}/cancel/`);
    expect(again.status).toBe(409);
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(kinds(events.body).filter((k) => k === 'ca')).toHaveLength(1);
  });
});

describe('tags', () => {
  it('adds as a union and removes what is there, ignoring the rest', async () => {
    const b = await create();
    const added = await call('PUT', `/bundles/${b.id}/add_tags/`, { json: { tags: ['hr', 'urgent', 'hr'] } });
    expect(added.status).toBe(200);
    expect(added.body.tags).toEqual(['hr', 'urgent']);
    const more = await call('PUT', `/bundles/${b.id}/add_tags/`, { json: { tags: ['urgent', 'q3'] } });
    expect(more.body.tags).toEqual(['hr', 'urgent', 'q3']);
    const removed = await call('PUT', `/bundles/${b.id}/remove_tags/`, {
      json: { tags: ['urgent', 'never-there'] },
    });
    expect(removed.body.tags).toEqual(['hr', 'q3']);
    const form = await call('PUT', `/bundles/${b.id}/add_tags/`, { form: 'tags=form-tag' });
    expect(form.body.tags).toEqual(['hr', 'q3', 'form-tag']);
    expect(
      (await call('PUT', `/bundles/${b.id}/add_tags/`, { json: { tags: 'x'.repeat(101) } })).status,
    ).toBe(400);
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(kinds(events.body).filter((k) => k === 'tg')).toHaveLength(4);
  });
});

describe('list', () => {
  it('lists newest first with pagination headers', async () => {
    const account = await runtime.seedAccount('Lister', 'lister@example.com');
    const theirs = apiClient(runtime, account.apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await theirs('POST', '/bundles/', { json: aBundle({ label: `L${i}` }, b64) });
      ids.push(res.body.id);
    }
    const page1 = await theirs('GET', '/bundles/?per_page=2');
    expect(page1.headers.get('x-blueink-pagination')).toBe('1,2,2,3');
    expect(page1.body.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    const page2 = await theirs('GET', '/bundles/?per_page=2&page=2');
    expect(page2.body.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
  });
});

describe('persons in live bundles', () => {
  it('cannot be deleted until the bundle is finished', async () => {
    const b = await create({
      packets: [{ key: 'zed', name: 'Zed Keep', email: 'zed@keep.example' }],
      documents: [{ file_b64: b64 }],
    });
    const personId = b.packets[0].person_id;
    const refused = await call('DELETE', `/persons/${personId}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    await call('PUT', `/bundles/${b.id}/cancel/`);
    expect((await call('DELETE', `/persons/${personId}/`)).status).toBe(204);
  });
});

describe('concurrency', () => {
  it('keeps every racing tag change and records one event each', async () => {
    const b = await create();
    const tags = Array.from({ length: 6 }, (_, i) => `t${i}`);
    const answers = await Promise.all(
      tags.map((t) => call('PUT', `/bundles/${b.id}/add_tags/`, { json: { tags: [t] } })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const got = await call('GET', `/bundles/${b.id}/?include=events`);
    expect([...got.body.tags].sort()).toEqual(tags);
    expect(kinds(got.body.events).filter((k) => k === 'tg')).toHaveLength(6);
  });

  it('lets exactly one of two racing cancels win', async () => {
    const b = await create();
    const answers = await Promise.all([1, 2].map(() => call('PUT', `/bundles/${b.id}/cancel/`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(kinds(events.body).filter((k) => k === 'ca')).toHaveLength(1);
  });
});

describe('data and files', () => {
  it('are 409 until the bundle is complete', async () => {
    const b = await create();
    const data = await call('GET', `/bundles/${b.id}/data/`);
    expect(data.status).toBe(409);
    expect(data.body.code).toBe('conflict');
    expect((await call('GET', `/bundles/${b.id}/files/`)).status).toBe(409);
  });

  it('come early with the early access features: every field, and links to the documents', async () => {
    const early = await runtime.seedAccount('Early', 'early@example.com');
    await createAccountStore(runtime.db, runtime.config.tableName).setFeatures(early.accountId, {
      early_data_access: true,
      early_file_access: true,
    });
    const theirs = apiClient(runtime, early.apiKey);
    const fields = [
      { kind: 'sig', key: 'sign', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] },
      { kind: 'inp', key: 'title', label: 'Title', page: 2, x: 10, y: 10, w: 30, h: 5, initial_value: 'CEO' },
    ];
    const created = await theirs('POST', '/bundles/', {
      json: aBundle({ documents: [{ key: 'lease', file_b64: b64, fields }] }, b64),
    });
    const data = await theirs('GET', `/bundles/${created.body.id}/data/`);
    expect(data.status, data.text).toBe(200);
    expect(data.body).toEqual([
      {
        doc_key: 'lease',
        field_key: 'sign',
        label: '',
        kind: 'sig',
        value: '',
        filled_by: '',
        packet_id: null,
        attachments: [],
      },
      {
        doc_key: 'lease',
        field_key: 'title',
        label: 'Title',
        kind: 'inp',
        value: 'CEO',
        // An initial value nobody changed, as the reference API names it.
        filled_by: 'initial',
        packet_id: null,
        attachments: [],
      },
    ]);
    const files = await theirs('GET', `/bundles/${created.body.id}/files/`);
    expect(files.status).toBe(200);
    expect(files.body).toHaveLength(1);
    expect(files.body[0].doc_key).toBe('lease');
    expect(Date.parse(files.body[0].expires)).toBeGreaterThan(Date.now());
    const pdf = await fetch(files.body[0].file_url);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).equals(Buffer.from(b64, 'base64'))).toBe(true);
    const included = await theirs('GET', `/bundles/${created.body.id}/?include=data,files`);
    expect(included.body.data).toHaveLength(2);
    expect(included.body.files).toHaveLength(1);
  });
});

describe('usage', () => {
  it('counts bundles sent this month, never test bundles, and a draft when it is sent', async () => {
    const acc = await runtime.seedAccount('Usage', 'usage@example.com');
    const theirs = apiClient(runtime, acc.apiKey);
    const accounts = createAccountStore(runtime.db, runtime.config.tableName);
    const month = new Date().toISOString().slice(0, 7);
    await theirs('POST', '/bundles/', { json: aBundle({}, b64) });
    await theirs('POST', '/bundles/', { json: aBundle({}, b64) });
    const test = await theirs('POST', '/bundles/', { json: aBundle({ is_test: true }, b64) });
    expect(test.body.is_test).toBe(true);
    const draft = await theirs('POST', '/bundles/', { json: aBundle({ status: 'dr' }, b64) });
    expect(await accounts.sentBundles(acc.accountId, month)).toBe(2);
    await theirs('POST', `/bundles/${draft.body.id}/send/`);
    expect(await accounts.sentBundles(acc.accountId, month)).toBe(3);
  });
});

describe('a long history', () => {
  it('keeps every event in order while the bundle item stays small', async () => {
    const b = await create();
    for (let i = 0; i < 120; i++) {
      const res = await call('PUT', `/bundles/${b.id}/${i % 2 === 0 ? 'add_tags' : 'remove_tags'}/`, {
        json: { tags: [`t-${'x'.repeat(90)}`] },
      });
      expect(res.status).toBe(200);
    }
    const events = await call('GET', `/bundles/${b.id}/events/`);
    expect(events.body).toHaveLength(4 + 120);
    expect(kinds(events.body).slice(0, 4)).toEqual(['cr', 'se', 'ps', 'ps']);
    expect(
      events.body
        .slice(4)
        .map((e: { description: string }) => e.description.split(':')[1]!.trim().split(' ')[0]),
    ).toEqual(Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? 'added' : 'removed')));
    const included = await call('GET', `/bundles/${b.id}/?include=events`);
    expect(included.body.events).toEqual(events.body);
    const stored = await createBundleStore(runtime.db, runtime.config.tableName).get(
      runtime.demo.accountId,
      b.id,
    );
    expect(stored!.events.length).toBeLessThanOrEqual(100);
    expect(stored!.archivedEvents).toBeGreaterThan(0);
  });
});

describe('a Person whose contact changes', () => {
  it('takes live bundles along, not finished ones', async () => {
    const signer = [{ key: 'fay', name: 'Fay Move', email: 'fay@old.example' }];
    const live = await create({ packets: signer, documents: [{ file_b64: b64 }] });
    const done = await create({ packets: signer, documents: [{ file_b64: b64 }] });
    await call('PUT', `/bundles/${done.id}/cancel/`);
    const personId = live.packets[0].person_id;
    const person = await call('GET', `/persons/${personId}/`);
    const channel = person.body.channels.find((c: { email: string }) => c.email === 'fay@old.example');
    const res = await call('PATCH', `/persons/${personId}/`, {
      json: { channels: [{ id: channel.id, email: 'fay@new.example' }] },
    });
    expect(res.status, res.text).toBe(200);
    const after = await call('GET', `/bundles/${live.id}/?include=events`);
    expect(after.body.packets[0].email).toBe('fay@new.example');
    expect(kinds(after.body.events).at(-1)).toBe('pu');
    expect((await call('GET', `/bundles/${done.id}/`)).body.packets[0].email).toBe('fay@old.example');
  });
});
