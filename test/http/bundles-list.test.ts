import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { batchWrite } from '#shared/adapters/dynamodb/batch';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { bundleTermEntity } from '#shared/adapters/dynamodb/entities/bundle';
import type { TBundle } from '#shared/domain/bundles/bundle';
import { aBundle, aPdfB64 } from '../helpers/bundles';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let b64: string;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  b64 = await aPdfB64();
});
afterAll(() => runtime.stop());

type TCall = ReturnType<typeof apiClient>;

/** A fresh account per behaviour, so every count below is exactly what that block created. */
async function anAccount(name: string) {
  const account = await runtime.seedAccount(name, `owner@${name.toLowerCase().replace(/\W/g, '')}.example`);
  return { accountId: account.accountId, call: apiClient(runtime, account.apiKey) };
}

async function create(call: TCall, overrides: Record<string, unknown>, signer?: Record<string, unknown>) {
  const body = signer
    ? aBundle({ packets: [{ key: 'only', ...signer }], documents: [{ file_b64: b64 }], ...overrides }, b64)
    : aBundle(overrides, b64);
  const res = await call('POST', '/bundles/', { json: body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; created: string; packets: { id: string }[] };
}

/**
 * What no API changes yet (completed_at, a backdated created): written through the store, as a
 * future endpoint would, so the indexes and lookup items follow like on any save.
 */
async function rewrite(accountId: string, id: string, change: (b: TBundle) => Partial<TBundle>) {
  const store = createBundleStore(runtime.db, runtime.config.tableName);
  const previous = (await store.get(accountId, id))!;
  const next = { ...previous, ...change(previous), version: previous.version + 1 };
  for (const key of Object.keys(next) as (keyof TBundle)[]) if (next[key] === undefined) delete next[key];
  await store.save(next, previous);
}

async function ids(call: TCall, query: string): Promise<string[]> {
  const res = await call('GET', `/bundles/?${query}`);
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  // The total comes from the indexes alone; it must count exactly what the page shows.
  expect(res.headers.get('x-blueink-pagination'), query).toBe(`1,1,50,${res.body.length}`);
  return res.body.map((b: { id: string }) => b.id);
}

/** Same ids, any order: for filters where order is not the point. */
async function idSet(call: TCall, query: string): Promise<string[]> {
  return (await ids(call, query)).sort();
}
const sorted = (...list: string[]) => [...list].sort();

describe('each filter alone', () => {
  let call: TCall;
  let accountId: string;
  const b: Record<string, string> = {};
  const template = randomUUID();

  beforeAll(async () => {
    ({ call, accountId } = await anAccount('Filters Inc'));
    const [alpha, beta, gamma, delta, eps, zeta] = await Promise.all([
      create(
        call,
        { label: 'Lease Alpha', custom_key: 'CK-alpha-7' },
        { name: 'Ann Lee', email: 'ann@lee.example' },
      ),
      create(
        call,
        { label: 'Office Beta', status: 'dr' },
        { name: 'Carol Diaz', email: 'carol@diaz.example', phone: '+44 20 7946 0000' },
      ),
      create(call, { label: 'Gamma Deal' }, { name: 'Gus Grey', email: 'gus@grey.example' }),
      create(call, { label: 'Delta Deal' }, { name: 'Dora Dunn', email: 'dora@dunn.example' }),
      create(call, { label: 'Epsilon', status: 'dr' }, { name: 'Eve Ek', email: 'eve@ek.example' }),
      create(call, { label: 'Zeta' }, { name: 'Zoe Zed', email: 'zoe@zed.example' }),
    ]);
    Object.assign(b, {
      alpha: alpha.id,
      beta: beta.id,
      gamma: gamma.id,
      delta: delta.id,
      eps: eps.id,
      zeta: zeta.id,
    });
    const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(200);
    ok(await call('PUT', `/bundles/${b.alpha}/add_tags/`, { json: { tags: ['hr', 'urgent'] } }));
    ok(await call('PUT', `/bundles/${b.beta}/add_tags/`, { json: { tags: ['hr'] } }));
    ok(await call('PUT', `/bundles/${b.gamma}/add_tags/`, { json: { tags: ['q3', 'a#b'] } }));
    ok(await call('PUT', `/bundles/${b.gamma}/cancel/`));
    ok(await call('POST', `/bundles/${b.eps}/send/`));
    await rewrite(accountId, b.delta!, () => ({ status: 'co', completedAt: new Date().toISOString() }));
    await rewrite(accountId, b.zeta!, (x) => ({
      documents: x.documents.map((d) => ({ ...d, templateId: template })),
    }));
  });

  it('lists all of them without filters', async () => {
    expect(await idSet(call, '')).toEqual(sorted(...Object.values(b)));
  });

  it('filters by status and status__in, and both together must hold', async () => {
    expect(await idSet(call, 'status=dr')).toEqual([b.beta]);
    expect(await idSet(call, 'status=se')).toEqual(sorted(b.alpha!, b.eps!, b.zeta!));
    expect(await idSet(call, 'status=ca')).toEqual([b.gamma]);
    expect(await idSet(call, 'status=co')).toEqual([b.delta]);
    expect(await idSet(call, 'status=ex')).toEqual([]);
    expect(await idSet(call, 'status__in=dr,ca')).toEqual(sorted(b.beta!, b.gamma!));
    expect(await idSet(call, 'status__in=co,,')).toEqual([b.delta]);
    expect(await idSet(call, 'status=dr&status__in=dr,se')).toEqual([b.beta]);
    expect(await idSet(call, 'status=se&status__in=dr,ca')).toEqual([]);
  });

  it('filters by tag (must have) and tag__in (at least one)', async () => {
    expect(await idSet(call, 'tag=hr')).toEqual(sorted(b.alpha!, b.beta!));
    expect(await idSet(call, 'tag=HR')).toEqual([]);
    expect(await idSet(call, 'tag=a')).toEqual([]);
    expect(await idSet(call, `tag=${encodeURIComponent('a#b')}`)).toEqual([b.gamma]);
    expect(await idSet(call, 'tag__in=urgent,q3')).toEqual(sorted(b.alpha!, b.gamma!));
    expect(await idSet(call, 'tag=hr&tag__in=urgent,q3')).toEqual([b.alpha]);
    expect(await idSet(call, 'tag=nope')).toEqual([]);
  });

  it('searches slug, label, custom key, signer name, email and phone by word prefix', async () => {
    expect(await idSet(call, `search=${b.alpha}`)).toEqual([b.alpha]);
    expect(await idSet(call, `search=${b.alpha!.toLowerCase()}`)).toEqual([b.alpha]);
    expect(await idSet(call, 'search=alp')).toEqual([b.alpha]);
    expect(await idSet(call, 'search=ck-alpha-7')).toEqual([b.alpha]);
    expect(await idSet(call, 'search=deal')).toEqual(sorted(b.gamma!, b.delta!));
    expect(await idSet(call, 'search=carol')).toEqual([b.beta]);
    expect(await idSet(call, 'search=DIAZ')).toEqual([b.beta]);
    expect(await idSet(call, 'search=carol%40diaz.example')).toEqual([b.beta]);
    expect(await idSet(call, 'search=%2B44%2020%207946')).toEqual([b.beta]);
    expect(await idSet(call, 'search=4420794')).toEqual([b.beta]);
    expect(await idSet(call, 'search=ann%20lease')).toEqual([b.alpha]);
    expect(await idSet(call, 'search=ann%20beta')).toEqual([]);
    expect(await idSet(call, 'search=lease%20gus')).toEqual([]);
    expect(await idSet(call, 'search=xyzzy')).toEqual([]);
    expect(await idSet(call, 'search=example')).toEqual([]);
  });

  it('filters by template: only bundles with a document made from it', async () => {
    expect(await idSet(call, `template=${template}`)).toEqual([b.zeta]);
    expect(await idSet(call, `template=${randomUUID()}`)).toEqual([]);
  });

  it('combines filters: only bundles matching all of them', async () => {
    expect(await idSet(call, 'status=se&tag=hr')).toEqual([b.alpha]);
    expect(await idSet(call, 'status__in=se,dr&tag=hr&search=office')).toEqual([b.beta]);
    expect(await idSet(call, 'status=ca&tag__in=q3,hr&search=gamma')).toEqual([b.gamma]);
    expect(await idSet(call, `status=se&template=${template}&search=zoe`)).toEqual([b.zeta]);
    expect(await idSet(call, `status=dr&template=${template}`)).toEqual([]);
    expect(await idSet(call, 'status=co&search=deal&completed_after=2000-01-01')).toEqual([b.delta]);
  });
});

describe('ordering and date ranges', () => {
  let call: TCall;
  // created / sent / completed: ends of days, so every range below sits on a day boundary.
  const plan = {
    a: { created: '2024-02-29T23:59:59.999Z', sent: '2024-03-05T10:00:00.000Z', status: 'se' },
    b: { created: '2024-03-01T00:00:00.000Z', status: 'dr' },
    c: {
      created: '2024-03-01T23:59:59.999Z',
      sent: '2024-03-02T00:00:00.000Z',
      completedAt: '2024-03-03T23:59:59.999Z',
      status: 'co',
    },
    d: {
      created: '2024-03-02T00:00:00.000Z',
      sent: '2024-03-02T23:59:59.999Z',
      completedAt: '2024-03-04T00:00:00.000Z',
      status: 'co',
    },
  } as const;
  const id: Record<keyof typeof plan, string> = { a: '', b: '', c: '', d: '' };
  const order = async (query: string) => {
    const names = Object.fromEntries(Object.entries(id).map(([k, v]) => [v, k]));
    return (await ids(call, query)).map((x) => names[x]).join('');
  };

  beforeAll(async () => {
    let accountId: string;
    ({ call, accountId } = await anAccount('Order Co'));
    const made = await Promise.all(Object.keys(plan).map(() => create(call, { status: 'dr' })));
    for (const [i, key] of (Object.keys(plan) as (keyof typeof plan)[]).entries()) {
      id[key] = made[i]!.id;
      const p = plan[key];
      await rewrite(accountId, id[key], () => ({
        created: p.created,
        status: p.status,
        sent: 'sent' in p ? p.sent : undefined,
        completedAt: 'completedAt' in p ? p.completedAt : undefined,
      }));
    }
  });

  it('orders by created, sent and completed_at both ways; bundles without the date come last', async () => {
    expect(await order('')).toBe('dcba');
    expect(await order('ordering=-created')).toBe('dcba');
    expect(await order('ordering=created')).toBe('abcd');
    expect(await order('ordering=sent')).toBe('cdab');
    expect(await order('ordering=-sent')).toBe('adcb');
    expect(await order('ordering=completed_at')).toBe('cdba');
    expect(await order('ordering=-completed_at')).toBe('dcba');
  });

  it('takes whole UTC days, both ends inclusive', async () => {
    expect(await order('created_after=2024-03-01')).toBe('dcb');
    expect(await order('created_before=2024-03-01')).toBe('cba');
    expect(await order('created_after=2024-03-01&created_before=2024-03-01')).toBe('cb');
    expect(await order('created_after=2024-02-29&created_before=2024-02-29')).toBe('a');
    expect(await order('created_after=2024-03-02&created_before=2024-03-01')).toBe('');
    expect(await order('sent_after=2024-03-02&sent_before=2024-03-02')).toBe('dc');
    expect(await order('sent_before=2024-03-04')).toBe('dc');
    expect(await order('sent_after=2024-03-03')).toBe('a');
    expect(await order('completed_after=2024-03-04')).toBe('d');
    expect(await order('completed_before=2024-03-03')).toBe('c');
    expect(await order('completed_after=2024-03-03&completed_before=2024-03-04')).toBe('dc');
  });

  it('combines ranges, statuses and orderings', async () => {
    expect(await order('status=co&created_after=2024-03-02')).toBe('d');
    expect(await order('status__in=dr,se&created_before=2024-03-01&ordering=created')).toBe('ab');
    expect(await order('sent_after=2024-03-02&ordering=-sent')).toBe('adc');
    expect(await order('completed_before=2024-03-04&sent_after=2024-03-02&ordering=sent')).toBe('cd');
    expect(await order('created_after=2024-03-01&ordering=-sent')).toBe('dcb');
    expect(await order('status=co&ordering=completed_at&created_before=2024-03-01')).toBe('c');
    expect(await order('sent_after=2024-03-01&created_after=2024-03-01&ordering=created')).toBe('cd');
  });
});

describe('pagination with filters', () => {
  it('pages through the matches with the filters kept in the Link header', async () => {
    const { call } = await anAccount('Pages Ltd');
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create(call, { label: `Batch ${i}`, ...(i === 5 ? { status: 'dr' } : {}) }),
      ),
    );
    await Promise.all(
      made.slice(0, 5).map((m) => call('PUT', `/bundles/${m.id}/add_tags/`, { json: { tags: ['batch'] } })),
    );
    await call('PUT', `/bundles/${made[5]!.id}/add_tags/`, { json: { tags: ['batch'] } });
    await call('PUT', `/bundles/${made[4]!.id}/cancel/`);
    // 4 sent with the tag; the draft and the cancelled one are left out by status.
    const expected = made
      .slice(0, 4)
      .sort((x, y) =>
        x.created === y.created ? x.id.localeCompare(y.id) : x.created.localeCompare(y.created),
      )
      .map((m) => m.id);

    let url: string | undefined =
      '/bundles/?tag=batch&status__in=se,st&search=batch&ordering=created&per_page=3';
    const seen: string[] = [];
    const headers: string[] = [];
    while (url) {
      const res = await call('GET', url);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.map((x: { id: string }) => x.id));
      headers.push(res.headers.get('x-blueink-pagination')!);
      const link = res.headers.get('link') ?? '';
      for (const m of link.matchAll(/<([^>]+)>/g)) {
        const params = new URL(m[1]!).searchParams;
        expect(params.get('tag')).toBe('batch');
        expect(params.get('status__in')).toBe('se,st');
        expect(params.get('search')).toBe('batch');
        expect(params.get('ordering')).toBe('created');
        expect(params.get('per_page')).toBe('3');
      }
      url = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    }
    expect(headers).toEqual(['1,2,3,4', '2,2,3,4']);
    expect(seen).toEqual(expected);
  });
});

