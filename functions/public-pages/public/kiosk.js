// @ts-check
// Signing in person (deliver_via kiosk): the sender opened this link on their own device. The page
// first asks them to hand it over, and only the signer's Start goes on; when the signer has
// finished or declined it locks to a screen asking to hand the device back, forgets its session,
// and the service refuses the session and the link from then on (410), so the next person holding
// the device cannot go back into it.
import { forgetSession, linkToken } from './api.js';
import { root, showMessage } from './chrome.js';
import { el } from './dom.js';
import { t } from './i18n.js';

/** The signer and the host, as the server named them for a kiosk link; undefined otherwise. */
export const kiosk =
  root.dataset.kiosk === 'true'
    ? { signer: root.dataset.kioskSigner ?? '', host: root.dataset.kioskHost ?? '' }
    : undefined;

const startedKey = () => `esign-kiosk-started:${linkToken()}`;

/** Whether the signer pressed Start in this tab (a reload, or a language change, keeps it). */
function started() {
  try {
    return sessionStorage.getItem(startedKey()) === '1';
  } catch {
    return false;
  }
}

/** The hand-over screen, unless the signer has started already; `go` starts signing. */
export function handOverThen(go) {
  if (!kiosk || started()) return go();
  const start = el(
    'button',
    { type: 'button', class: 'btn primary', id: 'kiosk-start' },
    t('sign.kiosk.start'),
  );
  start.addEventListener('click', () => {
    try {
      sessionStorage.setItem(startedKey(), '1');
    } catch {
      // storage blocked: a reload shows this screen again, which is harmless
    }
    go();
  });
  showMessage(
    t('sign.kiosk.handOverTitle', { name: kiosk.signer }),
    t('sign.kiosk.handOverText', { name: kiosk.signer, host: kiosk.host }),
    { tone: 'info', extra: el('p', {}, start) },
  );
}

/** The locked screen once the signer is done: nothing on it leads back into the documents. */
export function showHandBack() {
  forgetSession();
  // Nothing to choose any more: the next person sees the screen as it is.
  document.getElementById('language')?.replaceChildren();
  try {
    sessionStorage.removeItem(startedKey());
  } catch {
    // see started()
  }
  showMessage(t('sign.kiosk.handBackTitle'), t('sign.kiosk.handBackText', { host: kiosk?.host }), {
    tone: 'ok',
    extra: el('p', { class: 'hint' }, t('sign.kiosk.locked')),
  });
}
