// Keys and entities of the console's single sign-on: an account's provider (one item in its
// partition), the claim of each email domain that leads to it, and the attempts in flight.
import type { TSsoAttempt, TSsoSettings } from '#shared/domain/console/sso-records';
import { defineEntity } from '../entity';
import { accountPartition } from './account-partition';

export const ssoKeys = {
  settings: (accountId: string) => ({ pk: accountPartition(accountId), sk: 'SSO' }),
  /** One item per domain: a domain leads to one account only. */
  domain: (domain: string) => ({ pk: `SSODOMAIN#${domain}`, sk: 'SSODOMAIN' }),
  attempt: (hash: string) => ({ pk: `SSOATTEMPT#${hash}`, sk: 'SSOATTEMPT' }),
};

export const ssoSettingsEntity = defineEntity<TSsoSettings>({
  name: 'sso-settings',
  version: 1,
  key: (s) => ssoKeys.settings(s.accountId),
});

export const ssoDomainEntity = defineEntity<{ domain: string; accountId: string }>({
  name: 'sso-domain',
  version: 1,
  key: (d) => ssoKeys.domain(d.domain),
});

export const ssoAttemptEntity = defineEntity<TSsoAttempt>({
  name: 'sso-attempt',
  version: 1,
  key: (a) => ssoKeys.attempt(a.hash),
  // `ttl` (the table's TTL attribute) removes attempts never finished.
  encode: (a) => ({ ...a, ttl: Math.ceil(Date.parse(a.expires) / 1000) }),
  decode: ({ ttl: _ttl, ...rest }) => rest as unknown as TSsoAttempt,
});
