// The messages to signers quote the sender's words (a label, a hand-over's reason) one way per
// language: English in straight quotes (curly ones are not in an SMS's GSM alphabet and would
// halve its length), the others in their own marks, never both in one language's messages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(__dirname, '../../shared/i18n/locales');

describe('quotation marks in the messages to signers', () => {
  it.each(readdirSync(DIR).filter((f) => f.endsWith('.json')))('%s uses one kind', (file) => {
    const messages = Object.values(
      JSON.parse(readFileSync(join(DIR, file), 'utf8')).message as Record<string, string>,
    );
    const straight = messages.filter((m) => m.includes('"'));
    const typographic = messages.filter((m) => /[“”„‘’«»「」]/.test(m));
    expect(straight.length === 0 || typographic.length === 0, JSON.stringify({ straight, typographic })).toBe(
      true,
    );
  });
});
