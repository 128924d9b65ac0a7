import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/domain/errors';
import { patchChannels, replaceChannels } from '#shared/domain/persons/merge-channels';
import type { TChannel } from '#shared/domain/persons/person';

const ids = () => {
  let n = 0;
  return () => `new-${++n}`;
};
const current: TChannel[] = [
  { id: 'c1', kind: 'em', email: 'ann@example.com' },
  { id: 'c2', kind: 'mp', phone: '+1 555 010 2000' },
];

describe('replaceChannels (PUT)', () => {
  it('deletes channels left out and adds new ones', () => {
    expect(replaceChannels(current, [{ email: 'b@example.com' }], ids())).toEqual([
      { id: 'new-1', kind: 'em', email: 'b@example.com' },
    ]);
  });
  it('reuses the channel with the same email or phone', () => {
    expect(replaceChannels(current, [{ phone: '+15550102000' }], ids())).toEqual([current[1]]);
  });
  it('updates a channel by id and drops later duplicates', () => {
    expect(
      replaceChannels(current, [{ id: 'c2', email: 'ann@example.com' }, { email: 'ANN@example.com' }], ids()),
    ).toEqual([{ id: 'c2', kind: 'em', email: 'ann@example.com' }]);
  });
  it('refuses unknown ids with the path of each', () => {
    try {
      replaceChannels(current, [{ email: 'x@example.com' }, { id: 'nope', email: 'y@example.com' }], ids());
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).fieldErrors.map((e) => e.field)).toEqual(['channels[1].id']);
    }
  });
});

describe('patchChannels (PATCH)', () => {
  it('adds only channels whose email or phone is new, deleting nothing', () => {
    const out = patchChannels(current, [{ email: 'Ann@Example.com' }, { email: 'new@example.com' }], ids());
    expect(out).toEqual([...current, { id: 'new-1', kind: 'em', email: 'new@example.com' }]);
  });
  it('updates in place by id', () => {
    const out = patchChannels(current, [{ id: 'c1', phone: '+44 1' }], ids());
    expect(out[0]).toEqual({ id: 'c1', kind: 'mp', phone: '+44 1' });
    expect(out[1]).toEqual(current[1]);
  });
});
