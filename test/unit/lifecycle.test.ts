// Every transition of a bundle's life, allowed and refused, as pure functions of the bundle and
// the moment (shared/domain/bundles/lifecycle/): no runtime, no store.
import { describe, expect, it } from 'vitest';
import { byApiKey } from '#shared/domain/bundles/actor';
import type { TBundle, TBundleStatus, TPacket, TPacketStatus } from '#shared/domain/bundles/bundle';
import { codeOf as code } from '#shared/domain/bundles/event-kinds';
import { BUNDLE, PACKET } from '#shared/domain/bundles/lifecycle/status';
import * as lifecycle from '#shared/domain/bundles/lifecycle/transitions';
import { ConflictError } from '#shared/domain/errors';
import { aBundleItem, aPacketItem } from '../helpers/bundle-items';

const AT = '2026-11-24T10:00:00.000Z';
const SENDER = byApiKey('key-1');
const NOW = new Date(AT);
const ALL_BUNDLE = Object.values(BUNDLE);

const packet = (id: string, status: TPacketStatus, over: Partial<TPacket> = {}) =>
  aPacketItem(id, { status, ...over });
const bundle = (status: TBundleStatus, packets: TPacket[], over: Partial<TBundle> = {}) =>
  aBundleItem({ status, packets, created: AT, ...over });

const kinds = (b: TBundle) => b.events.map((e) => e.kind);
const statuses = (b: TBundle) => b.packets.map((p) => p.status);
const never = () => {
  throw new ConflictError('may not sign');
};
const ok = () => {};

describe('send', () => {
  it('makes a draft sent and gives every signer up now their request, embedded ones none', () => {
    const b = lifecycle.send(
      bundle(BUNDLE.draft, [packet('a', PACKET.new), packet('b', PACKET.new, { deliverVia: 'embed' })]),
      AT,
      SENDER,
    );
    expect(b.status).toBe(BUNDLE.sent);
    expect(statuses(b)).toEqual([PACKET.sent, PACKET.ready]);
    expect(b.packets[0]!.sentAt).toBe(AT);
    expect(kinds(b)).toEqual([code('sent'), code('packetSent'), code('packetReady')]);
  });

  it('makes a signer who signs in person ready without a request, with its own words', () => {
    const b = lifecycle.send(
      bundle(BUNDLE.draft, [packet('k', PACKET.new, { deliverVia: 'kiosk' })]),
      AT,
      SENDER,
    );
    expect(statuses(b)).toEqual([PACKET.ready]);
    expect(b.packets[0]!.sentAt).toBeUndefined();
    expect(b.events.at(-1)).toMatchObject({
      kind: code('packetReady'),
      description: expect.stringMatching(/^Ready for signing in person: /),
    });
  });

  it('in order, only the first signers get their request', () => {
    const b = lifecycle.send(
      bundle(BUNDLE.draft, [packet('a', PACKET.new), packet('b', PACKET.new, { order: 2 })], {
        inOrder: true,
      }),
      AT,
      SENDER,
    );
    expect(statuses(b)).toEqual([PACKET.sent, PACKET.new]);
  });

  it.each(ALL_BUNDLE.filter((s) => s !== BUNDLE.draft))('refuses a bundle that is %s', (status) => {
    expect(() => lifecycle.send(bundle(status, [packet('a', PACKET.new)]), AT, SENDER)).toThrow(
      ConflictError,
    );
  });
});

describe('openPacket', () => {
  it('marks the signer started, and the bundle when it was only sent', () => {
    const b = lifecycle.openPacket(bundle(BUNDLE.sent, [packet('a', PACKET.sent)]), 'a', AT, () => true);
    expect([b.status, ...statuses(b)]).toEqual([BUNDLE.started, PACKET.started]);
    expect(b.packets[0]!.lastAccessedAt).toBe(AT);
    expect(kinds(b)).toEqual([code('viewed')]);
  });

  it('changes nothing for a signer who opened before, or who may not sign now', () => {
    const opened = bundle(BUNDLE.started, [packet('a', PACKET.started)]);
    expect(lifecycle.openPacket(opened, 'a', AT, () => true)).toBe(opened);
    const waiting = bundle(BUNDLE.sent, [packet('a', PACKET.new)]);
    expect(lifecycle.openPacket(waiting, 'a', AT, () => false)).toBe(waiting);
  });
});

