// After a handover the packet's earlier signer holds nothing: their links and sessions open
// nothing and the record they left counts as empty for the new signer (its step log stays).
import { describe, expect, it } from 'vitest';
import type { TPacket } from '#shared/domain/bundles/bundle';
import { heldBy } from '#shared/domain/signing/signer-context';
import { currentRecords, heldRecord, type TSigningRecord } from '#shared/domain/signing/signing-record';

const AT = '2026-11-24T10:00:00.000Z';
const handover = {
  from: { name: 'Ann' },
  to: { name: 'Carol', email: 'c@example.com' },
  reason: 'r',
  at: AT,
};
const handed: Pick<TPacket, 'handovers'> = { handovers: [handover] };
const step = { action: 'opened link', at: AT, ip: '127.0.0.1', userAgent: 'ua' };
const annRecord: TSigningRecord = {
  accountId: 'acc',
  bundleId: 'b',
  packetId: 'a',
  values: { 'doc/note': { value: 'Ann was here', filledAt: AT, ip: '127.0.0.1', userAgent: 'ua' } },
  auth: { sms: { phone: '+1', wrongAttempts: 0, sentAt: [AT], passedAt: AT } },
  steps: [step],
  consentAt: AT,
  language: 'fr',
  version: 7,
};

describe('the signer generation', () => {
  it('lets a token open only the generation it was issued for', () => {
    expect(heldBy({}, {})).toBe(true);
    expect(heldBy({}, handed)).toBe(false);
    expect(heldBy({ generation: 1 }, handed)).toBe(true);
    expect(heldBy({ generation: 1 }, { handovers: [handover, handover] })).toBe(false);
  });

  it('counts an earlier signer’s record as empty, keeping its steps and version', () => {
    expect(heldRecord(annRecord, {})).toBe(annRecord);
    expect(heldRecord(annRecord, handed)).toEqual({
      accountId: 'acc',
      bundleId: 'b',
      packetId: 'a',
      values: {},
      auth: {},
      steps: [step],
      generation: 1,
      version: 7,
    });
    const carol = { ...annRecord, generation: 1 };
    expect(heldRecord(carol, handed)).toBe(carol);
  });

  it('applies to every record of a bundle by its own packet', () => {
    const bob = { ...annRecord, packetId: 'b' };
    const [a, b] = currentRecords([annRecord, bob], {
      packets: [{ id: 'a', ...handed } as TPacket, { id: 'b' } as TPacket],
    });
    expect(a!.values).toEqual({});
    expect(b).toBe(bob);
  });
});
