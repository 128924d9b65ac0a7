// The outbox's jobs, declared once: a worker takes only a message of its job's shape, the retry
// schedule comes from the declaration, and each queue's dead-letter threshold is its job's
// number of attempts.
import { describe, expect, it } from 'vitest';
import { QUEUES } from '#infra/queues';
import { JOBS, jobOf } from '#shared/domain/outbox/jobs';
import { retryDelayOf } from '#shared/domain/outbox/jobs/job';

const body = (o: unknown) => JSON.stringify(o);

describe('jobs', () => {
  it('are read from a message only when it has their shape', () => {
    expect(
      jobOf('documentJobs', body({ type: 'final', accountId: 'a', bundleId: 'b', seq: 7, date: 'd' })),
    ).toEqual({ type: 'final', accountId: 'a', bundleId: 'b', seq: 7, date: 'd' });
    expect(
      jobOf(
        'notifications',
        body({ type: 'reminder', accountId: 'a', bundleId: 'b', packetId: 'p', seq: 1 }),
      ),
    ).toMatchObject({ type: 'reminder', packetId: 'p', date: '' });
    expect(jobOf('webhookDeliveries', body({ accountId: 'a', eventId: 'e', redeliver: true }))).toEqual({
      accountId: 'a',
      eventId: 'e',
      redeliver: true,
    });
    for (const [queue, wrong] of [
      ['documentJobs', body({ type: 'sealing', accountId: 'a', bundleId: 'b', seq: 1 })],
      ['documentJobs', body({ type: 'final', accountId: 'a', seq: 1 })],
      ['notifications', body({ type: 'reminder', accountId: 'a', bundleId: 'b', seq: 1.5 })],
      ['webhookDeliveries', body({ accountId: '', eventId: 'e' })],
      ['webhookDeliveries', 'not json'],
    ] as const)
      expect(jobOf(queue, wrong), wrong).toBeUndefined();
  });

  it('wait the declared delay after a failed attempt, the last delay for any later one', () => {
    expect(retryDelayOf(JOBS.webhookDeliveries, 1)).toBe(240);
    expect(retryDelayOf(JOBS.documentJobs, 2, 0.5)).toBe(60);
    expect(retryDelayOf(JOBS.notifications, 99)).toBe(JOBS.notifications.retryDelaysSeconds.at(-1));
  });

  it('give each queue its dead-letter threshold: one attempt more than there are delays', () => {
    for (const queue of Object.keys(JOBS) as (keyof typeof JOBS)[]) {
      expect(QUEUES[queue].maxReceiveCount, queue).toBe(JOBS[queue].retryDelaysSeconds.length + 1);
    }
  });
});
