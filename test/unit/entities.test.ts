// Every entity of the table, through its declaration: an object written and read back is the
// same object, every item says what it is, and reading strips exactly the declared keys.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  accountEntity,
  apiKeyEntity,
  brandEntity,
  teamEntity,
  usageEntity,
  userEntity,
} from '#shared/adapters/dynamodb/entities/account';
import { bulkBatchEntity, bulkPaceEntity, bulkRowEntity } from '#shared/adapters/dynamodb/entities/bulk';
import {
  bundleDocumentEntity,
  bundleEntity,
  bundleEventPageEntity,
  bundleTermEntity,
  customKeyEntity,
  packetRefEntity,
  personLinkEntity,
} from '#shared/adapters/dynamodb/entities/bundle';
import {
  consoleSessionEntity,
  securityEventEntity,
  signInLinkEntity,
  usageKeyEntity,
  userByEmailEntity,
} from '#shared/adapters/dynamodb/entities/console';
import { docTemplateEntity } from '#shared/adapters/dynamodb/entities/doc-template';
import { envelopeTemplateEntity } from '#shared/adapters/dynamodb/entities/envelope-template';
import {
  copyLinkEntity,
  fileHashEntity,
  filesRecordEntity,
} from '#shared/adapters/dynamodb/entities/evidence';
import { idempotencyEntity } from '#shared/adapters/dynamodb/entities/idempotency';
import { invitationEntity, invitationLinkEntity } from '#shared/adapters/dynamodb/entities/invitation';
import { notificationRecordEntity, sentMessageEntity } from '#shared/adapters/dynamodb/entities/notification';
import { passkeyChallengeEntity, passkeyEntity } from '#shared/adapters/dynamodb/entities/passkey';
import { personEntity, personTermEntity } from '#shared/adapters/dynamodb/entities/person';
import { portalCounterEntity } from '#shared/adapters/dynamodb/entities/portal-counter';
import { prepSessionEntity } from '#shared/adapters/dynamodb/entities/prep-session';
import { signingRecordEntity, signingTokenEntity } from '#shared/adapters/dynamodb/entities/signing';
import { ssoAttemptEntity, ssoDomainEntity, ssoSettingsEntity } from '#shared/adapters/dynamodb/entities/sso';
import {
  webhookEntity,
  webhookHeaderEntity,
  webhookSecretEntity,
} from '#shared/adapters/dynamodb/entities/webhook';
import { webhookDeliveryEntity, webhookEventEntity } from '#shared/adapters/dynamodb/entities/webhook-event';
import type { TEntity } from '#shared/adapters/dynamodb/entity';
import { INDEXES } from '#shared/adapters/dynamodb/table';
import type { TDocument } from '#shared/domain/bundles/bundle';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';

type TSample = { entity: TEntity<unknown>; object: Record<string, unknown> };
const sample = <T>(entity: TEntity<T>, object: T): TSample => ({
  entity: entity as TEntity<unknown>,
  object: object as Record<string, unknown>,
});

const at = '2026-11-24T10:00:00.000Z';
const later = '2026-11-25T10:00:00.000Z';

const aDocument: TDocument = {
  key: 'lease',
  name: 'lease.pdf',
  templateId: 'c0ffee00-0000-4000-8000-000000000001',
  blobKey: 'accounts/A1/bundles/B1/originals/lease.pdf',
  sha256: 'ab'.repeat(32),
  size: 11_721,
  pages: [{ width: 612, height: 792 }],
  fields: [],
};

// A sent bundle with an expiry, a completion time and a waiting outbox: every index key set.
const aBundle = aBundleItem({
  status: 'se',
  packets: [aPacketItem('P1')],
  documents: [{ ...aDocument, fields: undefined } as never],
  sent: at,
  completedAt: later,
  expires: later,
  // As every write leaves it (withDueAt): the store indexes it, and no longer works it out.
  dueAt: later,
  outbox: [{ seq: 1, type: 'bundle_sent' as never, date: at }],
  tags: ['lease'],
  events: [],
  version: 3,
});

