import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBulkWorker } from '#functions/bulk-worker/app';
import type { TRuntime } from '#infra/local/runtime';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aPdfB64 } from '../helpers/bundles';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient, isErrorBody, startTestRuntime } from '../helpers/runtime';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
let receiver: TReceiver;
let pdf: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  call = apiClient(runtime);
  receiver = await startReceiver();
  pdf = await aPdfB64();
});
afterAll(async () => {
  await runtime.stop();
  await receiver.stop();
});

/** The body each row fills: the employee and HR signers, the employee's title as a field value. */
const offer = () => ({
  label: 'Offer letter',
  packets: [{ key: 'emp' }, { key: 'hr', name: 'Hana Ruiz', email: 'hr@example.com' }],
  documents: [
    {
      key: 'offer',
      file_b64: pdf,
      fields: [
        { kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['emp'] },
        { kind: 'inp', key: 'title', label: 'Title', page: 1, x: 10, y: 50, w: 30, h: 5, editors: ['hr'] },
      ],
    },
  ],
});

const row = (n: number, extra: Record<string, unknown> = {}) => ({
  signers: { emp: { name: `Employee ${n}`, email: `emp${n}@example.com`, ...extra } },
  fields: { title: `Engineer ${n}` },
});

async function finished(id: string, key?: string) {
  return eventually(
    async () => {
      const res = await call('GET', `/bundles/bulk/${id}/`, key ? { key } : {});
      return res.body.status === 'completed' && res.body;
    },
    30_000,
    'the batch to complete',
  );
}

describe('bulk send from JSON rows', () => {
  it('answers 202 at once, creates a sent bundle per good row tagged with the batch, and reports bad rows', async () => {
    const res = await call('POST', '/bundles/bulk/', {
      json: { bundle: offer(), rows: [row(1), row(2, { email: 'not-an-email' }), row(3)] },
    });
    expect(res.status).toBe(202);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.counts).toEqual({ total: 3, pending: 3, created: 0, failed: 0 });
    expect(res.body.rows.map((r: { status: string }) => r.status)).toEqual(['pending', 'pending', 'pending']);

    const batch = await finished(res.body.id);
    const bundles = createBundleStore(runtime.db, runtime.config.tableName);
    expect(batch.counts).toEqual({ total: 3, pending: 0, created: 2, failed: 1 });
    const [first, bad, third] = batch.rows;
    expect(bad).toEqual({
      row: 1,
      status: 'failed',
      errors: [{ field: 'packets[0].email', message: expect.any(String) }],
    });
    // The same error a single create of that row gives.
    const single = await call('POST', '/bundles/', {
      json: { ...offer(), packets: [{ key: 'emp', name: 'E', email: 'not-an-email' }, offer().packets[1]] },
    });
    expect(single.status).toBe(400);
    expect(single.body.errors.map((e: { field: string }) => e.field)).toEqual(['packets[0].email']);

    for (const [r, n] of [
      [first, 1],
      [third, 3],
    ] as const) {
      expect(r.status).toBe('created');
      const b = (await call('GET', `/bundles/${r.bundle_id}/`)).body;
      expect(b.status).toBe('se');
      expect(b.tags).toEqual([res.body.id]);
      // Packets answer in the body's order (the wire shape has no key): the employee is first.
      const emp = b.packets[0];
      expect([emp.name, emp.email]).toEqual([`Employee ${n}`, `emp${n}@example.com`]);
      const stored = await bundles.get(runtime.demo.accountId, r.bundle_id);
      const [doc] = await bundles.documents(stored!);
      expect(doc!.fields.find((f) => f.key === 'title')?.initialValue).toBe(`Engineer ${n}`);
    }
    const tagged = await call('GET', `/bundles/?tag=${res.body.id}`);
    expect(tagged.body.map((b: { id: string }) => b.id).sort()).toEqual(
      [first.bundle_id, third.bundle_id].sort(),
    );
  });

  it('names the row of a field value no field of the bundle has', async () => {
    const res = await call('POST', '/bundles/bulk/', {
      json: { bundle: offer(), rows: [{ ...row(1), fields: { salary: '100' } }] },
    });
    const batch = await finished(res.body.id);
    expect(batch.rows[0]).toEqual({
      row: 0,
      status: 'failed',
      errors: [{ field: 'rows[0].fields.salary', message: 'No field of the bundle has the key "salary".' }],
    });
  });
});

