// A bulk send's documents are fetched, converted and stored once for the whole batch, however
// many rows (and chunks of rows) it has: counted at the file_url's server and in the local S3.

import { randomBytes, randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { createS3Client } from '#shared/adapters/aws/clients';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { aPdfB64 } from '../helpers/bundles';
import { aPng, darkLeftQuarter } from '../helpers/images';
import { eventually, startReceiver, type TReceiver } from '../helpers/receiver';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;
let files: TReceiver;
let pdf: Buffer;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
  files = await startReceiver();
  pdf = Buffer.from(await aPdfB64(), 'base64');
});
afterAll(async () => {
  await files.stop();
  await runtime.stop();
});

async function freshAccount() {
  const account = await runtime.seedAccount('Bulk Co', `${randomUUID()}@example.com`);
  return { account, call: apiClient(runtime, account.apiKey) };
}

const document = (source: Record<string, string>) => ({
  key: 'offer',
  ...source,
  fields: [
    { kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['emp'] },
    { kind: 'inp', key: 'title', page: 1, x: 10, y: 50, w: 30, h: 5, editors: ['emp'] },
  ],
});

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    signers: { emp: { name: `Employee ${i}`, email: `emp${i}@example.com` } },
    fields: { title: `Title ${i}` },
  }));

async function sendAndFinish(call: ReturnType<typeof apiClient>, bundle: unknown, count: number) {
  const res = await call('POST', '/bundles/bulk/', { json: { bundle, rows: rows(count) } });
  expect(res.status, res.text).toBe(202);
  const batch = await eventually(
    async () => {
      const b = await call('GET', `/bundles/bulk/${res.body.id}/`);
      return b.body.status === 'completed' && b.body;
    },
    120_000,
    'the batch to complete',
  );
  expect(batch.counts).toEqual({ total: count, pending: 0, created: count, failed: 0 });
  return batch;
}

/** A real one-page PDF of about `bytes`, most of it an incompressible image the page shows. */
async function aPdfOf(bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const side = Math.floor(Math.sqrt(bytes / 3));
  const image = doc.context.register(
    doc.context.stream(randomBytes(side * side * 3), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
    }),
  );
  page.node.setXObject(PDFName.of('Noise'), image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(300, 0, 0, 300, 100, 400),
    drawObject('Noise'),
    popGraphicsState(),
  );
  return Buffer.from(await doc.save());
}

/** Every object the local S3 holds for the account, with its size. */
async function objectsOf(accountId: string) {
  const s3 = createS3Client(runtime.config);
  const out: { key: string; size: number }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: runtime.config.bucketName,
        Prefix: `accounts/${accountId}/`,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const o of page.Contents ?? []) out.push({ key: o.Key!, size: o.Size ?? 0 });
    token = page.NextContinuationToken;
  } while (token);
  return out;
}

describe('a bulk send whose document is a file_url', () => {
  it('fetches it once for all rows, across chunks', { timeout: 180_000 }, async () => {
    const { call } = await freshAccount();
    const path = `/offer-${randomUUID()}.pdf`;
    files.on(path, () => ({ status: 200, body: pdf, contentType: 'application/pdf' }));
    // 30 rows: two chunks of the worker, two invocations.
    const batch = await sendAndFinish(
      call,
      { label: 'Offer', packets: [{ key: 'emp' }], documents: [document({ file_url: files.url(path) })] },
      30,
    );
    expect(files.callsTo(path)).toHaveLength(1);
    // And every bundle has the document, each its own fields' values.
    const bundle = (await call('GET', `/bundles/${batch.rows[29].bundle_id}/`)).body;
    expect(bundle.documents[0].key).toBe('offer');
  });
});

describe('a bulk send whose document is uploaded', () => {
  it('stores the document once, shared by every bundle of the batch', { timeout: 180_000 }, async () => {
    const { account, call } = await freshAccount();
    const batch = await sendAndFinish(
      call,
      {
        label: 'Offer',
        packets: [{ key: 'emp' }],
        documents: [document({ file_b64: pdf.toString('base64') })],
      },
      10,
    );
    const pdfs = (await objectsOf(account.accountId)).filter((o) => o.key.endsWith('.pdf'));
    expect(pdfs).toEqual([{ key: expect.any(String), size: pdf.length }]);
    // Each bundle's document is that one object.
    const bundles = createBundleStore(runtime.db, runtime.config.tableName);
    const ids: string[] = batch.rows.map((r: { bundle_id: string }) => r.bundle_id);
    const keys = await Promise.all(
      ids.map(async (id) => (await bundles.get(account.accountId, id))!.documents[0]!.blobKey),
    );
    expect(new Set(keys)).toEqual(new Set([pdfs[0]!.key]));
  });

  it('keeps a 3 MB upload once in all: no second copy in the batch’s request', {
    timeout: 180_000,
  }, async () => {
    const { account, call } = await freshAccount();
    const big = await aPdfOf(3 * 1024 * 1024);
    await sendAndFinish(
      call,
      {
        label: 'Offer',
        packets: [{ key: 'emp' }],
        documents: [document({ file_b64: big.toString('base64') })],
      },
      10,
    );
    const objects = await objectsOf(account.accountId);
    const total = objects.reduce((sum, o) => sum + o.size, 0);
    expect(total, JSON.stringify(objects)).toBeLessThan(big.length * 1.5);
    expect(objects.filter((o) => o.key.endsWith('.pdf'))).toEqual([
      { key: expect.any(String), size: big.length },
    ]);
  });

  it('converts and stores an image once, every bundle showing the same PDF', {
    timeout: 180_000,
  }, async () => {
    const { account, call } = await freshAccount();
    const png = aPng(600, 400, darkLeftQuarter(600));
    await sendAndFinish(
      call,
      {
        label: 'Badge',
        packets: [{ key: 'emp' }],
        documents: [document({ file_b64: png.toString('base64') })],
      },
      8,
    );
    const pdfs = (await objectsOf(account.accountId)).filter((o) => o.key.endsWith('.pdf'));
    expect(pdfs).toHaveLength(1);
  });
});
