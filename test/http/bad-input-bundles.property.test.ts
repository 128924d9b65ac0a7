// Property-based: whatever a client sends to the bundles and packets endpoints, the API answers
// 2xx–4xx, never 5xx, every error answer carries the API's error body with a code that matches its
// status (docs/api-decisions.md, Errors), and a refused create leaves nothing behind. One runtime serves
// every property; numRuns are bounded so the file stays well under a minute on two cores. Raise
// them for a deeper run with BAD_INPUT_RUNS_SCALE=10. The inputs live in ../helpers/bad-input.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { defaultBodyOptions } from '#shared/http/body';
import {
  ALL_METHODS,
  contentTypeArb,
  methodArb,
  PROPERTY_TIMEOUT,
  runs,
  type TRoute,
} from '../helpers/bad-input/arbitraries';
import { bodyArbitraries } from '../helpers/bad-input/arbitraries-bodies';
import { pathArbitraries } from '../helpers/bad-input/arbitraries-paths';
import {
  BUNDLE_ROUTES,
  BUNDLE_SUB_ROUTES,
  bundlePatchArb,
  bundlesEndpointSet,
  createBodyArb,
  loopbackUrlArb,
  malformedUrlArb,
  multipartArb,
  ODD_METHODS,
  PACKET,
  PACKET_SUB_ROUTES,
  packetPatchArb,
  refusedUrlArb,
  sampleFiles,
  tagsBodyArb,
} from '../helpers/bad-input/bundles';
import {
  badInputSender,
  FIXTURE,
  KiB,
  short,
  type TAnswer,
  type TBadRequest,
} from '../helpers/bad-input/send';
import { aBundle } from '../helpers/bundles';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

// The sample PDFs are built before the arbitraries that carry them.
const files = await sampleFiles();
const pdfB64 = files.pdf.toString('base64');
const BUNDLES = bundlesEndpointSet(files);
const { endpointArb, writeRouteArb, oddPathArb, queryArb } = pathArbitraries(BUNDLES);
const { jsonBodyArb, deepJsonArb, deepJsonText, invalidUtf8Arb, formBodyArb, anyBodyArb } =
  bodyArbitraries(BUNDLES);
const createArb = createBodyArb(files);

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;

/** A bundle and one of its packets, which FIXTURE and PACKET stand for. */
interface TTarget {
  bundleId: string;
  packetId: string;
}
/** Bundles in each state a client meets, with an email and an embedded signer. */
const targets: Record<'draft' | 'sent' | 'cancelled' | 'otherAccount', TTarget[]> = {
  draft: [],
  sent: [],
  cancelled: [],
  otherAccount: [],
};
let current: TTarget = { bundleId: '', packetId: '' };
/** A well-formed bundle id that names no bundle. */
const ghostId = 'Zz0Zz0Zz0Z';

const sender = badInputSender(() => ({ runtime, call, fixtureId: current.bundleId, ghostId }));
const atTarget = (r: TBadRequest, t: TTarget = current): TBadRequest => {
  current = t;
  return { ...r, path: r.path.replaceAll(PACKET, t.packetId) };
};
const send = (r: TBadRequest, t?: TTarget) => sender.send(atTarget(r, t));
const check = (r: TBadRequest, t?: TTarget) => sender.check(atTarget(r, t));

const json = (method: string, path: string, body: unknown): TBadRequest => ({
  method,
  path,
  body: Buffer.from(JSON.stringify(body) ?? ''),
  contentType: 'application/json',
});
const fieldsOf = (a: TAnswer) =>
  ((a.body as { errors?: { field: string }[] } | undefined)?.errors ?? []).map((e) => e.field);
const describeRequest = (r: TBadRequest, a: TAnswer) =>
  `${r.method} ${short(r.path, 100)} ${short(r.body?.toString('utf8') ?? '', 300)} → ${a.status} ${short(a.text, 300)}`;

