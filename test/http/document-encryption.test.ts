// Each account's documents are written to S3 under the documents key with the account as
// encryption context (shared/adapters/s3/object-encryption.ts); the S3 stand-in records the
// headers as S3 would keep them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRuntime } from '#infra/local/runtime';
import { aPdf } from '../helpers/pdfs';
import { apiClient } from '../helpers/runtime';
import { sharedTestRuntime } from '../helpers/shared-runtime';

let runtime: TRuntime;

beforeAll(async () => {
  runtime = await sharedTestRuntime();
});
afterAll(() => runtime.stop());

describe('documents at rest', () => {
  it("stores a bundle's original under SSE-KMS with its own account's context, bucket keys off", async () => {
    const pdf = Buffer.from(await aPdf({ pages: [{ size: 'A4', text: [] }] })).toString('base64');
    const other = await runtime.seedAccount('Other Co', 'owner@other.example');
    const created = [];
    for (const [accountId, key] of [
      [runtime.demo.accountId, runtime.demo.apiKey],
      [other.accountId, other.apiKey],
    ] as const) {
      const res = await apiClient(runtime, key)('POST', '/bundles/', {
        json: {
          label: 'Lease',
          packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com' }],
          documents: [
            {
              key: 'lease',
              file_b64: pdf,
              fields: [{ kind: 'sig', page: 1, x: 10, y: 70, w: 30, h: 5, editors: ['ann'] }],
            },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      created.push({ accountId, bundleId: (res.body as { id: string }).id });
    }
    for (const { accountId, bundleId } of created) {
      expect(
        runtime.storedEncryption(`accounts/${accountId}/bundles/${bundleId}/originals/lease.pdf`),
      ).toEqual({
        algorithm: 'aws:kms',
        keyId: 'alias/esign-local-documents',
        context: { accountId },
        bucketKey: 'false',
      });
    }
  });
});
