// What a signer waits for is the longest chain of DynamoDB requests one after another, not how
// many there are: a session's calls find it in the function's memory once stored or read there;
// opening a session and finishing read what they need side by side (opening consumes its link
// beside its read, and writes the record's step in one transaction with the bundle), apply their
// bundle change to the bundle they already read (still conditional on its version), read the
// account beside the writes, and leave publishing to the outbox relay; after the page, an
// opening reads its first document's file beside its first reads. Counted on the runtime's
// DynamoDB client (and S3's, for the file) as the order in which the signing function's requests
// started and ended, never as durations.
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';
import { benchFields, benchValues } from '../../bench/signing';
import { aPdfB64 } from '../helpers/bundles';
import { apiClient, startTestRuntime } from '../helpers/runtime';
import { embedToken, signerClient } from '../helpers/signer';

interface TSpan {
  command: string;
  start: number;
  end: number;
}

let runtime: TRuntime;
let spans: TSpan[] | undefined;
let tick = 0;
/** Puts S3's own send back (beforeAll replaces it to count the signing function's reads). */
let unpatchS3: () => void = () => {};

beforeAll(async () => {
  runtime = await startTestRuntime();
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!spans || currentInvocation()?.fn !== 'public-pages') return next(args);
      const span = { command: String(context.commandName), start: tick++, end: Number.POSITIVE_INFINITY };
      spans.push(span);
      try {
        return await next(args);
      } finally {
        span.end = tick++;
      }
    },
    { step: 'initialize', name: 'testRoundTrips' },
  );
  // The signing function's reads of files, on the same count (every S3 client of the runtime).
  const send = S3Client.prototype.send;
  S3Client.prototype.send = function (this: S3Client, command: { constructor: { name: string } }) {
    if (!spans || currentInvocation()?.fn !== 'public-pages')
      return (send as (c: unknown) => Promise<unknown>).call(this, command);
    const span = { command: command.constructor.name, start: tick++, end: Number.POSITIVE_INFINITY };
    spans.push(span);
    return (send as (c: unknown) => Promise<unknown>).call(this, command).finally(() => {
      span.end = tick++;
    });
  } as typeof send;
  unpatchS3 = () => {
    S3Client.prototype.send = send;
  };
});
afterAll(async () => {
  unpatchS3();
  await runtime.stop();
});

/**
 * The most requests of `run` one after another: each of a chain starts only once the one before
 * it has ended.
 */
async function longestChain(
  run: () => Promise<void>,
): Promise<{ length: number; commands: string[]; spans: TSpan[] }> {
  spans = [];
  try {
    await run();
  } finally {
    // what the call left running belongs to it too
    await new Promise((r) => setTimeout(r, 50));
  }
  const all = spans.sort((a, b) => a.start - b.start);
  spans = undefined;
  const chain = all.map(() => 1);
  all.forEach((s, i) => {
    for (let j = 0; j < i; j++) if (all[j]!.end < s.start) chain[i] = Math.max(chain[i]!, chain[j]! + 1);
  });
  return { length: Math.max(0, ...chain), commands: all.map((s) => s.command), spans: all };
}

describe('a signer’s session and finish', () => {
  it('wait for at most three DynamoDB requests one after another each', async () => {
    const call = apiClient(runtime);
    const sign = signerClient(runtime);
    const fields = benchFields('ann').slice(0, 4);
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Round trips',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'doc', file_b64: await aPdfB64(), fields }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const token = await embedToken(call, created.body.packets[0].id);

    let session = '';
    const opening = await longestChain(async () => {
      const opened = await sign('POST', '/session', undefined, { token, state: true });
      expect(opened.status).toBe(201);
      expect(opened.body.state.fields).toHaveLength(fields.length);
      session = opened.body.session;
    });
    // The link; the bundle, its documents and the records in one read, the link consumed beside
    // it; the packet's opening and the record's step written as one (the bundle's lookup terms
    // unchanged, so none written), the session stored beside them. Its outbox is published by
    // the outbox relay from the table's stream, after the answer.
    expect(opening.commands).toContain('TransactWriteItemsCommand');
    expect(opening.length, opening.commands.join(' ')).toBeLessThanOrEqual(3);

    const saved = await sign('PUT', '/values', session, { values: benchValues('doc', fields) });
    expect(saved.status).toBe(200);
    let answer: Awaited<ReturnType<typeof sign>> | undefined;
    const finishing = await longestChain(async () => {
      answer = await sign('POST', '/complete', session, { consent: true });
    });
    expect(answer?.status, JSON.stringify(answer?.body)).toBe(200);
    expect(answer?.body.packet.status).toBe('co');
    // Right after the values were saved through this function instance, the finish starts from
    // what saving them ended with (the session too is the one the instance stored): the record
    // and the bundle written as one, conditional on their versions (its terms unchanged: none
    // written), the account (for the redirect) read beside that write. Nothing after: the outbox
    // relay publishes the outbox from the table's stream. Without what was kept, the bundle,
    // its documents and the records come first, in one Query (signing-reads.test.ts).
    expect(finishing.commands).toContain('TransactWriteItemsCommand');
    expect(finishing.commands).not.toContain('QueryCommand');
    expect(finishing.length, finishing.commands.join(' ')).toBe(1);
  });

  it('read the first document’s file beside the opening’s first reads, after the page', async () => {
    const call = apiClient(runtime);
    const sign = signerClient(runtime);
    const created = await call('POST', '/bundles/', {
      json: {
        label: 'Round trips of the first page',
        packets: [{ key: 'ann', name: 'Ann Lee', email: 'ann@example.com', deliver_via: 'embed' }],
        documents: [{ key: 'doc', file_b64: await aPdfB64(), fields: benchFields('ann').slice(0, 2) }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const token = await embedToken(call, created.body.packets[0].id);
    // The page the link opens, as a browser loads it before its exchange.
    const page = await fetch(`${runtime.baseUrl}/sign/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-first-document="doc"');

    const opening = await longestChain(async () => {
      const opened = await sign('POST', '/session', undefined, { token, state: true, document: 'doc' });
      expect(opened.status).toBe(201);
      expect(Buffer.from(opened.body.document.pdf_b64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    });
    // The file is read beside the bundle's Query, not after it: its read starts before that
    // Query ends, and the exchange waits for no more requests than without the file.
    const query = opening.spans.find((s) => s.command === 'QueryCommand')!;
    const file = opening.spans.find((s) => s.command === 'GetObjectCommand')!;
    expect(file, opening.commands.join(' ')).toBeDefined();
    expect(file.start).toBeLessThan(query.end);
    expect(opening.length, opening.commands.join(' ')).toBeLessThanOrEqual(2);
  });
});
