import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's guide is plain JavaScript served to the browser as it is
import { nextField } from '../../functions/signing/public/guide.js';

// The order "Next field" visits the signer's fields in (pure logic of guide.js).

type TModel = { f: { key: string; required?: boolean }; value: string };
const field = (key: string, required = false, value = ''): TModel => ({ f: { key, required }, value });
const filled = (m: TModel) => m.value !== '';
const keyOf = (m: TModel | undefined) => m?.f.key;

describe('"Next field"', () => {
  const news = field('news');
  const start = field('start', true);
  const note = field('note');
  const sig = field('sig', true);
  const fields = [news, start, note, sig];

  it('goes to the required fields first, onwards from the current one and round to the start', () => {
    expect(keyOf(nextField(fields, undefined, filled))).toBe('start');
    expect(keyOf(nextField(fields, start, filled))).toBe('sig');
    expect(keyOf(nextField(fields, sig, filled))).toBe('start');
    // A required field left empty is offered again when it is the only one.
    expect(keyOf(nextField([news, start], start, filled))).toBe('start');
  });

  it('then to the optional ones the same way, never staying put, and to none once all are filled', () => {
    const done = [news, field('start', true, '2026-12-01'), note, field('sig', true, 'typed:Mia')];
    expect(keyOf(nextField(done, done[1], filled))).toBe('note');
    expect(keyOf(nextField(done, note, filled))).toBe('news');
    expect(nextField([field('news', false, 'true'), done[1]!], done[1], filled)).toBeUndefined();
    expect(nextField([news], news, filled)).toBeUndefined();
  });
});
