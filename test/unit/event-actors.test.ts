// Who acted on an audit event: each kind declared once with its stored code, the actor every
// event is written with, hashed into the audit chain, and read by the audit trail and the
// evidence words instead of the description; events stored before actors render as they did.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  actorCode,
  byApiKey,
  bySigner,
  OPERATOR,
  SCHEDULER,
  SYSTEM,
  type TActor,
} from '#shared/domain/bundles/actor';
import { CHAIN_START, eventHash, verifyChain, withChain } from '#shared/domain/bundles/audit-chain';
import { assertActed, event } from '#shared/domain/bundles/audit-event';
import type { TBundleEvent } from '#shared/domain/bundles/bundle';
import { codeOf, EVENT_KINDS, type TEventKind } from '#shared/domain/bundles/event-kinds';
import { auditEntries } from '#shared/domain/evidence/audit-trail';
import { checkEvidenceRecord, evidenceRecord } from '#shared/domain/evidence/evidence-record';
import { eventWords } from '#shared/domain/evidence/stored-words';
import { evidenceWords } from '#shared/pdf/evidence-words';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';
import { LEGACY_EVENTS, LEGACY_PACKETS, LEGACY_RECORDS } from '../helpers/legacy-audit-fixture';
import LEGACY_RENDERING from './legacy-audit-rendering.json';

const AT = '2026-11-24T10:00:00.000Z';
const ANN = aPacketItem('P1', { name: 'Ann Lee' });
const KEY = byApiKey('key-1');

describe('event kinds', () => {
  it('declare each stored code once; the in-person `pr` is a variant stored under its kind’s code', () => {
    const coded = Object.values(EVENT_KINDS).flatMap((k) => ('code' in k ? [k.code] : []));
    expect(new Set(coded).size).toBe(coded.length);
    expect(coded.every((c) => /^[a-z]{2}$/.test(c))).toBe(true);
    expect(codeOf('packetReadyInPerson')).toBe('pr');
    expect(codeOf('packetReady')).toBe('pr');
    expect(codeOf('reminderSent')).toBe('rm');
    for (const kind of Object.keys(EVENT_KINDS) as TEventKind[]) expect(coded).toContain(codeOf(kind));
  });

  it('are written with their actor, and the in-person variant with its own words', () => {
    expect(event('packetReadyInPerson', AT, SYSTEM, 'P1', 'Kay')).toEqual({
      kind: 'pr',
      description: 'Ready for signing in person: Kay',
      timestamp: AT,
      packetId: 'P1',
      actor: { type: 'system' },
    });
    expect(event('created', AT, KEY)).toEqual({
      kind: 'cr',
      description: 'Bundle created',
      timestamp: AT,
      actor: { type: 'api_key', keyId: 'key-1' },
    });
  });
});

describe('the actor', () => {
  it('is required of every event a change appends; events stored before may lack it', () => {
    const old = { events: [{ kind: 'cr', description: 'Bundle created', timestamp: AT }] };
    expect(() => assertActed(old, { events: [...old.events, event('sent', AT, KEY)] })).not.toThrow();
    expect(() =>
      assertActed(old, {
        events: [...old.events, { kind: 'se', description: 'Bundle sent', timestamp: AT }],
      }),
    ).toThrow('"se" is written without its actor');
  });

  it('has one line of text for each type, naming the party where there is an id', () => {
    const all: [TActor, string][] = [
      [bySigner('P1'), 'signer:P1'],
      [KEY, 'api_key:key-1'],
      [{ type: 'user', userId: 'u1' }, 'user:u1'],
      [{ type: 'portal', templateId: 'T-1' }, 'portal:T-1'],
      [OPERATOR, 'operator'],
      [SCHEDULER, 'scheduler'],
      [SYSTEM, 'system'],
    ];
    for (const [actor, code] of all) expect(actorCode(actor)).toBe(code);
  });

  it('is hashed into the chain: changing it breaks the chain, while an event without one hashes as before', () => {
    const old: TBundleEvent = { kind: 'cr', description: 'Bundle created', timestamp: AT };
    const before = createHash('sha256')
      .update(JSON.stringify([CHAIN_START, 'cr', 'Bundle created', AT, null]))
      .digest('hex');
    expect(eventHash(old)).toBe(before);
    expect(eventHash({ ...old, actor: KEY })).not.toBe(before);

    const b = withChain(
      undefined,
      aBundleItem({ events: [event('created', AT, KEY), event('reminderSent', AT, SCHEDULER, 'P1', 'Ann')] }),
    );
    expect(verifyChain(b.events, b.chainHead).intact).toBe(true);
    const forged = b.events.map((e, i) => (i === 0 ? { ...e, actor: SYSTEM } : e));
    expect(verifyChain(forged, b.chainHead)).toMatchObject({ intact: false, brokenAt: 1 });
  });

  it('goes into the evidence record, which checks out by itself and not when the actor is changed', () => {
    const b = withChain(
      undefined,
      aBundleItem({
        packets: [ANN],
        events: [
          { kind: 'cr', description: 'Bundle created', timestamp: AT },
          event('sent', AT, KEY),
          event('reminderSent', AT, SCHEDULER, 'P1', 'Ann Lee (automatic)'),
        ],
      }),
    );
    const doc = { key: 'd', name: 'D.pdf', sha256: 'a'.repeat(64), fields: [] } as never;
    const made = { doc, documents: [doc], records: [], issuedAt: AT, removedFromOriginal: [] };
    const record = evidenceRecord({ ...made, bundle: b, events: b.events, chainHead: b.chainHead! });
    expect(record.audit_trail.events.map((e) => e.actor)).toEqual([null, 'api_key:key-1', 'scheduler']);
    expect(checkEvidenceRecord(record)).toMatchObject({ chainIntact: true, headMatches: true });
    record.audit_trail.events[2]!.actor = 'api_key:key-1';
    expect(checkEvidenceRecord(record)).toMatchObject({ chainIntact: false, brokenAt: 2 });
  });
});

