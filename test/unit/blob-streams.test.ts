// How a streamed write cuts its body into S3 calls: the part boundaries, one PutObject for a body
// that fits, and nothing stored (the upload aborted) when the body fails. S3 is a recording fake.
import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createBlobStreams } from '#shared/adapters/s3/blob-streams';

function recording() {
  const calls: { name: string; bytes?: number; parts?: number }[] = [];
  const s3 = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = command.constructor.name.replace(/Command$/, '');
      const body = command.input.Body as Uint8Array | undefined;
      const parts = (command.input.MultipartUpload as { Parts?: unknown[] } | undefined)?.Parts?.length;
      calls.push({ name, ...(body ? { bytes: body.byteLength } : {}), ...(parts ? { parts } : {}) });
      return { UploadId: 'U1', ETag: `"${calls.length}"` };
    },
  } as unknown as S3Client;
  return { calls, streams: createBlobStreams(s3, 'bucket', {}, { partBytes: 100 }) };
}

async function* chunks(total: number, size: number, failAt?: number) {
  for (let at = 0; at < total; at += size) {
    if (failAt !== undefined && at >= failAt) throw new Error('reset');
    yield Buffer.alloc(Math.min(size, total - at), 1);
  }
}

describe('a streamed write', () => {
  it('sends full parts as they fill and the rest last; a body that fits is one PutObject', async () => {
    const { calls, streams } = recording();
    await streams.write('exports/A/E.tar.gz', chunks(250, 30), 'application/gzip');
    expect(calls).toEqual([
      { name: 'CreateMultipartUpload' },
      { name: 'UploadPart', bytes: 100 },
      { name: 'UploadPart', bytes: 100 },
      { name: 'UploadPart', bytes: 50 },
      { name: 'CompleteMultipartUpload', parts: 3 },
    ]);
    calls.length = 0;
    await streams.write('a', chunks(99, 7), 'application/pdf');
    await streams.write('b', chunks(100, 7), 'application/pdf', 100);
    expect(calls).toEqual([
      { name: 'PutObject', bytes: 99 },
      { name: 'PutObject', bytes: 100 },
    ]);
  });

  it('stores nothing when the body fails or is longer than it said', async () => {
    const { calls, streams } = recording();
    await expect(streams.write('x', chunks(250, 30, 150), 'application/gzip')).rejects.toThrow('reset');
    expect(calls.map((c) => c.name)).toEqual(['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload']);
    calls.length = 0;
    await expect(streams.write('y', chunks(60, 7), 'application/pdf', 50)).rejects.toThrow(/longer than/);
    expect(calls).toEqual([]);
  });
});
