// @ts-check
// Letting someone else sign: when the sender allows it, the signer names another person (name,
// an email or a mobile number, a reason) and the packet goes to them. The session ends with the
// handover, so the page ends on a "handed to …" message of its own, not on a state it reads again.
import { ApiError, api, forgetSession } from './api.js';
import { docLabel, messageOf, requester, showMessage } from './chrome.js';
import { modal } from './dialogs.js';
import { el, uid } from './dom.js';
import { formatNumber, t } from './i18n.js';
import { ended } from './navigation.js';

/** As the service checks them (reassign-packet.ts): international phones, at most 500 characters. */
const PHONE = /^(\+|00)[1-9][0-9 ().-]{5,}$/;
const REASON_MAX = 500;

/** A labelled input of the dialog; its error is read out with it (aria-describedby). */
function input(label, attrs, hint) {
  const id = uid('ra');
  const hintId = hint ? uid('ra-hint') : undefined;
  const control = el('input', {
    id,
    class: 'input',
    ...attrs,
    ...(hintId ? { 'aria-describedby': hintId } : {}),
  });
  const row = el(
    'div',
    {},
    el('label', { for: id, class: 'label' }, label),
    control,
    hint ? el('span', { class: 'hint', id: hintId }, hint) : null,
  );
  return { row, control };
}

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
      const reasonId = uid('ra-reason');
      const counter = el(
        'span',
        { class: 'hint', 'aria-live': 'polite' },
        `${formatNumber(0)} / ${formatNumber(REASON_MAX)}`,
      );
      const reason = el('textarea', {
        id: reasonId,
        class: 'input',
        rows: 3,
        maxlength: REASON_MAX,
        'aria-required': 'true',
      });
      reason.addEventListener('input', () => {
        counter.textContent = `${formatNumber(reason.value.length)} / ${formatNumber(REASON_MAX)}`;
      });
      const controls = [name.control, email.control, phone.control, reason];
      for (const c of controls) c.addEventListener('input', () => c.removeAttribute('aria-invalid'));
      /** Shows what is wrong and takes the signer to it; undefined keeps the dialog open. */
      const refuse = (control, message) => {
        showError(message);
        control.setAttribute('aria-invalid', 'true');
        control.focus();
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
          el('label', { for: reasonId, class: 'label' }, t('sign.reassign.reason')),
          reason,
          counter,
        ),
        initialFocus: () => name.control,
        submit: async () => {
          const to = {
            name: name.control.value.trim(),
            email: email.control.value.trim(),
            phone: phone.control.value.trim(),
            reason: reason.value.trim(),
          };
          if (!to.name) return refuse(name.control, t('sign.reassign.nameMissing'));
          if (!to.email && !to.phone) return refuse(email.control, t('sign.reassign.contactMissing'));
          if (to.email && !email.control.checkValidity())
            return refuse(email.control, t('sign.reassign.emailInvalid'));
          if (to.phone && !PHONE.test(to.phone))
            return refuse(phone.control, t('sign.reassign.phoneInvalid'));
          if (!to.reason) return refuse(reason, t('sign.reassign.reasonMissing'));
          try {
            return await api.reassign({
              name: to.name,
              reason: to.reason,
              ...(to.email ? { email: to.email } : {}),
              ...(to.phone ? { phone: to.phone } : {}),
            });
          } catch (err) {
            if (!(err instanceof ApiError)) return refuse(name.control, messageOf(err));
            // The service's words are English; what the signer can fix is said in theirs.
            const field = err.fields[0]?.field;
            if (err.status === 400 && (field === 'email' || field === 'phone'))
              return refuse(
                field === 'email' ? email.control : phone.control,
                t('sign.reassign.someoneElse'),
              );
            if (err.status === 403) return refuse(name.control, t('sign.reassign.notAllowed'));
            // Nothing to fix here: the page says why once the dialog is closed.
            if (err.status === 409 || err.status === 404 || err.status === 410) return { refused: err };
            return refuse(name.control, messageOf(err));
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
      t('sign.reassign.doneText', { name, label: docLabel(), requester: requester() }),
      { tone: 'info' },
    );
  });
  return button;
}