const SAMPLES: TSample[] = [
  sample(accountEntity, {
    id: 'A1',
    name: 'Acme',
    requesterName: 'Acme',
    requesterEmail: 'ops@acme.test',
    emailMessage: 'Please sign',
    smsMessage: 'Please sign',
    embedOrigins: ['https://app.acme.test'],
    signingRedirectUrl: 'https://acme.test/done',
    payout: { connectedAccountId: 'acct_1', currency: 'usd' },
    features: { teams: true } as never,
    created: at,
    version: 1,
  }),
  sample(userEntity, {
    id: 'U1',
    accountId: 'A1',
    name: 'Ann',
    email: 'ann@acme.test',
    isAdmin: true,
    teams: ['T1'],
    created: at,
  }),
  sample(teamEntity, {
    id: 'T1',
    accountId: 'A1',
    name: 'Sales',
    requesterName: 'S',
    requesterEmail: 's@a.test',
    created: at,
  }),
  sample(brandEntity, {
    id: 'BR1',
    accountId: 'A1',
    name: 'Brand',
    redirectUrl: 'https://acme.test',
    primaryColor: '#112233',
    logoUrl: 'https://acme.test/logo.png',
    created: at,
  }),
  sample(usageEntity, { accountId: 'A1', month: '2026-11', sent: 4 }),
  sample(apiKeyEntity, {
    keyId: 'K1',
    hash: 'cd'.repeat(32),
    accountId: 'A1',
    userId: 'U1',
    usageKeyId: 'K1',
    prefix: 'abc',
    created: at,
    revoked: later,
  }),
  sample(bundleEntity, aBundle),
  sample(bundleDocumentEntity, { ...aDocument, accountId: 'A1', bundleId: 'B1' }),
  sample(bundleEventPageEntity, {
    accountId: 'A1',
    bundleId: 'B1',
    firstSeq: 0,
    events: [{ seq: 0, kind: 'created', date: at } as never],
  }),
  sample(bundleTermEntity, { accountId: 'A1', term: 't:lease', id: 'B1', created: at }),
  sample(packetRefEntity, { packetId: 'P1', accountId: 'A1', bundleId: 'B1' }),
  sample(personLinkEntity, { accountId: 'A1', personId: 'person-P1', bundleId: 'B1' }),
  sample(customKeyEntity, {
    accountId: 'A1',
    customKey: 'order-7',
    bundleId: 'B1',
    claimedAt: 1_700_000_000_000,
  }),
  sample(docTemplateEntity, {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    accountId: 'A1',
    name: 'Lease',
    isShared: false,
    owner: 'U1',
    team: 'T1',
    document: { name: 'lease.pdf', blobKey: 'k', sha256: 'ab'.repeat(32), size: 10, pages: [] },
    roles: [{ key: 'client' } as never],
    fields: [{ key: 'f1', kind: 'sig' } as never],
    created: at,
    updated: later,
    version: 2,
  }),
  sample(envelopeTemplateEntity, {
    id: 'T-abcdefgh',
    accountId: 'A1',
    owner: 'U1',
    name: 'Onboarding',
    description: 'New hires',
    isShared: true,
    isPortal: true,
    allowDirectSigning: true,
    enabled: true,
    documents: [{ templateId: 'c0ffee00' } as never],
    signers: [{ key: 'client' } as never],
    defaults: { inOrder: true, sendReminders: true } as never,
    created: at,
    updated: later,
    version: 1,
  }),
  sample(filesRecordEntity, {
    accountId: 'A1',
    bundleId: 'B1',
    finals: [{ docKey: 'lease' } as never],
    certificates: [],
    attachments: [],
    issuedAt: later,
    chainHead: 'ef'.repeat(32),
    eventCount: 9,
    interim: { seq: 2, status: 'ready', at, files: [] },
    lease: { id: 'L1', until: later },
  }),
  sample(fileHashEntity, {
    sha256: 'ab'.repeat(32),
    accountId: 'A1',
    bundleId: 'B1',
    kind: 'final',
    docKey: 'lease',
    issuedAt: later,
    chainHead: 'ef'.repeat(32),
    eventCount: 9,
  }),
  sample(notificationRecordEntity, {
    accountId: 'A1',
    bundleId: 'B1',
    seq: 3,
    recipient: 'ann@acme.test',
    channel: 'email' as never,
    type: 'signing_request' as never,
    packetId: 'P1',
    state: 'sent',
    claimId: 'C1',
    updated: at,
    providerMessageId: 'M1',
    error: 'none',
  }),
  sample(bulkBatchEntity, {
    id: 'b1',
    accountId: 'A1',
    userId: 'U1',
    created: at,
    total: 3,
    requestKey: 'accounts/A1/bulk/b1/request.json',
    completed: later,
    paceKey: 'K1',
  }),
  sample(bulkPaceEntity, { paceKey: 'K1', nextAt: 1_767_225_600_000 }),
  sample(bulkRowEntity, {
    accountId: 'A1',
    batchId: 'b1',
    row: 2,
    status: 'failed',
    errors: [{ field: 'packets[0].email', message: 'Enter a valid email address.' }],
  }),
  sample(sentMessageEntity, {
    providerMessageId: 'M1',
    accountId: 'A1',
    bundleId: 'B1',
    seq: 3,
    packetId: 'P1',
    channel: 'email' as never,
    recipient: 'ann@acme.test',
    type: 'signing_request' as never,
    sent: at,
    reported: ['bounce'],
  }),
  sample(personEntity, {
    id: 'person-P1',
    accountId: 'A1',
    name: 'Ann Lee',
    metadata: { n: 1.5, nested: { list: [1, 'a'] } },
    isUser: false,
    channels: [{ email: 'ann@acme.test' } as never],
    created: at,
    updated: later,
    version: 1,
  }),
  sample(personTermEntity, { accountId: 'A1', term: 'e:ann@acme.test', id: 'person-P1', created: at }),
  sample(idempotencyEntity, {
    accountId: 'A1',
    key: 'order-42',
    owner: 'c0ffee00-0000-4000-8000-000000000000',
    fingerprint: 'ef'.repeat(32),
    state: 'completed',
    answer: { status: 201, headers: { 'Content-Type': 'application/json' }, body: '{"id":"B1"}' },
    lockedUntil: 1_800_000_000_000,
    ttl: 1_800_086_400,
  }),
  sample(signInLinkEntity, {
    hash: 'cc'.repeat(32),
    accountId: 'A1',
    userId: 'U1',
    created: at,
    expires: later,
    used: later,
  }),
  sample(consoleSessionEntity, {
    hash: 'dd'.repeat(32),
    accountId: 'A1',
    userId: 'U1',
    created: at,
    expires: later,
    usageKeyId: 'console-A1',
    usageKeyValue: `console${'x'.repeat(43)}`,
  }),
  sample(userByEmailEntity, { email: 'ana@acme.test', accountId: 'A1', userId: 'U1' }),
  sample(usageKeyEntity, { accountId: 'A1', id: 'console-A1', value: `console${'x'.repeat(43)}` }),
  sample(securityEventEntity, {
    id: 'E1',
    kind: 'signed_in' as const,
    accountId: 'A1',
    userId: 'U1',
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0',
    at,
  }),
  sample(passkeyEntity, {
    id: 'ee'.repeat(32),
    accountId: 'A1',
    userId: 'U1',
    name: 'Work laptop',
    credentialId: 'Y3JlZGVudGlhbC1pZC0xMjM0',
    publicKey: 'pQECAyYgASFYIA',
    counter: 3,
    transports: ['internal', 'hybrid'],
    backedUp: true,
    created: at,
    lastUsed: later,
  }),
  sample(passkeyChallengeEntity, {
    hash: 'ff'.repeat(32),
    purpose: 'register' as const,
    accountId: 'A1',
    userId: 'U1',
    expires: later,
  }),
  sample(ssoSettingsEntity, {
    accountId: 'A1',
    issuer: 'https://id.acme.test',
    clientId: 'esign',
    sealedSecret: 'v1.sealed',
    domains: ['acme.test'],
    updated: at,
  }),
  sample(ssoDomainEntity, { domain: 'acme.test', accountId: 'A1' }),
  sample(ssoAttemptEntity, {
    hash: 'ee'.repeat(32),
    accountId: 'A1',
    state: 's'.repeat(43),
    nonce: 'n'.repeat(43),
    codeVerifier: 'v'.repeat(43),
    created: at,
    expires: later,
  }),
  sample(invitationEntity, {
    id: 'I1',
    accountId: 'A1',
    hash: 'cc'.repeat(32),
    email: 'kim@acme.test',
    name: 'Kim Lee',
    isAdmin: false,
    teams: ['sales'],
    invitedBy: 'U1',
    created: at,
    expires: later,
    used: later,
    userId: 'U2',
  }),
  sample(invitationLinkEntity, {
    hash: 'cc'.repeat(32),
    accountId: 'A1',
    invitationId: 'I1',
    expires: later,
  }),
  sample(portalCounterEntity, { counter: 'ip#127.0.0.1#2026-11-24T10', count: 2, ttl: 1_800_000_000 }),
  sample(prepSessionEntity, {
    hash: 'aa'.repeat(32),
    accountId: 'A1',
    userId: 'U1',
    templateId: 'c0ffee00',
    allowedTags: ['acme:*'],
    redirectUrl: 'https://acme.test',
    created: at,
    expires: later,
    savedAt: later,
  }),
  sample(signingRecordEntity, {
    accountId: 'A1',
    bundleId: 'B1',
    packetId: 'P1',
    values: { f1: 'yes' } as never,
    auth: {},
    steps: [],
    consentAt: at,
    declineReason: 'no',
    version: 2,
  }),
  sample(signingTokenEntity, {
    hash: 'bb'.repeat(32),
    accountId: 'A1',
    bundleId: 'B1',
    packetId: 'P1',
    kind: 'embed',
    expires: later,
    usedAt: at,
  }),
  sample(copyLinkEntity, {
    hash: 'cc'.repeat(32),
    accountId: 'A1',
    bundleId: 'B1',
    packetId: 'P1',
    language: 'de',
    expires: later,
    ttl: 1_800_000_000,
  }),
  sample(webhookEventEntity, {
    id: 'E1',
    accountId: 'A1',
    webhookId: 'W1',
    type: 'bundle_sent' as never,
    created: at,
    eventDate: at,
    bundleId: 'B1',
    packetId: 'P1',
    payload: '{}',
    status: 200,
    success: true,
    deliveries: [{ id: 'D1', timestamp: at, status: 200, message: 'ok' }],
    queued: true,
  }),
  sample(webhookDeliveryEntity, {
    id: 'D1',
    accountId: 'A1',
    eventId: 'E1',
    webhookId: 'W1',
    eventType: 'bundle_sent' as never,
    timestamp: at,
    status: 200,
    success: true,
    message: 'ok',
    payload: '{}',
    eventCreated: at,
  }),
  sample(webhookHeaderEntity, { accountId: 'A1', headerId: 'H1', webhookId: 'W1' }),
  sample(webhookEntity, {
    id: 'W1',
    accountId: 'A1',
    url: 'https://hooks.acme.test',
    enabled: false,
    json: true,
    eventTypes: ['bundle_sent' as never],
    extraHeaders: [{ id: 'H1', name: 'X-Token', value: 'v' } as never],
    created: at,
    updated: later,
    failedInARow: 3,
    disabledAt: later,
    version: 4,
  }),
  sample(webhookSecretEntity, {
    accountId: 'A1',
    current: { sealed: 's2', created: later },
    previous: { sealed: 's1', created: at, retiredAt: later },
    version: 2,
  }),
];

