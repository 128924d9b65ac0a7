// @ts-check
// Opens the signing session as soon as the page has parsed, while the rest of its script is still
// loading: the exchange (POST /sign/api/session) is a round trip that nothing before it needs, and
// the documents wait on it. The page's head loads this file before app.js; api.js takes the
// answer as the one its first openSession() would have asked for. Not on a kiosk page, whose
// session starts only once the device is handed to the signer, nor when the tab still holds a
// session for this link (api.js keeps it in sessionStorage).
// No imports: it runs before the modules it would wait for.

const root = document.documentElement;
const API = root.dataset.api ?? '/sign/api';
const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

/** Whether the tab holds a session for this link, as api.js reads it. */
function holdsSession() {
  try {
    const s = JSON.parse(sessionStorage.getItem(`esign-session:${token}`) ?? 'null');
    return !!s && Date.parse(s.expires) > Date.now() + 30_000;
  } catch {
    return false;
  }
}

/** @type {Promise<Response> | undefined} */
let pending =
  root.dataset.kiosk === 'true' || holdsSession()
    ? undefined
    : fetch(`${API}/session`, {
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Accept-Language': root.lang || 'en',
          'Content-Type': 'application/json',
        },
        // The first state comes with the session (docs/signer-api.md): one request less.
        body: JSON.stringify({ token, state: true }),
        cache: 'no-store',
        credentials: 'omit',
      });
// Read by api.js, or never (a failed exchange is met there, as its own would be).
pending?.catch(() => undefined);

/** The exchange started here, once: the first caller takes it, later ones ask anew. */
export function takeEarlySession() {
  const taken = pending;
  pending = undefined;
  return taken;
}
