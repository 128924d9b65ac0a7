import type { TVPattern } from '#shared/schemas/vocabulary';

/** ABA routing numbers carry a checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function abaChecksum(v: string): boolean {
  const d = [...v].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** The known value patterns (v_pattern), used when a field is created and when it is filled. */
export const V_PATTERN_CHECKS: Record<TVPattern, (value: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && v.length <= 254,
  bank_routing: (v) => /^\d{9}$/.test(v) && abaChecksum(v),
  bank_account: (v) => /^\d{4,17}$/.test(v),
  letters: (v) => /^[\p{L}][\p{L} '-]*$/u.test(v),
  numbers: (v) => /^-?\d+(\.\d+)?$/.test(v),
  phone: (v) => /^\+?[0-9][0-9 ().-]{5,}$/.test(v) && v.replace(/\D/g, '').length >= 7,
  ssn: (v) => /^\d{3}-?\d{2}-?\d{4}$/.test(v),
  zip_code: (v) => /^\d{5}(-\d{4})?$/.test(v),
};
