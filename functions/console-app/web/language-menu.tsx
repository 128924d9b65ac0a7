import { LANGUAGES, nativeName, type TLanguage } from './i18n';
import { useWords } from './words';

/** The language menu: each language named in itself, so a reader finds their own. */
export function LanguageMenu() {
  const { t, lang, setLang } = useWords();
  return (
    <div class="language">
      <label for="console-language">{t('language')}</label>
      <select
        id="console-language"
        value={lang}
        onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value as TLanguage)}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {nativeName(l)}
          </option>
        ))}
      </select>
    </div>
  );
}
