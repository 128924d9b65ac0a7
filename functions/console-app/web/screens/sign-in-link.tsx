// The page a sign-in link opens. It trades the link's token for a session with a POST: a mail
// scanner that only fetches the link (a GET) must not use up the one-time token. The token then
// leaves the address bar and the history.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TConsoleApi, type TSession } from '../api';
import { navigate } from '../router';
import { useWords } from '../words';

type TState = 'working' | 'invalid' | 'tooMany' | 'unreachable';

export function SignInLink(props: { api: TConsoleApi; token: string; onSignedIn: (s: TSession) => void }) {
  const { t } = useWords();
  const [state, setState] = useState<TState>('working');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // one POST per page, however often this renders
    started.current = true;
    props.api.redeemLink(props.token).then(
      (session) => {
        navigate('/console/', true);
        props.onSignedIn(session);
      },
      (err) => {
        history.replaceState(null, '', '/console/sign-in');
        if (!(err instanceof ApiError) || err.status >= 500) setState('unreachable');
        else setState(err.status === 429 ? 'tooMany' : 'invalid');
      },
    );
  }, []);

  return (
    <div class="narrow">
      <header class="top">
        <span class="brand">{t('title')}</span>
      </header>
      <main id="main">
        <h1>{t('link.heading')}</h1>
        {state === 'working' ? (
          <p role="status">{t('link.working')}</p>
        ) : (
          <div role="alert">
            <p>
              {state === 'invalid'
                ? t('link.invalid')
                : state === 'tooMany'
                  ? t('signIn.tooMany')
                  : t('errors.unreachable')}
            </p>
          </div>
        )}
        {state !== 'working' && (
          <p>
            <a
              href="/console/"
              onClick={(e) => {
                e.preventDefault();
                navigate('/console/');
              }}
            >
              {t('link.newLink')}
            </a>
          </p>
        )}
      </main>
    </div>
  );
}