describe('completePacket', () => {
  it('completes the bundle when the last signer finishes, once', () => {
    const b = lifecycle.completePacket(
      bundle(BUNDLE.started, [packet('a', PACKET.complete), packet('b', PACKET.started)]),
      'b',
      AT,
      ok,
    );
    expect([b.status, ...statuses(b)]).toEqual([BUNDLE.complete, PACKET.complete, PACKET.complete]);
    expect(b.completedAt).toBe(AT);
    expect(kinds(b)).toEqual([code('packetCompleted'), code('completed')]);
    expect(lifecycle.completePacket(b, 'b', AT, never)).toBe(b);
  });

  it('in order, gives the next signers their request', () => {
    const b = lifecycle.completePacket(
      bundle(
        BUNDLE.started,
        [
          packet('a', PACKET.started),
          packet('b', PACKET.new, { order: 2 }),
          packet('c', PACKET.new, { order: 2, deliverVia: 'embed' }),
        ],
        { inOrder: true },
      ),
      'a',
      AT,
      ok,
    );
    expect([b.status, ...statuses(b)]).toEqual([BUNDLE.started, PACKET.complete, PACKET.sent, PACKET.ready]);
    expect(kinds(b)).toEqual([code('packetCompleted'), code('packetSent'), code('packetReady')]);
  });

  it('refuses a signer the check refuses', () => {
    expect(() =>
      lifecycle.completePacket(bundle(BUNDLE.cancelled, [packet('a', PACKET.cancelled)]), 'a', AT, never),
    ).toThrow(ConflictError);
  });
});

describe('decline and cancel', () => {
  it('a decline cancels the bundle and every signer who has not signed', () => {
    const b = lifecycle.decline(
      bundle(BUNDLE.started, [
        packet('a', PACKET.complete),
        packet('b', PACKET.started),
        packet('c', PACKET.new),
      ]),
      'b',
      AT,
      'Wrong rent',
      ok,
    );
    expect([b.status, ...statuses(b)]).toEqual([
      BUNDLE.cancelled,
      PACKET.complete,
      PACKET.cancelled,
      PACKET.cancelled,
    ]);
    expect(kinds(b)).toEqual([code('declined'), code('cancelled')]);
    expect(b.events[0]!.description).toContain('Wrong rent');
    expect(() =>
      lifecycle.decline(bundle(BUNDLE.sent, [packet('a', PACKET.sent)]), 'a', AT, 'x', never),
    ).toThrow(ConflictError);
  });

  it.each([BUNDLE.draft, BUNDLE.pending, BUNDLE.sent, BUNDLE.started])(
    'cancels a bundle that is %s',
    (status) => {
      const b = lifecycle.cancel(
        bundle(status, [packet('a', PACKET.complete), packet('b', PACKET.sent)]),
        NOW,
        SENDER,
      );
      expect([b.status, ...statuses(b)]).toEqual([BUNDLE.cancelled, PACKET.complete, PACKET.cancelled]);
      expect(kinds(b)).toEqual([code('cancelled')]);
    },
  );

  it.each([BUNDLE.complete, BUNDLE.cancelled, BUNDLE.expired, BUNDLE.failed])(
    'refuses to cancel a bundle that is %s',
    (status) => {
      expect(() => lifecycle.cancel(bundle(status, [packet('a', PACKET.complete)]), NOW, SENDER)).toThrow(
        /already finished/,
      );
    },
  );

  it('refuses to cancel a bundle past its expiry, recorded or not', () => {
    const past = bundle(BUNDLE.sent, [packet('a', PACKET.sent)], { expires: '2026-11-24T09:00:00.000Z' });
    expect(() => lifecycle.cancel(past, NOW, SENDER)).toThrow(/"ex"/);
  });
});

