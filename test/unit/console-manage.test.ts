// The Manage screens' pure parts: the event types a webhook form offers are the API's, and every
// failed call reads as words the English catalog has, a refusal (403) as a permission problem.
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '#functions/console-app/web/manage/event-types';
import { failureKey } from '#functions/console-app/web/manage/failure-key';
import { SUBSCRIBABLE_EVENT_TYPES } from '#shared/schemas/vocabulary';
import { consoleWord } from '../helpers/console-words';

describe('the console Manage screens', () => {
  it('offers exactly the event types a webhook may subscribe to', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...SUBSCRIBABLE_EVENT_TYPES]);
  });

  it('says why a call failed in words the catalog has', () => {
    const keys = [403, 404, 409, 410, 413, 429, 400, 500, 503].map((s) => failureKey(s));
    expect(keys.slice(0, 7)).toEqual([
      'manage.errors.forbidden',
      'manage.errors.notFound',
      'manage.errors.conflict',
      'manage.errors.notFound',
      'manage.errors.tooLarge',
      'manage.errors.tooMany',
      'manage.errors.invalid',
    ]);
    expect(keys.slice(7)).toEqual(['manage.errors.failed', 'manage.errors.failed']);
    expect(failureKey(undefined)).toBe('manage.errors.unreachable');
    for (const key of [...keys, 'manage.errors.unreachable']) expect(consoleWord(key)).not.toBe('');
    expect(consoleWord('manage.errors.forbidden', 'de')).toContain('Berechtigung');
  });
});
