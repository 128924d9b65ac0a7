import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's helpers are plain JavaScript served to the browser as they are
import * as roles from '../../functions/public-pages/public/prepare-roles.js';

const { renameRoleIn, roleOf, withoutRole, withRole } = roles;

// How the preparation page changes a field's editor_roles (pure logic of prepare-roles.js).

describe("the preparation page's role edits", () => {
  it('shows the first entry without its prefix', () => {
    expect(roleOf({ editor_roles: ['-seller', 'buyer'] })).toBe('seller');
    expect(roleOf({ editor_roles: [] })).toBe('');
    expect(roleOf({})).toBe('');
  });

  it('changes only the first entry, keeping its `-` prefix and the other roles', () => {
    expect(withRole(['-seller', 'agent'], 'buyer')).toEqual(['-buyer', 'agent']);
    expect(withRole(['seller', '-agent'], 'buyer')).toEqual(['buyer', '-agent']);
    expect(withRole([], 'buyer')).toEqual(['buyer']);
    expect(withRole(undefined, 'buyer')).toEqual(['buyer']);
  });

  it('removes the first entry for "No role", and never lists a role twice', () => {
    expect(withRole(['-seller', 'agent'], '')).toEqual(['agent']);
    expect(withRole(['seller', 'agent', '-buyer'], 'agent')).toEqual(['agent', '-buyer']);
  });

  it('renames and removes a role in every entry, prefixed or not', () => {
    expect(renameRoleIn(['-role-1', 'role-10', 'role-1'], 'role-1', 'seller')).toEqual([
      '-seller',
      'role-10',
      'seller',
    ]);
    expect(withoutRole(['-role-1', 'role-10', 'role-1'], 'role-1')).toEqual(['role-10']);
  });
});
