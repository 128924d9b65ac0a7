import type { TAccountStore } from '../ports/accounts';
import type { TAccount } from './account';

/** What decides who may use a template (document or envelope). */
export interface TTemplateOwnership {
  isShared: boolean;
  /** The user whose API key created it. */
  owner?: string;
  /** Document templates may name a team; without one, the owner's teams count. */
  team?: string;
}

export interface TTemplateAccess {
  account: TAccount | undefined;
  mayUse: (t: TTemplateOwnership) => boolean;
  /**
   * Who may change who sees a template (`is_shared`, `team`) or delete it: with teams on, its
   * owner and the account's admins only; the members it is shared with use and edit it, but do
   * not widen or remove it.
   */
  mayManage: (t: TTemplateOwnership) => boolean;
}

/**
 * Who may use a template. Teams off: everyone in the account. Teams on: a shared template is the
 * account's; any other is its owner's, the account admins', and the members of its team (or, when
 * it names none, of any of its owner's teams). Read once per request, so a list decides every
 * item without further reads.
 */
export async function templateAccess(
  deps: { accounts: TAccountStore },
  caller: { accountId: string; userId: string },
): Promise<TTemplateAccess> {
  const account = await deps.accounts.getAccount(caller.accountId);
  const everyone = () => true;
  if (!account?.features.teams) return { account, mayUse: everyone, mayManage: everyone };
  const users = await deps.accounts.listUsers(caller.accountId);
  const me = users.find((u) => u.id === caller.userId);
  if (me?.isAdmin) return { account, mayUse: everyone, mayManage: everyone };
  const myTeams = new Set(me?.teams ?? []);
  const teamsOf = new Map(users.map((u) => [u.id, u.teams ?? []]));
  const mayUse = (t: TTemplateOwnership) =>
    t.isShared ||
    (t.owner !== undefined && t.owner === caller.userId) ||
    (t.team ? myTeams.has(t.team) : (teamsOf.get(t.owner ?? '') ?? []).some((team) => myTeams.has(team)));
  const mayManage = (t: TTemplateOwnership) => t.owner !== undefined && t.owner === caller.userId;
  return { account, mayUse, mayManage };
}
