// "Sign in with a passkey" on the sign-in screen: the device offers the passkeys it holds for
// this site and the chosen one signs in; no address is asked. Hidden where the browser has no
// WebAuthn.
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import { ApiError, type TConsoleApi, type TSession } from './api';
import { passkeysApi, wasCancelled } from './passkeys-api';
import { useWords } from './words';

export function PasskeySignIn(props: { api: TConsoleApi; onSignedIn: (s: TSession) => void }) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  if (!browserSupportsWebAuthn()) return null;

  async function signIn() {
    setBusy(true);
    setError(undefined);
    try {
      props.onSignedIn(await passkeysApi(props.api).signIn());
    } catch (err) {
      setBusy(false);
      if (wasCancelled(err)) return setError(t('passkeySignIn.cancelled'));
      if (err instanceof ApiError && err.status === 429) return setError(t('signIn.tooMany'));
      if (err instanceof ApiError && err.status < 500) return setError(t('passkeySignIn.refused'));
      setError(t('errors.unreachable'));
    }
  }

  return (
    <section class="passkey-sign-in" aria-labelledby="passkey-heading">
      <h2 id="passkey-heading">{t('passkeySignIn.heading')}</h2>
      <p>{t('passkeySignIn.intro')}</p>
      <button type="button" class="secondary" onClick={signIn} disabled={busy}>
        {busy ? t('passkeySignIn.working') : t('passkeySignIn.button')}
      </button>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