describe('expire, fail, documents ready', () => {
  it('expires the bundle and the signers who have not signed', () => {
    const b = lifecycle.expire(
      bundle(BUNDLE.started, [packet('a', PACKET.complete), packet('b', PACKET.sent)], {
        expires: '2026-11-24T09:00:00.000Z',
      }),
      NOW,
    );
    expect([b.status, ...statuses(b)]).toEqual([BUNDLE.expired, PACKET.complete, PACKET.expired]);
    expect(kinds(b)).toEqual([code('expired')]);
  });

  const error = { code: 'evidence_failed', message: 'The final documents could not be produced.' };

  it('fails a complete bundle whose documents are not ready, and nothing else', () => {
    const b = lifecycle.fail(bundle(BUNDLE.complete, []), AT, error, [error]);
    expect(b.status).toBe(BUNDLE.failed);
    expect(b.errors).toEqual([error]);
    expect(kinds(b)).toEqual([code('failed')]);
    for (const other of [
      bundle(BUNDLE.complete, [], { docsReady: true }),
      ...ALL_BUNDLE.filter((s) => s !== BUNDLE.complete).map((s) => bundle(s, [])),
    ])
      expect(lifecycle.fail(other, AT, error, [error])).toBe(other);
  });

  it('marks the documents of a complete bundle ready, once', () => {
    const b = lifecycle.markDocsReady(
      bundle(BUNDLE.complete, [], { errors: [error] }),
      AT,
      '1 document(s)',
      [],
    );
    expect(b.docsReady).toBe(true);
    expect(b.errors).toEqual([]);
    expect(kinds(b)).toEqual([code('docsReady')]);
    expect(lifecycle.markDocsReady(b, AT, 'again', [])).toBe(b);
    const failed = bundle(BUNDLE.failed, []);
    expect(lifecycle.markDocsReady(failed, AT, 'x', [])).toBe(failed);
  });
});

describe('reassign', () => {
  const from = { name: 'Ann Lee', email: 'ann@example.com' };
  const to = { name: 'Carol Diaz', phone: '+1 555 010 4000' };
  const handover = { from, to, reason: 'Carol signs for us.', at: AT };
  const started = () =>
    bundle(BUNDLE.started, [
      packet('a', PACKET.started, { ...from, lastAccessedAt: AT, suppressAll: true, order: 3 }),
      packet('b', PACKET.sent),
    ]);

  it('names the new signer in the same place, moves the generation on and sends them the request', () => {
    const b = lifecycle.reassign(started(), 'a', 0, handover, 'person-c', ok);
    const p = b.packets[0]!;
    expect(p).toMatchObject({
      id: 'a',
      order: 3,
      name: 'Carol Diaz',
      phone: '+1 555 010 4000',
      personId: 'person-c',
      deliverVia: 'phone',
      status: PACKET.sent,
      sentAt: AT,
      handovers: [handover],
      // The request always goes out; what else the sender suppressed stays suppressed.
      suppressAll: false,
      suppressSigning: false,
      suppressDocsReady: true,
      suppressReminder: true,
    });
    expect(p.email).toBeUndefined();
    expect(p.lastAccessedAt).toBeUndefined();
    expect(b.status).toBe(BUNDLE.started);
    expect(kinds(b)).toEqual([code('reassigned'), code('packetSent')]);
    expect(b.events[0]!.description).toBe(
      'Signer handed signing to someone else: Ann Lee <ann@example.com> to Carol Diaz (+1 555 010 4000): Carol signs for us.',
    );
  });

  it('leaves a packet already handed on by this very handover as it is (a retry)', () => {
    const once = lifecycle.reassign(started(), 'a', 0, handover, 'person-c', ok);
    expect(lifecycle.reassign(once, 'a', 0, { ...handover, at: 'later' }, 'person-c', never)).toBe(once);
  });

  it('refuses a packet handed on by another handover since, or a signer who may not sign', () => {
    const once = lifecycle.reassign(started(), 'a', 0, handover, 'person-c', ok);
    expect(() => lifecycle.reassign(once, 'a', 0, { ...handover, reason: 'Other.' }, 'p', ok)).toThrow(
      ConflictError,
    );
    expect(() => lifecycle.reassign(started(), 'a', 0, handover, 'p', never)).toThrow(ConflictError);
  });
});
