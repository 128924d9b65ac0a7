// The Idempotency-Key logic on its own: the key's syntax, the request's fingerprint, and what a
// claim, a replay, a wait and a failure do, over an in-memory store with the adapter's contract.
import { describe, expect, it } from 'vitest';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { quietTelemetry } from '#shared/adapters/telemetry/telemetry';
import { ValidationError } from '#shared/domain/errors';
import type { TIdempotencyRecord, TIdempotencyStore, TStoredAnswer } from '#shared/domain/ports/idempotency';
import { createApiHandler } from '#shared/http/api-handler';
import { IdempotencyInFlightError, IdempotencyKeyReusedError } from '#shared/http/errors';
import { checkIdempotencyKey, requestFingerprint } from '#shared/http/idempotency-key';
import {
  answerIdempotently,
  IDEMPOTENCY_LOCK_GRACE_MS,
  IN_FLIGHT_WAIT_MS,
  isKeptAnswer,
} from '#shared/http/idempotent-request';
import { buildOpenApiDocument } from '#shared/openapi/document';

/** The store's contract in memory: a claim wins only where no live record holds the key. */
function memoryStore() {
  const records = new Map<
    string,
    { record: TIdempotencyRecord; owner: string; lockedUntil: number; expires: number }
  >();
  const calls = { claims: 0, completes: 0, releases: 0 };
  const store: TIdempotencyStore = {
    async claim(c, now) {
      calls.claims++;
      const id = `${c.accountId}#${c.key}`;
      const held = records.get(id);
      const live =
        held &&
        held.expires > now.getTime() &&
        (held.record.state === 'completed' || held.lockedUntil > now.getTime());
      if (live) return held.record;
      records.set(id, {
        record: { state: 'in_progress', fingerprint: c.fingerprint },
        owner: c.owner,
        lockedUntil: c.lockedUntil.getTime(),
        expires: c.expiresAt.getTime(),
      });
      return undefined;
    },
    async complete(c, answer) {
      calls.completes++;
      if (records.get(`${c.accountId}#${c.key}`)?.record.state === 'completed') return;
      records.set(`${c.accountId}#${c.key}`, {
        record: { state: 'completed', fingerprint: c.fingerprint, answer },
        owner: c.owner,
        lockedUntil: c.lockedUntil.getTime(),
        expires: c.expiresAt.getTime(),
      });
    },
    async release(c) {
      calls.releases++;
      const id = `${c.accountId}#${c.key}`;
      const held = records.get(id);
      if (held?.record.state === 'in_progress' && held.owner === c.owner) records.delete(id);
    },
  };
  return { store, calls, records };
}

const log = createLogger('silent');
const request = (fingerprint = 'f1', accountId = 'acc1') => ({ accountId, key: 'k1', fingerprint });
const answer = (status: number, body = '{"id":"b1"}'): TStoredAnswer => ({
  status,
  headers: { 'Content-Type': 'application/json', Location: '/api/v2/bundles/b1' },
  body,
});

