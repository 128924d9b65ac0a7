// Reading what a browser sends back from navigator.credentials: only enough to find the
// challenge and the passkey it names; the library's verification checks everything else.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';

/** Credential ids are at most 1023 bytes: 1364 base64url characters. */
const CREDENTIAL_ID = /^[A-Za-z0-9_-]{16,1364}$/;

type TResponseJson = RegistrationResponseJSON | AuthenticationResponseJSON;

/** The response, when it has the shape of one (an id and base64url client data); else undefined. */
export function responseOf<T extends TResponseJson>(value: unknown): T | undefined {
  const r = value as { id?: unknown; type?: unknown; response?: { clientDataJSON?: unknown } } | undefined;
  if (typeof r !== 'object' || r === null || typeof r.id !== 'string' || !CREDENTIAL_ID.test(r.id))
    return undefined;
  if (r.type !== 'public-key' || typeof r.response?.clientDataJSON !== 'string') return undefined;
  return value as T;
}

/** The challenge the client data says it answers, or undefined when it cannot be read. */
export function challengeOf(response: TResponseJson): string | undefined {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON)) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' && data.challenge.length <= 200 ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}
