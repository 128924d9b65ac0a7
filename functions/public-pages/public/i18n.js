// @ts-check
// The page's words in the signer's language. The server picks the language (the signer's own
// choice, the packet's, the bundle's, else the browser's) and sets <html lang dir>; this takes
// that language's catalog from the signing page's head (page-words.ts), or fetches it from the
// page's assets (immutable, like them) where the head carries none, and runs the same
// i18next as the server over it (shared/i18n/catalogs.ts), so plurals follow Intl.PluralRules of
// the language. Dates and amounts are formatted with Intl in it too.

// Served beside this file from the i18next package; a specifier in a variable keeps the type
// checker from looking for it here.
const I18NEXT = './i18next.js';

const root = document.documentElement;

/** The page's language, as the server chose it (a tag of shared/i18n/languages.ts). */
export const lang = root.lang || 'en';

/** Every language the signer may switch to, as the server lists them. */
export const languages = (root.dataset.languages ?? lang).split(' ');

/**
 * The catalog the page's head carries, as a JSON data block (page-words.ts); null when it
 * carries none or the block cannot be read.
 */
function carried() {
  const block = document.getElementById('esign-catalog');
  if (!block) return null;
  try {
    return JSON.parse(block.textContent ?? '');
  } catch {
    return null;
  }
}

/**
 * The catalog of the page's language: the one its head carries, else fetched; English when it
 * cannot be read (the words must show).
 */
async function catalog() {
  const messages = carried();
  if (messages) return { name: lang, messages };
  const assets = root.dataset.assets ?? '.';
  for (const name of [lang, 'en']) {
    try {
      // As the page's head preloads it (same-origin credentials), so the preload is used.
      const res = await fetch(`${assets}/locales/${name}.json`);
      if (res.ok) return { name, messages: await res.json() };
    } catch {
      // offline: try the next, and at worst show the keys
    }
  }
  return { name: lang, messages: {} };
}

// The library and the catalog at once: neither waits for the other.
const [{ default: i18next }, loaded] = await Promise.all([import(I18NEXT), catalog()]);

const i18n = i18next.createInstance();
await i18n.init({
  lng: loaded.name,
  fallbackLng: loaded.name,
  resources: { [loaded.name]: { translation: loaded.messages } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/**
 * A message of the catalog: `t('sign.view.pages', { count: 3 })`. Placeholders are filled as
 * text; the page puts messages in the DOM as text, never as markup.
 * @param {string} key
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export const t = (key, values) => i18n.t(key, values);

/**
 * Message `key` with each of `names` standing as a marker no catalog contains, the others filled
 * from `values` as `t` fills them; split at the markers, so that every odd part is the index in
 * `names` of the value that goes there (tEach, tIsolated).
 * @param {string} key
 * @param {Record<string, unknown>} values
 * @param {string[]} names
 * @returns {string[]}
 */
function markedParts(key, values, names) {
  return t(key, { ...values, ...Object.fromEntries(names.map((n, i) => [n, `\u0000${i}\u0000`])) }).split(
    '\u0000',
  );
}

/**
 * A message asked for again and again with only `changing` values different (a page's number
 * among twenty): translated once, with markers where those go, and filled per call. The text
 * reads as `t`'s; only for a message whose wording does not depend on the changing values (no
 * plural by them). A translation costs the library tens of microseconds.
 * @param {string} key
 * @param {Record<string, unknown>} fixed
 * @param {string[]} changing
 * @returns {(values: Record<string, string | number>) => string}
 */
export function tEach(key, fixed, changing) {
  const parts = markedParts(key, fixed, changing);
  return (values) =>
    parts.map((part, i) => (i % 2 === 0 ? part : String(values[changing[Number(part)]]))).join('');
}

/**
 * A message with sender's and signer's words in it (names, labels), as nodes for an element:
 * each value in a <bdi>, so it keeps its own direction and the sentence its own (an English
 * label's full stop stays at its end on an Arabic page). The text reads as `t`'s.
 * `plain` values (a count, ours) are filled as `t` fills them.
 * @param {string} key
 * @param {Record<string, string>} values
 * @param {Record<string, unknown>} [plain]
 * @returns {(string | Node)[]}
 */
export function tIsolated(key, values, plain = {}) {
  const names = Object.keys(values);
  return markedParts(key, plain, names).map((part, i) => {
    if (i % 2 === 0) return part;
    const bdi = document.createElement('bdi');
    bdi.textContent = values[names[Number(part)]] ?? '';
    return bdi;
  });
}

/** A date (an ISO time or date) as the signer's language writes it: 26 November 2026, 2026年11月26日. */
export function formatDate(iso) {
  if (!iso) return '';
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00` : iso);
  return Number.isNaN(d.getTime())
    ? iso
    : new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'long', day: 'numeric' }).format(d);
}

/** A number in the signer's language (digits and separators). */
export const formatNumber = (n) => new Intl.NumberFormat(lang).format(n);

/** The languages' own names, as the server wrote them beside data-languages (pages.ts). */
const names = new Map((root.dataset.languageNames ?? '').split('|').map((name, i) => [languages[i], name]));

/** A language's own name for itself (Deutsch, 日本語, العربية), for the language menu. */
export function nativeName(tag) {
  const given = names.get(tag);
  if (given) return given;
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}
