// A bundle's audit trail exactly as the service stored it before events recorded who acted (no
// `actor`), with the packets and signing records the evidence reads with it. The expected
// rendering beside it (legacy-audit-rendering.json) was made by the service as it was then.
import type { TBundleEvent, TPacket } from '#shared/domain/bundles/bundle';
import type { TSigningRecord } from '#shared/domain/signing/signing-record';
import { aPacketItem } from './bundle-items';

const t = (s: number) => `2025-03-07T09:00:${String(s).padStart(2, '0')}.000Z`;

export const LEGACY_PACKETS: TPacket[] = [
  aPacketItem('PANN', { name: 'Ann Lee' }),
  aPacketItem('PBOB', {
    name: 'Cat Kay',
    deliverVia: 'kiosk',
    handovers: [
      {
        from: { name: 'Bob Roe', email: 'bob@example.com' },
        to: { name: 'Cat Kay', email: 'cat@example.com' },
        reason: 'on leave',
        at: t(40),
      },
    ],
  }),
];

export const LEGACY_RECORDS = [
  {
    accountId: 'A1',
    bundleId: 'B1',
    packetId: 'PANN',
    values: {},
    auth: {},
    steps: [
      { action: 'opened link', at: t(20), ip: '198.51.100.7', userAgent: 'UA' },
      { action: 'consented and signed', at: t(50), ip: '198.51.100.8', userAgent: 'UA' },
    ],
    version: 1,
  },
  {
    accountId: 'A1',
    bundleId: 'B1',
    packetId: 'PBOB',
    values: {},
    auth: {},
    steps: [{ action: 'handed on', at: t(40), ip: '203.0.113.9', userAgent: 'UA' }],
    version: 1,
  },
] as TSigningRecord[];

export const LEGACY_EVENTS: TBundleEvent[] = [
  { kind: 'cr', description: 'Bundle created', timestamp: t(1) },
  { kind: 'up', description: 'Bundle updated: label', timestamp: t(2) },
  { kind: 'tg', description: 'Tags changed: added lease', timestamp: t(3) },
  { kind: 'se', description: 'Bundle sent', timestamp: t(4) },
  { kind: 'ps', description: 'Signing request sent: Ann Lee', timestamp: t(4), packetId: 'PANN' },
  { kind: 'pr', description: 'Ready for signing in person: Bob Roe', timestamp: t(4), packetId: 'PBOB' },
  { kind: 'pv', description: 'Signer opened the documents: Ann Lee', timestamp: t(20), packetId: 'PANN' },
  { kind: 'rm', description: 'Reminder sent: Ann Lee', timestamp: t(21), packetId: 'PANN' },
  { kind: 'rm', description: 'Reminder sent: Ann Lee (automatic)', timestamp: t(22), packetId: 'PANN' },
  {
    kind: 'pu',
    description: 'Signer updated: contact changed on the Person',
    timestamp: t(23),
    packetId: 'PANN',
  },
  {
    kind: 'nb',
    description: 'Message not delivered: email to a***@example.com bounced',
    timestamp: t(24),
    packetId: 'PANN',
  },
  {
    kind: 'ki',
    description: 'Signing in person started: Bob Roe, hosted by Sam Sender',
    timestamp: t(30),
    packetId: 'PBOB',
  },
  {
    kind: 'ra',
    description:
      'Signer handed signing to someone else: Bob Roe <bob@example.com> to Cat Kay <cat@example.com>: on leave',
    timestamp: t(40),
    packetId: 'PBOB',
  },
  { kind: 'ps', description: 'Signing request sent: Cat Kay', timestamp: t(40), packetId: 'PBOB' },
  { kind: 'pi', description: 'Payment started: cs_test_1', timestamp: t(45), packetId: 'PANN' },
  { kind: 'if', description: 'Interim files requested', timestamp: t(46) },
  { kind: 'pc', description: 'Signer finished signing: Ann Lee', timestamp: t(50), packetId: 'PANN' },
  {
    kind: 'pd',
    description: 'Signer declined to sign: Cat Kay: wrong rent',
    timestamp: t(55),
    packetId: 'PBOB',
  },
  { kind: 'ca', description: 'Bundle cancelled', timestamp: t(55) },
  { kind: 'ex', description: 'Bundle expired', timestamp: t(56) },
  { kind: 'zz', description: 'Something from a newer service', timestamp: t(57) },
];
