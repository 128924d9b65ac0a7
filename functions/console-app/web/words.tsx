// The translator and the language, handed down to every screen.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { TLanguage } from './i18n';

export interface TWords {
  /** A console message: `t('bundles.heading')`. */
  t: (key: string, values?: Record<string, unknown>) => string;
  lang: TLanguage;
  setLang: (lang: TLanguage) => void;
}

export const Words = createContext<TWords>({ t: (key) => key, lang: 'en', setLang: () => undefined });

export const useWords = () => useContext(Words);
