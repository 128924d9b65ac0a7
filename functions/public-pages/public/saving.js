// @ts-check
// Saving the signer's values: they go to the service a moment after the signer stops typing, at
// once for other changes, in order, one request at a time; refused values are marked on their
// fields (and count as not done), and a request that failed is sent again. The status line says
// "saved" only when every value the page shows is saved.
import { ApiError, api } from './api.js';
import { announce, el } from './dom.js';
import { renderError, renderFilled, unsaved } from './field-render.js';
import { t } from './i18n.js';
import { ended } from './navigation.js';
import { form } from './state.js';

// Saving: values go to the service a moment after the signer stops typing, at once for other
// changes, in order, one request at a time.
const pending = new Map();
let saveTimer;
let saving = Promise.resolve();
/** @type {HTMLElement | undefined} */
let saveStatus;
/** What the page does once the service has answered a save (fields.js updates the progress). */
let settled = () => {};

export function whenSaveSettles(fn) {
  settled = fn;
}

export function setSaveStatus(text, tone = '') {
  if (!saveStatus) return;
  saveStatus.textContent = text;
  saveStatus.className = `save-status ${tone}`;
}

export function queueSave(m, entry, delay) {
  pending.set(m.path, { m, entry });
  setSaveStatus(t('sign.saving.saving'));
  clearTimeout(saveTimer);
  if (delay > 0) saveTimer = setTimeout(flushSaves, delay);
  else flushSaves();
}

export function flushSaves() {
  clearTimeout(saveTimer);
  if (pending.size === 0) return saving;
  const batch = [...pending.values()];
  pending.clear();
  saving = saving.then(() => send(batch));
  return saving;
}

async function send(batch, retried = false) {
  const values = batch.map(({ m, entry }) => ({ doc_key: m.f.doc_key, field_key: m.f.key, ...entry }));
  try {
    await api.saveValues(values);
    for (const { m } of batch) {
      m.serverError = undefined;
      m.saveFailed = false;
      renderError(m);
    }
    if (pending.size === 0) settleStatus();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && err.fields.length > 0) {
      // Nothing of the batch was saved: mark the refused values, send the others again.
      const refused = new Set();
      for (const e of err.fields) {
        const m = form.models.find((x) => x.path === e.field);
        if (!m) continue;
        refused.add(m);
        m.serverError = e.message;
        m.saveFailed = true;
        renderError(m);
        renderFilled(m);
      }
      const rest = batch.filter(({ m }) => !refused.has(m));
      if (rest.length > 0 && !retried) await send(rest, true);
      settled();
      setSaveStatus(t('sign.saving.someRefused'), 'bad');
      announce(t('sign.saving.someRefusedShort'));
    } else if (ended(err)) {
      for (const { m } of batch) m.saveFailed = true;
    } else {
      for (const { m, entry } of batch) {
        m.saveFailed = true;
        if (!pending.has(m.path)) pending.set(m.path, { m, entry });
      }
      setSaveStatus(t('sign.saving.retrying'), 'bad');
      clearTimeout(saveTimer);
      saveTimer = setTimeout(flushSaves, 4000);
    }
  }
}

/**
 * The status line once nothing is waiting: "saved" only when no field shows a value that is not
 * saved (refused by the service, or not valid yet and so never sent).
 */
export function settleStatus() {
  settled();
  if (pending.size > 0) return;
  const marked = form.mine.filter(unsaved);
  if (marked.length === 0) setSaveStatus(t('sign.saving.saved'), 'ok');
  else if (marked.some((m) => m.serverError || m.clientError))
    setSaveStatus(t('sign.saving.someRefused'), 'bad');
  else setSaveStatus('');
}

export async function saveNow(m, entry) {
  queueSave(m, entry, 0);
  await saving;
  return !m.saveFailed;
}

/** A value that no longer needs saving (the signer changed it to one that is not valid yet). */
export function dropPending(path) {
  pending.delete(path);
  settleStatus();
}

/**
 * Whether leaving now would lose something (the page asks first): values waiting to be sent, or
 * values the page shows that are not saved (refused, or not valid yet).
 */
export const hasPending = () => pending.size > 0 || form.mine.some((m) => m.value !== '' && unsaved(m));

/** The status line in the top bar that says whether everything is saved. */
export function saveStatusLine() {
  saveStatus = el('span', { class: 'save-status', role: 'status' });
  return saveStatus;
}