describe('bulk send from CSV', () => {
  const csv =
    'emp.name,emp.email,title\r\n"Lee, Ann",ann@example.com,Engineer\r\nBo Chen,bo@example.com,"Lead ""A"""\r\n';

  it('takes the CSV as the rows of a JSON body', async () => {
    const res = await call('POST', '/bundles/bulk/', { json: { bundle: offer(), rows: csv } });
    expect(res.status).toBe(202);
    const batch = await finished(res.body.id);
    expect(batch.counts.created).toBe(2);
    const names = await Promise.all(
      batch.rows.map(async (r: { bundle_id: string }) => {
        const b = (await call('GET', `/bundles/${r.bundle_id}/`)).body;
        return b.packets[0].name;
      }),
    );
    expect(names).toEqual(['Lee, Ann', 'Bo Chen']);
  });

  it('takes the CSV as a multipart file part next to the bundle part', async () => {
    const form = new FormData();
    form.append('bundle', JSON.stringify(offer()));
    form.append('rows', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
    const req = new Request('http://x', { method: 'POST', body: form });
    const res = await call('POST', '/bundles/bulk/', {
      raw: Buffer.from(await req.arrayBuffer()),
      contentType: req.headers.get('content-type')!,
    });
    expect(res.status).toBe(202);
    const batch = await finished(res.body.id);
    expect(batch.counts).toEqual({ total: 2, pending: 0, created: 2, failed: 0 });
  });
});

describe('bad bulk requests', () => {
  it.each([
    ['no rows', { bundle: {}, rows: [] }, 'rows', 'at least one row'],
    [
      'over 1,000 rows',
      { bundle: {}, rows: Array.from({ length: 1001 }, () => ({})) },
      'rows',
      'at most 1000',
    ],
    ['no bundle', { rows: [{}] }, 'bundle', 'bundle'],
    ['an unclosed quote', { bundle: {}, rows: 'emp.name,title\n"Ann,x\n' }, 'rows', 'Line 2, column 1'],
    ['a short row', { bundle: {}, rows: 'emp.name,title\nAnn\n' }, 'rows', 'Line 2: 1 columns'],
    ['a bad column', { bundle: {}, rows: 'emp.,title\nAnn,x\n' }, 'rows', 'Line 1, column 1'],
  ])('%s is a 400 naming where', async (_, json, field, words) => {
    const res = await call('POST', '/bundles/bulk/', { json });
    expect(res.status).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toContain(words);
  });

  it('is 404 for another account and for an unknown id', async () => {
    const res = await call('POST', '/bundles/bulk/', { json: { bundle: offer(), rows: [row(9)] } });
    const other = await runtime.seedAccount('Other Bulk', 'owner@other-bulk.example');
    const theirs = await call('GET', `/bundles/bulk/${res.body.id}/`, { key: other.apiKey });
    expect(theirs.status).toBe(404);
    expect(isErrorBody(theirs.body)).toBe(true);
    expect((await call('GET', '/bundles/bulk/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
    await finished(res.body.id);
  });
});

describe('bulk_completed', () => {
  it('posts the batch and its counts once every row is done', async () => {
    const made = await call('POST', '/webhooks/', {
      json: { url: receiver.url('/bulk'), event_types: ['bulk_completed'] },
    });
    expect(made.status).toBe(201);
    const res = await call('POST', '/bundles/bulk/', {
      json: { bundle: offer(), rows: [row(1), row(2, { email: 'bad' })] },
    });
    const [got] = await eventually(() => receiver.callsTo('/bulk').length === 1 && receiver.callsTo('/bulk'));
    const body = JSON.parse(got!.body);
    expect(body.event_type).toBe('bulk_completed');
    expect(body.payload).toEqual({ batch_id: res.body.id, total: 2, created: 1, failed: 1 });
  });
});

describe('retried chunks', () => {
  it('create each row once when the same chunk runs twice at the same time, and fire one bulk_completed', async () => {
    const made = await call('POST', '/webhooks/', {
      json: { url: receiver.url('/bulk-retry'), event_types: ['bulk_completed'] },
    });
    expect(made.status).toBe(201);
    // The runtime's own worker stays away: the chunk's message waits on the queue meanwhile.
    await runtime.workers.bulk.stop();
    try {
      const res = await call('POST', '/bundles/bulk/', {
        json: { bundle: offer(), rows: [row(1), row(2), row(3)] },
      });
      expect(res.status).toBe(202);
      const worker = buildBulkWorker({ config: runtime.config, db: runtime.db });
      const event = {
        Records: [
          {
            messageId: 'm1',
            receiptHandle: 'r1',
            body: JSON.stringify({ accountId: runtime.demo.accountId, batchId: res.body.id, chunk: 0 }),
            attributes: { ApproximateReceiveCount: '2' },
          },
        ],
      } as unknown as SQSEvent;
      const answers = await Promise.all([worker(event), worker(event)]);
      expect(answers).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);

      const batch = (await call('GET', `/bundles/bulk/${res.body.id}/`)).body;
      expect(batch.status).toBe('completed');
      expect(batch.counts).toEqual({ total: 3, pending: 0, created: 3, failed: 0 });
      const tagged = (await call('GET', `/bundles/?tag=${res.body.id}`)).body;
      expect(tagged).toHaveLength(3);
      expect(new Set(tagged.map((b: { id: string }) => b.id))).toEqual(
        new Set(batch.rows.map((r: { bundle_id: string }) => r.bundle_id)),
      );
      const [got] = await eventually(
        () => receiver.callsTo('/bulk-retry').length > 0 && receiver.callsTo('/bulk-retry'),
      );
      expect(JSON.parse(got!.body).payload).toEqual({
        batch_id: res.body.id,
        total: 3,
        created: 3,
        failed: 0,
      });
      const events = (
        await call('GET', `/webhooks/events/?webhook=${made.body.id}&event_type=bulk_completed`)
      ).body;
      expect(events).toHaveLength(1);
    } finally {
      runtime.workers.bulk.start();
    }
  });
});
