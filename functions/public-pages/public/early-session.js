// @ts-check
// Takes what the page's inline script (early-start.js) started while the HTML was still being
// parsed: the session's exchange and pdf.js's worker. From the exchange's answer it gets the
// first document's bytes at once (they come in the answer, else it asks for them as soon as the
// session answers), so the viewer has them when the step is built. The page's code takes each
// here, once (api.js, viewer.js through app.js); what the inline script did not start (a kiosk
// page, a session the tab kept, a browser that refused the script) the page starts itself.
// No imports: it runs as soon as the page's script does.

const root = document.documentElement;
const API = root.dataset.api ?? '/sign/api';

/** @type {{ session?: Promise<Response>, worker?: Worker } | undefined} */
const started = /** @type {any} */ (window).esignEarly;
// Taken once: nothing else in the page needs to find it.
delete (/** @type {any} */ (window).esignEarly);

const firstKey = root.dataset.firstDocument;

/**
 * Marked (performance.mark) when the first document's bytes are in the page, ready for pdf.js:
 * `npm run bench` splits the first page's time there, into getting the bytes and drawing from
 * them, as it does for pdf.js alone (bench/signing-baseline.ts).
 */
const BYTES_MARK = 'esign:first-document-bytes';

/** @type {Promise<Response> | undefined} */
let pending = started?.session;

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
    performance.mark(BYTES_MARK);
    return bytes;
  }
  const doc = await fetch(`${API}/documents/${encodeURIComponent(docKey)}`, {
    headers: { 'X-Signing-Session': session },
    cache: 'no-store',
    credentials: 'omit',
  });
  if (doc.status === 413) return null;
  if (!doc.ok) throw new Error(`document: ${doc.status}`);
  const bytes = new Uint8Array(await doc.arrayBuffer());
  performance.mark(BYTES_MARK);
  return bytes;
}

/** @type {{ key: string, bytes: Promise<Uint8Array | null> } | undefined} */
let early = pending && firstKey ? { key: firstKey, bytes: firstDocument(pending, firstKey) } : undefined;
early?.bytes.catch(() => undefined);

/** @type {Worker | undefined} */
let worker = started?.worker;

/**
 * The first document's bytes asked for here, without taking them (api.js takes them for the
 * viewer): pdf.js may start reading them as soon as they come (warm-up.js).
 */
export function earlyDocument() {
  return early;
}

/** The exchange started by the inline script, once: the first caller takes it, later ones ask anew. */
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

/** pdf.js's worker started by the inline script, once: the first caller takes it, later ones start their own. */
export function takeEarlyWorker() {
  const taken = worker;
  worker = undefined;
  return taken;
}
