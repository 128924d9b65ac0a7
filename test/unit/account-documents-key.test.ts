import { describe, expect, it } from 'vitest';
import type { TAccount, TAccountDocumentsKey } from '#shared/domain/accounts/account';
import type { TBulkBatch } from '#shared/domain/bulk/bulk-batch';
import {
  destroyAccountDocumentsKey,
  KEY_DESTRUCTION_WAIT_SECONDS,
  keyDestructionBlocker,
} from '#shared/domain/bundles/account-documents-key';
import type { TBundle } from '#shared/domain/bundles/bundle';
import type { TAccountStore, TDocumentsKeyAdmin } from '#shared/domain/ports/accounts';
import type { TBundleStore } from '#shared/domain/ports/bundles';

const now = new Date('2026-11-28T12:00:00.000Z');
/** A bundle cancelled on `ended` under a policy of `days` for every part. */
const cancelled = (ended: string, days: number, hold = false) =>
  ({
    id: 'B1',
    status: 'ca',
    created: '2026-01-01T00:00:00.000Z',
    events: [{ kind: 'ca', timestamp: ended }],
    retention: {
      policy: { originals: days, finals: days, images: days },
      ...(hold ? { hold: { at: '2026-11-01T00:00:00.000Z', actor: { type: 'operator' } } } : {}),
    },
  }) as unknown as TBundle;

describe('keyDestructionBlocker', () => {
  it('names the bundle and the day its retention ends while it has not', () => {
    expect(keyDestructionBlocker(cancelled('2026-11-20T00:00:00.000Z', 30), now)).toBe(
      'Bundle B1 keeps its documents until 2026-12-20 by its retention policy: destroy the key after that date.',
    );
    expect(keyDestructionBlocker(cancelled('2026-10-01T00:00:00.000Z', 30), now)).toBeUndefined();
  });

  it('names a legal hold, whatever the retention says', () => {
    expect(keyDestructionBlocker(cancelled('2026-01-01T00:00:00.000Z', 0, true), now)).toMatch(
      /^Bundle B1 is under legal hold since 2026-11-01/,
    );
  });
});

describe('destroyAccountDocumentsKey', () => {
  /** An account whose key is `key`, its writes kept; no bundle; KMS answering at once. */
  function run(key: TAccountDocumentsKey, unfinished: TBulkBatch[] = []) {
    let stored = key;
    const steps: string[] = [];
    const account = () => ({ id: 'A1', documentsKey: stored }) as TAccount;
    const accounts = {
      getAccount: async () => account(),
      setDocumentsKey: async (_id: string, next: TAccountDocumentsKey) => {
        steps.push(next.destroyed ? 'destroyed' : next.destroying ? 'marked' : 'unmarked');
        stored = next;
        return account();
      },
    } as unknown as TAccountStore;
    const bundles = {
      allOfAccount: async () => {
        steps.push('checked');
        return [];
      },
    } as unknown as TBundleStore;
    const keys = {
      scheduleDeletion: async () => ({ deletionDate: '2026-12-05T12:00:00.000Z' }),
    } as unknown as TDocumentsKeyAdmin;
    const bulk = {
      unfinishedOfAccount: async () => {
        steps.push('batches checked');
        return unfinished;
      },
    };
    const deps = {
      accounts,
      bundles,
      bulk,
      keys,
      clock: { now: () => now },
      ids: { uuid: () => 'run-1', slug: () => 's' },
      wait: async (ms: number) => {
        steps.push(`waited ${ms} ms`);
      },
    };
    return { steps, done: destroyAccountDocumentsKey(deps, 'A1', 7) };
  }
  const own = { keyArn: 'arn:aws:kms:eu-west-1:1:key/k', created: '2026-01-01T00:00:00.000Z' };

  it('marks the account, waits longer than any request runs, then checks the bundles', async () => {
    const { steps, done } = run(own);
    await done;
    expect(steps).toEqual([
      'marked',
      `waited ${KEY_DESTRUCTION_WAIT_SECONDS * 1000} ms`,
      'checked',
      'batches checked',
      'destroyed',
    ]);
  });

  it('is refused, and takes its mark back, while a bulk batch of the account is making bundles', async () => {
    const { steps, done } = run(own, [{ id: 'K7', accountId: 'A1' } as TBulkBatch]);
    await expect(done).rejects.toThrow(
      'Bulk batch K7 is still making its bundles: destroy the key once GET /api/v2/bundles/bulk/K7/ shows it completed.',
    );
    expect(steps).toEqual([
      'marked',
      `waited ${KEY_DESTRUCTION_WAIT_SECONDS * 1000} ms`,
      'checked',
      'batches checked',
      'unmarked',
    ]);
  });

  it('carrying on a mark left by a run that stopped, waits only what is left of it', async () => {
    const started = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000).toISOString();
    const partly = run({ ...own, destroying: { started: started(100), run: 'run-0' } });
    await partly.done;
    expect(partly.steps).toEqual([
      `waited ${(KEY_DESTRUCTION_WAIT_SECONDS - 100) * 1000} ms`,
      'checked',
      'batches checked',
      'destroyed',
    ]);
    const long = run({
      ...own,
      destroying: { started: started(KEY_DESTRUCTION_WAIT_SECONDS), run: 'run-0' },
    });
    await long.done;
    expect(long.steps).toEqual(['checked', 'batches checked', 'destroyed']);
  });
});
