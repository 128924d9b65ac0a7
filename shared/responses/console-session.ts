import type { TAccount, TUser } from '#shared/domain/accounts/account';
import { csrfOf, type TConsoleSession } from '#shared/domain/console/console-session';

/** A console session as the console reads it (POST /console/api/sessions, GET …/session). */
export function consoleSessionResponse(
  sessionId: string,
  session: TConsoleSession,
  user: TUser,
  account: TAccount,
) {
  return {
    csrf_token: csrfOf(sessionId),
    user: { id: user.id, name: user.name, email: user.email, is_admin: user.isAdmin },
    account: { id: account.id, name: account.name },
    expires: session.expires,
  };
}
