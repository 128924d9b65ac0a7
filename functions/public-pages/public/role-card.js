// @ts-check
// What an approver or a viewer sees instead of the finish card (shared/domain/bundles/
// packet-roles.ts): an approver approves, or rejects with a reason (a rejection ends the bundle as
// a decline does); a viewer only reads, and is done once the link opened. The fields on the
// documents are shown as they are, none of them theirs to fill.
import { ApiError, api } from './api.js';
import { docLabel, messageOf, requester, showMessage } from './chrome.js';
import { modal } from './dialogs.js';
import { el, uid } from './dom.js';
import { formatDate, t, tIsolated } from './i18n.js';
import { ended } from './navigation.js';
import { page } from './state.js';

/** Whether the person reads rather than signs: the page then shows this card, not the finish card. */
export const readsOnly = (state) => state.role === 'approver' || state.role === 'viewer';

/** An approver's recorded answer, which is all their link shows from then on; else null. */
export const answeredApproval = (state) => (state.role === 'approver' ? state.approval : null) ?? null;

/**
 * The end page of an approver who already answered (the state's `approval`): what they did and
 * when, and for a rejection the reason they gave, rather than the decline page a rejected packet
 * would otherwise get. None for anyone else (the usual pages then). A viewer keeps reading the
 * documents after their link opened: their part is done, not over.
 */
export function roleOutcome(state) {
  const done = answeredApproval(state);
  if (!done) return false;
  const values = { label: docLabel(), requester: requester() };
  const dated = (key) =>
    done.at
      ? tIsolated(`${key}OnText`, values, { date: formatDate(done.at) })
      : tIsolated(`${key}Text`, values);
  if (done.answer === 'approved') {
    showMessage(t('roleAnswers.approvedTitle'), dated('roleAnswers.approved'), { tone: 'ok' });
    return true;
  }
  // The reason is the approver's own words: shown as they wrote them, in their own direction.
  const extra = el(
    'div',
    {},
    el('blockquote', { class: 'reject-reason', dir: 'auto' }, done.reason ?? ''),
    el('p', {}, tIsolated('roleAnswers.rejectedNext', { requester: requester() })),
  );
  showMessage(t('roles.page.rejectedTitle'), dated('roleAnswers.rejected'), { tone: 'stop', extra });
  return true;
}

/** The intro's sentence for an approver or a viewer: what the sender asks of them. */
export function roleIntro(state) {
  const key = state.role === 'viewer' ? 'roles.message.viewMessage' : 'roles.message.approveMessage';
  return tIsolated(key, { requester: requester(), label: state.bundle.label || t('message.yourDocuments') });
}

/** The card at the end of the documents: approve or reject, or a note that there is nothing to do. */
export function roleCard() {
  const state = page.state;
  if (state.role === 'viewer') {
    return el(
      'section',
      { class: 'card finish', id: 'finish', 'aria-labelledby': 'finish-title' },
      el('h2', { id: 'finish-title' }, t('roles.viewer')),
      el('p', {}, t('roles.page.viewIntro')),
    );
  }
  const summary = el('div', { class: 'finish-summary', id: 'finish-summary', role: 'alert' });
  const approve = el(
    'button',
    { type: 'button', class: 'btn primary large', id: 'approve-button' },
    t('roles.page.approve'),
  );
  const reject = el(
    'button',
    { type: 'button', class: 'btn link danger', id: 'reject-button' },
    t('roles.page.reject'),
  );
  approve.addEventListener('click', () => answer(summary, approve, () => api.approve()));
  reject.addEventListener('click', async () => {
    const reason = await rejectDialog();
    if (reason) await answer(summary, reject, () => api.reject(reason), true);
  });
  return el(
    'section',
    { class: 'card finish', id: 'finish', 'aria-labelledby': 'finish-title' },
    el('h2', { id: 'finish-title' }, t('roles.page.approveTitle')),
    el('p', {}, t('roles.page.approveIntro')),
    summary,
    el('div', { class: 'finish-actions' }, approve, reject),
  );
}

/** Sends the approver's answer; shows what became of it. */
async function answer(summary, button, send, rejecting = false) {
  summary.replaceChildren();
  button.disabled = true;
  try {
    page.state = await send();
    if (rejecting) showMessage(t('roles.page.rejectedTitle'), t('roles.page.rejected'), { tone: 'stop' });
    else showMessage(t('roles.page.approveTitle'), t('roles.page.approved'), { tone: 'ok' });
  } catch (err) {
    button.disabled = false;
    if (ended(err)) return;
    summary.append(el('p', {}, err instanceof ApiError ? messageOf(err) : t('sign.tryAgainError')));
  }
}

/** Rejecting: the reason (1–500 characters), which the sender is told; resolves it, or null. */
function rejectDialog() {
  return modal({
    title: t('roles.page.sendReject'),
    describe: t('sign.dialog.declineText', { requester: requester() || t('sign.dialog.theSender') }),
    primaryLabel: t('roles.page.reject'),
    danger: true,
    build: ({ showError }) => {
      const id = uid('reason');
      const reason = el('textarea', { id, class: 'input', rows: 4, maxlength: 500, 'aria-required': 'true' });
      reason.addEventListener('input', () => showError(''));
      return {
        body: el('div', {}, el('label', { for: id, class: 'label' }, t('roles.page.reason')), reason),
        submit: async () => {
          const text = reason.value.trim();
          if (!text) {
            showError(t('roles.page.reasonRequired'));
            reason.focus();
            return undefined;
          }
          return text;
        },
      };
    },
  });
}
