// @ts-check
// Conditional fields on the signing page: a field whose `visible_when` does not hold is hidden
// (and out of the guide and the count), one whose `required_when` holds is required, as the
// signer types. The rules are the service's own (text/field-conditions.js), decided from the
// values the page has: the signer's, and those of signers who finished; a field of another
// signer still to sign reads as empty (its initial value, if any) until they finish, as the
// service reads it. A field that hides is emptied: the service drops its value too.
import { recalculate } from './calculated.js';
import { renderAttachment, renderChoices, renderError, renderFilled, renderMark } from './field-render.js';
import { isFilled } from './rules.js';
import { dropPending } from './saving.js';
import { form } from './state.js';
import { fieldStates } from './text/field-conditions.js';

/** @type {{ all: import('./state.js').TFieldModel[], rules: any[], requiredIfShown: boolean[] } | undefined} */
let setup;

/**
 * Called once the signer's fields are in `form.mine`, in guide order: remembers them all (hidden
 * ones leave `form.mine` and come back in place) and what the service said is required.
 */
export function setUpConditions() {
  const conditional = form.models.some((m) => m.f.visible_when || m.f.required_when);
  setup = conditional
    ? {
        all: form.mine,
        // With `required_when`, the service's `required` says whether the signer must fill it
        // while the condition holds.
        requiredIfShown: form.models.map((m) => Boolean(m.f.required)),
        rules: form.models.map((m) => ({
          doc: m.f.doc_key,
          key: m.f.key,
          kind: m.f.kind,
          required: Boolean(m.f.required),
          visibleWhen: m.f.visible_when ?? undefined,
          requiredWhen: m.f.required_when ?? undefined,
        })),
      }
    : undefined;
}

/** Decides every field again from the values now: shown or hidden, required or not. */
export function applyConditions() {
  if (!setup) return;
  const { all, rules, requiredIfShown } = setup;
  const states = fieldStates(rules, (i) => form.models[i]?.value ?? '', isFilled);
  let turned = false;
  form.models.forEach((m, i) => {
    const { visible, required } = /** @type {{ visible: boolean, required: boolean }} */ (states[i]);
    const hides = visible === false && !m.hidden;
    if (Boolean(m.hidden) === visible) turned = true;
    m.hidden = !visible;
    m.f.required = Boolean(requiredIfShown[i]) && required;
    if (!m.box) return;
    m.box.hidden = !visible;
    m.box.classList.toggle('required', m.f.required);
    if (m.mine) showRequired(m);
    if (hides && m.mine && m.value !== '') empty(m);
  });
  form.mine = all.filter((m) => !m.hidden);
  if (form.current?.hidden) form.current = undefined;
  // A field that hid or showed counts differently in the totals (hidden ones count as 0).
  if (turned) recalculate();
}

/** The control's aria-required and the label's star follow whether the field is required now. */
function showRequired(m) {
  if (m.control?.hasAttribute('aria-required') || m.control?.matches('input, textarea, select'))
    m.control.setAttribute('aria-required', String(m.f.required));
  const tip = m.box?.querySelector('.field-tip');
  const star = tip?.childNodes[1];
  if (star) star.textContent = m.f.required ? ' *' : '';
}

/** A field that hides holds nothing any more: its control empties, its messages go. */
function empty(m) {
  m.value = '';
  dropPending(m.path);
  form.marks.delete(m.path);
  m.clientError = m.serverError = m.requiredError = undefined;
  const c = m.control;
  if (m.f.kind === 'chk' || m.f.kind === 'apr') c.checked = false;
  else if (m.f.kind === 'sig' || m.f.kind === 'ini') renderMark(m);
  else if (m.f.kind === 'cbg') renderChoices(m);
  else if (m.f.kind === 'att') renderAttachment(m);
  else if ('value' in c) c.value = '';
  renderError(m);
  renderFilled(m);
}