/** Every attribute name the table keys anything by: an item may set these only as declared. */
const TABLE_KEY_ATTRIBUTES = new Set([
  'pk',
  'sk',
  ...Object.values(INDEXES).flatMap((i) => [i.partitionKey, i.sortKey]),
]);
const MARKERS = ['entity', 'entityVersion'];

async function declaredEntities(): Promise<TEntity<unknown>[]> {
  const folder = join(__dirname, '../../shared/adapters/dynamodb/entities');
  const modules = await Promise.all(
    readdirSync(folder)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => import(join(folder, f)) as Promise<Record<string, unknown>>),
  );
  return modules
    .flatMap((m) => Object.values(m))
    .filter((v): v is TEntity<unknown> => typeof v === 'object' && v !== null && 'keyAttributes' in v);
}

describe('entity declarations', () => {
  it('every declared entity has a sample here, and names are unique', async () => {
    const declared = await declaredEntities();
    expect(declared.map((e) => e.name).sort()).toEqual(SAMPLES.map((s) => s.entity.name).sort());
    expect(new Set(declared.map((e) => e.name)).size).toBe(declared.length);
  });

  describe.each(SAMPLES.map((s) => [s.entity.name, s] as const))('%s', (_name, { entity, object }) => {
    const item = entity.toItem(object);

    it('reads back the object it wrote', () => {
      expect(entity.fromItem(item)).toEqual(object);
    });

    it('writes its entity name and item-shape version', () => {
      expect(item.entity).toBe(entity.name);
      expect(item.entityVersion).toBe(entity.version);
      expect(Number.isInteger(entity.version) && entity.version > 0).toBe(true);
    });

    it('sets key attributes only as declared, and reads without any of them', () => {
      const declared = new Set(entity.keyAttributes);
      for (const name of Object.keys(item).filter((a) => TABLE_KEY_ATTRIBUTES.has(a))) {
        expect(declared, `${name} is set but not declared`).toContain(name);
      }
      const read = entity.fromItem(item) as Record<string, unknown>;
      for (const name of [...TABLE_KEY_ATTRIBUTES, ...MARKERS]) expect(read).not.toHaveProperty(name);
    });

    it('strips every declared key attribute, also those this object leaves unset', () => {
      const full = { ...item, ...Object.fromEntries(entity.keyAttributes.map((a) => [a, 'x'])) };
      expect(entity.fromItem(full)).toEqual(object);
    });

    it('reads an item written before items carried their version', () => {
      const { entityVersion: _v, ...older } = item;
      expect(entity.fromItem(older)).toEqual(object);
    });
  });

  it('strips nothing but keys and markers', () => {
    const read = packetRefEntity.fromItem({
      ...packetRefEntity.toItem({ packetId: 'P1', accountId: 'A1', bundleId: 'B1' }),
      note: 'kept',
    });
    expect(read).toEqual({ packetId: 'P1', accountId: 'A1', bundleId: 'B1', note: 'kept' });
  });

  it('keeps the key values items were stored under', () => {
    const item = bundleEntity.toItem(aBundle);
    expect(item).toMatchObject({
      pk: 'ACCOUNT#A1',
      sk: 'BUNDLE#B1',
      lpk: 'ACCOUNT#A1#BUNDLES',
      lsk: `${at}#B1`,
      statusPk: 'ACCOUNT#A1#BUNDLES#se',
      statusSk: `${at}#B1`,
      sentPk: 'ACCOUNT#A1#BUNDLES_SENT',
      sentSk: `${at}#${at}#B1`,
      completedPk: 'ACCOUNT#A1#BUNDLES_COMPLETED',
      completedSk: `${later}#${at}#B1`,
      outboxSk: `${at}#A1#B1`,
    });
    expect(item.outboxPk).toMatch(/^OUTBOX#[0-3]$/);
    expect(item.duePk).toMatch(/^DUE#[0-3]$/);
    expect(item.dueSk).toMatch(/#A1#B1$/);
    expect(bundleEntity.toItem(aBundleItem())).not.toHaveProperty('sentPk');
  });
});
