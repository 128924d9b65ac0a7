import { describe, expect, it } from 'vitest';
import { disallowedTags, tagAllowed } from '#shared/domain/templates/prep-session';

// Which data flow tags a preparation session allows (pure logic).

describe('tagAllowed', () => {
  it('allows any tag without a list, and none with an empty one', () => {
    expect(tagAllowed('acme:x', undefined)).toBe(true);
    expect(tagAllowed('acme:x', [])).toBe(false);
  });

  it('matches exact tags exactly and `ns:*` as the prefix `ns:`', () => {
    const allowed = ['crm.email', 'acme:*'];
    expect(tagAllowed('crm.email', allowed)).toBe(true);
    expect(tagAllowed('crm.email2', allowed)).toBe(false);
    expect(tagAllowed('acme:name', allowed)).toBe(true);
    expect(tagAllowed('acme:crm:name', allowed)).toBe(true);
    expect(tagAllowed('acme', allowed)).toBe(false);
    expect(tagAllowed('acmeco:name', allowed)).toBe(false);
  });
});

describe('disallowedTags', () => {
  it('names each refused field by its path, ignoring fields without a tag', () => {
    const fields = [{ tag: 'acme:a' }, {}, { tag: 'b' }, { tag: null }, { tag: '' }];
    expect(disallowedTags(fields, ['acme:*']).map((e) => e.field)).toEqual(['fields[2].tag']);
    expect(disallowedTags(fields, undefined)).toEqual([]);
    expect(disallowedTags('not a list', ['x'])).toEqual([]);
  });
});