/** The account's bundle count, from the list's X-BlueInk-Pagination header. */
async function bundleCount(c = call): Promise<number> {
  const a = await c('GET', '/bundles/?per_page=1');
  expect(a.status, a.text).toBe(200);
  const total = Number((a.headers.get('x-blueink-pagination') ?? '').split(',')[3]);
  expect(Number.isInteger(total), String(a.headers.get('x-blueink-pagination'))).toBe(true);
  return total;
}

async function personCount(): Promise<number> {
  const a = await call('GET', '/persons/?per_page=1');
  expect(a.status, a.text).toBe(200);
  return Number((a.headers.get('x-blueink-pagination') ?? '').split(',')[3]);
}

/** Sends a create and checks the contract, and that exactly a 201 added a bundle. */
async function checkCreate(r: TBadRequest): Promise<TAnswer> {
  const before = await bundleCount();
  const a = await check(r);
  const after = await bundleCount();
  expect(after - before, `bundles added by ${describeRequest(r, a)}`).toBe(a.status === 201 ? 1 : 0);
  return a;
}

/**
 * Cheaper than counting around every request, for properties that send many creates: each is
 * checked against the contract, the 201s are counted, and once the property has run the account
 * must hold exactly that many more bundles.
 */
const ledger = { before: 0, created: 0 };
async function openLedger() {
  await sender.settled();
  ledger.before = await bundleCount();
  ledger.created = 0;
}
function countedCreate(r: TBadRequest): Promise<TAnswer> {
  return sender.track(
    check(r).then((a) => {
      if (a.status === 201) ledger.created += 1;
      return a;
    }),
  );
}
async function closeLedger() {
  // A run cut short by the time limit may still be creating: count once it has answered.
  await sender.settled();
  expect(
    await bundleCount(),
    `bundles after the property, which had ${ledger.created} creates answered 201`,
  ).toBe(ledger.before + ledger.created);
}

const embedBundle = (overrides: Record<string, unknown> = {}) =>
  aBundle(
    {
      packets: [
        { key: 'ann', name: 'Ann Lee', email: 'ann@example.com' },
        { key: 'bob', name: 'Bob Roe', phone: '+1 555 010 3000', deliver_via: 'embed' },
      ],
      ...overrides,
    },
    pdfB64,
  );

async function createTargets(c: ReturnType<typeof apiClient>, overrides: Record<string, unknown>) {
  const created = await c('POST', '/bundles/', { json: embedBundle(overrides) });
  expect(created.status, created.text).toBe(201);
  return (created.body.packets as { id: string }[]).map((p) => ({
    bundleId: created.body.id as string,
    packetId: p.id,
  }));
}

/** Fresh bundles in every state, so that a property starts from the same place however others ran. */
async function freshTargets() {
  targets.draft = await createTargets(call, { status: 'dr' });
  targets.sent = await createTargets(call, {});
  targets.cancelled = await createTargets(call, {});
  const cancelled = await call('PUT', `/bundles/${targets.cancelled[0]!.bundleId}/cancel/`);
  expect(cancelled.status, cancelled.text).toBe(200);
}

const targetArb = (states: (keyof typeof targets)[]) =>
  fc
    .tuple(fc.constantFrom(...states), fc.nat())
    .map(([state, i]) => targets[state][i % targets[state].length]!);

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
  await freshTargets();
  current = targets.sent[0]!;
  const other = await runtime.seedAccount('Other Account', 'other@example.com');
  targets.otherAccount = await createTargets(apiClient(runtime, other.apiKey), {});
});

// A run the time limit cut short finishes in its own test, not in the next one.
afterEach(() => sender.settled());
afterAll(async () => {
  await runtime?.stop();
});

// -------------------------------------------------------------------------------------------------
// Creates

