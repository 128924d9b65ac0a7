// Property-based: whatever a client sends, the API answers 2xx–4xx, never 5xx, and every error
// answer carries the API's error body with a code that matches its status (docs/api-decisions.md, Errors).
// One runtime serves every property; numRuns are bounded so the file stays well under a minute on
// two cores. Raise them for a deeper run with BAD_INPUT_RUNS_SCALE=10.
// This file covers persons and rate_limit; the helpers in ../helpers/bad-input serve any group.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import {
  ALL_METHODS,
  contentTypeArb,
  headerBytes,
  methodArb,
  PROPERTY_TIMEOUT,
  PROTOTYPE_NAMES,
  pct,
  runs,
} from '../helpers/bad-input/arbitraries';
import { bodyArbitraries } from '../helpers/bad-input/arbitraries-bodies';
import { pathArbitraries } from '../helpers/bad-input/arbitraries-paths';
import { PERSONS } from '../helpers/bad-input/persons';
import {
  badInputSender,
  FIXTURE,
  KiB,
  MiB,
  short,
  type TAnswer,
  type TBadRequest,
} from '../helpers/bad-input/send';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let fixtureId: string;
/** A well-formed UUID that names no person. */
const ghostId = randomUUID();
const { settled, send, check, expectApiAnswer } = badInputSender(() => ({
  runtime,
  call,
  fixtureId,
  ghostId,
}));

const { endpointArb, writeRouteArb, oddPathArb, queryArb } = pathArbitraries(PERSONS);
const { jsonBodyArb, deepJsonArb, deepJsonText, invalidUtf8Arb, formBodyArb, anyBodyArb } =
  bodyArbitraries(PERSONS);

// -------------------------------------------------------------------------------------------------
// The properties

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  const created = await call('POST', '/persons/', {
    json: { name: 'Fixture Person', channels: [{ email: 'fixture@example.com' }] },
  });
  expect(created.status).toBe(201);
  fixtureId = created.body.id;
});

// A run the time limit cut short finishes in its own test, not in the next one.
afterEach(() => settled());
afterAll(async () => {
  await runtime?.stop();
});

