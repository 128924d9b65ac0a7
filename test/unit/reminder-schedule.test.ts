import { describe, expect, it } from 'vitest';
import type { TBundle, TPacket } from '#shared/domain/bundles/bundle';
import { withRequestTimes } from '#shared/domain/bundles/request-times';
import { applyDueWork } from '#shared/domain/scheduler/apply-due-work';
import { DAY_MS, nextDueAt, reminderDueAt, withDueAt } from '#shared/domain/scheduler/schedule';

const SENT = '2026-03-01T10:00:00.000Z';
const T0 = Date.parse(SENT);
const HOUR = 3_600_000;

const packet = (over: Partial<TPacket> = {}): TPacket =>
  ({
    id: 'P1',
    name: 'Ann',
    email: 'ann@example.com',
    deliverVia: 'email',
    status: 'se',
    suppressAll: false,
    suppressReminder: false,
    sentAt: SENT,
    ...over,
  }) as TPacket;

const bundle = (over: Partial<TBundle> = {}, packets: TPacket[] = [packet()]): TBundle =>
  ({
    id: 'B1',
    accountId: 'A1',
    status: 'se',
    sent: SENT,
    sendReminders: true,
    packets,
    events: [],
    version: 1,
    ...over,
  }) as TBundle;

const due = (b: TBundle, p = b.packets[0]!) => {
  const t = reminderDueAt(b, p);
  return t === undefined ? undefined : (t - T0) / DAY_MS;
};

describe('the reminder schedule', () => {
  it('starts reminder_offset days after sending, then every reminder_interval days, up to reminder_expires', () => {
    const b = bundle({ reminderOffset: 2, reminderInterval: 3, reminderExpires: 8 });
    expect(due(b)).toBe(2);
    const at = (days: number) => new Date(T0 + days * DAY_MS).toISOString();
    expect(due(b, packet({ lastReminderAt: at(2) }))).toBe(5);
    expect(due(b, packet({ lastReminderAt: at(5) }))).toBe(8);
    expect(due(b, packet({ lastReminderAt: at(8) }))).toBeUndefined();
    // A late run takes the slot it missed and then the next one after it.
    expect(due(b, packet({ lastReminderAt: at(6.5) }))).toBe(8);
  });

  it('defaults to one reminder a day after sending, within 30 days', () => {
    const b = bundle();
    expect(due(b)).toBe(1);
    expect(due(b, packet({ lastReminderAt: new Date(T0 + DAY_MS).toISOString() }))).toBeUndefined();
    // The default end (30 days) is a slot too; nothing after it.
    const b29 = bundle({ reminderInterval: 29 });
    expect(due(b29, packet({ lastReminderAt: new Date(T0 + DAY_MS).toISOString() }))).toBe(30);
    expect(due(b29, packet({ lastReminderAt: new Date(T0 + 30 * DAY_MS).toISOString() }))).toBeUndefined();
  });

  it('lets the signing request take a slot at or before it (offset 0)', () => {
    expect(due(bundle({ reminderOffset: 0 }))).toBeUndefined();
    expect(due(bundle({ reminderOffset: 0, reminderInterval: 2 }))).toBe(2);
  });

  it('never reminds within an hour of the last message', () => {
    const b = bundle({ reminderOffset: 1, reminderInterval: 1 });
    const manual = T0 + DAY_MS - 10 * 60_000;
    expect(reminderDueAt(b, packet({ lastReminderAt: new Date(manual).toISOString() }))).toBe(manual + HOUR);
    // A signer whose turn came just before a slot is not reminded at once.
    const late = T0 + DAY_MS - 5 * 60_000;
    expect(reminderDueAt(b, packet({ sentAt: new Date(late).toISOString() }))).toBe(late + HOUR);
  });

  it('is for sent signers by email or phone, not suppressed, who were sent a request', () => {
    expect(due(bundle({ sendReminders: false }))).toBeUndefined();
    for (const p of [
      packet({ status: 'ne' }),
      packet({ status: 're' }),
      packet({ status: 'co' }),
      packet({ deliverVia: 'embed' }),
      packet({ deliverVia: 'kiosk' }),
      packet({ suppressReminder: true }),
      packet({ suppressAll: true }),
      packet({ sentAt: undefined }),
    ]) {
      expect(due(bundle({}, [p]), p)).toBeUndefined();
    }
    expect(due(bundle({}, [packet({ status: 'st', deliverVia: 'phone' })]))).toBe(1);
    expect(due(bundle({ status: 'dr' }))).toBeUndefined();
  });
});