describe('bad create bodies never yield a 5xx, nor a bundle unless the answer is 201', () => {
  const doc = (d: Record<string, unknown>) => aBundle({ documents: [{ key: 'doc', ...d }] }, pdfB64);
  const field = (f: Record<string, unknown>) =>
    doc({ file_b64: pdfB64, fields: [{ kind: 'sig', page: 1, x: 10, y: 10, w: 10, h: 5, ...f }] });
  // Inputs the contract of this suite names outright: always tried first, the random runs explore
  // around them.
  const namedBodies: unknown[] = [
    field({ x: -1 }),
    field({ x: 101 }),
    field({ x: 'NaN' }),
    field({ w: 'Infinity' }),
    field({ x: 95, w: 10 }),
    field({ page: 0 }),
    field({ page: 1_000_000 }),
    field({ page: 2 ** 53 + 1 }),
    field({ kind: 'zzz' }),
    field({ editors: ['zed'] }),
    field({ editors: ['-zed'] }),
    field({ editors: ['-'] }),
    field({ key: 'same' }),
    doc({ file_b64: 'not base64!' }),
    doc({ file_b64: Buffer.from('hello, not a PDF').toString('base64') }),
    doc({ file_b64: files.truncated.toString('base64') }),
    doc({ file_b64: files.encrypted.toString('base64') }),
    doc({ file_b64: files.bomb.toString('base64') }),
    doc({ file_b64: files.bombWithoutCount.toString('base64') }),
    doc({ file_index: 0 }),
    doc({
      file_b64: files.selfPageTree.toString('base64'),
      auto_placements: [{ kind: 'sig', search: 'Sign here', w: 20, h: 5 }],
    }),
    doc({ file_url: 'ftp://example.com/doc.pdf' }),
    doc({ file_b64: pdfB64, auto_placements: [{ kind: 'sig', search: 'Nowhere to be found', w: 20, h: 5 }] }),
    aBundle(
      {
        documents: [
          { key: 'same', file_b64: pdfB64 },
          { key: 'same', file_b64: pdfB64 },
        ],
      },
      pdfB64,
    ),
    aBundle(
      {
        packets: [
          { key: 'ann', name: 'A', email: 'a@example.com' },
          { key: 'ann', name: 'B', email: 'b@example.com' },
        ],
      },
      pdfB64,
    ),
    aBundle({ label: 'x'.repeat(200 * KiB) }, pdfB64),
    aBundle({ packets: undefined }, pdfB64),
    aBundle({ documents: undefined }, pdfB64),
  ];

  it(
    'valid bodies with defects anywhere: wrong types, missing parts, geometry, pages, kinds, editors, files',
    async () => {
      await fc.assert(
        fc.asyncProperty(createArb, async (body) => {
          await checkCreate(json('POST', '/bundles/', body));
        }),
        { ...runs(120), examples: namedBodies.map((b) => [b]) },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'JSON texts: any value, odd numbers, duplicate keys, lone surrogates, huge strings, syntax errors',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(jsonBodyArb, async (text) => {
          await countedCreate({
            method: 'POST',
            path: '/bundles/',
            body: Buffer.from(text, 'utf8'),
            contentType: 'application/json',
          });
        }),
        runs(60),
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'file_url: private and link-local hosts are refused before connecting, naming documents[i].file_url',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 3, arbitrary: refusedUrlArb.map((url) => ({ url, loopback: false })) },
            { weight: 2, arbitrary: malformedUrlArb.map((url) => ({ url, loopback: false })) },
            { weight: 1, arbitrary: loopbackUrlArb.map((url) => ({ url, loopback: true })) },
          ),
          fc.integer({ min: 0, max: 2 }),
          async ({ url, loopback }, at) => {
            const documents = [0, 1, 2]
              .slice(0, at + 1)
              .map((i) => (i === at ? { key: `d${i}`, file_url: url } : { key: `d${i}`, file_b64: pdfB64 }));
            const r = json('POST', '/bundles/', aBundle({ documents }, pdfB64));
            const a = await countedCreate(r);
            // Loopback is the local runtime's to fetch: only the contract holds there.
            if (loopback) return;
            expect(a.status, describeRequest(r, a)).toBe(400);
            expect(fieldsOf(a), describeRequest(r, a)).toContain(`documents[${at}].file_url`);
          },
        ),
        {
          ...runs(60),
          examples: [
            [{ url: 'http://169.254.169.254/', loopback: false }, 0],
            [{ url: 'http://10.0.0.1/', loopback: false }, 1],
            [{ url: 'ftp://example.com/doc.pdf', loopback: false }, 0],
            [{ url: 'http://[::1]:1/', loopback: true }, 0],
          ],
        },
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'multipart bodies with junk parts, odd file indexes, broken framing and boundaries',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(multipartArb(files), async ({ body, contentType }) => {
          await countedCreate({ method: 'POST', path: '/bundles/', body, contentType, raw: true });
        }),
        runs(100),
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'form bodies, bytes that are not UTF-8, and wrong or missing content types',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            formBodyArb.map((f) => ({
              body: Buffer.from(f, 'utf8'),
              contentType: 'application/x-www-form-urlencoded' as string | undefined,
            })),
            invalidUtf8Arb.map((body) => ({
              body,
              contentType: 'application/json' as string | undefined,
            })),
            fc.tuple(contentTypeArb, anyBodyArb).map(([contentType, body]) => ({ body, contentType })),
          ),
          async ({ body, contentType }) => {
            await countedCreate({ method: 'POST', path: '/bundles/', body, contentType, raw: true });
          },
        ),
        runs(90),
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'deeply nested JSON in every place a body reads',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          writeRouteArb,
          deepJsonArb,
          targetArb(['draft', 'sent']),
          async ([method, path], deep, t) => {
            const r = {
              method,
              path,
              body: Buffer.from(deepJsonText(deep)),
              contentType: 'application/json',
            };
            if (path === '/bundles/') await countedCreate(r);
            else await check(r, t);
          },
        ),
        {
          ...runs(30),
          examples: [
            [['POST', '/bundles/'], { depth: 100_000, shape: 'object', where: 'fields' }, targets.sent[0]!],
          ],
        },
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'documents as big as the limits allow (300 fields, 10,000-character values) are refused or stored, not a 5xx',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 300 }),
          fc.integer({ min: 0, max: 10_000 }),
          async (count, size) => {
            const fields = Array.from({ length: count }, (_, i) => ({
              kind: 'inp',
              key: `f-${i}`,
              page: 1,
              x: 1,
              y: 1,
              w: 1,
              h: 1,
              initial_value: 'v'.repeat(size),
            }));
            await countedCreate(
              json('POST', '/bundles/', aBundle({ documents: [{ file_b64: pdfB64, fields }] }, pdfB64)),
            );
          },
        ),
        // A known failure is reported as the example itself: shrinking would cost seconds of big requests.
        { ...runs(4), examples: [[300, 2_000]], endOnFailure: true },
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it.each([
    ['its page tree is its catalog', () => files.selfPageTree],
    ['a byte of each content stream is flipped', () => files.damagedText],
  ])(
    'a PDF that inspection accepts but text search cannot read (%s) is refused for auto placements, not a 5xx',
    async (_, bytes) => {
      const r = json(
        'POST',
        '/bundles/',
        aBundle(
          {
            documents: [
              {
                file_b64: bytes().toString('base64'),
                auto_placements: [{ kind: 'sig', search: 'Sign here', w: 20, h: 5, editors: ['ann'] }],
              },
            ],
          },
          pdfB64,
        ),
      );
      const a = await checkCreate(r);
      expect(a.status, describeRequest(r, a)).toBe(400);
      expect(fieldsOf(a).join(' '), describeRequest(r, a)).toMatch(/^documents\[0\]\./);
    },
  );

  it(
    'numbers no database item can hold (magnitudes below 1e-130 or above 1e125) are refused, not a 5xx',
    async () => {
      const inField = (key: string, v: number) => ({
        fields: [{ kind: 'inp', page: 1, x: 10, y: 10, w: 10, h: 5, editors: ['ann'], [key]: v }],
      });
      const inPlacement = (key: string, v: number) => ({
        auto_placements: [{ kind: 'sig', search: 'Sign here', w: 20, h: 5, editors: ['ann'], [key]: v }],
      });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('x', 'y', 'w', 'h', 'v_min', 'v_max', 'auto w', 'auto h'),
          fc.oneof(
            fc.constantFrom(5e-324, 1e-200, 1e-131, 1e126, 1e200, 1e308),
            fc.double({ min: 5e-324, max: 1e-131, noNaN: true }),
          ),
          async (place, v) => {
            const [where, key] = place.startsWith('auto ') ? ['auto', place.slice(5)] : ['field', place];
            const document = where === 'auto' ? inPlacement(key!, v) : inField(key!, v);
            await checkCreate(
              json('POST', '/bundles/', aBundle({ documents: [{ file_b64: pdfB64, ...document }] }, pdfB64)),
            );
          },
        ),
        {
          ...runs(10),
          examples: [
            ['w', 1e-200],
            ['x', 5e-324],
            ['v_min', 1e200],
            ['auto h', 5e-324],
          ],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'a v_regex that backtracks catastrophically on its initial_value does not stall the service',
    async () => {
      // (a+)+$ on "aaa…a!" takes 2^n steps in a backtracking engine: at n = 40 that is hours, so
      // an answer at all shows the check is bounded; the pattern is then refused on v_regex.
      const create = (v_regex: string) =>
        json(
          'POST',
          '/bundles/',
          aBundle(
            {
              documents: [
                {
                  file_b64: pdfB64,
                  fields: [
                    {
                      kind: 'inp',
                      page: 1,
                      x: 1,
                      y: 1,
                      w: 5,
                      h: 5,
                      v_regex,
                      initial_value: `${'a'.repeat(40)}!`,
                    },
                  ],
                },
              ],
            },
            pdfB64,
          ),
        );
      const linear = await check(create('^a+$'));
      expect(linear.status).toBe(400);
      expect(linear.text).toContain('Does not match v_regex.');
      const nested = await check(create('^(a+)+$'));
      expect(nested.status, short(nested.text, 200)).toBe(400);
      expect((nested.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(
        'documents[0].fields[0].v_regex',
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// -------------------------------------------------------------------------------------------------
// Changes to an existing bundle or packet

describe('bad changes to a bundle or a packet never yield a 5xx', () => {
  beforeAll(freshTargets);

  it(
    'random PATCH bodies on /bundles/{id}/',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          targetArb(['draft', 'sent', 'cancelled']),
          fc.oneof(
            { weight: 4, arbitrary: bundlePatchArb.map((b) => JSON.stringify(b) ?? '') },
            { weight: 1, arbitrary: jsonBodyArb },
          ),
          async (t, text) => {
            const r = {
              method: 'PATCH',
              path: `/bundles/${FIXTURE}/`,
              body: Buffer.from(text),
              contentType: 'application/json',
            };
            await check(r, t);
          },
        ),
        {
          ...runs(120),
          examples: [
            [targets.draft[0]!, JSON.stringify({ owner: null, team: null, signing_brand: null })],
            [targets.sent[0]!, JSON.stringify({ expires: '2100-01-01', cc_emails: [] })],
          ],
        },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'a PATCH that is accepted stores an expiry that is a real date in the future',
    async () => {
      const expiresArb = fc.oneof(
        fc
          .tuple(
            fc.integer({ min: 2027, max: 9999 }),
            fc.integer({ min: 0, max: 19 }),
            fc.integer({ min: 0, max: 39 }),
          )
          .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
        fc.constantFrom('9999-99-99', '2999-00-00', '+010000-01-01T00:00:00Z', '2100-01-01T05:00:00Z'),
      );
      await fc.assert(
        fc.asyncProperty(targetArb(['draft', 'sent']), expiresArb, async (t, expires) => {
          const r = json('PATCH', `/bundles/${FIXTURE}/`, { expires });
          const a = await check(r, t);
          if (a.status !== 200) return;
          const stored = (a.body as { expires: string }).expires;
          expect(
            Number.isFinite(Date.parse(stored)) && Date.parse(stored) > Date.now(),
            `expires ${JSON.stringify(expires)} was stored as ${JSON.stringify(stored)}`,
          ).toBe(true);
        }),
        { ...runs(40), examples: [[targets.draft[0]!, '9999-99-99']] },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'random PATCH bodies on /packets/{id}/',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          targetArb(['draft', 'sent', 'cancelled']),
          fc.oneof(
            { weight: 4, arbitrary: packetPatchArb.map((b) => JSON.stringify(b) ?? '') },
            { weight: 1, arbitrary: jsonBodyArb },
          ),
          async (t, text) => {
            const r = {
              method: 'PATCH',
              path: `/packets/${PACKET}/`,
              body: Buffer.from(text),
              contentType: 'application/json',
            };
            await check(r, t);
          },
        ),
        runs(100),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'random tag bodies on add_tags and remove_tags, as JSON and as forms',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          targetArb(['draft', 'sent', 'cancelled']),
          fc.constantFrom('add_tags', 'remove_tags'),
          fc.oneof(
            {
              weight: 4,
              arbitrary: tagsBodyArb.map((b) => ({
                body: JSON.stringify(b) ?? '',
                contentType: 'application/json',
              })),
            },
            {
              weight: 1,
              arbitrary: formBodyArb.map((body) => ({
                body,
                contentType: 'application/x-www-form-urlencoded',
              })),
            },
            {
              weight: 1,
              arbitrary: fc
                .array(
                  fc.constantFrom(
                    'tags=a',
                    'tags=',
                    'tags[]=b',
                    'tags[0]=c',
                    'tags[a]=d',
                    `tags=${'x'.repeat(101)}`,
                    'tags=%ED%A0%80',
                  ),
                  { maxLength: 5 },
                )
                .map((pairs) => ({
                  body: pairs.join('&'),
                  contentType: 'application/x-www-form-urlencoded',
                })),
            },
          ),
          async (t, route, { body, contentType }) => {
            await check(
              { method: 'PUT', path: `/bundles/${FIXTURE}/${route}/`, body: Buffer.from(body), contentType },
              t,
            );
          },
        ),
        runs(100),
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// -------------------------------------------------------------------------------------------------
// Any method, any id, any path

/** The methods a path has, and the path of FIXTURE/PACKET's sub-route as the routes list it. */
/** The routes that validate a body before they look the bundle or packet up. */
const BODY_ROUTES = new Set([
  'PATCH bundles/',
  'PUT bundles/add_tags/',
  'PUT bundles/remove_tags/',
  'PATCH packets/',
]);

function routedMethods(kind: 'bundles' | 'packets', sub: string): string[] {
  const path = kind === 'bundles' ? `/bundles/${FIXTURE}/${sub}` : `/packets/${PACKET}/${sub}`;
  return BUNDLE_ROUTES.filter(([, p]: TRoute) => p === path).map(([m]) => m);
}

describe('any method on any sub-route, with any id, never yields a 5xx', () => {
  beforeAll(freshTargets);

  const idArb = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('draft', 'sent', 'cancelled', 'otherAccount').map((state) => ({ state })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.stringMatching(/^[0-9A-Za-z]{10}$/),
          fc.uuid(),
          fc.constantFrom(
            'Zz0Zz0Zz0Z',
            '0000000000',
            'xxxxxxxxxx',
            'a',
            '%zz',
            '..',
            '__proto__',
            'constructor',
          ),
          fc.stringMatching(/^[0-9A-Za-z]{9,11}$/),
        )
        .map((id) => ({ id })),
    },
    { weight: 1, arbitrary: fc.constantFrom('lower', 'upper', 'suffixed').map((twist) => ({ twist })) },
  );

  it(
    'random methods, bodies and ids on every route of /bundles/{id}/… and /packets/{id}/…',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...ALL_METHODS) },
            { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
          ),
          fc.oneof(
            fc.constantFrom(...BUNDLE_SUB_ROUTES).map((sub) => ({ kind: 'bundles' as const, sub })),
            fc.constantFrom(...PACKET_SUB_ROUTES).map((sub) => ({ kind: 'packets' as const, sub })),
          ),
          idArb,
          fc.option(fc.oneof(tagsBodyArb, bundlePatchArb, packetPatchArb), { nil: undefined }),
          fc.nat(),
          async (method, { kind, sub }, which, body, pick) => {
            const states = 'state' in which ? targets[which.state as keyof typeof targets] : targets.sent;
            const t = states[pick % states.length]!;
            const own = kind === 'bundles' ? t.bundleId : t.packetId;
            const twisted =
              'twist' in which
                ? which.twist === 'lower'
                  ? own.toLowerCase()
                  : which.twist === 'upper'
                    ? own.toUpperCase()
                    : `${own}x`
                : undefined;
            const id = 'id' in which ? which.id : (twisted ?? (kind === 'bundles' ? FIXTURE : PACKET));
            const r: TBadRequest = {
              method,
              path: `/${kind}/${id}/${sub}`,
              ...(body !== undefined && method !== 'GET' && method !== 'HEAD'
                ? { body: Buffer.from(JSON.stringify(body) ?? ''), contentType: 'application/json' }
                : {}),
              raw: true,
            };
            const a = await check(r, t);
            // Another account's bundle and packet are not found, whatever is asked of them; a route
            // that reads a body may refuse a bad one first.
            if (
              'state' in which &&
              which.state === 'otherAccount' &&
              routedMethods(kind, sub).includes(method)
            ) {
              const allowed = BODY_ROUTES.has(`${method} ${kind}/${sub}`) ? [400, 404] : [404];
              // The body's size is checked before anything is looked up: an oversized one is 413.
              if ((r.body?.length ?? 0) > defaultBodyOptions.maxBytes) allowed.push(413);
              expect(allowed, describeRequest(r, a)).toContain(a.status);
            }
          },
        ),
        runs(250),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'endpoints with random methods and JSON bodies',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          methodArb,
          endpointArb,
          jsonBodyArb,
          targetArb(['draft', 'sent']),
          async (method, path, text, t) => {
            const r = { method, path, body: Buffer.from(text, 'utf8'), contentType: 'application/json' };
            if (method === 'POST' && /^\/bundles\/?$/.test(path)) await countedCreate(r);
            else await check(r, t);
          },
        ),
        runs(120),
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd paths and ids, with every method',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ALL_METHODS),
          oddPathArb,
          targetArb(['sent']),
          async (method, path, t) => {
            await check({ method, path, raw: true }, t);
          },
        ),
        runs(150),
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'odd query strings on the list and on one bundle (page, per_page, include…)',
    async () => {
      await openLedger();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'PATCH'),
          fc.constantFrom(
            '/bundles/',
            '/bundles',
            `/bundles/${FIXTURE}/`,
            `/bundles/${FIXTURE}/events/`,
            `/packets/${PACKET}/`,
          ),
          fc.oneof(
            queryArb,
            fc
              .array(
                fc.constantFrom(
                  'data',
                  'events',
                  'files',
                  'events',
                  '',
                  '%20',
                  'EVENTS',
                  'x',
                  '%2C',
                  '__proto__',
                ),
                { maxLength: 5 },
              )
              .map((names) => `include=${names.join(',')}`),
          ),
          targetArb(['draft', 'sent']),
          async (method, path, query, t) => {
            const r: TBadRequest = { method, path: `${path}?${query}`, raw: true };
            const a =
              path.startsWith('/bundles') && method === 'POST' && !path.includes(FIXTURE)
                ? await countedCreate(r)
                : await check(r, t);
            if (method === 'GET' && /^\/bundles\/?$/.test(path) && a.status === 200) {
              expect(Array.isArray(a.body), 'a list is a bare array').toBe(true);
              expect(String(a.headers['x-blueink-pagination'])).toMatch(/^\d+,\d+,\d+,\d+$/);
            }
          },
        ),
        {
          ...runs(120),
          examples: [['GET', `/bundles/${FIXTURE}/`, 'include=events,events', targets.sent[0]!]],
        },
      );
      await closeLedger();
    },
    PROPERTY_TIMEOUT,
  );
});

