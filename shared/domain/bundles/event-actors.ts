import type { TAccountStore } from '../ports/accounts';
import { actorCode, type TActor } from './actor';
import type { TBundle, TBundleEvent } from './bundle';

/** Who acted in an event, as a reader is told: the kind of party, its id, and its name if known. */
export interface TEventActor {
  type: TActor['type'];
  id: string | null;
  name: string | null;
}

const idOf = (a: TActor): string | null => {
  switch (a.type) {
    case 'signer':
      return a.packetId;
    case 'api_key':
      return a.keyId;
    case 'user':
      return a.userId;
    case 'portal':
      return a.templateId;
    default:
      return null;
  }
};

/**
 * The actors of a bundle's events with their names: a signer's from the bundle's packets, a
 * user's from the account (one read per user who acted, usually one or two), so a reader sees
 * "Ann Lee" rather than an id. A user no longer in the account keeps the id alone.
 */
export async function eventActors(
  deps: { accounts: Pick<TAccountStore, 'getUser'> },
  bundle: TBundle,
  events: TBundleEvent[],
): Promise<(e: TBundleEvent) => TEventActor | null> {
  const names = new Map<string, string>();
  for (const p of bundle.packets) names.set(actorCode({ type: 'signer', packetId: p.id }), p.name);
  const userIds = new Set(events.flatMap((e) => (e.actor?.type === 'user' ? [e.actor.userId] : [])));
  await Promise.all(
    [...userIds].map(async (userId) => {
      const user = await deps.accounts.getUser(bundle.accountId, userId);
      if (user) names.set(actorCode({ type: 'user', userId }), user.name || user.email);
    }),
  );
  return (e) =>
    e.actor ? { type: e.actor.type, id: idOf(e.actor), name: names.get(actorCode(e.actor)) ?? null } : null;
}
