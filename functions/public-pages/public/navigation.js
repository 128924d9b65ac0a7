// @ts-check
// Where the page goes: it opens the signer's session and reads the state, and shows whatever the
// state says is next (the router, app.js). After a refused step it reads the state again; when the
// link or session is gone it shows the clear page for that.
import { ApiError, api, documentBytes, hasSession, openSession, prefetchDocument } from './api.js';
import { main, showMessage } from './chrome.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { kiosk, showHandBack } from './kiosk.js';
import { page } from './state.js';
import { openEarly } from './viewer.js';

/** @type {() => void} */
let router = () => {};

/** The router (app.js), which picks the step to show from the state; kept here so steps need not import it. */
export function setRouter(fn) {
  router = fn;
}

/** Shows the step the state calls for. */
export const route = () => router();

export async function start() {
  main.replaceChildren(el('p', { class: 'loading', role: 'status' }, t('page.loading')));
  try {
    // A session opened here comes with the state; a session the tab kept asks for it.
    const opened = hasSession() ? undefined : await openSession();
    // The server names the first document when the signer may see it at once (pages.ts).
    const first = document.documentElement.dataset.firstDocument;
    if (first) prefetchDocument(first);
    // When it came with the session, pdf.js starts reading it now, while the step is built.
    if (first && opened?.sentDocument === first) await openEarly(first, documentBytes(first));
    page.state = opened?.state ?? (await api.state());
    route();
  } catch (err) {
    failure(err);
  }
}

/** Reads the state again after the service refused a step (the bundle may have ended meanwhile). */
export async function reload() {
  try {
    page.state = await api.state();
    route();
  } catch (err) {
    failure(err);
  }
}

const retryButton = () =>
  el('button', { type: 'button', class: 'btn primary', onclick: () => start() }, t('sign.tryAgain'));

export function failure(err) {
  // An in-person session or link the service has ended: the signer is done on this device.
  if (kiosk && err instanceof ApiError && err.status === 410) return showHandBack();
  if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
    showMessage(t('page.badLinkTitle'), t('page.badLinkText'), { tone: 'stop' });
  } else if (err instanceof ApiError && err.status === 410) {
    showMessage(t('sign.usedLinkTitle'), t('sign.usedLinkText'), { tone: 'stop' });
  } else if (err instanceof ApiError && err.status === 0) {
    showMessage(t('sign.offlineTitle'), t('sign.offlineText'), {
      tone: 'stop',
      extra: retryButton(),
    });
  } else {
    showMessage(t('sign.failedTitle'), t('sign.failedText'), {
      tone: 'stop',
      extra: retryButton(),
    });
  }
}

/**
 * Answers after which the page cannot go on as it is: the bundle changed (409: read the state
 * again, which shows why), or the link and session are gone (404, 410: the clear page).
 */
export function ended(err) {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 409) {
    reload();
    return true;
  }
  if (err.status === 404 || err.status === 410) {
    failure(err);
    return true;
  }
  return false;
}
