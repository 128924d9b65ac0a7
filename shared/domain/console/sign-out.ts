import type { TConsoleStore } from '../ports/console';
import type { TClock, TIds } from '../ports/system';
import { hashToken } from '../tokens';
import type { TClient, TConsoleSession } from './console-session';

type TDeps = { console: TConsoleStore; clock: TClock; ids: TIds };

/** Ends this session (`everywhere`: every session of its user) and records it. */
export async function signOut(
  deps: TDeps,
  sessionId: string,
  session: TConsoleSession,
  client: TClient,
  everywhere: boolean,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  if (everywhere) await deps.console.endSessionsBefore(session.accountId, session.userId, at);
  await deps.console.deleteSession(hashToken(sessionId));
  await deps.console.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind: everywhere ? 'signed_out_everywhere' : 'signed_out',
    accountId: session.accountId,
    userId: session.userId,
    ...client,
    at,
  });
}
