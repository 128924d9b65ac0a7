// @ts-check
// The page around every step: the sender's brand colour, the title, full-page messages, and the
// words that name the sender and the documents.
import { ApiError } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { endOpening } from './opening.js';
import { page } from './state.js';

export const root = document.documentElement;
export const main = /** @type {HTMLElement} */ (document.getElementById('main'));
export const tools = /** @type {HTMLElement} */ (document.getElementById('tools'));

/**
 * The sender's colours: the server made them readable (brand-palette.ts: the button text on the
 * brand colour and the brand colour as text each reach 4.5:1); the page only applies them, through
 * the CSSOM since its Content-Security-Policy forbids inline styles.
 */
export function applyBrand() {
  const { brandColor, onBrand, brandText } = root.dataset;
  const hex = /^#[0-9a-f]{6}$/i;
  if (!brandColor || !onBrand || !brandText || ![brandColor, onBrand, brandText].every((c) => hex.test(c)))
    return;
  root.style.setProperty('--brand', brandColor);
  root.style.setProperty('--on-brand', onBrand);
  root.style.setProperty('--brand-text', brandText);
}

export const requester = () => page.state?.bundle.requester_name || t('sign.theSender');
export const docLabel = () => page.state?.bundle.label || t('sign.theseDocuments');

export function setTitle(text) {
  const brand = root.dataset.brandName;
  document.title = brand ? `${text} · ${brand}` : text;
}

/**
 * A full-page message: clear pages for links that cannot be signed, and the end.
 * @param {string} title
 * @param {string | (string | Node)[]} text  with nodes, sender's words in <bdi> (i18n.js, tIsolated)
 * @param {{ tone?: string, extra?: Node | null }} [options]
 */
export function showMessage(title, text, { tone = 'info', extra } = {}) {
  // Shown as soon as it is built, whatever the page was waiting for (opening.js).
  endOpening();
  tools.replaceChildren();
  const heading = el('h1', { id: 'msg-title', tabindex: '-1' }, title);
  main.replaceChildren(
    el(
      'section',
      { class: `card message ${tone}`, 'aria-labelledby': 'msg-title' },
      el('div', { class: `msg-icon ${tone}`, 'aria-hidden': 'true' }),
      heading,
      el('p', {}, text),
      extra,
    ),
  );
  setTitle(title);
  heading.focus();
}

/** What to tell the signer about a refused step: the service's words for the field, else its message. */
export function messageOf(err) {
  return err instanceof ApiError ? (err.fields[0]?.message ?? err.message) : t('sign.tryAgainError');
}
