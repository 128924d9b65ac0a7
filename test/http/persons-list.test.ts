import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
const created: { id: string; name: string }[] = [];

// A fresh account, so the counts below are exactly what this file created (plus the account's
// own admin user, who is a Person too).
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  const account = await runtime.seedAccount('Lists Inc', 'owner@lists.example');
  call = apiClient(runtime, account.apiKey);
  for (let i = 0; i < 7; i++) {
    const res = await call('POST', '/persons/', {
      json: {
        name: i % 2 === 0 ? `Even Person ${i}` : `Odd Mary-Jane ${i}`,
        channels: [{ email: `p${i}@corp${i % 3}.example` }, { phone: `+1 555 000 10${i}0` }],
      },
    });
    expect(res.status).toBe(201);
    created.push(res.body);
  }
});
afterAll(() => runtime.stop());

const names = (body: { name: string }[]) => body.map((p) => p.name);

describe('list persons', () => {
  it('lists newest first with the pagination header over several pages', async () => {
    const first = await call('GET', '/persons/?per_page=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-blueink-pagination')).toBe('1,3,3,8');
    expect(names(first.body)).toEqual(names(created.slice(-3).reverse()));

    const second = await call('GET', '/persons/?per_page=3&page=2');
    expect(second.headers.get('x-blueink-pagination')).toBe('2,3,3,8');
    expect(names(second.body)).toEqual(names(created.slice(1, 4).reverse()));

    const third = await call('GET', '/persons/?per_page=3&page=3');
    expect(third.body).toHaveLength(2);
    expect(names(third.body)).toContain('Lists Inc Admin');

    const all = [...first.body, ...second.body, ...third.body].map((p: { id: string }) => p.id);
    expect(new Set(all).size).toBe(8);
  });

  it('links first, prev, next and last pages', async () => {
    const res = await call('GET', '/persons/?per_page=3&page=2');
    const link = res.headers.get('link') ?? '';
    const rels = Object.fromEntries(
      [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [
        m[2],
        new URL(m[1]!).searchParams.get('page'),
      ]),
    );
    expect(rels).toEqual({ first: '1', prev: '1', next: '3', last: '3' });
    expect(link).toContain(`${runtime.baseUrl}/api/v2/persons/?`);
    const firstPage = await call('GET', '/persons/?per_page=3');
    expect(firstPage.headers.get('link')).not.toContain('rel="prev"');
  });

  it('answers an empty list past the last page, and caps per_page at 100', async () => {
    const past = await call('GET', '/persons/?page=9&per_page=3');
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    const capped = await call('GET', '/persons/?per_page=500');
    expect(capped.headers.get('x-blueink-pagination')).toBe('1,1,100,8');
  });

  it('refuses a page that is not a positive integer', async () => {
    for (const page of ['0', '-1', 'abc']) {
      const res = await call('GET', `/persons/?page=${page}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('page');
    }
  });

  it('filters by email, case-insensitively and exactly', async () => {
    const res = await call('GET', '/persons/?email=P3@CORP0.example');
    expect(names(res.body)).toEqual(['Odd Mary-Jane 3']);
    expect(res.headers.get('x-blueink-pagination')).toBe('1,1,50,1');
    expect((await call('GET', '/persons/?email=p3@corp0')).body).toEqual([]);
  });

  it('filters by phone whatever its formatting', async () => {
    const res = await call('GET', `/persons/?phone=${encodeURIComponent('+1 (555) 000-1040')}`);
    expect(names(res.body)).toEqual(['Even Person 4']);
  });

  it('searches names, emails and phones by word prefix, all words required', async () => {
    expect(names((await call('GET', '/persons/?search=mary')).body)).toEqual([
      'Odd Mary-Jane 5',
      'Odd Mary-Jane 3',
      'Odd Mary-Jane 1',
    ]);
    expect(names((await call('GET', '/persons/?search=jane 3')).body)).toEqual(['Odd Mary-Jane 3']);
    expect(names((await call('GET', '/persons/?search=corp2')).body)).toEqual([
      'Odd Mary-Jane 5',
      'Even Person 2',
    ]);
    expect(names((await call('GET', '/persons/?search=p6@corp0.example')).body)).toEqual(['Even Person 6']);
    expect(names((await call('GET', '/persons/?search=1555000106')).body)).toEqual(['Even Person 6']);
    expect((await call('GET', '/persons/?search=nobody')).body).toEqual([]);
    // The top-level domain is no word of its own, or it would match every address under it.
    expect((await call('GET', '/persons/?search=example')).body).toEqual([]);
  });

  it('combines filters: a person must match all of them', async () => {
    const both = await call('GET', '/persons/?search=even&email=p4@corp1.example');
    expect(names(both.body)).toEqual(['Even Person 4']);
    const none = await call('GET', '/persons/?search=odd&email=p4@corp1.example');
    expect(none.body).toEqual([]);
  });

  it('paginates filtered results', async () => {
    const res = await call('GET', '/persons/?search=even&per_page=2&page=2');
    expect(res.headers.get('x-blueink-pagination')).toBe('2,2,2,4');
    expect(names(res.body)).toEqual(['Even Person 2', 'Even Person 0']);
  });

  it('follows changes: a renamed person is found by the new name only', async () => {
    const p = created[0]!;
    await call('PATCH', `/persons/${p.id}/`, { json: { name: 'Renamed Zed' } });
    expect(names((await call('GET', '/persons/?search=zed')).body)).toEqual(['Renamed Zed']);
    expect(names((await call('GET', '/persons/?search=even')).body)).not.toContain('Renamed Zed');
  });
});
