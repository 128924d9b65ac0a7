// @ts-check
// The signing page: opens a session with the link in the address bar, shows the identity checks
// the sender asked for, then the documents with this signer's fields on them; saves as the
// signer goes, and finishes with their consent. Everything goes through the signer API
// (docs/signer-api.md); nothing here is trusted by the service.
//
// The page's parts: state.js (what it knows), chrome.js (brand, title, messages), navigation.js
// (session, reading the state, clear pages), auth-steps.js, fields.js with field-render.js and
// saving.js, payment.js, view.js (the documents and finishing), outcomes.js (the end pages),
// kiosk.js (signing in person: handing the device over and back); i18n.js (the words, in the
// signer's language) and language-menu.js.
// First: it must run before i18n.js waits for the catalog (warm-up.js).
import './warm-up.js';
import { authPending, showAuth, stopCamera } from './auth-steps.js';
import { applyBrand } from './chrome.js';
import { el } from './dom.js';
import { handOverThen, kiosk, showHandBack } from './kiosk.js';
import { languageMenu } from './language-menu.js';
import { setRouter, start } from './navigation.js';
import { endOpening } from './opening.js';
import { showDone, showReason } from './outcomes.js';
import { answeredApproval, roleOutcome } from './role-card.js';
import { flushSaves, hasPending } from './saving.js';
import { page } from './state.js';
import { showSigning } from './view.js';

/** What the state calls for: why this link cannot be signed now, the checks, or the documents. */
function stepFor(state) {
  // In person, a signer who can no longer sign is done here: the device goes back to its host.
  if (!state.can_sign && kiosk) return showHandBack;
  // An approver who answered, or a viewer reading after their link opened (role-card.js).
  if (answeredApproval(state)) return () => roleOutcome(state);
  if (state.role === 'viewer' && state.documents.length > 0) return showSigning;
  if (!state.can_sign) {
    if (state.reason === 'completed' && state.redirect_url && page.justFinished) return showDone;
    return showReason;
  }
  if (authPending().length > 0) return showAuth;
  return showSigning;
}

/** Shows the step the state calls for. */
function route() {
  stopCamera();
  const step = stepFor(page.state);
  // Only the documents keep the page's paint held until their first page is drawn (opening.js):
  // any other step is shown as soon as it is built.
  if (step !== showSigning) endOpening();
  step();
}

setRouter(route);
applyBrand();
languageMenu();
document.body.append(el('div', { id: 'announcer', class: 'sr-only', 'aria-live': 'polite' }));
window.addEventListener('beforeunload', (e) => {
  if (hasPending()) {
    flushSaves();
    e.preventDefault();
  }
});
// pdf.js and its worker are already loading (warm-up.js): most links open on the documents, and a
// link that does not only costs the download.
handOverThen(() => start());
