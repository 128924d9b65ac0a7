// The page a sign-in link opens, `/console/sign-in/<token>` (token-link.tsx).
import type { TConsoleApi, TSession } from '../api';
import { useWords } from '../words';
import { TokenLinkPage } from './token-link';

export function SignInLink(props: { api: TConsoleApi; token: string; onSignedIn: (s: TSession) => void }) {
  const { t } = useWords();
  return (
    <TokenLinkPage
      heading={t('link.heading')}
      working={t('link.working')}
      redeem={() => props.api.redeemLink(props.token)}
      onSignedIn={props.onSignedIn}
      refusedPath="/console/sign-in"
      refusal={(err) => (err.status === 429 ? t('signIn.tooMany') : t('link.invalid'))}
      onwards={t('link.newLink')}
    />
  );
}
