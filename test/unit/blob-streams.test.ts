// How a streamed write cuts its body into S3 calls (the SDK's Upload, 5 MiB parts, its least):
// the part boundaries, one PutObject for a body that fits, and nothing stored (the upload
// aborted, the body's reader closed) when the body or a part fails. S3 is a recording fake.
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createBlobStreams } from '#shared/adapters/s3/blob-streams';
import { DocumentsKeyDestroyedError } from '#shared/domain/errors';

const MiB = 1024 * 1024;

function recording(failOn?: string, failure = new Error('slow down')) {
  const calls: { name: string; bytes?: number; parts?: number }[] = [];
  const inputs: Record<string, unknown>[] = [];
  // A real client (Upload reads its config: checksums, endpoint) whose sends are recorded.
  const s3 = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'A', secretAccessKey: 'S' } });
  s3.send = (async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = command.constructor.name.replace(/Command$/, '');
    const body = command.input.Body as Uint8Array | undefined;
    const parts = (command.input.MultipartUpload as { Parts?: unknown[] } | undefined)?.Parts?.length;
    calls.push({ name, ...(body ? { bytes: body.byteLength } : {}), ...(parts ? { parts } : {}) });
    inputs.push(command.input);
    if (name === failOn) throw failure;
    return { UploadId: 'U1', ETag: `"${calls.length}"` };
  }) as never;
  const keys = { defaultKeyId: 'K1' };
  return { calls, inputs, streams: createBlobStreams(s3, 'bucket', keys, { partBytes: 5 * MiB }) };
}

async function* chunks(total: number, size: number, failAt?: number, closed?: { done: boolean }) {
  try {
    for (let at = 0; at < total; at += size) {
      if (failAt !== undefined && at >= failAt) throw new Error('reset');
      yield Buffer.alloc(Math.min(size, total - at), 1);
    }
  } finally {
    if (closed) closed.done = true;
  }
}

describe('a streamed write', () => {
  it('sends full parts as they fill and the rest last; a body that fits is one PutObject', async () => {
    const { calls, inputs, streams } = recording();
    await streams.write('exports/A/E.tar.gz', chunks(12.5 * MiB, 3 * MiB), 'application/gzip');
    expect(calls).toEqual([
      { name: 'CreateMultipartUpload' },
      { name: 'UploadPart', bytes: 5 * MiB },
      { name: 'UploadPart', bytes: 5 * MiB },
      { name: 'UploadPart', bytes: 2.5 * MiB },
      { name: 'CompleteMultipartUpload', parts: 3 },
    ]);
    // Sealed under the account's key and context, typed, as a PutObject would be.
    const sealed = { ContentType: 'application/gzip', ServerSideEncryption: 'aws:kms', SSEKMSKeyId: 'K1' };
    expect(inputs[0]).toMatchObject({ Bucket: 'bucket', Key: 'exports/A/E.tar.gz', ...sealed });
    const context = Buffer.from(inputs[0]!.SSEKMSEncryptionContext as string, 'base64');
    expect(JSON.parse(context.toString())).toEqual({ accountId: 'A' });
    calls.length = 0;
    await streams.write('a', chunks(99, 7), 'application/pdf');
    await streams.write('b', chunks(5 * MiB, MiB), 'application/pdf', 5 * MiB);
    await streams.write('c', chunks(0, 7), 'application/pdf', 0);
    expect(calls).toEqual([
      { name: 'PutObject', bytes: 99 },
      { name: 'PutObject', bytes: 5 * MiB },
      { name: 'PutObject', bytes: 0 },
    ]);
  });

  it('seals a file of the earlier layout under its owner account, and only when told the owner', async () => {
    const { inputs, streams } = recording();
    await streams.write('final/B/one.pdf', chunks(99, 7), 'application/pdf', 99, 'A');
    await streams.write('final/B/two.pdf', chunks(99, 7), 'application/pdf', 99);
    expect(inputs[0]).toMatchObject({
      Key: 'final/B/one.pdf',
      ServerSideEncryption: 'aws:kms',
      SSEKMSKeyId: 'K1',
    });
    const context = Buffer.from(inputs[0]!.SSEKMSEncryptionContext as string, 'base64');
    expect(JSON.parse(context.toString())).toEqual({ accountId: 'A' });
    // No owner, no account in the key: the bucket's default, which the documents key refuses.
    expect(inputs[1]).not.toHaveProperty('ServerSideEncryption');
  });

  it('stores nothing when the body or a part fails, or the body is longer than it said', async () => {
    const aborted = ['CreateMultipartUpload', 'UploadPart', 'AbortMultipartUpload'];
    const { calls, streams } = recording();
    const broken = streams.write('x', chunks(12 * MiB, MiB, 7 * MiB), 'application/gzip');
    await expect(broken).rejects.toThrow('reset');
    expect(calls.map((c) => c.name)).toEqual(aborted);
    calls.length = 0;
    await expect(streams.write('y', chunks(60, 7), 'application/pdf', 50)).rejects.toThrow(/longer than/);
    expect(calls).toEqual([]);

    const failing = recording('UploadPart');
    const closed = { done: false };
    const write = failing.streams.write('z', chunks(12 * MiB, MiB, undefined, closed), 'application/gzip');
    await expect(write).rejects.toThrow('slow down');
    expect(failing.calls.map((c) => c.name)).toEqual(aborted);
    expect(closed.done).toBe(true);

    // KMS refusing the key (S3's "KMS." errors) is the domain's error, as for any write.
    const refused = Object.assign(new Error('key disabled'), { name: 'KMS.DisabledException' });
    const sealedOff = recording('CreateMultipartUpload', refused).streams;
    const write2 = sealedOff.write('exports/A/F.tar.gz', chunks(6 * MiB, MiB), 'application/gzip');
    await expect(write2).rejects.toBeInstanceOf(DocumentsKeyDestroyedError);
  });
});
