import { describe, expect, it } from 'vitest';
import {
  directionOf,
  languageFromAcceptLanguage,
  resolveLanguage,
  signerLanguage,
  supportedLanguage,
} from '#shared/i18n/languages';

describe('a requested language tag', () => {
  it.each([
    ['en', 'en'],
    ['en-GB', 'en'],
    ['EN_us', 'en'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-Hans-SG', 'zh-CN'],
    ['ar-EG', 'ar'],
    ['iw', 'he'],
    ['he-IL', 'he'],
    ['ja-JP', 'ja'],
    ['hi-IN', 'hi'],
  ])('%s is served in %s', (tag, lang) => {
    expect(supportedLanguage(tag)).toBe(lang);
  });

  it.each(['sv', 'zh-TW', 'zh-Hant', 'zh-Hant-HK', 'not a tag', 'x', '', 'en-'])(
    '%s has no catalog',
    (tag) => {
      expect(supportedLanguage(tag)).toBeUndefined();
      expect(resolveLanguage(tag)).toBe('en');
    },
  );

  it('reads Arabic and Hebrew right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he')).toBe('rtl');
    expect(directionOf('ja')).toBe('ltr');
  });
});

describe('Accept-Language', () => {
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['sv, nb;q=0.9, de;q=0.8', 'de'],
    ['en;q=0.5, ja', 'ja'],
    ['de;q=0.8, es;q=0.8', 'de'],
    ['ja;q=0, ko, zh-Hans;q=0.3', 'zh-CN'],
    ['zh-TW, zh;q=0.8', 'zh-CN'],
    ['pt-BR,pt;q=0.9', 'pt-BR'],
  ])('%s → %s', (header, lang) => {
    expect(languageFromAcceptLanguage(header)).toBe(lang);
  });

  it.each(['', '*', 'sv, da', ';;;,', 'en;q=0'])('%s names none', (header) => {
    expect(languageFromAcceptLanguage(header)).toBeUndefined();
  });
});

describe('the signer’s language', () => {
  it('is their own choice first, then the packet’s, the bundle’s, the account’s, the browser’s, else English', () => {
    const all = { chosen: 'he', packet: 'ja', bundle: 'fr', acceptLanguage: 'de' };
    expect(signerLanguage(all)).toBe('he');
    expect(signerLanguage({ ...all, chosen: undefined })).toBe('ja');
    expect(signerLanguage({ bundle: 'fr', acceptLanguage: 'de' })).toBe('fr');
    // The account's default comes after the bundle's and before the browser's.
    expect(signerLanguage({ bundle: 'fr', account: 'pl', acceptLanguage: 'de' })).toBe('fr');
    expect(signerLanguage({ account: 'pl', acceptLanguage: 'de' })).toBe('pl');
    expect(signerLanguage({ account: 'sv', acceptLanguage: 'de' })).toBe('de');
    expect(signerLanguage({ acceptLanguage: 'de-AT' })).toBe('de');
    expect(signerLanguage({ acceptLanguage: 'sv' })).toBe('en');
    expect(signerLanguage({})).toBe('en');
  });
});
