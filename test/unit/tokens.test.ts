// The link and session tokens: one shape, made at random, recognised before any lookup, stored as
// a hash that does not give the token back.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '#shared/domain/accounts/api-key-secret';
import { hashToken, isToken, newToken } from '#shared/domain/tokens';

describe('tokens', () => {
  it('are 43 base62 characters, every character of the alphabet drawn', () => {
    const many = Array.from({ length: 200 }, newToken);
    for (const t of many) expect(t).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(new Set(many).size).toBe(many.length);
    expect(new Set(many.join('')).size).toBe(62);
  });

  it('are recognised by shape only: anything else is refused before a lookup', () => {
    expect(isToken(newToken())).toBe(true);
    for (const bad of [
      undefined,
      42,
      '',
      'short',
      `${newToken()}x`,
      `${newToken().slice(1)}-`,
      `${newToken().slice(1)} `,
    ])
      expect(isToken(bad), String(bad)).toBe(false);
  });

  it('are stored as their SHA-256, the same hash as API keys', () => {
    const t = newToken();
    expect(hashToken(t)).toBe(createHash('sha256').update(t).digest('hex'));
    expect(hashToken(t)).not.toContain(t);
    expect(hashApiKey(t)).toBe(hashToken(t));
  });
});
