// @ts-check
// How a field shows what it holds: its name, whether it is filled, its message, the mark or
// choices or file it carries, and what another signer's field shows. Pure drawing of a field's
// model; nothing here saves or moves.
import { placeBubbles } from './bubbles.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { isFilled, valueProblem } from './rules.js';
import { form, page } from './state.js';
import { formatFieldDate } from './text/field-dates.js';

const KINDS = ['sig', 'ini', 'snm', 'sdt', 'inp', 'txt', 'dat', 'chk', 'cbg', 'sel', 'att', 'apr'];

/** What a kind of field is called, for a field without a label. */
export const kindName = (kind) => t(`sign.fields.kind.${KINDS.includes(kind) ? kind : 'other'}`);

export const nameOf = (m) => m.f.label || kindName(m.f.kind);
/**
 * Whether the field holds a value the service will keep: filled, and neither refused by the page's
 * rules nor by the service. A value with a problem is not saved, so it never counts as done.
 */
export const filled = (m) => isFilled(m.f, m.value) && !unsaved(m);

/** The field's value is not saved: the page's rules or the service refused it. */
export const unsaved = (m) => Boolean(m.serverError || valueProblem(m.f, m.value, t));

let errorsChanged = () => {};

/** What to do whenever a field's message changes (view.js keeps the finish summary true with it). */
export function whenErrorsChange(fn) {
  errorsChanged = fn;
}

export function initials(name) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase())
    .join('');
}

/** The message a field shows, if any: the service's word wins over the page's. */
export const shownMessage = (m) => m.serverError || m.clientError || m.requiredError || '';

/** Shows or clears the message under a field. */
export function renderError(m) {
  const text = shownMessage(m);
  if (m.err) m.err.textContent = text;
  m.box?.classList.toggle('invalid', Boolean(text));
  placeBubbles([m.box]);
  if (m.control) {
    if (text) m.control.setAttribute('aria-invalid', 'true');
    else m.control.removeAttribute('aria-invalid');
  }
  errorsChanged();
}

export function renderFilled(m) {
  m.box?.classList.toggle('filled', filled(m));
  // Its control is in the phone's sheet (field-sheet.js): the field on the page shows the value.
  m.echo?.replaceChildren(echoContent(m));
  // Something is there now: if it is not valid, its own message says so.
  if (isFilled(m.f, m.value) && m.requiredError) {
    m.requiredError = undefined;
    renderError(m);
  }
}

/** What a signature or initials field shows: the mark, or what to do. */
function markContent(m) {
  const image = form.marks.get(m.path);
  if (image) return el('img', { src: image, alt: '' });
  if (m.value.startsWith('typed:')) return el('span', { class: 'typed', dir: 'auto' }, m.value.slice(6));
  if (m.value === 'drawn') return el('span', { class: 'typed', dir: 'auto' }, page.state.packet.name);
  return el('span', { class: 'cta' }, t(m.f.kind === 'ini' ? 'sign.fields.initial' : 'sign.fields.sign'));
}

/** The signature button shows the mark, or what to do. */
export function renderMark(m) {
  const button = m.control;
  button.replaceChildren(markContent(m));
  // The name holds the words the button shows (WCAG 2.5.3, label in name): a person using voice
  // control says what they see.
  const field = nameOf(m);
  if (form.marks.get(m.path)) {
    button.setAttribute('aria-label', t('sign.fields.doneLabel', { field }));
  } else if (m.value) {
    const mark = m.value.startsWith('typed:') ? m.value.slice(6) : page.state.packet.name;
    button.setAttribute('aria-label', t('sign.fields.markDoneLabel', { field, mark }));
  } else {
    const action = t(m.f.kind === 'ini' ? 'sign.fields.initial' : 'sign.fields.sign');
    button.setAttribute('aria-label', t('sign.fields.markLabel', { field, action }));
  }
}

export function renderChoices(m) {
  // The sender's own option values, listed as the service lists them everywhere.
  const chosen = m.value ? m.value.split('|').join(', ') : '';
  m.control.textContent = chosen || t('sign.fields.choose');
  // Named with what it shows ("Choose…" when empty), as the signature button is.
  m.control.setAttribute(
    'aria-label',
    t('sign.fields.choicesLabel', { field: nameOf(m), choices: m.control.textContent }),
  );
}

export function renderAttachment(m) {
  m.fileName.textContent = m.value ? m.value : t('sign.fields.noFile');
  m.control.textContent = t(m.value ? 'sign.fields.replaceFile' : 'sign.fields.chooseFile');
  const action = m.control.textContent;
  m.control.setAttribute(
    'aria-label',
    m.value
      ? t('sign.fields.fileLabelNamed', { field: nameOf(m), action, file: m.value })
      : t('sign.fields.fileLabel', { field: nameOf(m), action }),
  );
}

/**
 * What one of the signer's own fields shows on the page while its control is in the phone's
 * sheet: its value as the control would show it, or its name.
 */
export function echoContent(m) {
  if (m.f.kind === 'sig' || m.f.kind === 'ini') return markContent(m);
  if (m.f.kind === 'dat' && m.value) return el('span', { class: 'value' }, documentDate(m));
  if (m.f.kind === 'att' && m.value) return el('span', { class: 'value' }, m.value);
  return readOnlyContent(m);
}

/**
 * A date as the document will show it: in the field's format, month names in the documents'
 * language (the same function writes it on the PDF), not in the page's.
 */
const documentDate = (m) => formatFieldDate(m.value, m.f.format ?? '', page.state.bundle.language ?? 'en');

/** What another signer's field (or one the service fills) shows: its value, or what it is for. */
export function readOnlyContent(m) {
  const f = m.f;
  const v = m.value;
  // Sender's and signers' words in their own direction (dir="auto"), whatever the page's.
  if (!v) return el('span', { class: 'placeholder', dir: 'auto' }, f.label || kindName(f.kind));
  if (f.kind === 'chk' || f.kind === 'apr') return el('span', { class: 'value' }, v === 'true' ? '✓' : '');
  if (f.kind === 'sig' || f.kind === 'ini') {
    return el(
      'span',
      { class: 'typed', dir: 'auto' },
      v.startsWith('typed:') ? v.slice(6) : t('sign.fields.signed'),
    );
  }
  if (f.kind === 'sdt' || f.kind === 'dat') return el('span', { class: 'value' }, documentDate(m));
  return el('span', { class: 'value', dir: 'auto' }, f.kind === 'cbg' ? v.split('|').join(', ') : v);
}
