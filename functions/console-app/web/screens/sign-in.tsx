// Signing in by email: the reader gives an address and is told to check their email, whatever
// the service answers (it never says whether an address has an account). Only being throttled
// or not reaching the service at all is said otherwise, since then no link is on its way.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TConsoleApi, type TSession } from '../api';
import { LanguageMenu } from '../language-menu';
import { PasskeySignIn } from '../passkey-sign-in';
import { useWords } from '../words';
import { SsoSignIn } from './sso-sign-in';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type TState = { step: 'ask'; error?: string } | { step: 'sending' } | { step: 'sent'; email: string };

export function SignIn({
  api,
  notice,
  onSignedIn,
}: {
  api: TConsoleApi;
  notice?: string | undefined;
  onSignedIn: (s: TSession) => void;
}) {
  const { t } = useWords();
  const [state, setState] = useState<TState>({ step: 'ask' });
  const [email, setEmail] = useState('');
  const sentHeading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);

  // Focus moves with the step as soon as it is drawn: to the answer, or back to the field.
  useLayoutEffect(() => {
    if (state.step === 'sent') sentHeading.current?.focus();
    if (state.step === 'ask' && state.error) field.current?.focus();
  }, [state]);

  async function submit(e: Event) {
    e.preventDefault();
    const address = email.trim();
    if (!EMAIL.test(address)) return setState({ step: 'ask', error: t('signIn.invalidEmail') });
    setState({ step: 'sending' });
    try {
      await api.signIn(address);
      setState({ step: 'sent', email: address });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429)
        return setState({ step: 'ask', error: t('signIn.tooMany') });
      if (err instanceof ApiError && err.status < 500) return setState({ step: 'sent', email: address });
      setState({ step: 'ask', error: t('errors.unreachable') });
    }
  }

  const error = state.step === 'ask' ? state.error : undefined;
  return (
    <div class="narrow">
      <header class="top">
        <span class="brand">{t('title')}</span>
        <LanguageMenu />
      </header>
      <main id="main">
        <h1>{t('signIn.heading')}</h1>
        {notice && state.step !== 'sent' && <p class="notice">{notice}</p>}
        {state.step === 'sent' ? (
          <section aria-labelledby="sent-heading">
            <h2 id="sent-heading" tabIndex={-1} ref={sentHeading}>
              {t('signIn.sentHeading')}
            </h2>
            <p>{t('signIn.sent', { email: state.email })}</p>
            <button type="button" class="secondary" onClick={() => setState({ step: 'ask' })}>
              {t('signIn.again')}
            </button>
          </section>
        ) : (
          <form onSubmit={submit} noValidate>
            <p>{t('signIn.intro')}</p>
            <label for="email">{t('signIn.email')}</label>
            <input
              id="email"
              ref={field}
              type="email"
              name="email"
              autocomplete="email"
              inputMode="email"
              required
              value={email}
              onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)}
              aria-invalid={error ? 'true' : undefined}
              aria-describedby={error ? 'email-error' : undefined}
            />
            {error && (
              <p id="email-error" class="error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" disabled={state.step === 'sending'}>
              {state.step === 'sending' ? t('signIn.sending') : t('signIn.submit')}
            </button>
          </form>
        )}
        {state.step !== 'sent' && <PasskeySignIn api={api} onSignedIn={onSignedIn} />}
        {state.step !== 'sent' && <SsoSignIn api={api} />}
      </main>
    </div>
  );
}
