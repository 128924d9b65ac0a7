// @ts-check
// Dates of date fields, one module for the signing page and the service (the page is served this
// very file, functions/public-pages/assets.ts): how a signer types a date in their page's
// language, and how a date field's value is written on the document (shared/pdf stamps it with
// formatFieldDate, and the page previews it with the same function, so the two always agree).
//
// The value itself is always an ISO date, YYYY-MM-DD; only its entry and its display vary.

/**
 * How each language writes a date in numbers: the order of day, month and year and the
 * separator, as its readers expect on a form (the CLDR short date of the language, with the day
 * and month in two digits and the year in four). Kept here rather than read from Intl, so the
 * page (the browser's ICU) and the service (Node's) cannot differ; test/unit/field-dates.test.ts
 * checks it against Node's Intl.
 * @type {Record<string, { order: 'DMY' | 'MDY' | 'YMD', separator: string }>}
 */
const NUMERIC_DATES = {
  en: { order: 'MDY', separator: '/' },
  es: { order: 'DMY', separator: '/' },
  fr: { order: 'DMY', separator: '/' },
  de: { order: 'DMY', separator: '.' },
  it: { order: 'DMY', separator: '/' },
  'pt-BR': { order: 'DMY', separator: '/' },
  nl: { order: 'DMY', separator: '-' },
  pl: { order: 'DMY', separator: '.' },
  tr: { order: 'DMY', separator: '.' },
  ar: { order: 'DMY', separator: '/' },
  he: { order: 'DMY', separator: '.' },
  ja: { order: 'YMD', separator: '/' },
  'zh-CN': { order: 'YMD', separator: '/' },
  hi: { order: 'DMY', separator: '/' },
};

/**
 * How `language` writes a date in numbers (English's for a language the service does not speak).
 * @param {string} language
 */
export function numericDateOf(language) {
  return NUMERIC_DATES[language] ?? NUMERIC_DATES[language.split('-')[0] ?? ''] ?? NUMERIC_DATES.en;
}

/** @param {number} y @param {number} m @param {number} d */
function isoOf(y, m, d) {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return undefined;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

// Digits of the scripts the signer's keyboard may type (Arabic-Indic, Persian, Devanagari,
// full-width), read as 0–9.
const DIGIT_ZEROS = [0x660, 0x6f0, 0x966, 0xff10];

/** @param {string} text */
function westernDigits(text) {
  return text.replace(/[\u0660-\u0669\u06F0-\u06F9\u0966-\u096F\uFF10-\uFF19]/g, (ch) => {
    const code = ch.charCodeAt(0);
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9) ?? 0;
    return String(code - zero);
  });
}

/**
 * The ISO date a signer typed in their language's order (`27.11.2026` in German, `11/27/2026` in
 * English, `2026/11/27` in Japanese), or undefined when it is not one. Any of . / - and spaces
 * separate the parts (also full-width, and 年月日); eight digits in a row are read in the language's order; a
 * date that starts with a four-digit year is read year, month, day in every language. The year
 * has four digits: a two-digit one would leave the century to a guess.
 * @param {string} text
 * @param {string} language
 * @returns {string | undefined}
 */
export function parseEnteredDate(text, language) {
  // Direction marks a right-to-left page may add around the numbers.
  const plain = westernDigits(text)
    .replace(/[\u200E\u200F\u061C\u2066-\u2069]/g, '')
    .trim();
  const { order } = numericDateOf(language);
  let parts;
  if (/^\d{8}$/.test(plain)) {
    const at = order === 'YMD' ? [4, 6] : [2, 4];
    parts = [plain.slice(0, at[0]), plain.slice(at[0], at[1]), plain.slice(at[1])];
  } else {
    const m = /^(\d{1,4})\s*[./\-\s年．／－]\s*(\d{1,2})\s*[./\-\s月．／－]\s*(\d{1,4})\s*日?$/.exec(plain);
    if (!m) return undefined;
    parts = [m[1], m[2], m[3]];
  }
  const [a, b, c] = /** @type {string[]} */ (parts);
  if (a.length === 4) return isoOf(Number(a), Number(b), Number(c));
  if (c.length !== 4 || order === 'YMD') return undefined;
  return order === 'DMY' ? isoOf(Number(c), Number(b), Number(a)) : isoOf(Number(c), Number(a), Number(b));
}

