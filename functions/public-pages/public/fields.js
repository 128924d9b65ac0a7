// @ts-check
// The signer's fields on the documents: the control each kind gets, editing and checking a value,
// signing with a drawn or typed mark, attaching a file, and the guide that leads from field to
// field and on to finishing.
import { api } from './api.js';
import { keepBubblesInView, placeBubbles } from './bubbles.js';
import { calculatedContent, isCalculated, recalculate } from './calculated.js';
import { messageOf } from './chrome.js';
import { applyConditions } from './conditions.js';
import { choicesDialog, signatureDialog } from './dialogs.js';
import { announce, el, uid } from './dom.js';
import {
  filled,
  initials,
  kindName,
  nameOf,
  readOnlyContent,
  renderAttachment,
  renderChoices,
  renderError,
  renderFilled,
  renderMark,
} from './field-render.js';
import { bringIntoView, closeSheet, openSheet, small } from './field-sheet.js';
import { nextField, previousField } from './guide.js';
import { lang, t } from './i18n.js';
import { ended } from './navigation.js';
import { acceptOf, attachmentHint, attachmentProblem, inputHints, isIsoDate, valueProblem } from './rules.js';
import { dropPending, queueSave, saveNow, setSaveStatus, settleStatus, whenSaveSettles } from './saving.js';
import { form, page } from './state.js';
import { enteredDate, parseEnteredDate } from './text/field-dates.js';

// The bubbles of every field showing an error and of the field in hand stay in view (bubbles.js).
keepBubblesInView(() => [
  ...form.mine.filter((m) => m.err?.textContent).map((m) => m.box),
  form.current?.box,
]);

// A value the service refused no longer counts as done.
whenSaveSettles(() => updateProgress());

/** The signer changed a value: check it, show the outcome, save it when it is valid. */
function edit(m, value, { delay = 0, quiet = false } = {}) {
  m.value = value;
  recalculate();
  m.serverError = undefined;
  const problem = valueProblem(m.f, value, t);
  // While typing, a message appears only once the field is left; one shown already updates.
  if (!quiet || !problem || m.clientError) m.clientError = problem;
  renderError(m);
  renderFilled(m);
  updateProgress();
  if (problem) {
    dropPending(m.path);
    return;
  }
  queueSave(m, { value }, delay);
}

/** The field in hand; on a phone its control goes to the sheet (field-sheet.js). */
function setCurrent(m) {
  if (form.current !== m) {
    form.current?.box?.classList.remove('current');
    form.current = m;
    form.visited.add(m);
    m.box?.classList.add('current');
    updateProgress();
  }
  openSheet(m);
  placeBubbles([m.box]);
}

export function goTo(m) {
  setCurrent(m);
  m.control.focus({ preventScroll: true });
  bringIntoView(m.box);
}

function goToFinish() {
  const finish = document.getElementById('finish');
  const consent = /** @type {HTMLInputElement} */ (document.getElementById('consent'));
  closeSheet(false);
  bringIntoView(finish);
  (consent.checked ? document.getElementById('finish-button') : consent).focus({ preventScroll: true });
}

/**
 * The guide: required fields left first, then optional ones not yet visited (guide.js), else
 * finishing.
 */
export function next() {
  const target = nextField(form.mine, form.current, filled, form.visited);
  if (target) goTo(target);
  else goToFinish();
}

/** "Previous field": back one field in document order. */
function previous() {
  const target = previousField(form.mine, form.current);
  if (target) goTo(target);
}

/** @type {HTMLElement | undefined} */
let progressText;
/** @type {HTMLButtonElement | undefined} */
let previousButton;
/** @type {HTMLElement | undefined} */
let progressLive;
/** @type {HTMLElement | undefined} */
let nextButton;

/**
 * The guide: how many required fields are done, "Next field", and on a touch screen "Previous
 * field" (app.css); in the top bar, or at the bottom of a phone's screen (field-sheet.js).
 */
