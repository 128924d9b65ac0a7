import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import type { TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { countUsage } from './count-usage';
import { send } from './lifecycle/transitions';

/** POST /bundles/{id}/send/: a draft is sent by `by`; anything else is a 409. */
export async function sendDraft(
  deps: { bundles: TBundleStore; accounts: TAccountStore; clock: TClock },
  { accountId, by }: TActing,
  id: string,
): Promise<TBundle> {
  const sent = await changeBundle(deps, accountId, id, (b) => send(b, deps.clock.now().toISOString(), by));
  await countUsage(deps, sent);
  return sent;
}