describe('lists follow changes of the bundle', () => {
  let call: TCall;
  beforeAll(async () => {
    ({ call } = await anAccount('Changes Co'));
  });

  it('moves a bundle between status lists as it is sent and cancelled', async () => {
    const m = await create(call, { status: 'dr', label: 'Mover' });
    expect(await ids(call, 'status=dr')).toEqual([m.id]);
    await call('POST', `/bundles/${m.id}/send/`);
    expect(await ids(call, 'status=dr')).toEqual([]);
    expect(await ids(call, 'status=se&search=mover')).toEqual([m.id]);
    expect(await ids(call, `sent_after=${new Date().toISOString().slice(0, 10)}&search=mover`)).toEqual([
      m.id,
    ]);
    await call('PUT', `/bundles/${m.id}/cancel/`);
    expect(await ids(call, 'status=se&search=mover')).toEqual([]);
    expect(await ids(call, 'status=ca&search=mover')).toEqual([m.id]);
  });

  it('finds a renamed signer by the new name only, and a changed email by the new one', async () => {
    const m = await create(
      call,
      { label: 'Rename' },
      { name: 'Quentin Marsh', email: 'quentin@marsh.example' },
    );
    expect(await ids(call, 'search=quentin')).toEqual([m.id]);
    const res = await call('PATCH', `/packets/${m.packets[0]!.id}/`, {
      json: { name: 'Ursula Vane', email: 'ursula@vane.example' },
    });
    expect(res.status, res.text).toBe(200);
    expect(await ids(call, 'search=quentin')).toEqual([]);
    expect(await ids(call, 'search=marsh')).toEqual([]);
    expect(await ids(call, 'search=ursula%20vane')).toEqual([m.id]);
    expect(await ids(call, 'search=ursula%40vane.example')).toEqual([m.id]);
  });

  it('drops a removed tag', async () => {
    const m = await create(call, { label: 'Tagged' });
    await call('PUT', `/bundles/${m.id}/add_tags/`, { json: { tags: ['keep', 'drop'] } });
    expect(await ids(call, 'tag=drop')).toEqual([m.id]);
    await call('PUT', `/bundles/${m.id}/remove_tags/`, { json: { tags: ['drop'] } });
    expect(await ids(call, 'tag=drop')).toEqual([]);
    expect(await ids(call, 'tag__in=drop,gone')).toEqual([]);
    expect(await ids(call, 'tag=keep')).toEqual([m.id]);
    expect(await ids(call, 'tag__in=drop,keep')).toEqual([m.id]);
  });
});