describe('the key syntax', () => {
  it('takes 1 to 255 printable ASCII characters', () => {
    expect(checkIdempotencyKey('a')).toBe('a');
    expect(checkIdempotencyKey('order 42:retry~ok')).toBe('order 42:retry~ok');
    expect(checkIdempotencyKey('x'.repeat(255))).toHaveLength(255);
  });

  it.each([
    ['empty', ''],
    ['too long', 'x'.repeat(256)],
    ['non-ASCII', 'clé'],
    ['a control character', 'a\nb'],
    ['spaces around it', ' key '],
  ])('refuses a key %s with a field error on the header', (_what, key) => {
    const err = (() => {
      try {
        checkIdempotencyKey(key);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).fieldErrors[0]?.field).toBe('Idempotency-Key');
  });
});

describe('the request fingerprint', () => {
  const body = Buffer.from('{"a":1}');
  it('is the same for the same method, path and bytes', () => {
    expect(requestFingerprint('post', '/bundles', body)).toBe(
      requestFingerprint('POST', '/bundles', Buffer.from(body)),
    );
  });

  it('differs with the method, the path or any byte of the body', () => {
    const base = requestFingerprint('POST', '/bundles', body);
    expect(requestFingerprint('PUT', '/bundles', body)).not.toBe(base);
    expect(requestFingerprint('POST', '/persons', body)).not.toBe(base);
    expect(requestFingerprint('POST', '/bundles', Buffer.from('{"a": 1}'))).not.toBe(base);
    expect(requestFingerprint('POST', '/bundles', undefined)).not.toBe(base);
  });

  it('cannot be made equal by moving bytes between the path and the body', () => {
    expect(requestFingerprint('POST', '/a', Buffer.from('\nb'))).not.toBe(
      requestFingerprint('POST', '/a\n', Buffer.from('b')),
    );
  });
});

describe('claiming and replaying', () => {
  it('does the work once and answers it again, marked as a replay', async () => {
    const { store, calls } = memoryStore();
    let runs = 0;
    const work = async () => {
      runs++;
      return answer(201);
    };
    const first = await answerIdempotently({ store, log }, request(), work);
    const again = await answerIdempotently({ store, log }, request(), work);
    expect(runs).toBe(1);
    expect(first.headers['Idempotent-Replayed']).toBeUndefined();
    expect(again).toEqual({ ...first, headers: { ...first.headers, 'Idempotent-Replayed': 'true' } });
    expect(calls.completes).toBe(1);
  });

  it('refuses another request under the same key', async () => {
    const { store } = memoryStore();
    await answerIdempotently({ store, log }, request('f1'), async () => answer(201));
    await expect(
      answerIdempotently({ store, log }, request('f2'), async () => answer(201)),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  });

  it('keeps keys of different accounts apart', async () => {
    const { store } = memoryStore();
    let runs = 0;
    const work = async () => answer(201, `{"run":${++runs}}`);
    await answerIdempotently({ store, log }, request('f1', 'acc1'), work);
    const other = await answerIdempotently({ store, log }, request('f2', 'acc2'), work);
    expect(other.body).toBe('{"run":2}');
  });

  it('keeps a 4xx answer, but frees the key after a 5xx answer, a 429 or a thrown error', async () => {
    expect([400, 404, 409, 422].every(isKeptAnswer)).toBe(true);
    expect([429, 500, 503].some(isKeptAnswer)).toBe(false);

    const { store, calls } = memoryStore();
    await answerIdempotently({ store, log }, request(), async () => answer(400));
    const replay = await answerIdempotently({ store, log }, request(), async () => answer(201));
    expect(replay.status).toBe(400);

    const fresh = memoryStore();
    await answerIdempotently({ store: fresh.store, log }, request(), async () => answer(503));
    await expect(
      answerIdempotently({ store: fresh.store, log }, request(), async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    const retried = await answerIdempotently({ store: fresh.store, log }, request(), async () => answer(201));
    expect(retried.status).toBe(201);
    expect(fresh.calls.releases).toBe(2);
    expect(calls.releases).toBe(0);
  });

  it('lets a retry wait for the first request and answer with its answer', async () => {
    const { store } = memoryStore();
    let finish: () => void = () => {};
    const firstDone = new Promise<void>((r) => {
      finish = r;
    });
    const first = answerIdempotently({ store, log }, request(), async () => {
      await firstDone;
      return answer(201);
    });
    let slept = 0;
    const retry = answerIdempotently(
      {
        store,
        log,
        sleep: async () => {
          if (++slept === 2) finish();
          await new Promise((r) => setImmediate(r));
        },
      },
      request(),
      async () => answer(500),
    );
    const [a, b] = await Promise.all([first, retry]);
    expect(b.status).toBe(201);
    expect(b.body).toBe(a.body);
    expect(b.headers['Idempotent-Replayed']).toBe('true');
    expect(slept).toBeGreaterThanOrEqual(2);
  });

  it('answers 409 in flight when the first request outlasts the wait', async () => {
    const { store } = memoryStore();
    const never = answerIdempotently({ store, log }, request(), () => new Promise<TStoredAnswer>(() => {}));
    void never;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const waits: number[] = [];
    await expect(
      answerIdempotently(
        {
          store,
          log,
          now: () => new Date(clock),
          sleep: async (ms) => {
            waits.push(ms);
            clock += ms;
          },
        },
        request(),
        async () => answer(201),
      ),
    ).rejects.toBeInstanceOf(IdempotencyInFlightError);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(IN_FLIGHT_WAIT_MS);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
  });

  it('takes over a claim whose request crashed, once its lock has lapsed', async () => {
    const { store } = memoryStore();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => new Date(clock);
    void answerIdempotently({ store, log, now }, request(), () => new Promise<TStoredAnswer>(() => {}));
    await new Promise((r) => setImmediate(r));
    clock += 61_000;
    const taken = await answerIdempotently({ store, log, now }, request(), async () => answer(201));
    expect(taken.status).toBe(201);
    expect(taken.headers['Idempotent-Replayed']).toBeUndefined();
  });

  it('holds a claim until its invocation is stopped and a little more, not a minute', async () => {
    const { store, records } = memoryStore();
    const clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => new Date(clock);
    const deadline = clock + 3_000;
    void answerIdempotently(
      { store, log, now },
      { ...request(), deadline },
      () => new Promise<TStoredAnswer>(() => {}),
    );
    await new Promise((r) => setImmediate(r));
    expect(records.get('acc1#k1')?.lockedUntil).toBe(deadline + IDEMPOTENCY_LOCK_GRACE_MS);
  });

  it('answers 409 in flight before its own deadline rather than wait past it', async () => {
    const { store } = memoryStore();
    void answerIdempotently({ store, log }, request(), () => new Promise<TStoredAnswer>(() => {}));
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const waits: number[] = [];
    await expect(
      answerIdempotently(
        {
          store,
          log,
          now: () => new Date(clock),
          sleep: async (ms) => {
            waits.push(ms);
            clock += ms;
          },
        },
        { ...request(), deadline: clock + 2_000 },
        async () => answer(201),
      ),
    ).rejects.toBeInstanceOf(IdempotencyInFlightError);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(2_000);
  });

  it('never lets a request that outlived its claim free the retry that took it over', async () => {
    const { store, records } = memoryStore();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => new Date(clock);
    let fail: (err: Error) => void = () => {};
    const late = answerIdempotently(
      { store, log, now },
      request(),
      () =>
        new Promise<TStoredAnswer>((_, reject) => {
          fail = reject;
        }),
    );
    await new Promise((r) => setImmediate(r));
    clock += 61_000;
    let finishRetry: (a: TStoredAnswer) => void = () => {};
    const retry = answerIdempotently(
      { store, log, now },
      request(),
      () =>
        new Promise<TStoredAnswer>((resolve) => {
          finishRetry = resolve;
        }),
    );
    await new Promise((r) => setImmediate(r));
    fail(new Error('gave up late'));
    await expect(late).rejects.toThrow('gave up late');
    expect(records.get('acc1#k1')?.record.state).toBe('in_progress');
    finishRetry(answer(201));
    expect((await retry).status).toBe(201);
  });

  it('keeps the first answer kept when a late request and its retry both finish', async () => {
    const { store } = memoryStore();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => new Date(clock);
    let finishLate: (a: TStoredAnswer) => void = () => {};
    const late = answerIdempotently(
      { store, log, now },
      request(),
      () =>
        new Promise<TStoredAnswer>((resolve) => {
          finishLate = resolve;
        }),
    );
    await new Promise((r) => setImmediate(r));
    clock += 61_000;
    await answerIdempotently({ store, log, now }, request(), async () => answer(201, '{"run":"retry"}'));
    finishLate(answer(201, '{"run":"late"}'));
    await late;
    const replay = await answerIdempotently({ store, log, now }, request(), async () => answer(500));
    expect(replay.body).toBe('{"run":"retry"}');
  });
});

describe('the API description', () => {
  const doc = buildOpenApiDocument('http://localhost:3000') as {
    paths: Record<
      string,
      Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, unknown> }>
    >;
    components: { parameters: Record<string, { in: string; schema: { maxLength: number } }> };
  };
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ at: `${method} ${path}`, method, op })),
  );

  it('offers Idempotency-Key, its 409 and its 422 on every POST, PUT and PATCH, and on nothing else', () => {
    const writes = operations.filter((o) => ['post', 'put', 'patch'].includes(o.method));
    expect(writes.length).toBeGreaterThan(20);
    for (const { at, op } of writes) {
      expect(
        op.parameters?.map((p) => p.$ref),
        at,
      ).toContain('#/components/parameters/Idempotency-Key');
      expect(Object.keys(op.responses), at).toEqual(expect.arrayContaining(['409', '422']));
    }
    for (const { at, op } of operations.filter((o) => !['post', 'put', 'patch'].includes(o.method))) {
      expect(op.parameters?.map((p) => p.$ref) ?? [], at).not.toContain(
        '#/components/parameters/Idempotency-Key',
      );
    }
    expect(doc.components.parameters['Idempotency-Key']).toMatchObject({
      in: 'header',
      schema: { maxLength: 255 },
    });
  });
});

describe('every keyed API gets it', () => {
  const usage = { usageFor: async () => ({ limit: 1, remaining: 1, reset: 1, window: 'day' }) } as never;
  const config = { publicBaseUrl: 'http://localhost:3000' };
  const route = (method: 'GET' | 'POST') => ({
    method,
    path: '/things',
    handler: async () => ({ status: 200 }),
  });

  it('refuses to build a keyed API with a write route and no idempotency store', () => {
    expect(() => createApiHandler([route('POST')], quietTelemetry(log), { usage, config })).toThrow(
      /idempotency/,
    );
    expect(() =>
      createApiHandler([route('POST')], quietTelemetry(log), {
        usage,
        config,
        idempotency: memoryStore().store,
      }),
    ).not.toThrow();
  });

  it('builds read-only and public APIs without one', () => {
    expect(() => createApiHandler([route('GET')], quietTelemetry(log), { usage, config })).not.toThrow();
    expect(() =>
      createApiHandler([route('POST')], quietTelemetry(log), { anonymous: true, config }),
    ).not.toThrow();
  });
});
