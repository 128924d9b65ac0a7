// The Certificate of Evidence lists a signer's steps, not every keystroke save: the page saves a
// field as the signer types, so a run of saves of the same fields from the same browser is one
// line (the last), while saves of other fields, from elsewhere, or between other steps stay.
import { describe, expect, it } from 'vitest';
import { certificateInput } from '#shared/domain/evidence/certificate-input';
import { emptyRecord, type TSigningStep } from '#shared/domain/signing/signing-record';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';

const UA = 'Mozilla/5.0 (iPhone)';
const step = (at: string, action: string, detail?: string, ip = '203.0.113.7'): TSigningStep => ({
  action,
  at: `2026-11-27T10:00:${at}.000Z`,
  ip,
  userAgent: UA,
  ...(detail ? { detail } : {}),
});

async function listed(steps: TSigningStep[]) {
  const packet = aPacketItem('ann', { status: 'co', name: 'Ann Lee' });
  const record = { ...emptyRecord('A1', 'B1', 'ann'), steps };
  const input = await certificateInput(
    { blobs: { get: async () => Buffer.alloc(0) } },
    {
      bundle: aBundleItem({ status: 'co', packets: [packet] }),
      packet,
      record,
      records: [record],
      documents: [],
      finals: [],
      events: [],
      chainHead: 'x',
      issuedAt: '2026-11-27T10:05:00.000Z',
    },
  );
  return input.steps.map((s) => s.at.slice(17, 19));
}

describe('the certificate’s steps', () => {
  it('folds repeated saves of one field into one line, its last', async () => {
    expect(
      await listed([
        step('01', 'opened the signing page'),
        step('02', 'saved values', 'lease.name'),
        step('03', 'saved values', 'lease.name'),
        step('04', 'saved values', 'lease.name'),
        step('05', 'saved values', 'lease.date'),
        step('06', 'saved values', 'lease.date', '198.51.100.9'),
        step('07', 'saved values', 'lease.name'),
        step('08', 'consented'),
        step('09', 'consented'),
      ]),
    ).toEqual(['01', '04', '05', '06', '07', '08', '09']);
  });
});
