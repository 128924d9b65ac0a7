// @ts-check
// The signer API (docs/signer-api.md) as the page uses it: one session per link, kept for the
// tab in sessionStorage, sent as X-Signing-Session; an expired session is reopened once.

import { takeEarlyDocument, takeEarlySession } from './early-session.js';
import { lang, t } from './i18n.js';

const API = document.documentElement.dataset.api ?? '/sign/api';

/** An answer other than 2xx, with the API's error body. */
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body?.message ?? (status === 0 ? t('sign.noConnection') : t('sign.serviceAnswered', { status })));
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.code ?? 'error';
    /** `[{field, message}]`; `field` is `<doc_key>.<field_key>` for field values. */
    this.fields = Array.isArray(body?.errors) ? body.errors : [];
    this.retryAfter = retryAfter ? Number(retryAfter) : undefined;
  }
}

/** The link token: the last segment of the page's path. */
export const linkToken = () => decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

const storageKey = () => `esign-session:${linkToken()}`;

function stored() {
  try {
    const s = JSON.parse(sessionStorage.getItem(storageKey()) ?? 'null');
    return s && Date.parse(s.expires) > Date.now() + 30_000 ? s : null;
  } catch {
    return null; // storage blocked (a sandboxed frame): the session lives in memory only
  }
}

function store(s) {
  try {
    if (s) sessionStorage.setItem(storageKey(), JSON.stringify(s));
    else sessionStorage.removeItem(storageKey());
  } catch {
    // see stored()
  }
}

let session = stored();
let opening;

/**
 * Opens a session with the link token (404: unknown or expired link; 410: a used embedded or kiosk
 * link). Answers it with the signer's state as of the opening (`state`, absent for a kiosk
 * session), which the page shows first instead of asking for it.
 */
export function openSession() {
  opening ??= (async () => {
    try {
      const early = takeEarlySession();
      const json = { token: linkToken(), state: true };
      // The first document's bytes, when they came with it, are early-session.js's to take;
      // `sentDocument` says which it was.
      const {
        state,
        document: sent,
        ...s
      } = await request('POST', '/session', { json, reopen: false, early });
      session = s;
      store(s);
      return { ...s, state, sentDocument: sent?.key };
    } finally {
      opening = undefined;
    }
  })();
  return opening;
}

export const hasSession = () => session !== null;

/**
 * Forgets the session: once the signer handed the packet on, or finished signing in person, the
 * service refuses it from now on anyway.
 */
export function forgetSession() {
  session = null;
  store(null);
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{ json?: any, body?: BodyInit, contentType?: string, reopen?: boolean, early?: Promise<Response> }} [options]
 *   `early`: this very request, already sent (early-start.js, in the page's head).
 */
async function request(method, path, { json, body, contentType, reopen = true, early } = {}) {
  if (reopen && !session) await openSession();
  // Errors come back in the page's language (functions/public-pages/error-language.ts).
  const headers = { Accept: 'application/json', 'Accept-Language': lang };
  if (session) headers['X-Signing-Session'] = session.session;
  let payload = body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(json);
  } else if (contentType) headers['Content-Type'] = contentType;
  let res;
  try {
    res = await (early ??
      fetch(`${API}${path}`, {
        method,
        headers,
        body: payload,
        cache: 'no-store',
        credentials: 'omit',
      }));
  } catch {
    throw new ApiError(0, { message: t('sign.noConnection') });
  }
  if (res.status === 401 && reopen) {
    session = null;
    store(null);
    await openSession();
    return request(method, path, { json, body, contentType, reopen: false });
  }
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) throw new ApiError(res.status, parsed, res.headers.get('retry-after'));
  return parsed;
}

export const api = {
  state: () => request('GET', '/state'),
  saveValues: (values) => request('PUT', '/values', { json: { values } }),
  attach: (docKey, fieldKey, file) =>
    request(
      'POST',
      `/attachments?doc_key=${encodeURIComponent(docKey)}&field_key=${encodeURIComponent(fieldKey)}&name=${encodeURIComponent(file.name)}`,
      { body: file, contentType: file.type || 'application/octet-stream' },
    ),
  sendSms: () => request('POST', '/auth/sms/send', { json: {} }),
  verifySms: (code) => request('POST', '/auth/sms/verify', { json: { code } }),
  selfie: (blob) => request('POST', '/auth/selfie', { body: blob, contentType: blob.type || 'image/jpeg' }),
  id: (front, back) => {
    const form = new FormData();
    form.append('front', front, front.name || 'front.jpg');
    form.append('back', back, back.name || 'back.jpg');
    return request('POST', '/auth/id', { body: form });
  },
  startPayment: () => request('POST', '/payment', { json: {} }),
  complete: () => request('POST', '/complete', { json: { consent: true } }),
  decline: (reason) => request('POST', '/decline', { json: { reason } }),
  approve: () => request('POST', '/approve', { json: {} }),
  reject: (reason) => request('POST', '/reject', { json: { reason } }),
  reassign: (to) => request('POST', '/reassign', { json: to }),
  chooseLanguage: (language) => request('PUT', '/language', { json: { language } }),
};

/** Documents asked for before the viewer needed them (prefetchDocument), by key: each taken once. */
const prefetched = new Map();

/**
 * Asks for a document while the page is still reading its state, so that its first page is not
 * a round trip further away. The viewer's documentBytes takes the answer; a refusal (the signer
 * may not see it yet after all) is forgotten and the viewer asks again.
 */
export function prefetchDocument(docKey) {
  if (prefetched.has(docKey)) return;
  // Asked for as soon as the session answered (early-session.js), when it did not come with it.
  const bytes = takeEarlyDocument(docKey) ?? fetchDocument(docKey);
  bytes.catch(() => undefined);
  prefetched.set(docKey, bytes);
}

/**
 * A document's PDF bytes through the API (same origin); null when it is too large for that
 * (413), and the viewer reads its presigned file_url instead.
 */
export async function documentBytes(docKey) {
  const early = prefetched.get(docKey);
  prefetched.delete(docKey);
  if (early) {
    try {
      return await early;
    } catch {
      // asked again below
    }
  }
  return fetchDocument(docKey);
}

async function fetchDocument(docKey) {
  if (!session) await openSession();
  const res = await fetch(`${API}/documents/${encodeURIComponent(docKey)}`, {
    headers: { 'X-Signing-Session': session.session },
    cache: 'no-store',
    credentials: 'omit',
  });
  if (res.status === 413) return null;
  if (!res.ok) throw new ApiError(res.status, undefined);
  return new Uint8Array(await res.arrayBuffer());
}
