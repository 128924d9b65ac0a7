// The languages the signer-facing side speaks, and how a requested language (an IETF tag from a
// packet, a bundle, a browser's Accept-Language or the signer's own choice) becomes one of them.
// Pure: no catalogs here, so the wire schemas and the pages can ask without loading any.

/** Every language with a catalog in ./locales, English first (the fallback). */
export const LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt-BR',
  'nl',
  'pl',
  'tr',
  'ar',
  'he',
  'ja',
  'zh-CN',
  'hi',
] as const;

export type TLanguage = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: TLanguage = 'en';

/** The longest tag the service accepts (RFC 5646 advises room for 35 characters). */
export const MAX_TAG_LENGTH = 35;

/** Written right to left: the page's `dir` and mirrored layout follow. */
const RIGHT_TO_LEFT = new Set<TLanguage>(['ar', 'he']);

export const directionOf = (lang: TLanguage): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(lang) ? 'rtl' : 'ltr');

/** Primary subtag → the one catalog that serves it. */
const BY_PRIMARY: Record<string, TLanguage> = {
  en: 'en',
  es: 'es',
  fr: 'fr',
  de: 'de',
  it: 'it',
  // One Portuguese catalog: Brazilian, which readers in Portugal understand.
  pt: 'pt-BR',
  nl: 'nl',
  pl: 'pl',
  tr: 'tr',
  ar: 'ar',
  he: 'he',
  // The tag Hebrew had before 1989; some systems still send it.
  iw: 'he',
  ja: 'ja',
  zh: 'zh-CN',
  hi: 'hi',
};

/** Chinese written in Traditional characters: the Simplified catalog would not serve its readers. */
const TRADITIONAL = /^zh-(?:.*-)?(hant|tw|hk|mo)(?:-|$)/;

/** The tag in canonical form (`PT-br` → `pt-BR`), or undefined when it is not a well-formed tag. */
export function canonicalTag(tag: string): string | undefined {
  if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The supported language a tag asks for (`pt` → `pt-BR`; `zh`, `zh-Hans`, `zh-CN` → `zh-CN`;
 * `en-GB` → `en`), or undefined: a malformed tag, or a language without a catalog.
 */
export function supportedLanguage(tag: string | undefined | null): TLanguage | undefined {
  if (!tag) return undefined;
  const canonical = canonicalTag(tag.trim().replace(/_/g, '-'));
  if (!canonical) return undefined;
  const lower = canonical.toLowerCase();
  if (TRADITIONAL.test(lower)) return undefined;
  return BY_PRIMARY[lower.split('-')[0]!];
}

/** Like supportedLanguage, with English for anything else. */
export const resolveLanguage = (tag: string | undefined | null): TLanguage =>
  supportedLanguage(tag) ?? DEFAULT_LANGUAGE;

/**
 * The first supported language of an Accept-Language header, by quality (`q`, default 1; `q=0`
 * means "not this one"), ties in the order sent; undefined when none is supported (`*` names none).
 */
export function languageFromAcceptLanguage(header: string | undefined | null): TLanguage | undefined {
  if (!header) return undefined;
  const ranges = header
    .slice(0, 2000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const quality = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.tag && r.tag !== '*' && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const r of ranges) {
    const lang = supportedLanguage(r.tag);
    if (lang) return lang;
  }
  return undefined;
}

/**
 * The language a signer reads, most specific first: their own choice on the page, the packet's,
 * the bundle's, the account's default (set by the operator), their browser's, else English. A
 * visitor of a page without a packet (portal, verify) reads the same chain from what is known.
 */
export function signerLanguage(choices: {
  chosen?: string | undefined;
  packet?: string | undefined;
  bundle?: string | undefined;
  account?: string | undefined;
  acceptLanguage?: string | undefined;
}): TLanguage {
  return (
    supportedLanguage(choices.chosen) ??
    supportedLanguage(choices.packet) ??
    supportedLanguage(choices.bundle) ??
    supportedLanguage(choices.account) ??
    languageFromAcceptLanguage(choices.acceptLanguage) ??
    DEFAULT_LANGUAGE
  );
}
