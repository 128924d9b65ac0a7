// Inputs small to send and costly to read: a PNG of 60 megapixels at 16 bits a channel (350 KB,
// gigabytes to decode with pdf-lib) and a CSV of 500,000 columns. Each is refused with a 400
// that says which limit, before the work, and a large CSV is read off the request's thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdfB64 } from '../helpers/bundles';
import { blackPng } from '../helpers/heavy-images';
import { apiClient, isErrorBody } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';
import { openSession, signerClient } from '../helpers/signer';

let runtime: TRuntime;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  runtime = await sharedTestRuntime();
  call = apiClient(runtime);
});
afterAll(async () => {
  await runtime?.stop();
});

const withImage = (png: Buffer) => ({
  packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
  documents: [{ key: 'scan', file_b64: png.toString('base64') }],
});

const offer = async () => ({
  label: 'Offer letter',
  packets: [{ key: 'emp' }],
  documents: [
    {
      key: 'offer',
      file_b64: await aPdfB64(),
      fields: [
        { kind: 'inp', key: 'title', label: 'Title', page: 1, x: 10, y: 50, w: 30, h: 5, editors: ['emp'] },
      ],
    },
  ],
});

describe('heavy images', () => {
  it('refuses a 60-megapixel 16-bit PNG before decoding it, saying what is accepted', async () => {
    const res = await call('POST', '/bundles/', { json: withImage(blackPng(7745, 7745, 16)) });
    expect(res.status, res.text).toBe(400);
    expect(isErrorBody(res.body)).toBe(true);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'documents[0].file_b64',
        message:
          'The PNG image is 7745 × 7745 pixels at 16 bits a channel, 360 MB once decoded; at most 100 MB (25 megapixels of 8-bit colour) are accepted. Save it smaller, at 8 bits a channel, or as a JPEG.',
      }),
    ]);
  });

  it('still takes a PNG within the limit, converted off the request thread', async () => {
    const res = await call('POST', '/bundles/', { json: withImage(blackPng(2000, 1500, 16)) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.documents).toHaveLength(1);
  });
});

describe('heavy drawings', () => {
  it('refuses a drawn signature whose 60 KB of PNG claim 60 megapixels', async () => {
    const sign = signerClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: {
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [
          {
            key: 'doc',
            file_b64: await aPdfB64(),
            fields: [{ key: 'sig', kind: 'sig', page: 1, x: 10, y: 85, w: 30, h: 6, editors: ['ann'] }],
          },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const session = await openSession(sign, call, created.body.packets[0].id);
    // The document worker would decode it in full to stamp it.
    const png = blackPng(7745, 7745, 8, 0);
    const res = await sign('PUT', '/values', session, {
      values: [
        { doc_key: 'doc', field_key: 'sig', image: `data:image/png;base64,${png.toString('base64')}` },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        message: 'The drawing must be a PNG data URL of at most 200 KB and 4 megapixels.',
      }),
    ]);
  });
});

describe('heavy CSV', () => {
  it('refuses a bulk CSV of 500,000 columns at the column limit', async () => {
    const header = Array.from({ length: 500_000 }, (_, i) => `c${i}`).join(',');
    const form = new FormData();
    form.append('bundle', JSON.stringify(await offer()));
    form.append('rows', new Blob([`${header}\n${','.repeat(499_999)}\n`], { type: 'text/csv' }), 'rows.csv');
    const req = new Request('http://x', { method: 'POST', body: form });
    const res = await call('POST', '/bundles/bulk/', {
      raw: Buffer.from(await req.arrayBuffer()),
      contentType: req.headers.get('content-type')!,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([
      {
        field: 'rows',
        message: "Line 1: more than 1000 columns; a bulk send's CSV has at most 1000.",
        messsage: expect.any(String),
      },
    ]);
  });

  it('reads a large CSV in the worker and answers its faults as for a small one', async () => {
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `Employee ${i} ${'x'.repeat(60)},emp${i}@example.com,Engineer`,
    );
    // The last line's quote is never closed: the fault is found at the end of 90 KB.
    const csv = `emp.name,emp.email,title\n${lines.join('\n')}\n"Open,quote@example.com,x\n`;
    expect(csv.length).toBeGreaterThan(64 * 1024);
    const res = await call('POST', '/bundles/bulk/', { json: { bundle: await offer(), rows: csv } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'rows',
        message: 'Line 1002, column 1: a quoted value is never closed.',
      }),
    ]);
  });
});
