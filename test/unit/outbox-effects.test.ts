// The table of what each audit event sets off (shared/domain/outbox/effects.ts), pinned: every
// event kind has its row, a variant sets off what its kind does, and each effect is the one the
// behaviour tests (webhook-events, webhook-delivery, notifications, evidence) rely on.
import { describe, expect, it } from 'vitest';
import type { TBundle, TBundleEvent } from '#shared/domain/bundles/bundle';
import { codeOf, EVENT_KINDS, type TCodedKind, type TEventKind } from '#shared/domain/bundles/event-kinds';
import { EFFECTS, effectsOf, MILESTONES } from '#shared/domain/outbox/effects';
import { withOutbox } from '#shared/domain/outbox/outbox';

const kinds = Object.keys(EVENT_KINDS) as TEventKind[];
const coded = kinds.filter((k) => 'code' in EVENT_KINDS[k]) as TCodedKind[];

describe('the effects of each event', () => {
  it('name every event kind, and a variant sets off what its kind does', () => {
    expect(Object.keys(EFFECTS).sort()).toEqual([...coded].sort());
    for (const kind of coded) expect(effectsOf(codeOf(kind)), kind).toEqual(EFFECTS[kind]);
    expect(effectsOf(codeOf('packetReadyInPerson'))).toEqual(EFFECTS.packetReady);
    expect(effectsOf('zz')).toEqual({});
  });

  it('are, for a cancel, the bundle_cancelled webhook event and nothing else', () => {
    expect(EFFECTS.cancelled).toEqual({ webhook: 'bundle_cancelled' });
    const at = '2026-11-22T08:00:00.000Z';
    const ev = (kind: TEventKind): TBundleEvent => ({
      kind: codeOf(kind),
      description: '',
      timestamp: at,
    });
    const before = { id: 'B1', events: [ev('created'), ev('sent')] } as unknown as TBundle;
    const after = { ...before, events: [...before.events, ev('cancelled')] };
    expect(withOutbox(before, after).outbox).toEqual([{ seq: 2, type: 'bundle_cancelled', date: at }]);
  });

  it('are those the service has always had, kind by kind', () => {
    const setOff = Object.fromEntries(
      coded.filter((k) => Object.keys(EFFECTS[k]).length > 0).map((k) => [k, EFFECTS[k]]),
    );
    expect(setOff).toEqual({
      sent: { webhook: 'bundle_sent', milestone: 'BundlesSent' },
      cancelled: { webhook: 'bundle_cancelled' },
      packetSent: { notify: 'signing_request' },
      reminderSent: { notify: 'reminder' },
      viewed: { webhook: 'packet_viewed' },
      packetCompleted: { webhook: 'packet_complete' },
      declined: { webhook: 'packet_declined', notify: 'declined' },
      // An approver's or viewer's packet done is a packet done; a rejection is told as a decline.
      approved: { webhook: 'packet_complete' },
      read: { webhook: 'packet_complete' },
      rejected: { webhook: 'packet_declined', notify: 'declined' },
      reassigned: { webhook: 'packet_reassigned' },
      completed: { webhook: 'bundle_complete', document: 'final', milestone: 'BundlesCompleted' },
      docsReady: { webhook: 'bundle_docs_ready', notify: 'docs_ready' },
      failed: { webhook: 'bundle_error' },
      interimRequested: { document: 'interim' },
    });
    expect(MILESTONES).toEqual(['BundlesSent', 'BundlesCompleted']);
  });
});
