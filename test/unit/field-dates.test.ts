import { describe, expect, it } from 'vitest';
import { translator } from '#shared/i18n/catalogs';
import { LANGUAGES } from '#shared/i18n/languages';
import {
  enteredDate,
  formatFieldDate,
  numericDateOf,
  parseEnteredDate,
} from '../../shared/text/field-dates.js';

describe('typing a date in the page language', () => {
  it.each([
    ['de', '27.11.2026'],
    ['de', '27112026'],
    ['de', '27. 11. 2026'],
    ['en', '11/27/2026'],
    ['en', '11272026'],
    ['fr', '27/11/2026'],
    ['nl', '27-11-2026'],
    ['ja', '2026/11/27'],
    ['ja', '2026年11月27日'],
    ['ja', '２０２６／１１／２７'],
    ['zh-CN', '20261127'],
    ['ar', '٢٧/١١/٢٠٢٦'],
    ['ar', '\u200F27/11/2026'],
    ['hi', '२७/११/२०२६'],
    ['de', '2026-11-27'],
    ['en', '2026-11-27'],
  ])('%s: %j is 27 November 2026', (language, text) => {
    expect(parseEnteredDate(text, language)).toBe('2026-11-27');
  });

  it.each([
    ['de', '11/27/2026'], // no 27th month
    ['de', '31.02.2026'],
    ['de', '27.11.26'], // the century would be a guess
    ['de', '27.11.112026'],
    ['de', '112026-11-27'],
    ['en', '12-AB'],
    ['en', '2026'],
    ['ja', '27/11/2026'],
    ['en', '0999-01-01'],
  ])('%s: %j is no date', (language, text) => {
    expect(parseEnteredDate(text, language)).toBeUndefined();
  });

  it('shows a date as it is typed, and reads back what it shows, in every language', () => {
    for (const language of LANGUAGES) {
      const shown = enteredDate('2026-03-07', language);
      expect(parseEnteredDate(shown, language), language).toBe('2026-03-07');
    }
    expect(enteredDate('2026-03-07', 'de')).toBe('07.03.2026');
    expect(enteredDate('2026-03-07', 'en')).toBe('03/07/2026');
    expect(enteredDate('2026-03-07', 'ja')).toBe('2026/03/07');
  });

  it("orders day, month and year as each language's own short date does (CLDR, through Intl)", () => {
    const date = new Date(Date.UTC(2026, 10, 27));
    for (const language of LANGUAGES) {
      const parts = new Intl.DateTimeFormat(language, { timeZone: 'UTC', numberingSystem: 'latn' })
        .formatToParts(date)
        .filter((p) => p.type === 'day' || p.type === 'month' || p.type === 'year')
        .map((p) => p.type[0]!.toUpperCase())
        .join('');
      expect(numericDateOf(language).order, language).toBe(parts);
    }
  });

  it("tells the signer the same order in each catalog's pattern", () => {
    for (const language of LANGUAGES) {
      const pattern = translator(language)('sign.fields.datePattern');
      const { order, separator } = numericDateOf(language);
      const parts = pattern.split(separator);
      expect(parts, `${language} ${pattern}`).toHaveLength(3);
      // The year is the four-letter part (Arabic spells the parts out).
      if (language !== 'ar') expect(parts[order.indexOf('Y')], language).toHaveLength(4);
    }
  });
});

describe("a date field's value on the document", () => {
  it.each([
    ['D MMMM YYYY', 'en', '27 November 2026'],
    ['D MMMM YYYY', 'ar', '27 نوفمبر 2026'],
    ['D MMMM YYYY', 'pl', '27 listopada 2026'],
    ['MMMM YYYY', 'pl', 'listopad 2026'],
    ['DD.MM.YYYY', 'de', '27.11.2026'],
    ['YYYY年M月D日', 'ja', '2026年11月27日'],
    ['MMM D, YYYY', 'en', 'Nov 27, 2026'],
    ['[Date:] DD/MM/YY', 'en', 'Date: 27/11/26'],
    ['', 'ar', '27 نوفمبر 2026'],
    ['', 'de', '27. November 2026'],
    ['', 'ja', '2026年11月27日'],
    ['', 'en', 'November 27, 2026'],
    ['Quarterly', 'en', 'November 27, 2026'], // names no part of a date: in full
  ])('%j in %s reads %j', (format, language, shown) => {
    expect(formatFieldDate('2026-11-27', format, language)).toBe(shown);
  });

  it('keeps what is no date as it is', () => {
    expect(formatFieldDate('27.11.2026', 'DD/MM/YYYY', 'de')).toBe('27.11.2026');
    expect(formatFieldDate('2026-02-30', 'DD/MM/YYYY', 'de')).toBe('2026-02-30');
  });
});