export function guideBar() {
  progressText = el('span', { class: 'progress' });
  // The count as a sentence in a polite live region: a screen reader hears each field done.
  progressLive = el('span', { id: 'progress-status', class: 'sr-only', role: 'status' });
  previousButton = el(
    'button',
    { type: 'button', class: 'btn previous', onclick: previous },
    t('sign.guide.previous'),
  );
  nextButton = el(
    'button',
    { type: 'button', class: 'btn primary next', onclick: next },
    t('sign.guide.start'),
  );
  return el('div', { class: 'guide' }, previousButton, progressText, progressLive, nextButton);
}

export function updateProgress() {
  if (!progressText) return;
  // Every change of a value passes here: conditions decide again what shows and what counts.
  applyConditions();
  const required = form.mine.filter((m) => m.f.required);
  const done = required.filter(filled).length;
  progressText.replaceChildren(
    el('strong', {}, `${done}/${required.length}`),
    el('span', { class: 'wide-only' }, ` ${t('sign.guide.progress')}`),
  );
  const said = t('sign.guide.progressLabel', { done, count: required.length });
  progressText.setAttribute('aria-label', said);
  if (progressLive && progressLive.textContent !== said) progressLive.textContent = said;
  if (previousButton) previousButton.disabled = !previousField(form.mine, form.current);
  const more = nextField(form.mine, form.current, filled, form.visited);
  nextButton.textContent = t(
    !more ? 'sign.guide.finish' : form.current ? 'sign.guide.next' : 'sign.guide.start',
  );
  document.getElementById('finish')?.classList.toggle('ready', done === required.length);
}

/** The kinds whose control is a button that opens a dialog or a file chooser. */
const BUTTON_KINDS = new Set(['sig', 'ini', 'cbg', 'att']);

/**
 * What a typed text control shows: the value, the label as a hint and the length allowed; the
 * signer's text takes its own direction (12-AB stays 12-AB on a right-to-left page).
 */
const textOf = (m) => ({
  dir: 'auto',
  value: m.value,
  placeholder: m.f.label || undefined,
  maxlength: m.f.v_max != null ? Math.floor(m.f.v_max) : undefined,
});

/** A typed control is saved quietly after a pause in typing, and at once when it changes. */
function saveAsTyped(c, m, read = () => c.value) {
  c.addEventListener('input', () => edit(m, read(), { delay: 700, quiet: true }));
  c.addEventListener('change', () => edit(m, read()));
}

/** Enter in a one-line control goes on to the next field, as the guide's button does. */
function enterGoesNext(c) {
  c.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      next();
    }
  });
}

