// An erasure as someone asks for it: an account admin through the API (POST /account/erasures/)
// or the operator with `erase-person`. Each is a line of the account's security log saying who
// asked, when, the address's hash and what was done, counted; never the address itself.
import { ZErasureRequestSchema } from '#shared/schemas/erasure';
import { requireAdmin, type TCaller } from '../accounts/caller';
import { actorCode, byApiKey, type TActor } from '../bundles/actor';
import type { TClient } from '../console/console-session';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TConsoleStore } from '../ports/console';
import type { TPersonStore } from '../ports/persons';
import type { TClock, TIds } from '../ports/system';
import { erasePerson, type TEraseTarget, type TErasureReport } from './erase-person';

export interface TErasureDeps {
  store: TPersonStore;
  bundles: TBundleStore;
  securityLog: Pick<TConsoleStore, 'recordSecurityEvent'>;
  clock: TClock;
  ids: TIds;
}

/** Who asked: the actor, the user behind it (none for the operator) and where from. */
export interface TErasureRequester {
  by: TActor;
  userId?: string;
  client: TClient;
}

/** Erases, then logs it. The log line follows the erasure: an erasure that fails half-way is run again. */
export async function eraseAndLog(
  deps: TErasureDeps,
  accountId: string,
  target: TEraseTarget,
  who: TErasureRequester,
): Promise<TErasureReport> {
  const report = await erasePerson(deps, accountId, target);
  await deps.securityLog.recordSecurityEvent({
    id: deps.ids.uuid(),
    kind: 'person_erased',
    accountId,
    ...(who.userId ? { userId: who.userId } : {}),
    subjectId: report.addressHash,
    actor: actorCode(who.by),
    erasure: {
      personsRemoved: report.personsRemoved.length,
      bundlesToActOn: report.bundlesToActOn.length,
      bundlesKept: report.bundlesKept.length,
    },
    ...who.client,
    at: deps.clock.now().toISOString(),
  });
  return report;
}

/** POST /account/erasures/: admins only; `keyId` empty when the caller signed in to the console. */
export async function eraseAsAdmin(
  deps: TErasureDeps & { accounts: TAccountStore },
  caller: TCaller & { keyId: string; client: TClient },
  input: unknown,
): Promise<TErasureReport> {
  const target = parseInput(ZErasureRequestSchema, input);
  await requireAdmin(deps, caller, "erase a person from the account's people");
  const by: TActor = caller.keyId ? byApiKey(caller.keyId) : { type: 'user', userId: caller.userId };
  return eraseAndLog(deps, caller.accountId, target, { by, userId: caller.userId, client: caller.client });
}