describe('the audit trail reads who acted from the actor', () => {
  const who = (e: TBundleEvent) => auditEntries([e], [ANN], [])[0]!.actor;
  const said = (e: TBundleEvent) => evidenceWords('fr').say(eventWords(e, ANN));

  it('tells the scheduler’s reminder from the sender’s whatever the description says', () => {
    const auto = event('reminderSent', AT, SCHEDULER, 'P1', 'Ann Lee (automatic)');
    const asked = event('reminderSent', AT, KEY, 'P1', 'Ann Lee');
    expect([who(auto), who(asked)]).toEqual(['service', 'sender']);
    // Reworded, or worded as the other one: the actor still says who.
    expect(who({ ...auto, description: 'Reminder sent: Ann Lee' })).toBe('service');
    expect(who({ ...asked, description: 'Reminder sent: Ann Lee (automatic)' })).toBe('sender');
    expect(said({ ...auto, description: 'Reminder sent: Ann Lee' })).toBe(
      'Relance envoyée : Ann Lee (automatique)',
    );
    expect(said(auto)).toBe('Relance envoyée : Ann Lee (automatique)');
    expect(said({ ...asked, description: 'Reminder sent: Ann Lee (automatic)' })).toBe(
      'Relance envoyée : Ann Lee (automatic)',
    );
  });

  it('names a signer, with their address at that moment; a sender as sender; the rest as the service', () => {
    const record = {
      accountId: 'A1',
      bundleId: 'B1',
      packetId: 'P1',
      values: {},
      auth: {},
      steps: [{ action: 'opened link', at: AT, ip: '198.51.100.7', userAgent: 'UA' }],
      version: 1,
    };
    const [viewed, started, portal, bulk, cancelled, refunded, expired] = auditEntries(
      [
        event('viewed', AT, bySigner('P1'), 'P1', 'Ann Lee'),
        event('paymentStarted', '2026-11-24T10:00:01.000Z', bySigner('P1'), 'P1', 'cs_1'),
        event('created', AT, { type: 'portal', templateId: 'T-1' }),
        event('created', AT, { type: 'user', userId: 'u1' }),
        // A decline's cancellation follows from it: the service's, not the sender's.
        event('cancelled', AT, SYSTEM),
        event('paymentRefunded', AT, OPERATOR, 'P1', '10 usd (cs_1)'),
        event('expired', AT, SCHEDULER),
      ],
      [ANN],
      [record],
    );
    expect(viewed).toMatchObject({ actor: 'Ann Lee', ip: '198.51.100.7' });
    expect(started).toEqual(expect.objectContaining({ actor: 'Ann Lee' }));
    expect(started!.ip).toBeUndefined();
    expect([portal, bulk].map((e) => e!.actor)).toEqual(['sender', 'sender']);
    expect([cancelled, refunded, expired].map((e) => e!.actor)).toEqual(['service', 'service', 'service']);
  });
});

describe('events stored before actors', () => {
  it('render exactly as the service rendered them then (who, address, words)', () => {
    const entries = auditEntries(LEGACY_EVENTS, LEGACY_PACKETS, LEGACY_RECORDS);
    expect(JSON.parse(JSON.stringify(entries))).toEqual(LEGACY_RENDERING.entries);
    expect(entries.map((e) => evidenceWords('fr').say(e.description))).toEqual(LEGACY_RENDERING.fr);
  });
});