/**
 * An ISO date as the signer types it in `language` (`27.11.2026`); anything else as it is.
 * @param {string} iso
 * @param {string} language
 */
export function enteredDate(iso, language) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const [, y, mo, d] = /** @type {string[]} */ (m);
  const { order, separator } = numericDateOf(language);
  const parts = order === 'YMD' ? [y, mo, d] : order === 'DMY' ? [d, mo, y] : [mo, d, y];
  return parts.join(separator);
}

/**
 * The tokens a date field's `format` may use (README, "Date formats"); any other character is
 * written as it is, and text in [brackets] as it is without them.
 */
export const DATE_TOKENS = ['YYYY', 'YY', 'MMMM', 'MMM', 'MM', 'M', 'DD', 'D'];

const TOKEN = /\[([^\]]*)\]|Y{4}|Y{2}|M{1,4}|D{1,2}/gi;

/**
 * The month's name in `language`. With a day in the format, the form it takes in a date (Polish
 * "listopada", not "listopad"); where that form is a bare number (Japanese, Chinese: the 月 is
 * apart), the month's own name (11月).
 * @param {number} y @param {number} m @param {number} d @param {string} language
 * @param {'long' | 'short'} width @param {boolean} withDay
 */
function monthName(y, m, d, language, width, withDay) {
  const date = new Date(Date.UTC(y, m - 1, d));
  const options = /** @type {const} */ ({ timeZone: 'UTC', numberingSystem: 'latn' });
  if (withDay) {
    const inDate = new Intl.DateTimeFormat(language, { ...options, day: 'numeric', month: width })
      .formatToParts(date)
      .find((p) => p.type === 'month')?.value;
    if (inDate && !/^\d+$/.test(inDate)) return inDate;
  }
  return new Intl.DateTimeFormat(language, { ...options, month: width }).format(date);
}

/**
 * A date field's value as the document shows it: in the field's `format` (tokens above; month
 * names in `language`, the documents' language), or, when the format names no date part, as
 * `language` writes a date in full (27 November 2026, 27. November 2026, 2026年11月27日), never
 * ambiguous. Digits are Western (0–9) everywhere, as on the rest of the document. An ISO time is
 * taken at its date; a value that is no date is returned as it is, so nothing entered is hidden.
 * @param {string} value
 * @param {string} format
 * @param {string} [language]
 * @returns {string}
 */
export function formatFieldDate(value, format, language = 'en') {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value.trim());
  if (!m) return value;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isoOf(y, mo, d)) return value;
  const pattern = format ?? '';
  const named = [...pattern.matchAll(TOKEN)].some((t) => t[1] === undefined);
  const withDay = /D/i.test(pattern.replace(/\[[^\]]*\]/g, ''));
  if (!named) {
    return new Intl.DateTimeFormat(language, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
      numberingSystem: 'latn',
    }).format(new Date(Date.UTC(y, mo - 1, d)));
  }
  return pattern.replace(TOKEN, (token, literal) => {
    if (literal !== undefined) return literal;
    switch (token.toUpperCase()) {
      case 'YYYY':
        return String(y);
      case 'YY':
        return String(y % 100).padStart(2, '0');
      case 'MMMM':
        return monthName(y, mo, d, language, 'long', withDay);
      case 'MMM':
        return monthName(y, mo, d, language, 'short', withDay);
      case 'MM':
        return String(mo).padStart(2, '0');
      case 'M':
        return String(mo);
      case 'DD':
        return String(d).padStart(2, '0');
      default:
        return String(d);
    }
  });
}
