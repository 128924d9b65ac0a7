// @ts-check
// Starts, as soon as this file arrives (the page's head names it first, `async`, so it waits for
// neither the style sheet nor the parser), the three things the first page waits on and nothing
// before them needs: the session's exchange (POST /sign/api/session, with the first state and
// the first document's bytes: the page names that document in data-first-document when the
// signer may see it at once), and pdf.js's worker, which fetches and compiles a megabyte of code. The page's own script, still loading meanwhile, takes each of them here
// (api.js, viewer.js) instead of starting its own. Not on a kiosk page, whose session starts only
// once the device is handed to the signer, nor when the tab still holds a session for this link
// (api.js keeps it in sessionStorage); the worker starts on every page.
// No imports: it runs before the modules it would wait for.

const root = document.documentElement;
const API = root.dataset.api ?? '/sign/api';
const ASSETS = root.dataset.assets ?? '.';
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

const firstKey = root.dataset.firstDocument;

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
        // The first state and document come with the session (docs/signer-api.md): two requests less.
        body: JSON.stringify({ token, state: true, ...(firstKey ? { document: firstKey } : {}) }),
        cache: 'no-store',
        credentials: 'omit',
      });
// Read by api.js, or never (a failed exchange is met there, as its own would be).
pending?.catch(() => undefined);

/**
 * The first document's bytes: from the session's answer, else (a document too large to come with
 * it) asked for with the session as soon as it answers, as api.js's fetchDocument asks: null when
 * it is too large for that too (413), a rejection for any other refusal, on which the viewer asks
 * again itself.
 */
async function firstDocument(opened, docKey) {
  const res = await opened;
  if (!res.ok) throw new Error(`session: ${res.status}`);
  // A copy of the answer: api.js reads the answer itself.
  const { session, document: sent } = await res.clone().json();
  if (sent?.key === docKey && typeof sent.pdf_b64 === 'string') {
    const text = atob(sent.pdf_b64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  }
  const doc = await fetch(`${API}/documents/${encodeURIComponent(docKey)}`, {
    headers: { 'X-Signing-Session': session },
    cache: 'no-store',
    credentials: 'omit',
  });
  if (doc.status === 413) return null;
  if (!doc.ok) throw new Error(`document: ${doc.status}`);
  return new Uint8Array(await doc.arrayBuffer());
}

/** @type {{ key: string, bytes: Promise<Uint8Array | null> } | undefined} */
let early = pending && firstKey ? { key: firstKey, bytes: firstDocument(pending, firstKey) } : undefined;
early?.bytes.catch(() => undefined);

/** @type {Worker | undefined} */
let worker;
try {
  // As pdf.js itself starts it (viewer.js); a failure here is left for pdf.js to meet.
  worker = new Worker(`${ASSETS}/pdf.worker.min.mjs`, { type: 'module' });
} catch {
  worker = undefined;
}

/** The exchange started here, once: the first caller takes it, later ones ask anew. */
export function takeEarlySession() {
  const taken = pending;
  pending = undefined;
  return taken;
}

/** The bytes of document `docKey` asked for here, once; undefined when they were not. */
export function takeEarlyDocument(docKey) {
  if (early?.key !== docKey) return undefined;
  const taken = early.bytes;
  early = undefined;
  return taken;
}

/** pdf.js's worker started here, once: the first caller takes it, later ones start their own. */
export function takeEarlyWorker() {
  const taken = worker;
  worker = undefined;
  return taken;
}
