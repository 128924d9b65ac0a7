// The frame of every signed-in screen: who is signed in, to which account, the way around, and
// signing out.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { TConsoleApi, TSession } from '../api';
import { LanguageMenu } from '../language-menu';
import { ROUTES } from '../routes';
import { useWords } from '../words';

export function Shell(props: {
  /** The page's path, to mark where the reader is in the menu. */
  path: string;
  api: TConsoleApi;
  session: TSession;
  onSignedOut: () => void;
  children: ComponentChildren;
}) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const { user, account } = props.session;

  async function signOut() {
    setBusy(true);
    setFailed(false);
    try {
      await props.api.signOut();
      props.onSignedOut();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t('skip')}
      </a>
      <header class="top">
        <span class="brand">
          <bdi>{account.name}</bdi>
        </span>
        <nav aria-label={t('shell.nav')}>
          {ROUTES.flatMap(({ path, menu }) =>
            menu && (!menu.adminOnly || user.is_admin)
              ? [
                  <a
                    key={menu.href}
                    href={menu.href}
                    aria-current={path.test(props.path) ? 'page' : undefined}
                  >
                    {t(menu.word)}
                  </a>,
                ]
              : [],
          )}
          <a href="/docs">{t('shell.apiReference')}</a>
        </nav>
        <div class="who">
          <span>
            <bdi>{user.name || user.email}</bdi>
          </span>
          <LanguageMenu />
          <button type="button" class="secondary" onClick={signOut} disabled={busy}>
            {t('shell.signOut')}
          </button>
        </div>
      </header>
      {failed && (
        <p class="error" role="alert">
          {t('errors.unreachable')}
        </p>
      )}
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
    </div>
  );
}
