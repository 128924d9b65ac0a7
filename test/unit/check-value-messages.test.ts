import { describe, expect, it } from 'vitest';
import { PATTERN_MESSAGES, valueProblem } from '#shared/domain/signing/check-value';
import { translator } from '#shared/i18n/catalogs';
import { V_PATTERNS } from '#shared/schemas/vocabulary';

describe("the service's words for a value of the wrong pattern", () => {
  const en = translator('en');

  it("are the English signing page's, for every pattern", () => {
    for (const pattern of V_PATTERNS) {
      expect(PATTERN_MESSAGES[pattern], pattern).toBe(en(`sign.rules.${pattern}`));
    }
  });

  it('say "a valid number", not "a valid numbers"', () => {
    const field = { kind: 'inp', vPattern: 'numbers' } as Parameters<typeof valueProblem>[0];
    expect(valueProblem(field, '12-AB')?.message).toBe('Enter a valid number.');
  });
});