describe('lookup items left behind', () => {
  it('never list a bundle that no longer matches: each result is checked against the bundle', async () => {
    const { call, accountId } = await anAccount('Stale Co');
    const m = await create(call, { label: 'Fresh' });
    // What an interrupted save leaves: terms of values the bundle no longer has.
    await batchWrite(
      runtime.db,
      runtime.config.tableName,
      ['t:old-tag', 's:stale', `d:${randomUUID()}`].map((term) => ({
        put: bundleTermEntity.toItem({ accountId, term, id: m.id, created: m.created }),
      })),
    );
    for (const q of ['tag=old-tag', 'tag__in=old-tag', 'search=stale']) {
      const res = await call('GET', `/bundles/?${q}`);
      expect(res.status).toBe(200);
      expect(res.body, q).toEqual([]);
    }
    expect(await ids(call, 'search=fresh')).toEqual([m.id]);
  });
});

describe('accounts', () => {
  it("never lists another account's bundles, whatever the filter", async () => {
    const mine = await anAccount('Mine Inc');
    const theirs = await anAccount('Theirs Inc');
    const [own, other] = await Promise.all([
      create(mine.call, { label: 'Shared Word' }, { name: 'Same Name', email: 'same@shared.example' }),
      create(theirs.call, { label: 'Shared Word' }, { name: 'Same Name', email: 'same@shared.example' }),
    ]);
    await Promise.all([
      mine.call('PUT', `/bundles/${own.id}/add_tags/`, { json: { tags: ['common'] } }),
      theirs.call('PUT', `/bundles/${other.id}/add_tags/`, { json: { tags: ['common'] } }),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    for (const q of [
      '',
      'search=shared',
      'tag=common',
      'tag__in=common',
      'status=se',
      `created_after=${today}`,
    ]) {
      expect(await ids(mine.call, q)).toEqual([own.id]);
      expect(await ids(theirs.call, q)).toEqual([other.id]);
    }
    expect(await ids(mine.call, `search=${other.id}`)).toEqual([]);
  });
});

describe('bad parameters', () => {
  it('answers 400 naming the parameter, and never a 5xx for odd values', async () => {
    const { call } = await anAccount('Bad Params');
    const cases: [string, string][] = [
      ['status=xx', 'status'],
      ['status__in=dr,zz', 'status__in'],
      [`tag__in=ok,${'x'.repeat(101)}`, 'tag__in'],
      [`tag=${'x'.repeat(101)}`, 'tag'],
      ['ordering=name', 'ordering'],
      ['ordering=--created', 'ordering'],
      ['created_after=2024-13-01', 'created_after'],
      ['created_before=yesterday', 'created_before'],
      ['sent_after=2023-02-29', 'sent_after'],
      ['sent_before=2024-1-1', 'sent_before'],
      ['completed_after=2024-01-01T00:00:00Z', 'completed_after'],
      ['completed_before=01/02/2024', 'completed_before'],
      ['template=not-a-uuid', 'template'],
      [`search=${'x'.repeat(201)}`, 'search'],
      ['page=0', 'page'],
    ];
    const odd = ['', '%20', '%00', '%ED%A0%80', '%F0%9F%98%80', '%23', ',', '-', 'x'.repeat(3000), '%2B%20('];
    for (const param of [
      'search',
      'status',
      'status__in',
      'tag',
      'tag__in',
      'ordering',
      'sent_after',
      'template',
    ]) {
      for (const value of odd) {
        const res = await call('GET', `/bundles/?${param}=${value}`);
        expect(res.status, `${param}=${value.slice(0, 20)}: ${res.text}`).toBeLessThan(500);
        if (res.status === 400) expect(res.body.errors[0].field).toBe(param);
      }
    }
    for (const [query, field] of cases) {
      const res = await call('GET', `/bundles/?${query}`);
      expect(res.status, query).toBe(400);
      expect(isErrorBody(res.body), res.text).toBe(true);
      expect(
        res.body.errors.map((e: { field: string }) => e.field),
        query,
      ).toEqual([field]);
    }
  });
});
