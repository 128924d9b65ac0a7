// The page a one-time link opens (a sign-in link, an invitation). It trades the link's token for a
// session with a POST: a mail scanner that only fetches the link (a GET) must not use it up. The
// token then leaves the address bar and the history; a refusal says why and links onwards.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type TSession } from '../api';
import { navigate } from '../router';
import { useWords } from '../words';

export function TokenLinkPage(props: {
  heading: string;
  working: string;
  /** Spends the token: the session it opened. */
  redeem: () => Promise<TSession>;
  onSignedIn: (s: TSession) => void;
  /** Where the address bar goes when the link was refused. */
  refusedPath: string;
  /** The words for a refusal the service answered (below 500). */
  refusal: (err: ApiError) => string;
  onwards: string;
}) {
  const { t } = useWords();
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // one POST per page, however often this renders
    started.current = true;
    props.redeem().then(
      (session) => {
        navigate('/console/', true);
        props.onSignedIn(session);
      },
      (err) => {
        history.replaceState(null, '', props.refusedPath);
        setFailure(
          err instanceof ApiError && err.status < 500 ? props.refusal(err) : t('errors.unreachable'),
        );
      },
    );
  }, []);

  return (
    <div class="narrow">
      <header class="top">
        <span class="brand">{t('title')}</span>
      </header>
      <main id="main">
        <h1>{props.heading}</h1>
        {failure === undefined ? (
          <p role="status">{props.working}</p>
        ) : (
          <>
            <div role="alert">
              <p>{failure}</p>
            </div>
            <p>
              <a href="/console/">{props.onwards}</a>
            </p>
          </>
        )}
      </main>
    </div>
  );
}
