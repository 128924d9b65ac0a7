// The message catalogs, one JSON file per language in ./locales (English is the reference: every
// other catalog has exactly its keys and placeholders, test/unit/i18n-catalogs.test.ts), and the
// server's translator over them. The signing page's script gets its language's catalog from the
// page itself (functions/public-pages/pages.ts) and runs the same i18next in the browser.
import { createInstance, type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE, type TLanguage } from './languages';
import ar from './locales/ar.json' with { type: 'json' };
import de from './locales/de.json' with { type: 'json' };
import en from './locales/en.json' with { type: 'json' };
import es from './locales/es.json' with { type: 'json' };
import fr from './locales/fr.json' with { type: 'json' };
import he from './locales/he.json' with { type: 'json' };
import hi from './locales/hi.json' with { type: 'json' };
import it from './locales/it.json' with { type: 'json' };
import ja from './locales/ja.json' with { type: 'json' };
import nl from './locales/nl.json' with { type: 'json' };
import pl from './locales/pl.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };
import tr from './locales/tr.json' with { type: 'json' };
import zhCN from './locales/zh-CN.json' with { type: 'json' };

/** A catalog: messages by key, nested by the part of the service that says them. */
export interface TCatalog {
  [key: string]: string | TCatalog;
}

export const CATALOGS: Record<TLanguage, TCatalog> = {
  en,
  es,
  fr,
  de,
  it,
  'pt-BR': ptBR,
  nl,
  pl,
  tr,
  ar,
  he,
  ja,
  'zh-CN': zhCN,
  hi,
};

/** i18next's settings, the same in the browser (public/i18n.js): text is escaped where it is placed. */
export const I18NEXT_OPTIONS = {
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;

let i18n: ReturnType<typeof createInstance> | undefined;

function instance() {
  if (i18n) return i18n;
  i18n = createInstance({
    ...I18NEXT_OPTIONS,
    lng: DEFAULT_LANGUAGE,
    initAsync: false,
    resources: Object.fromEntries(
      Object.entries(CATALOGS).map(([lang, catalog]) => [lang, { translation: catalog }]),
    ),
  });
  i18n.init();
  return i18n;
}

/** The translator for one language: `t('message.hello', { name })`. */
export const translator = (lang: TLanguage): TFunction => instance().getFixedT(lang);
