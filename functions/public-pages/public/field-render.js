// @ts-check
// How a field shows what it holds: its name, whether it is filled, its message, the mark or
// choices or file it carries, and what another signer's field shows. Pure drawing of a field's
// model; nothing here saves or moves.
import { placeBubbles } from './bubbles.js';
import { el, formatDate } from './dom.js';
import { isFilled } from './rules.js';
import { form, page } from './state.js';

export const KIND_NAMES = {
  sig: 'Signature',
  ini: 'Initials',
  snm: 'Signer name',
  sdt: 'Date signed',
  inp: 'Text',
  txt: 'Text',
  dat: 'Date',
  chk: 'Checkbox',
  cbg: 'Options',
  sel: 'Choice',
  att: 'Attachment',
  apr: 'Approval',
};

export const nameOf = (m) => m.f.label || KIND_NAMES[m.f.kind] || 'Field';
export const filled = (m) => isFilled(m.f, m.value);

export function initials(name) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase())
    .join('');
}

/** Shows or clears the message under a field; the service's word wins over the page's. */
export function renderError(m) {
  const text = m.serverError || m.clientError || m.requiredError || '';
  if (m.err) m.err.textContent = text;
  m.box?.classList.toggle('invalid', Boolean(text));
  placeBubbles([m.box]);
  if (m.control) {
    if (text) m.control.setAttribute('aria-invalid', 'true');
    else m.control.removeAttribute('aria-invalid');
  }
}

export function renderFilled(m) {
  m.box?.classList.toggle('filled', filled(m));
  if (filled(m) && m.requiredError) {
    m.requiredError = undefined;
    renderError(m);
  }
}

/** The text the signature button shows: the mark, or what to do. */
export function renderMark(m) {
  const button = m.control;
  button.replaceChildren();
  const image = form.marks.get(m.path);
  if (image) {
    button.append(el('img', { src: image, alt: '' }));
  } else if (m.value.startsWith('typed:')) {
    button.append(el('span', { class: 'typed' }, m.value.slice(6)));
  } else if (m.value === 'drawn') {
    button.append(el('span', { class: 'typed' }, page.state.packet.name));
  } else {
    button.append(el('span', { class: 'cta' }, m.f.kind === 'ini' ? 'Initial' : 'Sign'));
  }
  const done = m.value ? ' (done; press to change)' : '';
  button.setAttribute('aria-label', `${nameOf(m)}${done}`);
}

export function renderChoices(m) {
  m.control.textContent = m.value ? m.value.split('|').join(', ') : 'Choose…';
  m.control.setAttribute(
    'aria-label',
    `${nameOf(m)}: ${m.value ? m.value.split('|').join(', ') : 'none chosen'}`,
  );
}

export function renderAttachment(m) {
  m.fileName.textContent = m.value ? m.value : 'No file yet';
  m.control.textContent = m.value ? 'Replace file' : 'Choose file';
  m.control.setAttribute(
    'aria-label',
    `${nameOf(m)}: ${m.control.textContent}${m.value ? ` (${m.value})` : ''}`,
  );
}

/** What another signer's field (or one the service fills) shows: its value, or what it is for. */
export function readOnlyContent(m) {
  const f = m.f;
  const v = m.value;
  if (!v) return el('span', { class: 'placeholder' }, f.label || KIND_NAMES[f.kind]);
  if (f.kind === 'chk' || f.kind === 'apr') return el('span', { class: 'value' }, v === 'true' ? '✓' : '');
  if (f.kind === 'sig' || f.kind === 'ini') {
    return el('span', { class: 'typed' }, v.startsWith('typed:') ? v.slice(6) : 'Signed');
  }
  if (f.kind === 'sdt') return el('span', { class: 'value' }, formatDate(v));
  return el('span', { class: 'value' }, f.kind === 'cbg' ? v.split('|').join(', ') : v);
}