function controlFor(m, errId) {
  const f = m.f;
  const common = {
    class: 'ctl',
    'aria-label': nameOf(m),
    // Buttons (signature, choices, file) take no aria-required: the guide and the progress say
    // which fields are required.
    'aria-required': f.required && !BUTTON_KINDS.has(f.kind) ? 'true' : undefined,
    'aria-describedby': errId,
  };
  switch (f.kind) {
    case 'inp': {
      const hints = inputHints(f);
      const c = el('input', {
        ...common,
        type: hints.type,
        inputmode: hints.inputmode,
        autocomplete: hints.autocomplete ?? 'off',
        ...textOf(m),
      });
      saveAsTyped(c, m);
      enterGoesNext(c);
      return c;
    }
    case 'txt': {
      const c = el('textarea', { ...common, ...textOf(m) });
      saveAsTyped(c, m);
      return c;
    }
    case 'dat': {
      // Typed in the page's language's order (27.11.2026 in German), whatever the browser's own
      // language: a date input would follow the browser's. The value is the ISO date it reads
      // as, or the text as typed while it reads as none (refused, so never saved or counted).
      const c = el('input', {
        ...common,
        type: 'text',
        inputmode: 'numeric',
        autocomplete: 'off',
        value: isIsoDate(m.value) ? enteredDate(m.value, lang) : m.value,
        placeholder: t('sign.fields.datePattern'),
      });
      const typed = () => {
        const text = c.value.trim();
        return text === '' ? '' : (parseEnteredDate(text, lang) ?? text);
      };
      saveAsTyped(c, m, typed);
      // Once saved, a date that reads as one is shown again in the page language's order.
      c.addEventListener('change', () => {
        if (isIsoDate(m.value)) c.value = enteredDate(m.value, lang);
      });
      enterGoesNext(c);
      return c;
    }
    case 'chk': {
      const c = el('input', { ...common, type: 'checkbox', checked: m.value === 'true' });
      c.addEventListener('change', () => edit(m, c.checked ? 'true' : 'false'));
      return c;
    }
    case 'apr': {
      const c = el('input', { ...common, type: 'checkbox', checked: m.value === 'true' });
      c.addEventListener('change', () => edit(m, c.checked ? 'true' : 'false'));
      return c;
    }
    case 'sel': {
      const c = el(
        'select',
        common,
        el('option', { value: '' }, t('sign.fields.choose')),
        f.options.map((o) => el('option', { value: o, selected: o === m.value, dir: 'auto' }, o)),
      );
      c.value = m.value;
      c.addEventListener('change', () => edit(m, c.value));
      return c;
    }
    case 'cbg': {
      const c = el('button', { ...common, type: 'button', 'aria-haspopup': 'dialog' });
      c.addEventListener('click', async () => {
        const value = await choicesDialog({
          label: nameOf(m),
          options: f.options,
          value: m.value,
          required: f.required,
        });
        if (value !== null) {
          edit(m, value);
          renderChoices(m);
        }
        c.focus();
      });
      return c;
    }
    case 'sig':
    case 'ini': {
      const c = el('button', { ...common, type: 'button', 'aria-haspopup': 'dialog' });
      c.addEventListener('click', () => sign(m));
      return c;
    }
    case 'att': {
      const c = el('button', { ...common, type: 'button' });
      return c;
    }
    default:
      return el('span', { class: 'ctl' });
  }
}

async function sign(m) {
  const kind = m.f.kind;
  let result;
  try {
    result = await signatureDialog({
      kind,
      label: m.f.label,
      suggestion: kind === 'ini' ? initials(page.state.packet.name) : page.state.packet.name,
      previous: form.lastMark[kind],
    });
  } catch {
    m.clientError = t('sign.fields.padFailed');
    renderError(m);
    return;
  }
  m.control.focus();
  if (!result) return;
  const previous = m.value;
  m.value = result.image ? 'drawn' : `typed:${result.typed}`;
  if (result.image) form.marks.set(m.path, result.image);
  else form.marks.delete(m.path);
  renderMark(m);
  renderFilled(m);
  updateProgress();
  const ok = await saveNow(m, result.image ? { image: result.image } : { value: m.value });
  if (ok) {
    form.lastMark[kind] = result;
    announce(t('sign.fields.added', { field: nameOf(m) }));
  } else {
    m.value = previous;
    form.marks.delete(m.path);
    renderMark(m);
    renderFilled(m);
    updateProgress();
  }
}

async function attach(m, file) {
  if (!file) return;
  const problem = attachmentProblem(m.f, file, t);
  m.serverError = undefined;
  m.clientError = problem;
  renderError(m);
  if (problem) return;
  m.control.disabled = true;
  setSaveStatus(t('sign.fields.uploading'));
  try {
    const fresh = await api.attach(m.f.doc_key, m.f.key, file);
    const field = fresh.fields.find((x) => x.doc_key === m.f.doc_key && x.key === m.f.key);
    m.value = field?.value ?? file.name;
    renderAttachment(m);
    renderFilled(m);
    updateProgress();
    settleStatus();
    announce(t('sign.fields.attached', { file: file.name }));
  } catch (err) {
    if (ended(err)) return;
    m.serverError = messageOf(err);
    renderError(m);
    setSaveStatus(t('sign.fields.notAttached'), 'bad');
  } finally {
    m.control.disabled = false;
  }
}

