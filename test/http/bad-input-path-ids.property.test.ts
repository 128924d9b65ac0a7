// Property-based: every path parameter of every route, API and public pages alike, given ids that
// cannot exist (very long, escaped, dot segments, unicode, near-misses of the right shape) answers
// a 4xx, never a 5xx; under /api/v2 always with the API's error body, and 404 for a path whose id
// has not the shape of its kind, before any store is asked (a 1 KB DynamoDB key fails the request).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { ID_FORMATS, isIdKind } from '#shared/domain/ids';
import { ALL_METHODS, anyText, PROPERTY_TIMEOUT, pct, runs } from '../helpers/bad-input/arbitraries';
import { badInputSender, KiB, short } from '../helpers/bad-input/send';
import { rawRequest } from '../helpers/raw-http';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
const { settled, check } = badInputSender(() => ({ runtime, call, fixtureId: '', ghostId: '' }));

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});
// A run the time limit cut short finishes in its own test, not in the next one.
afterEach(() => settled());
afterAll(() => runtime?.stop());

/** A route path as its function declares it: `/webhooks/events/{id:uuid}/redeliver`. */
interface TTemplate {
  path: string;
  /** Under /api/v2 behind a key, or a public page of the signing function. */
  api: boolean;
}

/**
 * Every route with a path parameter, read from the functions' sources, so a route added later is
 * tried too without anyone listing it here.
 */
function routeTemplates(): TTemplate[] {
  const root = fileURLToPath(new URL('../../functions', import.meta.url));
  const found = new Map<string, TTemplate>();
  for (const fn of readdirSync(root)) {
    const dir = join(root, fn);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      // The console function also serves its own session endpoints outside /api/v2
      // (`/console/api/…`), which are checked with the public pages, not as keyed API routes.
      const api = (path: string) => fn !== 'public-pages' && !path.startsWith('/console/api/');
      // A route written out (`path: '…'`, `answerRoute('GET', '…'`), or a resource's routes
      // (`resourceRoutes('/persons', 'uuid'`: its id's path is `/persons/{id:uuid}`).
      for (const m of text.matchAll(/(?:path: |answerRoute\(\s*'[A-Z]+',\s*)'(\/[^']*\{[^']+\}[^']*)'/g)) {
        found.set(m[1]!, { path: m[1]!, api: api(m[1]!) });
      }
      for (const m of text.matchAll(/resourceRoutes\(\s*'(\/[^']*)',\s*'([\w-]+)'/g)) {
        const path = `${m[1]}/{id:${m[2]}}`;
        found.set(path, { path, api: api(path) });
      }
    }
  }
  return [...found.values()];
}

const TEMPLATES = routeTemplates();
const API_TEMPLATES = TEMPLATES.filter((t) => t.api);
const PARAM = /\{(\w+)(?::([\w-]+))?\}/g;

/** The template with each parameter replaced: `fill(kind)` gives the value of a parameter of that kind. */
const fillIn = (t: TTemplate, fill: (kind: string | undefined) => string) =>
  t.path.replace(PARAM, (_, _name: string, kind: string | undefined) => fill(kind));

/** Values no id has: long, escaped, dot segments, unicode, and near-misses of the right shapes. */
const hostileId = fc.oneof(
  fc.integer({ min: 11, max: 6 * KiB }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%00',
    '%zz',
    '%',
    '%ED%A0%80',
    '%FF',
    '__proto__',
    '{id}',
    '*',
    'null',
  ),
  anyText.filter((s) => s.length > 0).map(pct),
  fc.uuid().map((u) => `${u}x`),
  fc.uuid().map((u) => u.replaceAll('-', '')),
  fc.stringMatching(/^[A-Za-z0-9]{11,40}$/),
  fc.stringMatching(/^T-[A-Za-z0-9]{9,20}$/),
);

/** An id's value that has no shape of any kind: for it, every API route must answer 404. */
const isNoId = (v: string) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(v);
  } catch {
    return true;
  }
  return !Object.values(ID_FORMATS).some((f) => f.test(decoded));
};

describe('path parameters', () => {
  it('are found in the functions, and every API one declares the kind of id it takes', () => {
    // Persons, bundles (9 paths), packets (4), templates, envelope templates, webhooks (5) at least.
    expect(API_TEMPLATES.length).toBeGreaterThanOrEqual(20);
    expect(TEMPLATES.length).toBeGreaterThan(API_TEMPLATES.length);
    for (const t of API_TEMPLATES) {
      for (const [, , kind] of t.path.matchAll(PARAM)) {
        expect(kind !== undefined && isIdKind(kind), `${t.path} takes an id of a declared kind`).toBe(true);
      }
    }
  });

  it('an id a thousand bytes long in the webhook log answers 404 with the error body', async () => {
    const long = 'x'.repeat(1_017);
    for (const [method, path] of [
      ['GET', `/webhooks/events/${long}/`],
      ['GET', `/webhooks/deliveries/${long}/`],
      ['POST', `/webhooks/events/${long}/redeliver/`],
      ['GET', `/persons/${long}/`],
      ['GET', `/bundles/${long}/`],
      ['GET', `/packets/${long}/`],
      ['GET', `/envelope-templates/${long}/`],
    ] as const) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path.slice(0, 30)}`).toBe(404);
      expect(isErrorBody(res.body)).toBe(true);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('ids of the right shape that name nothing still answer 404 from the store', async () => {
    const ids = {
      slug: 'AAAAAAAAAA',
      uuid: '00000000-0000-4000-8000-000000000000',
      'envelope-template': 'T-AAAAAAAA',
    };
    for (const t of API_TEMPLATES) {
      const path = fillIn(t, (kind) => ids[kind as keyof typeof ids]).replace(/^\/api\/v2/, '');
      const res = await call('GET', `${path}/`);
      // A GET the route lacks is 405; every other answer names the missing record.
      expect([404, 405], `GET ${path}`).toContain(res.status);
      expect(isErrorBody(res.body)).toBe(true);
    }
  });

  it(
    'under /api/v2, any id with any method answers 4xx with the error body; an id of no shape 404',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...API_TEMPLATES),
          fc.constantFrom(...ALL_METHODS),
          hostileId,
          async (t, method, id) => {
            const path = fillIn(t, () => id);
            const answer = await check({ method, path: `${path}/`, raw: true });
            // Dot segments may lead to another route (`/webhooks/./` is the list): its answer stands.
            if (isNoId(id) && !/\.|%2e/i.test(id)) {
              expect(answer.status, `${method} ${short(path, 120)}`).toBe(404);
            }
          },
        ),
        runs(300),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'on the public pages, any value of a parameter with any method answers below 500',
    async () => {
      const PUBLIC_TEMPLATES = TEMPLATES.filter((t) => !t.api);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...PUBLIC_TEMPLATES),
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
          hostileId,
          async (t, method, value) => {
            const path = fillIn(t, () => value);
            const res = await rawRequest(runtime.baseUrl, { method, path });
            expect(res.status, `${method} ${short(path, 120)}: ${short(res.text, 200)}`).toBeLessThan(500);
            expect(res.status).toBeGreaterThanOrEqual(200);
          },
        ),
        runs(200),
      );
    },
    PROPERTY_TIMEOUT,
  );
});
