// @ts-check
// Letting someone else sign: when the sender allows it, the signer names another person (name,
// an email or a mobile number, a reason) and the packet goes to them. The session ends with the
// handover, so the page ends on a "handed to …" message of its own, not on a state it reads again.
import { ApiError, api, forgetSession } from './api.js';
import { docLabel, messageOf, requester, showMessage } from './chrome.js';
import { modal } from './dialogs.js';
import { el, uid } from './dom.js';
import { formatNumber, t, tIsolated } from './i18n.js';
import { ended } from './navigation.js';

/** As the service checks them (reassign-packet.ts): international phones, at most 500 characters. */
const PHONE = /^(\+|00)[1-9][0-9 ().-]{5,}$/;
const REASON_MAX = 500;

/**
 * A labelled control of the dialog with its error beside it: read out with the control
 * (aria-describedby, after its hint), and cleared as the signer types.
 */
function withError(label, control, hint) {
  const id = uid('ra');
  control.id = id;
  const hintId = hint ? uid('ra-hint') : undefined;
  const error = el('span', { class: 'field-error block', id: uid('ra-error') });
  control.setAttribute('aria-describedby', [hintId, error.id].filter(Boolean).join(' '));
  control.addEventListener('input', () => {
    control.removeAttribute('aria-invalid');
    error.textContent = '';
  });
  const row = el(
    'div',
    {},
    el('label', { for: id, class: 'label' }, label),
    control,
    hint ? el('span', { class: 'hint', id: hintId }, hint) : null,
    error,
  );
  return { row, control, error };
}

/** A labelled input of the dialog, with its error beside it. */
const input = (label, attrs, hint) => withError(label, el('input', { class: 'input', ...attrs }), hint);

/** The dialog: resolves the handover's answer once the service took it, or null when cancelled. */
function reassignDialog() {
  return modal({
    title: t('sign.reassign.title'),
    describe: t('sign.reassign.intro', { requester: requester() }),
    primaryLabel: t('sign.reassign.submit'),
    build: ({ showError }) => {
      const name = input(t('sign.reassign.name'), {
        autocomplete: 'off',
        maxlength: 255,
        'aria-required': 'true',
      });
      const email = input(t('sign.reassign.email'), { type: 'email', autocomplete: 'off', maxlength: 254 });
      const phone = input(
        t('sign.reassign.phone'),
        { type: 'tel', autocomplete: 'off', maxlength: 128, dir: 'ltr' },
        t('sign.reassign.phoneHint'),
      );
      const counter = el(
        'span',
        { class: 'hint', 'aria-live': 'polite' },
        `${formatNumber(0)} / ${formatNumber(REASON_MAX)}`,
      );
      const reason = withError(
        t('sign.reassign.reason'),
        el('textarea', {
          class: 'input',
          rows: 3,
          maxlength: REASON_MAX,
          'aria-required': 'true',
          dir: 'auto',
        }),
      );
      reason.row.insertBefore(counter, reason.error);
      reason.control.addEventListener('input', () => {
        counter.textContent = `${formatNumber(reason.control.value.length)} / ${formatNumber(REASON_MAX)}`;
      });
      const fields = [name, email, phone, reason];
      /** Shows what is wrong beside the field and takes the signer to it; undefined keeps the dialog open. */
      const refuse = (field, message) => {
        for (const f of fields) f.error.textContent = '';
        if (field) {
          field.error.textContent = message;
          field.control.setAttribute('aria-invalid', 'true');
          field.control.focus();
        } else showError(message);
        return undefined;
      };
      return {
        body: el(
          'div',
          { class: 'reassign-form' },
          name.row,
          el(
            'fieldset',
            { class: 'choices' },
            el('legend', { class: 'label' }, t('sign.reassign.contactLegend')),
            email.row,
            phone.row,
          ),
          reason.row,
        ),
        initialFocus: () => name.control,
        submit: async () => {
          const to = {
            name: name.control.value.trim(),
            email: email.control.value.trim(),
            phone: phone.control.value.trim(),
            reason: reason.control.value.trim(),
          };
          if (!to.name) return refuse(name, t('sign.reassign.nameMissing'));
          if (!to.email && !to.phone) return refuse(email, t('sign.reassign.contactMissing'));
          if (to.email && !email.control.checkValidity())
            return refuse(email, t('sign.reassign.emailInvalid'));
          if (to.phone && !PHONE.test(to.phone)) return refuse(phone, t('sign.reassign.phoneInvalid'));
          if (!to.reason) return refuse(reason, t('sign.reassign.reasonMissing'));
          try {
            return await api.reassign({
              name: to.name,
              reason: to.reason,
              ...(to.email ? { email: to.email } : {}),
              ...(to.phone ? { phone: to.phone } : {}),
            });
          } catch (err) {
            if (!(err instanceof ApiError)) return refuse(undefined, messageOf(err));
            // The service's words are English; what the signer can fix is said in theirs.
            const field = err.fields[0]?.field;
            if (err.status === 400 && (field === 'email' || field === 'phone'))
              return refuse(field === 'email' ? email : phone, t('sign.reassign.someoneElse'));
            if (err.status === 403) return refuse(undefined, t('sign.reassign.notAllowed'));
            // Nothing to fix here: the page says why once the dialog is closed.
            if (err.status === 409 || err.status === 404 || err.status === 410) return { refused: err };
            return refuse(undefined, messageOf(err));
          }
        },
      };
    },
  });
}

/** The finish card's "Let someone else sign": the dialog, then the page's end. */
export function reassignButton() {
  const button = el(
    'button',
    { type: 'button', class: 'btn link', id: 'reassign-button' },
    t('sign.reassign.action'),
  );
  button.addEventListener('click', async () => {
    const handed = await reassignDialog();
    if (!handed) return;
    // Refused because the signer can no longer sign (finished elsewhere, bundle cancelled…).
    if (handed.refused) return ended(handed.refused);
    forgetSession();
    const name = handed.handed_to.name;
    showMessage(
      t('sign.reassign.doneTitle', { name }),
      tIsolated('sign.reassign.doneText', { name, label: docLabel(), requester: requester() }),
      { tone: 'info' },
    );
  });
  return button;
}
