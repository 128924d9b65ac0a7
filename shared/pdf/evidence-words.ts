// The words of the evidence pages in one language: the catalogs' `evidence` messages
// (shared/i18n), dates in that language's way on a UTC clock, and the page's direction.
import type { TFunction } from 'i18next';
import { translator } from '#shared/i18n/catalogs';
import { directionOf, resolveLanguage, type TLanguage } from '#shared/i18n/languages';
import { isolated, type TDirection } from './bidi';
import type { TWords } from './evidence-types';
import { formatUtc } from './text';

export interface TEvidenceWords {
  language: TLanguage;
  direction: TDirection;
  t: TFunction;
  /** A time in UTC, with the zone named (or not, in a column headed "(UTC)"). */
  time(iso: string | undefined, options?: { zone?: boolean }): string;
  /** Who did something: a signer's name as it is, the two roles the audit trail names in words. */
  actor(actor: string | undefined): string;
  /**
   * Data as it is, or a message of the catalogs with its values (the evidence's words for what
   * the service stores in English: shared/domain/evidence/stored-words.ts).
   */
  say(words: TWords): string;
  pageOf(page: number, pages: number): string;
}

/**
 * The evidence's words in `tag`'s language. With `isolate` (the PDFs), the values put in a
 * message are isolated from it (bidi.ts), so a sender's or signer's words keep their direction in
 * a sentence of the other; the evidence record's English is written without.
 */
export function evidenceWords(tag: string | undefined, { isolate = false } = {}): TEvidenceWords {
  const language = resolveLanguage(tag);
  const t = translator(language);
  const say = (words: TWords): string => {
    if (typeof words === 'string') return words;
    const values = Object.entries(words.values ?? {}).map(([k, v]) => [
      k,
      typeof v === 'object' ? say(v) : isolate && typeof v === 'string' ? isolated(v) : v,
    ]);
    // A key starting with "/" names a catalog section of its own (a feature's words), else `evidence`.
    const key = words.key.startsWith('/') ? words.key.slice(1) : `evidence.${words.key}`;
    return String(t(key, Object.fromEntries(values)));
  };
  return {
    language,
    direction: directionOf(language),
    t,
    time: (iso, { zone = true } = {}) => formatUtc(iso, { zone, language }),
    actor: (actor) =>
      actor === 'sender' || actor === 'service' ? t(`evidence.common.${actor}`) : (actor ?? '—'),
    pageOf: (page, pages) => t('evidence.common.page', { page, pages }),
    say,
  };
}
