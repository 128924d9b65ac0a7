// The console: which screen the path and the session call for. Signed out, every path shows the
// sign-in screen, except a sign-in link's, which signs in.
import { useEffect, useState } from 'preact/hooks';
import type { TConsoleApi, TSession } from './api';
import { signInToken, usePath } from './router';
import { routeOf } from './routes';
import { Invitation, invitationToken } from './screens/invitation';
import { Shell } from './screens/shell';
import { SignIn } from './screens/sign-in';
import { SignInLink } from './screens/sign-in-link';
import { useWords } from './words';

export function App({ api }: { api: TConsoleApi }) {
  const { t } = useWords();
  const path = usePath();
  // undefined: signed out; null: not known yet.
  const [session, setSession] = useState<TSession | undefined | null>(null);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  useEffect(() => {
    api.session().then(
      (s) => setSession((now) => now ?? s),
      () => setSession((now) => now ?? undefined),
    );
  }, []);

  const invited = invitationToken(path);
  if (invited) return <Invitation api={api} token={invited} onSignedIn={setSession} />;
  const token = signInToken(path);
  if (token && !session) return <SignInLink api={api} token={token} onSignedIn={setSession} />;
  if (session === null) return <p role="status">{t('loading')}</p>;
  if (!session) return <SignIn api={api} notice={notice} onSignedIn={setSession} />;
  const ended = () => {
    setNotice(t('shell.sessionEnded'));
    setSession(undefined);
  };
  const found = routeOf(path);
  const Screen = found?.route.screen;
  return (
    <Shell
      path={path}
      api={api}
      session={session}
      onSignedOut={() => {
        setNotice(undefined);
        setSession(undefined);
      }}
    >
      {Screen ? (
        <Screen key={path} api={api} session={session} onSessionEnded={ended} params={found?.params ?? []} />
      ) : (
        <p>{t('shell.notFound')}</p>
      )}
    </Shell>
  );
}
