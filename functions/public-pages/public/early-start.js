// @ts-check
// The signing page's one inline script, written into its head before anything else
// (early-start.ts; the page's CSP allows it by its hash, nothing else inline). It starts, while
// the HTML is still being parsed, the two things the first page waits on longest: the session's
// exchange (POST /sign/api/session, with the first state and the first document's bytes: the
// page names that document in data-first-document when the signer may see it at once) and
// pdf.js's worker, which fetches and compiles a megabyte of code. A file of its own would first
// have to arrive, then wait its turn behind the page's other scripts. The page's code takes both
// from `esignEarly` (early-session.js); when they are not there, it starts its own.
// Not on a kiosk page, whose session starts only once the device is handed to the signer, nor when
// the tab still holds a session for this link (api.js keeps it in sessionStorage); the worker
// starts on every page. It also holds the page's first paint back (opening.js). Comment lines
// and indentation are left out of the page (early-start.ts).
(() => {
  const root = document.documentElement;
  const api = root.dataset.api ?? '/sign/api';
  const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
  let held = false;
  // Only a reload or a step back or forward finds the session this tab kept for the link, so
  // only then is the storage read here: a tab's first read of it waits for the browser (13 ms
  // in a trace), and the exchange would wait with it. A tab led to the link anew while it still
  // holds a session opens another, as a second tab would; for a single-use link that exchange
  // answers 410 and the page goes on with the session it kept (api.js).
  const navigation = /** @type {PerformanceNavigationTiming | undefined} */ (
    performance.getEntriesByType('navigation')[0]
  );
  if (navigation?.type !== 'navigate') {
    try {
      // As api.js reads it.
      const s = JSON.parse(sessionStorage.getItem(`esign-session:${token}`) ?? 'null');
      held = !!s && Date.parse(s.expires) > Date.now() + 30_000;
    } catch {
      // storage blocked (a sandboxed frame): no session kept
    }
  }
  const first = root.dataset.firstDocument;
  const kiosk = root.dataset.kiosk === 'true';
  // A page that opens on its documents paints nothing until their first page is drawn
  // (opening.js), for a second at most: then it shows whatever it has, as it did before.
  if (first && !kiosk) {
    root.classList.add('opening');
    setTimeout(() => root.classList.remove('opening'), 1000);
  }
  /** @type {{ session?: Promise<Response>, worker?: Worker }} */
  const early = {};
  if (!kiosk && !held) {
    early.session = fetch(`${api}/session`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Accept-Language': root.lang || 'en',
        'Content-Type': 'application/json',
      },
      // The first state and document come with the session (docs/signer-api.md): two requests less.
      body: JSON.stringify({ token, state: true, ...(first ? { document: first } : {}) }),
      cache: 'no-store',
      credentials: 'omit',
    });
    // Read by the page's code, or never (a failed exchange is met there, as its own would be).
    early.session.catch(() => undefined);
  }
  try {
    // As pdf.js itself starts it (viewer.js); a failure here is left for pdf.js to meet.
    early.worker = new Worker(`${root.dataset.assets ?? '.'}/pdf.worker.min.mjs`, { type: 'module' });
  } catch {
    // pdf.js starts its own
  }
  Object.defineProperty(window, 'esignEarly', { value: early, configurable: true });
})();
