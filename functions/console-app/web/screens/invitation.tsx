// The page an invitation's link opens, `/console/invitation/<token>`. Like a sign-in link's, it
// trades the token with a POST (a mail scanner that only fetches the link spends nothing), then
// takes the token out of the address bar and the history.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TConsoleApi, type TSession } from '../api';
import { peopleApi } from '../people-api';
import { navigate } from '../router';
import { useWords } from '../words';

type TState = 'working' | 'invalid' | 'expired' | 'used' | 'unreachable';

/** The token of an invitation's path; undefined on any other path. */
export const invitationToken = (path: string): string | undefined =>
  /^\/console\/invitation\/([A-Za-z0-9]{1,128})\/?$/.exec(path)?.[1];

export function Invitation(props: { api: TConsoleApi; token: string; onSignedIn: (s: TSession) => void }) {
  const { t } = useWords();
  const [state, setState] = useState<TState>('working');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // one POST per page, however often this renders
    started.current = true;
    (async () => {
      try {
        await peopleApi(props.api).acceptInvitation(props.token);
        const session = await props.api.session();
        if (!session) throw new ApiError(401, 'not_authenticated');
        navigate('/console/', true);
        props.onSignedIn(session);
      } catch (err) {
        history.replaceState(null, '', '/console/');
        if (!(err instanceof ApiError) || err.status >= 500) setState('unreachable');
        else setState(err.status === 410 ? 'expired' : err.status === 409 ? 'used' : 'invalid');
      }
    })();
  }, []);

  return (
    <div class="narrow">
      <header class="top">
        <span class="brand">{t('title')}</span>
      </header>
      <main id="main">
        <h1>{t('invitation.heading')}</h1>
        {state === 'working' ? (
          <p role="status">{t('invitation.working')}</p>
        ) : (
          <>
            <div role="alert">
              <p>{state === 'unreachable' ? t('errors.unreachable') : t(`invitation.${state}`)}</p>
            </div>
            <p>
              <a
                href="/console/"
                onClick={(e) => {
                  e.preventDefault();
                  navigate('/console/');
                }}
              >
                {t('invitation.signIn')}
              </a>
            </p>
          </>
        )}
      </main>
    </div>
  );
}
