import { describe, expect, it } from 'vitest';
import { benchFields, benchValues, FIELD_MIX, timings } from '../../bench/signing';

describe('benchFields', () => {
  it('makes the 40-field mix, all required of the one signer, with distinct keys on the page', () => {
    const fields = benchFields('ann');
    expect(fields).toHaveLength(40);
    const count = (kind: string) => fields.filter((f) => f.kind === kind).length;
    expect(Object.fromEntries(Object.keys(FIELD_MIX).map((k) => [k, count(k)]))).toEqual(FIELD_MIX);
    expect(new Set(fields.map((f) => f.key)).size).toBe(40);
    for (const f of fields) {
      expect(f.editors).toEqual(['ann']);
      expect(f.page).toBe(1);
      expect(f.x + f.w).toBeLessThanOrEqual(100);
      expect(f.y + f.h).toBeLessThanOrEqual(100);
    }
    expect(fields.filter((f) => f.kind === 'sel').every((f) => f.format === 'A|B|C')).toBe(true);
    // No two fields share a grid slot.
    expect(new Set(fields.map((f) => `${f.x},${f.y}`)).size).toBe(40);
  });

  it('spreads the fields over pages when asked', () => {
    const fields = benchFields('ann', FIELD_MIX, 2);
    expect(fields.filter((f) => f.page === 1)).toHaveLength(20);
    expect(fields.filter((f) => f.page === 2)).toHaveLength(20);
  });
});

describe('benchValues', () => {
  it('gives each field a value its kind accepts', () => {
    const values = benchValues('doc', benchFields('ann'));
    expect(values).toHaveLength(40);
    const of = (key: string) => values.find((v) => v.field_key === key)?.value;
    expect(of('sig_1')).toBe('typed:Ann');
    expect(of('ini_5')).toBe('typed:Ann');
    expect(of('chk_1')).toBe('true');
    expect(of('sel_2')).toBe('B');
    expect(of('dat_3')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(values.every((v) => v.doc_key === 'doc' && v.value !== '')).toBe(true);
  });
});

describe('timings', () => {
  it('summarizes a sample, and an empty one as NaN', () => {
    expect(timings([30, 10, 20])).toEqual({ runs: 3, p50Ms: 20, p99Ms: 29.8, maxMs: 30 });
    expect(timings([])).toMatchObject({ runs: 0, p50Ms: Number.NaN, maxMs: Number.NaN });
  });
});
