// @ts-check
// What a field's value may be, beyond being visible: the value patterns (v_pattern) a text field
// may require, and the files an attachment field takes. One set of rules for the service (its
// checks of a field's value, the wire schema's vocabulary) and for the signing page, which is
// served this very file (functions/public-pages/assets.ts), so the two cannot drift apart.

/** ABA routing numbers carry a checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
function abaChecksum(v) {
  const d = [...v].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/** Each value pattern's test, used when a field is created, when it is filled and in the page. */
export const V_PATTERN_CHECKS = Object.freeze({
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && v.length <= 254,
  bank_routing: (v) => /^\d{9}$/.test(v) && abaChecksum(v),
  bank_account: (v) => /^\d{4,17}$/.test(v),
  letters: (v) => /^[\p{L}][\p{L} '-]*$/u.test(v),
  numbers: (v) => /^-?\d+(\.\d+)?$/.test(v),
  phone: (v) => /^\+?[0-9][0-9 ().-]{5,}$/.test(v) && v.replace(/\D/g, '').length >= 7,
  ssn: (v) => /^\d{3}-?\d{2}-?\d{4}$/.test(v),
  zip_code: (v) => /^\d{5}(-\d{4})?$/.test(v),
});

/** The kinds of file an attachment field takes when it names none (and all it may name). */
export const ATTACHMENT_TYPES = Object.freeze([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'svg',
  'pdf',
  'doc',
  'docx',
  'ppt',
  'pptx',
  'xls',
  'xlsx',
  'rtf',
  'txt',
]);

/** The largest file a signer may attach: 10 MB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
