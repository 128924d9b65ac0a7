// @ts-check
// The language menu in the top bar: every language the service speaks, each in its own words.
// A choice is kept with the signer (PUT /sign/api/language, their signing record), so the same
// link opened later or on another device speaks it too; the page then loads again in it, after
// any value still waiting is saved.
import { api } from './api.js';
import { el, uid } from './dom.js';
import { lang, languages, nativeName, t } from './i18n.js';
import { flushSaves } from './saving.js';

export function languageMenu() {
  const host = document.getElementById('language');
  if (!host || languages.length < 2) return;
  const id = uid('language');
  const select = el(
    'select',
    { id, class: 'language-select' },
    languages.map((code) =>
      el('option', { value: code, lang: code, selected: code === lang }, nativeName(code)),
    ),
  );
  select.addEventListener('change', async () => {
    select.disabled = true;
    try {
      await flushSaves();
      await api.chooseLanguage(select.value);
    } catch {
      // The reload shows what the service has: the previous language when the choice was not kept.
    }
    location.reload();
  });
  host.replaceChildren(el('label', { for: id, class: 'sr-only' }, t('page.language')), select);
}
