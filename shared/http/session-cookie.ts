// The console's session cookie: its name, how it is read from a request and how it is set and
// cleared. The browser sends it to /api/v2 too, where the authorizer takes it instead of a key.
import { csrfMatches } from '#shared/domain/console/console-session';

export const SESSION_COOKIE = 'esign_session';

/** The session cookie's value in a Cookie header, if any (the first one, as browsers order them). */
export function sessionCookieOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Cookie header of a request's headers, whatever their case. */
export function cookieHeaderOf(headers: Record<string, string | undefined> | null | undefined) {
  const entries = Object.entries(headers ?? {}).filter(([k]) => k.toLowerCase() === 'cookie');
  return entries.length ? entries.map(([, v]) => v ?? '').join('; ') : undefined;
}

/**
 * Secure everywhere but plain-http loopback (the local runtime on http://127.0.0.1), where a
 * browser would not send a Secure cookie back.
 */
const secureFor = (publicBaseUrl: string | undefined) =>
  !/^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/i.test(publicBaseUrl ?? '');

export function setSessionCookie(value: string, publicBaseUrl: string | undefined): string {
  return `${SESSION_COOKIE}=${value}; HttpOnly;${secureFor(publicBaseUrl) ? ' Secure;' : ''} SameSite=Lax; Path=/`;
}

export function clearSessionCookie(publicBaseUrl: string | undefined): string {
  return `${SESSION_COOKIE}=; HttpOnly;${secureFor(publicBaseUrl) ? ' Secure;' : ''} SameSite=Lax; Path=/; Max-Age=0`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A change made with a session must carry the session's CSRF token in X-CSRF-Token: another
 * site can make the browser send the cookie, but cannot read the token to send it along.
 */
export function csrfHolds(method: string, sessionId: string | undefined, header: string | undefined) {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  return sessionId !== undefined && csrfMatches(sessionId, header);
}

/**
 * The single sign-on attempt's cookie: ties the provider's answer to the browser that asked
 * (login CSRF), sent back only to the SSO routes, gone after the attempt's ten minutes. Lax, so
 * the browser sends it on the provider's top-level redirect back to the callback.
 */
export const SSO_COOKIE = 'esign_sso';
const SSO_PATH = '/console/api/sso';

export function ssoCookieOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SSO_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setSsoCookie(
  value: string,
  publicBaseUrl: string | undefined,
  maxAgeSeconds: number,
): string {
  return `${SSO_COOKIE}=${value}; HttpOnly;${secureFor(publicBaseUrl) ? ' Secure;' : ''} SameSite=Lax; Path=${SSO_PATH}; Max-Age=${maxAgeSeconds}`;
}

export function clearSsoCookie(publicBaseUrl: string | undefined): string {
  return `${SSO_COOKIE}=; HttpOnly;${secureFor(publicBaseUrl) ? ' Secure;' : ''} SameSite=Lax; Path=${SSO_PATH}; Max-Age=0`;
}
