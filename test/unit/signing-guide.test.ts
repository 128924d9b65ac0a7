import { describe, expect, it } from 'vitest';
// @ts-expect-error the page's guide is plain JavaScript served to the browser as it is
import { nextField, previousField } from '../../functions/public-pages/public/guide.js';

// The order "Next field" visits the signer's fields in, and where "Previous field" goes (pure
// logic of guide.js).

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

  it('offers each optional field once, then leads to finishing; required ones until filled', () => {
    const done = [news, field('start', true, '2026-12-01'), note];
    const seen = new Set<TModel>([done[1]!]);
    expect(keyOf(nextField(done, done[1], filled, seen))).toBe('note');
    seen.add(note);
    expect(keyOf(nextField(done, note, filled, seen))).toBe('news');
    seen.add(news);
    expect(nextField(done, news, filled, seen)).toBeUndefined();
    // A required field stays on offer however often the signer has been to it.
    const empty = field('start', true);
    expect(keyOf(nextField([news, empty, note], note, filled, new Set([news, empty, note])))).toBe('start');
  });
});

describe('"Previous field"', () => {
  const fields = [field('news'), field('start', true, '2026-12-01'), field('sig', true)];

  it('goes back one field in document order, filled or not, required or not', () => {
    expect(keyOf(previousField(fields, fields[2]))).toBe('start');
    expect(keyOf(previousField(fields, fields[1]))).toBe('news');
  });

  it('goes nowhere before the first step or from the first field, rather than round to the end', () => {
    expect(previousField(fields, undefined)).toBeUndefined();
    expect(previousField(fields, fields[0])).toBeUndefined();
  });
});