describe('bad input never yields a 5xx, always the error body', () => {
  it(
    'random JSON values, person-shaped bodies with wrong types, huge strings, odd numbers and lone surrogates',
    async () => {
      await fc.assert(
        fc.asyncProperty(methodArb, endpointArb, jsonBodyArb, async (method, path, text) => {
          await check({ method, path, body: Buffer.from(text, 'utf8'), contentType: 'application/json' });
        }),
        {
          ...runs(300),
          examples: [
            ['POST', '/persons/', '{"name": "x", "metadata": {"n": 1e308}}'],
            ['PATCH', `/persons/${FIXTURE}/`, '{"name": 1e308, "channels": [{"phone": 1e308}]}'],
            ['POST', '/persons/', '{"name": "\\ud800"}'],
            ['PUT', `/persons/${FIXTURE}/`, '{"name": "x", "metadata": {"\\udfff": "\\ud800"}}'],
            ['POST', '/persons/', JSON.stringify({ name: 'x'.repeat(200 * KiB) })],
            ['POST', '/persons/', JSON.stringify({ name: 'x', metadata: { s: '😀'.repeat(100 * KiB) } })],
          ],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'deeply nested JSON',
    async () => {
      await fc.assert(
        fc.asyncProperty(writeRouteArb, deepJsonArb, async ([method, path], deep) => {
          await check({
            method,
            path,
            body: Buffer.from(deepJsonText(deep)),
            contentType: 'application/json',
          });
        }),
        {
          ...runs(30),
          examples: [[['POST', '/persons/'], { depth: 100_000, shape: 'object', where: 'metadata' }]],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'bytes that are not UTF-8, sent as JSON and as a form',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 3, arbitrary: writeRouteArb },
            { weight: 1, arbitrary: fc.tuple(methodArb, endpointArb) },
          ),
          invalidUtf8Arb,
          fc.constantFrom<string | undefined>(
            'application/json',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            undefined,
          ),
          async ([method, path], body, contentType) => {
            const r = { method, path, body, contentType };
            const a = await check(r);
            if (PERSONS.writeRoutes.some(([m, p]) => m === method && p === path)) {
              expect([a.status, (a.body as { code?: string } | undefined)?.code]).toEqual([
                400,
                'parse_error',
              ]);
            }
          },
        ),
        runs(100),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'random form-encoded bodies',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 3, arbitrary: writeRouteArb },
            { weight: 1, arbitrary: fc.tuple(methodArb, endpointArb) },
          ),
          formBodyArb,
          async ([method, path], form) => {
            await check({
              method,
              path,
              body: Buffer.from(form, 'utf8'),
              contentType: 'application/x-www-form-urlencoded',
            });
          },
        ),
        runs(200),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'wrong, odd and missing content types',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 3, arbitrary: writeRouteArb },
            { weight: 1, arbitrary: fc.tuple(methodArb, endpointArb) },
          ),
          contentTypeArb,
          anyBodyArb,
          async ([method, path], contentType, body) => {
            const a = await check({ method, path, body, contentType, raw: true });
            const mime = contentType?.split(';')[0]?.trim().toLowerCase();
            const foreign = ['text/plain', 'text/xml', 'application/xml', 'multipart/form-data', 'image/png'];
            if (
              method === 'POST' &&
              path === '/persons/' &&
              body.length > 0 &&
              foreign.includes(mime ?? '')
            ) {
              expect([a.status, (a.body as { code?: string } | undefined)?.code]).toEqual([
                415,
                'unsupported_media_type',
              ]);
            }
          },
        ),
        runs(150),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'bodies over the limits, with a Content-Length: 413 from the function (1 MiB) or the gateway (10 MiB)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          writeRouteArb,
          fc.constantFrom(MiB, 10 * MiB),
          fc.integer({ min: 1, max: 64 * KiB }),
          fc.constantFrom<string | undefined>(
            'application/json',
            'application/x-www-form-urlencoded',
            'text/plain',
            undefined,
          ),
          async ([method, path], limit, over, contentType) => {
            const a = await check({ method, path, body: Buffer.alloc(limit + over, 0x20), contentType });
            expect([a.status, (a.body as { code?: string } | undefined)?.code]).toEqual([413, 'invalid']);
          },
        ),
        { ...runs(6), examples: [[['POST', '/persons/'], 10 * MiB, 1, 'application/json']] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'bodies over the limits, sent chunked (no Content-Length)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          writeRouteArb,
          fc.constantFrom(MiB, 10 * MiB),
          fc.integer({ min: 1, max: 64 * KiB }),
          async ([method, path], limit, over) => {
            const a = await check({
              method,
              path,
              body: Buffer.alloc(limit + over, 0x20),
              contentType: 'application/json',
              chunked: true,
            });
            expect([a.status, (a.body as { code?: string } | undefined)?.code]).toEqual([413, 'invalid']);
          },
        ),
        { ...runs(4), examples: [[['POST', '/persons/'], 10 * MiB, 1]] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd paths and ids, with every method',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ALL_METHODS), oddPathArb, async (method, path) => {
          await check({ method, path, raw: true });
        }),
        runs(300),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd query strings: page, per_page, search, email, phone, repeated and huge',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE'),
          fc.constantFrom('/persons/', '/persons', '/rate_limit/', `/persons/${FIXTURE}/`),
          queryArb,
          async (method, path, query) => {
            const a = await check({ method, path: `${path}?${query}`, raw: true });
            if (
              method === 'GET' &&
              path.startsWith('/persons') &&
              !path.includes(FIXTURE) &&
              a.status === 200
            ) {
              expect(Array.isArray(a.body), 'a list is a bare array').toBe(true);
              expect(String(a.headers['x-blueink-pagination'])).toMatch(/^\d+,\d+,\d+,\d+$/);
            }
          },
        ),
        {
          ...runs(200),
          examples: [
            ['GET', '/persons/', 'page=0&page=-1&page=abc&per_page=1000'],
            ['GET', '/persons/', `search=${pct('é'.repeat(1_500))}`],
            ['GET', '/persons/', `page=1&per_page=1000&q=${pct('é'.repeat(1_500))}`],
          ],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'query parameter and header names that objects inherit (__proto__, constructor, toString…)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PATCH'),
          fc.constantFrom('/persons/', `/persons/${FIXTURE}/`, '/rate_limit/'),
          fc.constantFrom('query', 'header'),
          fc.constantFrom(...PROTOTYPE_NAMES),
          fc.constantFrom('1', 'x', ''),
          async (method, path, where, name, value) => {
            await check(
              where === 'query'
                ? { method, path: `${path}?${name}=${value}`, raw: true }
                : { method, path, headers: { [name]: value }, raw: true },
            );
          },
        ),
        runs(40),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd Authorization headers: 401 with the matching code',
    async () => {
      const authArb = fc.oneof(
        fc.constantFrom(
          '',
          ' ',
          '\t',
          'Token',
          'Token ',
          'token',
          'Bearer x',
          'Bearer',
          'Basic dXNlcjpwYXNz',
          'Token a',
          'Token a b',
          'TokenTokenToken',
          `Token ${'a'.repeat(39)}`,
          `Token ${'a'.repeat(129)}`,
          `Token ${'A1'.repeat(24)}`,
          'Token \u00e9',
          headerBytes('Token ключ'),
          headerBytes('Token 💥💥'),
          headerBytes(`Token ${'é'.repeat(48)}`),
          'Token %00',
          '\u00a0',
          // Variants of the real key that are not it.
          '{key}',
          '{key}x',
          'Bearer {key}',
          'Token {key}{key}',
          'Token {key}.',
          'Token "{key}"',
          'Token {key} extra',
          'Token {KEY}',
        ),
        fc.integer({ min: 1, max: 10 * KiB }).map((n) => `Token ${'a'.repeat(n)}`),
        fc.string({ unit: 'binary', maxLength: 80 }).map(headerBytes),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ALL_METHODS),
          fc.constantFrom('/persons/', `/persons/${FIXTURE}/`, '/persons/nope/', '/rate_limit/'),
          authArb,
          fc.boolean(),
          async (method, path, template, twice) => {
            const key = runtime.demo.apiKey;
            const value = template.replaceAll('{key}', key).replaceAll('{KEY}', key.toUpperCase());
            // The one header the authorizer accepts is not bad input (no template yields it).
            fc.pre(/^\s*token\s+(\S+)\s*$/i.exec(value)?.[1] !== key);
            const a = await check({
              method,
              path,
              headers: { authorization: twice && value.length < 4 * KiB ? [value, value] : value },
              raw: true,
            });
            expect(a.status, `${JSON.stringify(value).slice(0, 80)} → ${a.text}`).toBe(401);
            if (method !== 'HEAD') {
              const blank = value.trim() === '';
              expect((a.body as { code: string }).code).toBe(
                blank ? 'not_authenticated' : 'authentication_failed',
              );
            }
          },
        ),
        runs(150),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd Host and X-Forwarded-Proto headers',
    async () => {
      const valueArb = fc.oneof(
        fc.constantFrom(
          'a b',
          'ht tp',
          'http:',
          '::',
          '[',
          'exa mple.com',
          'example.com:99999',
          'a/b',
          '%zz',
          'ftp',
          'javascript',
          'https',
          'HTTP',
          'x'.repeat(300),
          '\u00e9',
          'example.com',
        ),
        fc.string({ maxLength: 30 }).map(headerBytes),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'PATCH'),
          fc.constantFrom('/persons/', `/persons/${FIXTURE}/`, '/rate_limit/'),
          fc.constantFrom('host', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-for'),
          valueArb,
          async (method, path, name, value) => {
            fc.pre(!(name === 'host' && value.trim() === '')); // Node itself answers a missing Host
            await check({ method, path, headers: { [name]: value }, raw: true });
          },
        ),
        runs(80),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'request heads over Node’s 16 KiB limit (very long path, query or header)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('path', 'query', 'header'),
          fc.integer({ min: 17 * KiB, max: 48 * KiB }),
          async (where, size) => {
            const long = 'a'.repeat(size);
            const r: TBadRequest =
              where === 'path'
                ? { method: 'GET', path: `/persons/${long}/`, raw: true }
                : where === 'query'
                  ? { method: 'GET', path: `/persons/?search=${long}`, raw: true }
                  : {
                      method: 'GET',
                      path: '/persons/',
                      headers: { authorization: `Token ${long}` },
                      raw: true,
                    };
            const a = await send(r);
            const what = `${where} of ${size} bytes answered ${a.status} ${JSON.stringify(short(a.text))}`;
            expect(a.status, what).toBeGreaterThanOrEqual(400);
            expect(a.status, what).toBeLessThan(500);
            expect(isErrorBody(a.body), `the API's error body: ${what}`).toBe(true);
          },
        ),
        runs(3),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'PATCH adding channels never grows a person past the channel limit (nor to a 5xx)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 3 }),
          async (batches) => {
            const created = await call('POST', '/persons/', { json: { name: 'Growing Person' } });
            expect(created.status).toBe(201);
            const path = `/persons/${created.body.id}/`;
            for (const [b, count] of batches.entries()) {
              const channels = Array.from({ length: count }, (_, i) => ({
                email: `grow-${b}-${i}@example.com`,
              }));
              const a = await check({
                method: 'PATCH',
                path,
                body: Buffer.from(JSON.stringify({ channels })),
                contentType: 'application/json',
              });
              if (a.status === 200) {
                const n = (a.body as { channels: unknown[] }).channels.length;
                expect(
                  n,
                  `after PATCHes of ${batches.slice(0, b + 1).join(', ')} new channels`,
                ).toBeLessThanOrEqual(50);
              }
            }
            await call('DELETE', path);
          },
        ),
        { ...runs(8), examples: [[[50, 1]]] },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('after the bad input', () => {
  async function personCount(search?: string): Promise<number> {
    const q = search === undefined ? '' : `&search=${encodeURIComponent(search)}`;
    const a = await call('GET', `/persons/?per_page=1${q}`);
    expect(a.status).toBe(200);
    const total = Number((a.headers.get('x-blueink-pagination') ?? '').split(',')[3]);
    expect(Number.isInteger(total)).toBe(true);
    return total;
  }

  describe('a batch of invalid creates leaves no record behind, half-written or whole', () => {
    let marker: string;
    let email: string;
    let invalid: TBadRequest[];
    let answers: [TBadRequest, TAnswer][];

    beforeAll(async () => {
      marker = `halfwritten${randomUUID().replaceAll('-', '')}`;
      email = `${marker}@example.com`;
      const json = (v: unknown): TBadRequest => ({
        method: 'POST',
        path: '/persons/',
        body: Buffer.from(JSON.stringify(v)),
        contentType: 'application/json',
      });
      const raw = (body: string | Buffer, contentType?: string): TBadRequest => ({
        method: 'POST',
        path: '/persons/',
        body: Buffer.from(body),
        contentType,
      });
      const invalidChannel = fc.constantFrom<unknown>(
        { email: 'not-an-email' },
        { phone: 'abc' },
        {},
        { email, phone: '+1 555 0100' },
        { kind: 'em', phone: '+1 555 0100' },
        { email: 123 },
        { id: 'nope', email },
        null,
        7,
      );
      const generated = fc
        .sample(
          fc.record({
            valid: fc.array(
              fc.integer({ min: 0, max: 999 }).map((i) => ({ email: `${marker}-${i}@example.com` })),
              { maxLength: 5 },
            ),
            bad: invalidChannel,
            metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), {
              maxKeys: 4,
            }),
          }),
          25,
        )
        .map(({ valid, bad, metadata }) => json({ name: marker, metadata, channels: [...valid, bad] }));
      invalid = [
        json({ name: marker, channels: [{ email: 'not-an-email' }] }),
        json({ name: marker, channels: [{ email, phone: '+1 555 0100' }] }),
        json({
          name: marker,
          channels: Array.from({ length: 51 }, (_, i) => ({ email: `${marker}-${i}@example.com` })),
        }),
        json({ name: marker, metadata: { big: 'x'.repeat(17 * KiB) } }),
        json({ name: `${marker} \ud800` }),
        json({ name: `${marker} ${'x'.repeat(300)}` }),
        json({ name: marker, metadata: [marker] }),
        json({ name: marker, metadata: marker }),
        json({ name: marker, channels: [{ id: 'nope', email }] }),
        json({ name: marker, channels: [{ kind: 'mp', email }] }),
        json({ name: marker, channels: [{ email }, { phone: 'abc' }] }),
        json({ name: [marker] }),
        json([{ name: marker }]),
        raw(`name=${marker}&channels[0][email]=nope`, 'application/x-www-form-urlencoded'),
        raw(`name=${marker}&name=${marker}`, 'application/x-www-form-urlencoded'),
        raw(`{"name":"${marker}",`, 'application/json'),
        raw(JSON.stringify({ name: marker }), 'text/plain'),
        raw(JSON.stringify({ name: marker }), 'application/xml'),
        raw(JSON.stringify({ name: marker }), 'multipart/form-data'),
        raw(
          Buffer.concat([Buffer.from(`{"name":"${marker}`), Buffer.from([0xff]), Buffer.from('"}')]),
          'application/json',
        ),
        raw(JSON.stringify({ name: marker, metadata: { pad: 'x'.repeat(MiB) } }), 'application/json'),
        ...generated,
      ];
    });

    it('sent one by one, they create no person and leave no lookup item', async () => {
      const before = await personCount();
      answers = [];
      for (const r of invalid) answers.push([r, await send(r)]);
      expect(await personCount(), 'no person was created').toBe(before);
      expect(await personCount(marker), 'no lookup item of a refused person remains').toBe(0);
      expect(await personCount(email), 'no lookup item of a refused person remains').toBe(0);
    });

    it('each is refused with a 4xx in the API’s error body', async () => {
      for (const [r, a] of answers) {
        expectApiAnswer(r, a);
        expect(
          a.status,
          `refused: ${short(r.body?.toString() ?? '', 120)} → ${short(a.text)}`,
        ).toBeGreaterThanOrEqual(400);
      }
    });
  });

  it('the runtime is still healthy: create, read, list, delete, rate_limit', async () => {
    const name = `Healthy ${randomUUID().slice(0, 8)}`;
    const created = await call('POST', '/persons/', {
      json: {
        name,
        metadata: { ok: true },
        channels: [{ email: 'healthy@example.com' }, { phone: '+1 555 0100' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const got = await call('GET', `/persons/${id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const listed = await call('GET', `/persons/?search=${encodeURIComponent(name)}`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { id: string }) => p.id)).toContain(id);
    expect((await call('DELETE', `/persons/${id}/`)).status).toBe(204);
    const gone = await call('GET', `/persons/${id}/`);
    expect([gone.status, gone.body?.code]).toEqual([404, 'not_found']);
    const fixture = await call('GET', `/persons/${fixtureId}/`);
    expect(fixture.status).toBe(200);
    const limit = await call('GET', '/rate_limit/');
    expect(limit.status).toBe(200);
    expect(Object.keys(limit.body).sort()).toEqual(['limit', 'remaining', 'reset', 'window']);
  });
});
