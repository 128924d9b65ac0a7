// Signing in with the account's single sign-on, on the sign-in screen: the reader gives their
// work email, the service answers where to go (the provider of that email's domain, with the
// attempt's cookie set, or back here saying why not) and the page goes there. Coming back
// refused, the address carries `?sso=<why>`, said here in words.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TConsoleApi } from '../api';
import { useWords } from '../words';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const REASONS = new Set([
  'not_configured',
  'throttled',
  'provider',
  'expired',
  'state',
  'unverified_email',
  'unknown_user',
]);

/** The reason the service sent the reader back with, once: the address is cleaned of it. */
function reasonFromAddress(): string | undefined {
  const url = new URL(window.location.href);
  const reason = url.searchParams.get('sso') ?? undefined;
  if (reason === undefined) return undefined;
  url.searchParams.delete('sso');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return REASONS.has(reason) ? reason : 'provider';
}

export function SsoSignIn({ api }: { api: TConsoleApi }) {
  const { t } = useWords();
  const [reason, setReason] = useState(reasonFromAddress);
  const [open, setOpen] = useState(reason !== undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);

  // Opening moves to the field; closing returns to the button that opened it.
  useLayoutEffect(() => {
    if (open && !wasOpen.current) field.current?.focus();
    if (!open && wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  useEffect(() => {
    if (error) field.current?.focus();
  }, [error]);

  async function submit(e: Event) {
    e.preventDefault();
    const email = field.current?.value.trim() ?? '';
    if (!EMAIL.test(email)) return setError(t('sso.invalidEmail'));
    setError(undefined);
    setReason(undefined);
    setBusy(true);
    try {
      const res = await api.request('POST', '/console/api/sso/start', { email });
      const { url } = (await res.json()) as { url: string };
      const next = new URL(url, window.location.href);
      // Back to this page with a reason: say it here, without loading the page again.
      const why = next.origin === window.location.origin ? next.searchParams.get('sso') : null;
      if (why) {
        setReason(REASONS.has(why) ? why : 'provider');
        setBusy(false);
        return;
      }
      window.location.assign(next.href);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 429) return setError(t('sso.reasons.throttled'));
      if (err instanceof ApiError && err.status === 400) return setError(t('sso.invalidEmail'));
      setError(t('errors.unreachable'));
    }
  }

  if (!open) {
    return (
      <section class="sso" aria-labelledby="sso-heading">
        <h2 id="sso-heading">{t('sso.heading')}</h2>
        <button type="button" class="secondary" ref={opener} onClick={() => setOpen(true)}>
          {t('sso.button')}
        </button>
      </section>
    );
  }
  const describedBy = [reason ? 'sso-reason' : '', error ? 'sso-error' : ''].filter(Boolean).join(' ');
  return (
    <section class="sso" aria-labelledby="sso-heading">
      <h2 id="sso-heading">{t('sso.heading')}</h2>
      {reason && (
        <p id="sso-reason" class="error" role="alert">
          {t(`sso.reasons.${reason}`)}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <p>{t('sso.intro')}</p>
        <label for="sso-email">{t('sso.email')}</label>
        <input
          id="sso-email"
          ref={field}
          type="email"
          name="email"
          autocomplete="email"
          inputMode="email"
          required
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy || undefined}
        />
        {error && (
          <p id="sso-error" class="error" role="alert">
            {error}
          </p>
        )}
        <div class="sso-actions">
          <button type="submit" disabled={busy}>
            {t('sso.submit')}
          </button>
          <button type="button" class="secondary" onClick={() => setOpen(false)}>
            {t('sso.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
