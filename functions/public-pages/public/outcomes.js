// @ts-check
// The pages that end a visit: why this link cannot be signed now (not your turn, signed, declined,
// cancelled, expired), and the thank-you once the signer finished.
import { api, linkToken } from './api.js';
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
  // A signer who signed is told of their copies as on the done page.
  const copies = name === 'completed' ? copiesBox() : null;
  showMessage(t(`sign.reason.${name}Title`), text, { tone, extra: copies });
  if (copies && !renderCopies(copies, page.state)) void awaitCopies(copies);
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

/** How often, and how many times, the done page asks whether the signed copies are ready. */
const COPIES_POLL_MS = 3000;
const COPIES_POLLS = 40;

/** The path the service is served under ('' locally, `/<stage>` on API Gateway's own URL). */
const basePath = () => (document.documentElement.dataset.api ?? '/sign/api').replace(/\/sign\/api$/, '');

/**
 * What the done page says of the signer's copies (the state's `signed_copies`): the links to
 * download them when the bundle is complete and sealed (a session of the signer's own signing
 * link only, whose token the downloads go by), that they are being prepared, or how they will
 * come. Answers whether the links are shown.
 */
function renderCopies(box, state) {
  const about = state.signed_copies;
  const copies = about?.copies;
  if (copies?.status === 'ready' && copies.files.length > 0) {
    const at = `${basePath()}/sign/copies/${encodeURIComponent(linkToken())}`;
    const item = (f) =>
      el(
        'li',
        {},
        el('a', { class: 'copy-file', href: `${at}/${f.file}`, download: true }, el('bdi', {}, f.name)),
      );
    box.replaceChildren(
      el('p', {}, t('sign.done.copiesReady')),
      el('ul', { class: 'copies-list' }, ...copies.files.map(item)),
    );
    return true;
  }
  const text =
    copies?.status === 'pending'
      ? t('sign.done.copiesPending')
      : about?.by_message
        ? t('sign.done.copyByMessage')
        : tIsolated('sign.done.copyAsk', { requester: requester() });
  box.replaceChildren(el('p', {}, text));
  return false;
}

/** Where the copies are told of: announced politely as they change from pending to ready. */
const copiesBox = () => el('div', { class: 'done-copies', 'aria-live': 'polite' });

/** While the bundle is being sealed, asks again now and then, and shows the links once ready. */
async function awaitCopies(box) {
  for (let i = 0; i < COPIES_POLLS && page.state.signed_copies?.copies?.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, COPIES_POLL_MS));
    if (!box.isConnected) return;
    try {
      page.state = await api.state();
    } catch {
      continue; // offline for a moment: the next try may reach the service
    }
    if (!box.isConnected) return;
    if (renderCopies(box, page.state)) return;
  }
  // Not ready in time: the message with the link will bring them.
  if (box.isConnected && page.state.signed_copies?.copies?.status === 'pending')
    renderCopies(box, { signed_copies: { ...page.state.signed_copies, copies: null } });
}

export function showDone() {
  const target = safeRedirect(page.state.redirect_url);
  const copies = copiesBox();
  showMessage(
    t('sign.done.title'),
    tIsolated('sign.done.text', { name: page.state.packet.name, label: docLabel(), requester: requester() }),
    { tone: 'ok', extra: target ? el('p', { class: 'hint' }, t('sign.done.onward')) : copies },
  );
  if (target) {
    location.assign(target);
    return;
  }
  if (!renderCopies(copies, page.state)) void awaitCopies(copies);
}
