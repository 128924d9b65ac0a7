// @ts-check
// The pages that end a visit: why this link cannot be signed now (not your turn, signed, declined,
// cancelled, expired), and the thank-you once the signer finished.
import { docLabel, requester, showMessage } from './chrome.js';
import { el } from './dom.js';
import { formatDate, t, tIsolated } from './i18n.js';
import { page } from './state.js';

/** The reason's title and text (`sign.reason.<name>Title`, `…Text`) and the page's tone. */
const REASONS = {
  not_your_turn: ['notYourTurn', 'wait'],
  completed: ['completed', 'ok'],
  declined: ['declined', 'stop'],
  cancelled: ['cancelled', 'stop'],
  expired: ['expired', 'stop'],
  complete: ['complete', 'ok'],
  failed: ['failed', 'stop'],
};

export function showReason() {
  const [name, tone] = REASONS[page.state.reason] ?? REASONS.failed;
  const values = { label: docLabel(), requester: requester() };
  const text =
    name === 'completed' && page.state.completed_at
      ? t('sign.reason.completedOnText', { ...values, date: formatDate(page.state.completed_at) })
      : t(`sign.reason.${name}Text`, values);
  showMessage(t(`sign.reason.${name}Title`), text, { tone });
}

function safeRedirect(url) {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

export function showDone() {
  const target = safeRedirect(page.state.redirect_url);
  showMessage(
    t('sign.done.title'),
    tIsolated('sign.done.text', { name: page.state.packet.name, label: docLabel(), requester: requester() }),
    { tone: 'ok', extra: target ? el('p', { class: 'hint' }, t('sign.done.onward')) : null },
  );
  if (target) location.assign(target);
}
