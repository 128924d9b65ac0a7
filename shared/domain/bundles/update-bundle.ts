import { ZBundlePatchSchema } from '#shared/schemas/bundle-patch';
import type { TAccount } from '../accounts/account';
import { ConflictError, PermissionDeniedError, type TFieldError, ValidationError } from '../errors';
import { parseInput } from '../parse-input';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import { event } from './audit-event';
import type { TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { bundleAt } from './expiry';
import { BUNDLE, isDraft } from './lifecycle/status';

/**
 * The new expiry. For a bundle already sent only the date moves: its time of day stays (a
 * bundle without one expires at the end of that day, UTC).
 */
export function nextExpiry(given: string, current: TBundle): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(given);
  const date = dateOnly ? given : new Date(given).toISOString().slice(0, 10);
  if (current.status === BUNDLE.sent || dateOnly) {
    const time = current.expires ? current.expires.slice(10) : 'T23:59:59.000Z';
    return `${date}${time}`;
  }
  return new Date(given).toISOString();
}

/** PATCH: only while a draft or sent; every change checked against the account's features. */
export async function updateBundle(
  deps: { bundles: TBundleStore; accounts: TAccountStore; clock: TClock },
  caller: TActing & { userId: string },
  id: string,
  body: unknown,
): Promise<TBundle> {
  const patch = parseInput(ZBundlePatchSchema, body);
  const account = (await deps.accounts.getAccount(caller.accountId)) as TAccount;
  const errors: TFieldError[] = [];
  const need = (feature: keyof TAccount['features'], field: string) => {
    if (!account.features[feature])
      errors.push({
        field,
        message: `The ${feature.replace('_', ' ')} feature is not enabled for this account.`,
      });
  };
  if (patch.team !== undefined) {
    need('teams', 'team');
    if (
      patch.team &&
      account.features.teams &&
      !(await deps.accounts.listTeams(caller.accountId)).some((t) => t.id === patch.team)
    ) {
      errors.push({ field: 'team', message: 'No team of this account has this id.' });
    }
  }
  for (const f of ['send_reminders', 'reminder_offset', 'reminder_interval', 'reminder_expires'] as const) {
    if (patch[f] !== undefined) need('reminders', f);
  }
  if (patch.signing_brand !== undefined) {
    need('signing_brands', 'signing_brand');
    if (
      patch.signing_brand &&
      !(await deps.accounts.listBrands(caller.accountId)).some((b) => b.id === patch.signing_brand)
    ) {
      errors.push({ field: 'signing_brand', message: 'No signing brand of this account has this id.' });
    }
  }
  if (patch.owner !== undefined) {
    const user = await deps.accounts.getUser(caller.accountId, caller.userId);
    if (!user?.isAdmin) throw new PermissionDeniedError('Only account admins may set the owner.');
    if (patch.owner && !(await deps.accounts.getUser(caller.accountId, patch.owner))) {
      errors.push({ field: 'owner', message: 'No user of this account has this id.' });
    }
  }
  const now = deps.clock.now();
  if (patch.expires !== undefined) {
    const end = /^\d{4}-\d{2}-\d{2}$/.test(patch.expires)
      ? new Date(`${patch.expires}T23:59:59Z`)
      : new Date(patch.expires);
    if (end.getTime() <= now.getTime()) errors.push({ field: 'expires', message: 'Must be in the future.' });
  }
  if (errors.length > 0) throw new ValidationError('Invalid input.', errors);

  return changeBundle(deps, caller.accountId, id, (b) => {
    // As of now: a bundle past its expiry is expired, whether or not the scheduler recorded it.
    const status = bundleAt(b, now).status;
    if (!isDraft(status) && status !== BUNDLE.sent) {
      throw new ConflictError(`A bundle can be changed only as a draft or sent; this one is "${status}".`);
    }
    const expires = patch.expires !== undefined ? nextExpiry(patch.expires, b) : b.expires;
    if (expires && Date.parse(expires) <= now.getTime()) {
      throw new ValidationError('Invalid input.', [{ field: 'expires', message: 'Must be in the future.' }]);
    }
    const next: TBundle = {
      ...b,
      ...(expires ? { expires } : {}),
      ...(patch.label !== undefined ? { label: patch.label } : {}),
      ...(patch.cc_sender !== undefined ? { ccSender: patch.cc_sender } : {}),
      ...(patch.cc_emails !== undefined ? { ccEmails: patch.cc_emails } : {}),
      ...(patch.send_reminders !== undefined ? { sendReminders: patch.send_reminders } : {}),
      ...(patch.reminder_offset !== undefined ? { reminderOffset: patch.reminder_offset } : {}),
      ...(patch.reminder_interval !== undefined ? { reminderInterval: patch.reminder_interval } : {}),
      ...(patch.reminder_expires !== undefined ? { reminderExpires: patch.reminder_expires } : {}),
    };
    // null clears these three.
    if (patch.team !== undefined) next.team = patch.team ?? undefined;
    if (patch.owner !== undefined) next.owner = patch.owner ?? undefined;
    if (patch.signing_brand !== undefined) next.signingBrand = patch.signing_brand ?? undefined;
    const changed = Object.keys(patch).join(', ');
    return {
      ...next,
      events: [...b.events, event('updated', now.toISOString(), caller.by, undefined, changed)],
    };
  });
}
