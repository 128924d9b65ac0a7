// Keys and entities of the console's sign-in: links and sessions found by the hash of their
// secret, the lookup of users by address, the account's console usage key and security log.
import type {
  TConsoleSession,
  TSecurityEvent,
  TSignInLink,
  TUserByEmail,
} from '#shared/domain/console/console-session';
import type { TUsageKey } from '#shared/domain/ports/console';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const consoleKeys = {
  link: (hash: string) => ({ pk: `CONSOLELINK#${hash}`, sk: 'CONSOLELINK' }),
  session: (hash: string) => ({ pk: `CONSOLESESSION#${hash}`, sk: 'CONSOLESESSION' }),
  /** One partition per address, an item per user with it (a person may be a user of several accounts). */
  emailPartition: (normalizedEmail: string) => `USEREMAIL#${normalizedEmail}`,
  userByEmail: (normalizedEmail: string, accountId: string, userId: string) => ({
    pk: consoleKeys.emailPartition(normalizedEmail),
    sk: `USER#${accountId}#${userId}`,
  }),
  usageKey: (accountId: string) => ({ pk: accountPartition(accountId), sk: 'CONSOLEUSAGEKEY' }),
  /** Sorted by time: the account's security log reads in order. */
  securityEvent: (accountId: string, at: string, id: string) => ({
    pk: accountPartition(accountId),
    sk: `SECURITY#${at}#${id}`,
  }),
};

/** `ttl` (epoch seconds, the table's TTL attribute) removes expired links and sessions. */
const ttlOf = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

/** The stored attributes without the TTL, which is the table's business, not the object's. */
const withoutTtl = <T>({ ttl: _ttl, ...rest }: Record<string, unknown>) => rest as T;

export const signInLinkEntity = defineEntity<TSignInLink>({
  name: 'console-link',
  version: 1,
  key: (l) => consoleKeys.link(l.hash),
  encode: (l) => ({ ...l, ttl: ttlOf(l.expires) }),
  decode: withoutTtl<TSignInLink>,
});

export const consoleSessionEntity = defineEntity<TConsoleSession>({
  name: 'console-session',
  version: 1,
  key: (s) => consoleKeys.session(s.hash),
  encode: (s) => ({ ...s, ttl: ttlOf(s.expires) }),
  decode: withoutTtl<TConsoleSession>,
});

export const userByEmailEntity = defineEntity<TUserByEmail & { email: string }>({
  name: 'user-by-email',
  version: 1,
  key: (u) => consoleKeys.userByEmail(u.email, u.accountId, u.userId),
});

export const usageKeyEntity = defineEntity<TUsageKey & { accountId: string }>({
  name: 'console-usage-key',
  version: 1,
  key: (k) => consoleKeys.usageKey(k.accountId),
});

export const securityEventEntity = defineEntity<TSecurityEvent>({
  name: 'security-event',
  // 2: `actor` and `erasure` (an erasure's line); a version 1 item has neither and reads as it is.
  version: 2,
  key: (e) => consoleKeys.securityEvent(e.accountId, e.at, e.id),
});