describe('the next due time', () => {
  it('is the earliest of the expiry and the signers’ reminders, only while sent', () => {
    const expires = new Date(T0 + 12 * HOUR).toISOString();
    expect(nextDueAt(bundle({ expires }))).toBe(expires);
    expect(nextDueAt(bundle({ expires, status: 'st' }))).toBe(expires);
    expect(nextDueAt(bundle({ expires: '2026-04-01T00:00:00.000Z' }))).toBe(
      new Date(T0 + DAY_MS).toISOString(),
    );
    expect(nextDueAt(bundle({ expires, status: 'dr' }))).toBeUndefined();
    expect(nextDueAt(bundle({ expires, status: 'co' }))).toBeUndefined();
    expect(nextDueAt(bundle({ sendReminders: false }))).toBeUndefined();
  });

  it('is what every write leaves on the bundle, and a stale one goes when nothing is due', () => {
    const expires = new Date(T0 + 12 * HOUR).toISOString();
    expect(withDueAt(bundle({ expires })).dueAt).toBe(expires);
    expect(withDueAt(bundle({ expires, dueAt: new Date(T0).toISOString() })).dueAt).toBe(expires);
    expect(withDueAt(bundle({ expires, status: 'co', dueAt: expires }))).not.toHaveProperty('dueAt');
  });
});

describe('applying due work', () => {
  it('returns the bundle itself when nothing is due, so nothing is written', () => {
    const b = bundle();
    expect(applyDueWork(b, new Date(T0 + DAY_MS - 1)).next).toBe(b);
  });

  it('reminds each due signer once and is a no-op when applied again', () => {
    const b = bundle({}, [packet(), packet({ id: 'P2', name: 'Bob', suppressReminder: true })]);
    const now = new Date(T0 + DAY_MS);
    const first = applyDueWork(b, now);
    expect(first.reminded).toEqual(['P1']);
    expect(first.next.packets[0]!.lastReminderAt).toBe(now.toISOString());
    expect(first.next.events).toEqual([
      {
        kind: 'rm',
        description: 'Reminder sent: Ann (automatic)',
        timestamp: now.toISOString(),
        packetId: 'P1',
        actor: { type: 'scheduler' },
      },
    ]);
    const again = applyDueWork(first.next, new Date(now.getTime() + 30 * 60_000));
    expect(again.next).toBe(first.next);
  });

  it('expires the bundle and its open packets instead of reminding', () => {
    const b = bundle({ expires: new Date(T0 + DAY_MS).toISOString() }, [
      packet(),
      packet({ id: 'P2', status: 'co' }),
      packet({ id: 'P3', status: 'ne' }),
    ]);
    const work = applyDueWork(b, new Date(T0 + DAY_MS));
    expect(work).toMatchObject({ expired: true, reminded: [] });
    expect(work.next.status).toBe('ex');
    expect(work.next.packets.map((p) => p.status)).toEqual(['ex', 'co', 'ex']);
    expect(work.next.events.map((e) => e.kind)).toEqual(['ex']);
    expect(applyDueWork(work.next, new Date(T0 + 2 * DAY_MS)).next).toBe(work.next);
  });
});

describe('signing request times', () => {
  it('stamps sentAt on the packets whose signing request a change appends', () => {
    const before = bundle({}, [packet({ sentAt: undefined, status: 'ne' }), packet({ id: 'P2' })]);
    const ps = {
      kind: 'ps',
      description: 'Signing request sent',
      timestamp: '2026-03-05T00:00:00.000Z',
      packetId: 'P1',
    };
    const after = withRequestTimes(before, { ...before, events: [ps] });
    expect(after.packets.map((p) => p.sentAt)).toEqual([ps.timestamp, SENT]);
    const unchanged = { ...before, events: [{ ...ps, kind: 'pu' }] };
    expect(withRequestTimes(before, unchanged)).toBe(unchanged);
  });
});
