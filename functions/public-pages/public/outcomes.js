// @ts-check
// The pages that end a visit: why this link cannot be signed now (not your turn, signed, declined,
// cancelled, expired), and the thank-you once the signer finished.
import { docLabel, requester, showMessage } from './chrome.js';
import { el, formatDate } from './dom.js';
import { page } from './state.js';

const REASONS = {
  not_your_turn: () => [
    'It isn’t your turn yet',
    `${requester()} asked others to sign “${docLabel()}” before you. You will get a message when it is your turn.`,
    'wait',
  ],
  completed: () => [
    'You have signed',
    `You signed “${docLabel()}”${page.state.completed_at ? ` on ${formatDate(page.state.completed_at)}` : ''}. You will get a copy when everyone has signed.`,
    'ok',
  ],
  declined: () => [
    'You declined to sign',
    `You declined to sign “${docLabel()}”. ${requester()} was told.`,
    'stop',
  ],
  cancelled: () => [
    'This signing request was cancelled',
    `“${docLabel()}” was cancelled, so there is nothing for you to sign. Contact ${requester()} if you have questions.`,
    'stop',
  ],
  expired: () => [
    'This signing request has expired',
    `“${docLabel()}” can no longer be signed. If you still need to sign it, ask ${requester()} to send it again.`,
    'stop',
  ],
  complete: () => ['These documents are already signed', `Everyone has signed “${docLabel()}”.`, 'ok'],
  failed: () => [
    'These documents cannot be signed',
    `Something went wrong with “${docLabel()}”. Contact ${requester()}.`,
    'stop',
  ],
};

export function showReason() {
  const [title, text, tone] = (REASONS[page.state.reason] ?? REASONS.failed)();
  showMessage(title, text, { tone });
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
    'You’re done',
    `Thank you, ${page.state.packet.name}. You signed “${docLabel()}”. ${requester()} will be told, and you will get a copy of the signed documents when everyone has signed.`,
    { tone: 'ok', extra: target ? el('p', { class: 'hint' }, 'Taking you onward…') : null },
  );
  if (target) location.assign(target);
}