/** A field placed on its page: x, y, w and h are percentages of the page. */
export function fieldBox(m) {
  const f = m.f;
  const box = el('div', {
    class: `field k-${f.kind} ${m.mine ? 'mine' : 'theirs'}${f.required ? ' required' : ''}`,
  });
  box.style.left = `${f.x}%`;
  box.style.top = `${f.y}%`;
  box.style.width = `${f.w}%`;
  box.style.height = `${f.h}%`;
  box.style.setProperty('--fh', String(f.h));
  m.box = box;
  if (!m.mine && isCalculated(f)) {
    box.classList.add('calculated-field');
    box.title = t('formulas.calculated');
    box.append(calculatedContent(m));
    return box;
  }
  if (!m.mine) {
    const service = f.kind === 'snm' || f.kind === 'sdt';
    // A value the sender gave and locked (read_only): shown as text, said to be the sender's.
    if (f.read_only) box.classList.add('locked');
    box.title = f.read_only
      ? t('prefill.filledBySender')
      : t(service ? 'sign.fields.filledAtEnd' : 'sign.fields.filledByOther');
    box.append(
      el(
        'span',
        { class: 'sr-only' },
        f.read_only
          ? t('prefill.sendersField', { label: f.label || kindName(f.kind) })
          : service
            ? t('sign.fields.filledForYou', { kind: kindName(f.kind) })
            : t('sign.fields.othersField'),
      ),
      readOnlyContent(m),
    );
    return box;
  }
  const errId = uid('err');
  // An alert (an assertive live region): a screen reader says the message as soon as it shows.
  m.err = el('span', { class: 'field-error', id: errId, role: 'alert' });
  m.control = controlFor(m, errId);
  box.append(m.control, m.err);
  if (f.kind === 'att') attachmentControls(m, box);
  box.append(
    // The sender's label isolated: its own direction, the mark after it in the page's.
    el(
      'span',
      { class: 'field-tip', 'aria-hidden': 'true' },
      el('bdi', {}, nameOf(m)),
      f.required ? ' *' : '',
    ),
  );
  m.control.addEventListener('focus', () => setCurrent(m));
  // On a phone the field is too small to work in: a tap anywhere on it opens it in the sheet.
  box.addEventListener('click', () => {
    if (small() && !box.classList.contains('in-sheet')) goTo(m);
  });
  if (f.kind === 'sig' || f.kind === 'ini') renderMark(m);
  if (f.kind === 'cbg') renderChoices(m);
  renderFilled(m);
  return box;
}

/** An attachment field: the button opens a hidden file input. */
function attachmentControls(m, container) {
  const input = el('input', {
    type: 'file',
    class: 'sr-only',
    tabindex: '-1',
    accept: acceptOf(m.f),
    'aria-hidden': 'true',
  });
  m.fileName = el('span', { class: 'file-name' });
  m.control.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    attach(m, input.files[0]);
    input.value = '';
  });
  container.append(input);
  renderAttachment(m);
}

/** Attachment fields have no place on a page: they are listed after the documents. */
export function attachmentRow(m) {
  const f = m.f;
  const errId = uid('err');
  const titleId = uid('att');
  m.err = el('span', { class: 'field-error block', id: errId, role: 'alert' });
  m.control = el('button', {
    type: 'button',
    class: 'btn',
    // No aria-required: not allowed on a button (see BUTTON_KINDS).
    'aria-describedby': `${titleId} ${errId}`,
  });
  const row = el(
    'li',
    { class: `attachment mine${f.required ? ' required' : ''}` },
    el(
      'div',
      { class: 'attachment-text' },
      el(
        'span',
        { class: 'attachment-title', id: titleId },
        el('bdi', {}, nameOf(m)),
        f.required ? el('span', { class: 'req' }, ' *') : null,
      ),
      el('span', { class: 'hint' }, attachmentHint(f, t)),
    ),
  );
  m.box = row;
  attachmentControls(m, row);
  row.append(el('div', { class: 'attachment-file' }, m.fileName, m.control), m.err);
  m.control.addEventListener('focus', () => setCurrent(m));
  renderFilled(m);
  return row;
}
