// Who the documents-ready message asks to make a copy link for, and when the files go with it:
// only where the account allows attachments, never by SMS, and never above the size cap.
import { describe, expect, it } from 'vitest';
import { COPY_ATTACHMENT_MAX_BYTES, copyAttachments } from '#shared/domain/evidence/copy-link';
import type { TBundleFilesRecord } from '#shared/domain/evidence/evidence-files';
import { planMessages } from '#shared/domain/notifications/plan-messages';
import type { TNotificationJob } from '#shared/domain/outbox/jobs/notifications';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';

const job: TNotificationJob = { type: 'docs_ready', accountId: 'A1', bundleId: 'B1', seq: 1, date: '' };
const bundle = aBundleItem({
  status: 'co',
  docsReady: true,
  ccEmails: ['office@example.com'],
  packets: [
    aPacketItem('ann', { status: 'co', language: 'ja' }),
    aPacketItem('bob', { status: 'co', email: undefined, phone: '+15550103000', deliverVia: 'phone' }),
  ],
});

const planned = (emailAttachments: boolean | undefined) =>
  planMessages({
    job,
    bundle,
    account: { features: emailAttachments === undefined ? {} : { email_attachments: emailAttachments } },
    mailFrom: 'no-reply@example.com',
  }).messages.map((m) => ({ channel: m.channel, to: m.recipient, copyFor: m.copyFor }));

describe('documents ready', () => {
  it('asks for a copy link per recipient: the signer’s own, in their language; the cc’s without a signer', () => {
    expect(planned(true)).toEqual([
      { channel: 'email', to: 'ann@example.com', copyFor: { packetId: 'ann', language: 'ja', attach: true } },
      { channel: 'email', to: 'office@example.com', copyFor: { language: 'en', attach: true } },
      { channel: 'sms', to: '+15550103000', copyFor: { packetId: 'bob', language: 'en' } },
    ]);
  });

  it('attaches nothing unless the account allows it', () => {
    for (const allowed of [false, undefined])
      expect(planned(allowed).map((m) => m.copyFor?.attach ?? false)).toEqual([false, false, false]);
  });
});

describe('the attached copies', () => {
  const record = (sizes: number[]): TBundleFilesRecord => ({
    accountId: 'A1',
    bundleId: 'B1',
    issuedAt: '2026-11-27T10:00:00.000Z',
    finals: sizes.map((size, i) => ({
      docKey: `d${i}`,
      name: `Doc ${i}`,
      blobKey: `final/B1/d${i}.pdf`,
      sha256: 'a'.repeat(64),
      size,
    })),
    certificates: [
      { packetId: 'ann', packetKey: 'ann', blobKey: 'coe/B1/ann.pdf', sha256: 'b'.repeat(64), size: 1000 },
      { packetId: 'bob', packetKey: 'bob', blobKey: 'coe/B1/bob.pdf', sha256: 'c'.repeat(64), size: 1000 },
    ],
    attachments: [],
  });
  const deps = (sizes: number[]) => ({
    evidence: { get: async () => record(sizes) },
    blobs: { get: async (key: string) => Buffer.from(key) },
  });

  it('are the final documents and the signer’s own certificate, under the cap', async () => {
    const files = await copyAttachments(deps([2000, 3000]), bundle, 'ann');
    expect(files?.map((f) => [f.fileName, Buffer.from(f.bytes).toString()])).toEqual([
      ['Doc 0.pdf', 'final/B1/d0.pdf'],
      ['Doc 1.pdf', 'final/B1/d1.pdf'],
      ['certificate-of-evidence-ann.pdf', 'coe/B1/ann.pdf'],
    ]);
    expect((await copyAttachments(deps([2000]), bundle, undefined))?.map((f) => f.fileName)).toEqual([
      'Doc 0.pdf',
    ]);
  });

  it('are none when together they weigh more than the cap: the link alone is sent', async () => {
    const atCap = COPY_ATTACHMENT_MAX_BYTES - 1000;
    expect(await copyAttachments(deps([atCap]), bundle, 'ann')).toHaveLength(2);
    expect(await copyAttachments(deps([atCap + 1]), bundle, 'ann')).toBeUndefined();
  });
});
