// The console's passkey calls: the user's own passkeys (list, add, remove) and signing in with
// one. The browser's half of WebAuthn (navigator.credentials) is @simplewebauthn/browser's.
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { TConsoleApi, TSession } from './api';

export interface TPasskeyRow {
  id: string;
  name: string;
  created: string;
  last_used: string | null;
  synced: boolean;
}

export function passkeysApi(api: TConsoleApi) {
  return {
    async list(): Promise<TPasskeyRow[]> {
      return (await api.request('GET', '/console/api/passkeys')).json();
    },
    /** Asks the device for a new passkey and adds it under `name`. */
    async add(name: string): Promise<TPasskeyRow> {
      const optionsJSON = await (await api.request('POST', '/console/api/passkeys/options')).json();
      const response = await startRegistration({ optionsJSON });
      return (await api.request('POST', '/console/api/passkeys', { name, response })).json();
    },
    async remove(id: string): Promise<void> {
      await api.request('DELETE', `/console/api/passkeys/${encodeURIComponent(id)}`);
    },
    /**
     * Signs in with a passkey the device offers (no address asked), then reads the session back
     * through the api, which so learns the new session's CSRF token.
     */
    async signIn(): Promise<TSession> {
      const optionsJSON = await (await api.request('POST', '/console/api/passkeys/sign-in/options')).json();
      const response = await startAuthentication({ optionsJSON });
      await api.request('POST', '/console/api/passkeys/sign-in', { response });
      const session = await api.session();
      if (!session) throw new Error('The session was not opened.');
      return session;
    },
  };
}

/** The device or the person stopped the ceremony (cancelled, timed out, no passkey chosen). */
export const wasCancelled = (err: unknown) =>
  err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');