// -------------------------------------------------------------------------------------------------
// Nothing left behind, and the runtime still works

describe('after the bad input', () => {
  it('a batch of invalid creates adds no bundle', async () => {
    const invalid = fc
      .sample(createArb, { numRuns: 40, seed: 42 })
      .map((body) => json('POST', '/bundles/', body));
    const before = await bundleCount();
    const answers: [TBadRequest, TAnswer][] = [];
    for (const r of invalid) answers.push([r, await send(r)]);
    const created = answers.filter(([, a]) => a.status === 201).length;
    expect(await bundleCount(), 'bundles: those answered 201 and no other').toBe(before + created);
    for (const [r, a] of answers) sender.expectApiAnswer(r, a);
  });

  it('a create refused for an unknown person_id leaves no Person behind', async () => {
    const before = await personCount();
    const r = json(
      'POST',
      '/bundles/',
      aBundle(
        {
          packets: [
            { key: 'ann', name: 'New Signer', email: `new-${Date.now()}@example.com` },
            {
              key: 'bob',
              name: 'Bob Roe',
              email: 'bob@example.com',
              person_id: '00000000-0000-4000-8000-000000000000',
            },
          ],
          documents: [{ file_b64: pdfB64 }],
        },
        pdfB64,
      ),
    );
    const a = await checkCreate(r);
    expect(a.status, a.text).toBe(400);
    expect(fieldsOf(a)).toEqual(['packets[1].person_id']);
    expect(await personCount(), `persons after ${describeRequest(r, a)}`).toBe(before);
  });

  it('a refused create does not hold its custom_key: the corrected request may use it', async () => {
    const customKey = `order-${Date.now()}`;
    const refused = await checkCreate(
      json(
        'POST',
        '/bundles/',
        aBundle(
          {
            custom_key: customKey,
            packets: [
              {
                key: 'ann',
                name: 'Ann Lee',
                email: 'ann@example.com',
                person_id: '00000000-0000-4000-8000-000000000000',
              },
            ],
          },
          pdfB64,
        ),
      ),
    );
    expect(refused.status, refused.text).toBe(400);
    const corrected = await checkCreate(
      json('POST', '/bundles/', aBundle({ custom_key: customKey }, pdfB64)),
    );
    expect(corrected.status, `the same custom_key after the refusal: ${short(corrected.text)}`).toBe(201);
  });

  it(
    // Last but one: the bundle it leaves is big, and would slow every list read after it.
    'adding and removing the most tags a body may carry, again and again, never yields a 5xx',
    async () => {
      const [t] = await createTargets(call, {});
      const tags = Array.from({ length: 50 }, (_, i) => `${String(i).padStart(2, '0')}${'t'.repeat(98)}`);
      for (let round = 1; round <= 45; round++) {
        for (const route of ['add_tags', 'remove_tags']) {
          const r = json('PUT', `/bundles/${FIXTURE}/${route}/`, { tags });
          const a = await send(r, t);
          expect(
            a.status,
            `${route} in round ${round} of adding and removing 50 tags: ${short(a.text)}`,
          ).toBeLessThan(500);
          sender.expectApiAnswer(atTarget(r, t), a);
        }
      }
    },
    PROPERTY_TIMEOUT,
  );

  it('the runtime is still healthy: create, read, list, events, cancel', async () => {
    const created = await call('POST', '/bundles/', { json: embedBundle({ label: 'Healthy' }) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const got = await call('GET', `/bundles/${id}/`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const listed = await call('GET', '/bundles/?per_page=100');
    expect(listed.status).toBe(200);
    expect(listed.body.map((b: { id: string }) => b.id)).toContain(id);
    const packet = await call('GET', `/packets/${created.body.packets[0].id}/`);
    expect([packet.status, packet.body.name]).toEqual([200, 'Ann Lee']);
    const cancelled = await call('PUT', `/bundles/${id}/cancel/`);
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'ca']);
    const events = await call('GET', `/bundles/${id}/events/`);
    expect(events.status).toBe(200);
    expect(events.body.map((e: { kind: string }) => e.kind)).toContain('ca');
  });
});
