// @ts-check
// Saving the signer's values: they go to the service a moment after the signer stops typing, at
// once for other changes, in order, one request at a time; refused values are marked on their
// fields, and a request that failed is sent again.
import { ApiError, api } from './api.js';
import { announce, el } from './dom.js';
import { renderError } from './field-render.js';
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
    if (pending.size === 0) setSaveStatus(t('sign.saving.saved'), 'ok');
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
      }
      const rest = batch.filter(({ m }) => !refused.has(m));
      if (rest.length > 0 && !retried) await send(rest, true);
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

export async function saveNow(m, entry) {
  queueSave(m, entry, 0);
  await saving;
  return !m.saveFailed;
}

/** A value that no longer needs saving (the signer changed it to one that is not valid yet). */
export function dropPending(path) {
  pending.delete(path);
}

/** Whether values are waiting to be sent (the page asks before it is left). */
export const hasPending = () => pending.size > 0;

/** The status line in the top bar that says whether everything is saved. */
export function saveStatusLine() {
  saveStatus = el('span', { class: 'save-status', role: 'status' });
  return saveStatus;
}
