// Bundles and packets as the domain holds them, for unit tests of pure logic: every field a
// stored item has, with plain defaults, and what a test is about given over them.
import type { TBundle, TPacket } from '#shared/domain/bundles/bundle';

export function aPacketItem(id: string, over: Partial<TPacket> = {}): TPacket {
  return {
    id,
    key: id,
    name: `Signer ${id}`,
    email: `${id}@example.com`,
    authSms: false,
    authSelfie: false,
    authId: false,
    suppressAll: false,
    suppressDocsReady: false,
    suppressSigning: false,
    suppressReminder: false,
    deliverVia: 'email',
    order: 1,
    personId: `person-${id}`,
    status: 'ne',
    ...over,
  };
}

export function aBundleItem(over: Partial<TBundle> = {}): TBundle {
  return {
    id: 'B1',
    accountId: 'A1',
    label: 'Lease',
    inOrder: false,
    emailSubject: '',
    emailMessage: '',
    smsMessage: '',
    requesterName: 'Sender',
    requesterEmail: 'sender@example.com',
    ccEmails: [],
    isTest: false,
    status: 'dr',
    created: '2026-11-24T10:00:00.000Z',
    docsReady: false,
    errors: [],
    packets: [],
    documents: [],
    tags: [],
    events: [],
    ccSender: false,
    sendReminders: false,
    ...over,
  } as TBundle;
}
