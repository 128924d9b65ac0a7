// The page an invitation's link opens, `/console/invitation/<token>` (token-link.tsx): accepting
// it makes the user and signs them in.
import { ApiError, type TConsoleApi, type TSession } from '../api';
import { peopleApi } from '../people-api';
import { useWords } from '../words';
import { TokenLinkPage } from './token-link';

/** The token of an invitation's path; undefined on any other path. */
export const invitationToken = (path: string): string | undefined =>
  /^\/console\/invitation\/([A-Za-z0-9]{1,128})\/?$/.exec(path)?.[1];

export function Invitation(props: { api: TConsoleApi; token: string; onSignedIn: (s: TSession) => void }) {
  const { t } = useWords();
  return (
    <TokenLinkPage
      heading={t('invitation.heading')}
      working={t('invitation.working')}
      redeem={async () => {
        await peopleApi(props.api).acceptInvitation(props.token);
        const session = await props.api.session();
        if (!session) throw new ApiError(401, 'not_authenticated');
        return session;
      }}
      onSignedIn={props.onSignedIn}
      refusedPath="/console/"
      refusal={(err) =>
        t(`invitation.${err.status === 410 ? 'expired' : err.status === 409 ? 'used' : 'invalid'}`)
      }
      onwards={t('invitation.signIn')}
    />
  );
}
