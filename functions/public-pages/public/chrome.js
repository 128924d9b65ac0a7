// @ts-check
// The page around every step: the sender's brand colour, the title, full-page messages, and the
// words that name the sender and the documents.
import { ApiError } from './api.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { page } from './state.js';

export const root = document.documentElement;
export const main = /** @type {HTMLElement} */ (document.getElementById('main'));
export const tools = /** @type {HTMLElement} */ (document.getElementById('tools'));

function luminance(hex) {
  const [r, g, b] = [1, 3, 5]
    .map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The sender's color: buttons take it, with text that stays readable on it. */
export function applyBrand() {
  const color = root.dataset.brandColor;
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return;
  const l = luminance(color);
  root.style.setProperty('--brand', color);
  root.style.setProperty('--on-brand', l > 0.36 ? '#111827' : '#ffffff');
  // Links and outlines on white need 4.5:1; a light brand color keeps the default for those.
  if (l <= 0.18) root.style.setProperty('--brand-text', color);
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
 * @param {string} text
 * @param {{ tone?: string, extra?: Node | null }} [options]
 */
export function showMessage(title, text, { tone = 'info', extra } = {}) {
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
